import { expect, test, type Page } from '@playwright/test';
import {
  LANGUAGES,
  answer,
  entryTexts,
  expectNoPageErrors,
  readEntryDemo,
  serveLogos,
  serverError,
  stall,
  twoStudios,
  watchPage,
} from './support/entry';

/**
 * /delete (spec §2 "Account deletion", §4 "Delete flow", §5, §8) in both languages: one studio goes
 * straight to its login with the profile-deletion target; several give a picker with a Log in
 * button each; none is a field error.
 */
async function openDelete(page: Page, query = '') {
  await page.goto(`/delete${query}`);
  const form = page.getByTestId('delete-form');
  await expect(form).toBeVisible();
  return { form, email: form.locator('input[name="username"]'), next: page.getByTestId('lookup-next') };
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`account deletion entry (${lang})`, () => {
    test.use({ locale });
    const t = entryTexts(lang);

    test('one studio: Enter submits, and the real lookup goes to its login aimed at profile deletion', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const watch = watchPage(page);
      const { email } = await openDelete(page);
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('delete.title'));
      await expect(email).toHaveAttribute('type', 'email');
      await expect(email).toBeFocused();
      await email.fill(demo.managerEmail);
      await email.press('Enter');
      await expect(page).toHaveURL(
        `/${demo.studioUuid}/frontoffice/login?${new URLSearchParams({
          username: demo.managerEmail,
          showLoginForm: '1',
          redirectAfterLogin: 'profile/delete',
        })}`,
      );
      const signIn = page.getByTestId('sign-in-form');
      await expect(signIn.locator('input[name="emailAddress"]')).toHaveValue(demo.managerEmail);
      await expect(signIn.locator('input[name="password"]')).toBeVisible();
      expect(watch.bodies('auth/preflight')).toEqual([
        { preflight: 'username', username: demo.managerEmail },
      ]);
      expectNoPageErrors(watch.pageErrors);
    });

    test('the username parameter prefills; Next locks on click while the lookup runs', async ({ page }) => {
      const held = await stall(page, 'auth/preflight');
      const { email, next } = await openDelete(page, `?username=${encodeURIComponent('ola@example.com')}`);
      await expect(email).toHaveValue('ola@example.com');
      await next.click();
      await expect(next).toHaveAttribute('data-state', 'locked');
      await expect(next).toBeDisabled();
      expect(held.held).toHaveLength(1);
    });

    test('none: "no account associated with this email address" on the field', async ({ page }) => {
      const { email, next, form } = await openDelete(page);
      await email.fill('nobody-to-delete@e2e-entry.example');
      await next.click();
      await expect(form.getByText(t('lookup.noAccount'))).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(next).toHaveAttribute('data-state', 'error');
    });

    test('several: name, logo if present, a Log in button each; Go back clears list and username', async ({
      page,
    }) => {
      const demo = readEntryDemo();
      const studios = twoStudios(demo);
      await serveLogos(page);
      await answer(page, 'auth/preflight', 200, { isValid: true, studios });
      const { email, next } = await openDelete(page, '?username=twice%40e2e-entry.example');
      await next.click();
      const picker = page.getByTestId('delete-picker');
      await expect(picker.getByRole('heading', { level: 2 })).toHaveText(t('delete.pickTitle'));
      const rows = picker.getByTestId('studio-option');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0).getByTestId('studio-name')).toHaveText(demo.studioName);
      await expect(rows.nth(0).getByTestId('studio-logo').locator('img')).toHaveAttribute(
        'src',
        studios[0]!.logoUrl!,
      );
      await expect(rows.nth(1).getByTestId('studio-name')).toHaveText('Studio Tańca Łódź');
      // No logo: nothing in its place (the login picker shows a placeholder; this one does not).
      await expect(rows.nth(1).getByTestId('studio-logo-placeholder')).toHaveCount(0);
      await expect(rows.nth(1).getByTestId('studio-logo')).toHaveCount(0);
      for (const [index, studio] of studios.entries()) {
        const button = rows.nth(index).getByTestId('studio-log-in');
        await expect(button).toHaveText(t('actions.logIn'));
        await expect(button).toHaveAttribute(
          'href',
          `/${studio.uuid}/frontoffice/login?username=twice%40e2e-entry.example&showLoginForm=1&redirectAfterLogin=profile%2Fdelete`,
        );
      }

      await page.getByTestId('go-back').click();
      await expect(picker).toHaveCount(0);
      await expect(email).toHaveValue('');

      await email.fill('twice@e2e-entry.example');
      await next.click();
      await rows.nth(0).getByTestId('studio-log-in').click();
      await expect(page).toHaveURL(
        `/${demo.studioUuid}/frontoffice/login?username=twice%40e2e-entry.example&showLoginForm=1&redirectAfterLogin=profile%2Fdelete`,
      );
    });

    test('a server failure: the general message with its code', async ({ page }) => {
      await answer(page, 'auth/preflight', 503, serverError(1999));
      const { email, next } = await openDelete(page);
      await email.fill('anna@example.com');
      await next.click();
      await expect(page.getByTestId('form-errors')).toHaveText(t('errors.general', { code: '503-1999' }));
    });
  });
}
