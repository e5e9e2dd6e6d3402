import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, saveScreenshot } from './support/screenshots';

/** Front office sign-in with its query parameters, and the shells of the apps still being built. */
test('front office: login query parameters, safe redirect, signed-in state, sign out', async ({ page }) => {
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize(VIEWPORTS.phone);

  await page.goto(`/${demo.studioUuid}/frontoffice`);
  await expect(page.getByTestId('frontoffice-heading')).toHaveText('Welcome');
  await expect(page.getByTestId('copyright-footer')).toContainText(String(new Date().getFullYear()));
  await saveScreenshot(page, 'frontoffice-home-390x844');

  // username prefills, showLoginForm=1 skips the email step, an outside redirect is ignored.
  const query = new URLSearchParams({
    username: demo.clientEmail!,
    showLoginForm: '1',
    redirectAfterLogin: 'https://evil.example/steal',
  });
  await page.goto(`/${demo.studioUuid}/frontoffice/login?${query}`);
  const form = page.getByTestId('sign-in-form');
  await expect(form.locator('input[name="emailAddress"]')).toHaveValue(demo.clientEmail!);
  await expect(form.locator('input[name="password"]')).toBeFocused();
  await saveScreenshot(page, 'frontoffice-login-390x844');
  await form.locator('input[name="password"]').fill(demo.clientPassword!);
  await page.getByTestId('sign-in-submit').click();
  await expect(page).toHaveURL(new RegExp(`/${demo.studioUuid}/frontoffice$`));
  await expect(page.getByTestId('frontoffice-heading')).toHaveText(`Welcome to ${demo.studioName}`);
  await expect(page.getByTestId('frontoffice-signed-in')).toContainText(demo.clientEmail!);
  await saveScreenshot(page, 'frontoffice-signed-in-390x844');

  // Signed in already: the login page goes on to the (relative) redirect target.
  await page.goto(
    `/${demo.studioUuid}/frontoffice/login?redirectAfterLogin=${encodeURIComponent('profile/delete')}`,
  );
  await expect(page).toHaveURL(new RegExp(`/${demo.studioUuid}/frontoffice/profile/delete$`));
  await expect(page.getByTestId('profile-deletion-form')).toBeVisible(); // shown only, never submitted here

  await page.goto(`/${demo.studioUuid}/frontoffice`);
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('go-to-login')).toBeVisible();

  // The email step when showLoginForm is absent.
  await page.goto(`/${demo.studioUuid}/frontoffice/login`);
  await page.getByTestId('login-next').click();
  await expect(page.getByTestId('login-email-step')).toContainText('This field is required.');

  await page.goto(`/${demo.studioUuid}/frontoffice/reset-password`);
  await expect(page.getByTestId('reset-password-no-token')).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('the kiosk shell says what it is; the widget shows the timetable', async ({ page }) => {
  const demo = readDemo();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.setViewportSize(VIEWPORTS.desktop);
  // The kiosk is the real app: a device that has no key for this kiosk asks for it.
  for (const [path, app, title, shown] of [
    [`/${demo.studioUuid}/kiosk/front-desk`, 'kiosk', 'Kiosk', 'kiosk-sign-in'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId(shown)).toBeVisible();
    await expect(page.getByTestId('copyright-footer')).toBeVisible();
    await saveScreenshot(page, `${app}-1366x768`);
  }
  // The widget is the real timetable (issue 24; framed by widget.js on a studio's site: widget.e2e.ts).
  await page.goto(`/${demo.studioUuid}/widget/me`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Timetable');
  await expect(page.getByTestId('widget-day').first()).toBeVisible();
  await saveScreenshot(page, 'widget-1366x768');
  // The standalone donation page is the real form, headed with the studio's name.
  await page.goto(`/${demo.studioUuid}/donation`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Support /);
  await expect(page.getByTestId('donation-form')).toBeVisible();
  await expect(page.getByTestId('copyright-footer')).toBeVisible();
  await saveScreenshot(page, 'donation-1366x768');
  expect(pageErrors).toEqual([]);
});
