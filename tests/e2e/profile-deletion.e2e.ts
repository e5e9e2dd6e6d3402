import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, saveScreenshot } from './support/screenshots';

/**
 * The end of the entry app's /delete flow: the client signs in to the studio's front office, lands on
 * `profile/delete`, confirms with the password, and the account is gone. It erases the throwaway
 * client the e2e server creates (erasableClientEmail), never the shared demo client.
 */
test('profile deletion: sign in, confirm with the password, erased, cannot sign in again', async ({
  page,
}) => {
  const demo = readDemo();
  expect(
    demo.erasableClientEmail,
    'demo.json has no erasableClientEmail: restart the e2e server',
  ).toBeTruthy();
  const email = demo.erasableClientEmail!;
  const password = demo.clientPassword!;
  const base = `/${demo.studioUuid}/frontoffice`;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize(VIEWPORTS.phone);

  // Signed out, the deletion page sends the visitor to the sign-in, which brings them back.
  await page.goto(`${base}/profile/delete`);
  await expect(page).toHaveURL(`${base}/login?redirectAfterLogin=profile%2Fdelete`);

  // What the /delete entry screen links to.
  const login = `${base}/login?${new URLSearchParams({
    username: email,
    showLoginForm: '1',
    redirectAfterLogin: 'profile/delete',
  })}`;
  await page.goto(login);
  const signIn = page.getByTestId('sign-in-form');
  await signIn.locator('input[name="password"]').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await expect(
    page.getByTestId('profile-deletion').or(page.getByTestId('frontoffice-login').getByTestId('form-errors')),
  ).toBeVisible();
  await expect(
    page.getByTestId('profile-deletion'),
    `${email} could not sign in: a reused e2e server may have erased it already (restart the server)`,
  ).toBeVisible();
  await expect(page).toHaveURL(`${base}/profile/delete`);

  const form = page.getByTestId('profile-deletion-form');
  await expect(form.getByRole('heading', { level: 2 })).toHaveText(
    `Delete your account at ${demo.studioName}`,
  );
  await expect(page.getByTestId('profile-deletion-erased')).toContainText(
    'name, email address, phone number',
  );
  await expect(page.getByTestId('profile-deletion-kept')).toContainText('accounting and tax law');
  await shoot(page, 'profile-deletion');

  // The confirmation box is required; nothing is sent without it.
  const submit = page.getByTestId('profile-deletion-submit');
  await form.locator('input[name="password"]').fill(password);
  await submit.click();
  await expect(form).toContainText('Tick this box to confirm.');

  // A wrong password is refused under the password input, and nothing is erased.
  await page.getByTestId('profile-deletion-confirm').check();
  await expect(form).not.toContainText('Tick this box to confirm.');
  await form.locator('input[name="password"]').fill('not my password');
  await submit.click();
  const passwordInput = form.locator('input[name="password"]');
  await expect(passwordInput).toHaveAttribute('data-invalid', 'true');
  const errorId = `${await passwordInput.getAttribute('id')}-error`;
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText('Wrong password.');
  await saveScreenshot(page, 'profile-deletion-wrong-password-390x844-en');

  await form.locator('input[name="password"]').fill(password);
  await submit.click();
  const done = page.getByTestId('profile-deleted');
  await expect(done).toBeVisible();
  await expect(page.getByTestId('profile-deleted-message')).toHaveText(
    `Your account at ${demo.studioName} has been deleted.`,
  );
  await expect(page.getByTestId('profile-deleted-login')).toHaveAttribute('href', '/login');
  await shoot(page, 'profile-deleted', async () =>
    expect(page.getByTestId('profile-deleted-message')).toHaveText(
      `Twoje konto w studiu ${demo.studioName} zostało usunięte.`,
    ),
  );

  // The session is gone: the server no longer knows this browser, and a reload asks to sign in.
  const check = await page.request.get('/app/auth/check');
  expect(await check.json()).toMatchObject({ authenticated: false });
  await page.reload();
  await expect(page).toHaveURL(`${base}/login?redirectAfterLogin=profile%2Fdelete`);

  // And the old email and password no longer open this studio.
  await page.goto(login);
  await page.getByTestId('sign-in-form').locator('input[name="password"]').fill(password);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('form-errors')).toHaveText('Wrong email address or password.');
  await expect(page).toHaveURL(/\/login\?/);
  expect(pageErrors).toEqual([]);
});

/**
 * Screenshots of the current screen at both sizes, in English and then Polish (the language switch
 * re-renders in place, so the state on screen is kept); back to English afterwards.
 */
async function shoot(page: Page, name: string, checkPolish?: () => Promise<void>): Promise<void> {
  for (const locale of ['en', 'pl'] as const) {
    if (locale === 'pl') {
      await page.getByTestId('language-switch').getByText('PL', { exact: true }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
      await checkPolish?.();
    }
    await page.setViewportSize(VIEWPORTS.phone);
    await saveScreenshot(page, `${name}-390x844-${locale}`);
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, `${name}-1366x768-${locale}`);
  }
  await page.getByTestId('language-switch').getByText('EN', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.setViewportSize(VIEWPORTS.phone);
}
