import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, saveScreenshot } from './support/screenshots';

/**
 * Back-office smoke test: sign-in (wrong password first), dashboard with the studio and the
 * manager, phone navigation, switch to Polish, reload keeps session and language, sign out.
 */
test('back office: sign in, dashboard, Polish, reload, sign out', async ({ page, context }) => {
  const demo = readDemo();
  const year = String(new Date().getFullYear());
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`/${demo.studioUuid}/backoffice`);

  // Not signed in: the sign-in screen, in English (Accept-Language en-US), with the footer.
  const form = page.getByTestId('sign-in-form');
  await expect(form).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('copyright-footer')).toContainText(`© ${year}`);
  expect(consoleLines.some((line) => /\[backoffice\] version \d+\.\d+\.\d+\.\d+/.test(line))).toBe(true);
  await saveScreenshot(page, 'backoffice-sign-in-1366x768');

  // A wrong password: a form-level message, the button shows its error state.
  const email = form.locator('input[name="emailAddress"]');
  const password = form.locator('input[name="password"]');
  const submit = page.getByTestId('sign-in-submit');
  await email.fill(demo.managerEmail);
  await password.fill('not-the-password');
  await submit.click();
  await expect(page.getByTestId('form-errors')).toContainText('Wrong email address or password');
  await expect(submit).toHaveAttribute('data-state', 'error');
  await saveScreenshot(page, 'backoffice-sign-in-error-1366x768');

  // The right one.
  await password.fill(demo.managerPassword);
  const loginResponse = page.waitForResponse(
    (r) => r.url().endsWith('/api/v4/auth/login') && r.request().method() === 'POST',
  );
  await submit.click();
  const login = await loginResponse;
  expect(login.status()).toBe(200);
  const loginRequest = login.request();
  expect(loginRequest.headers()['x-requested-with']).toBe('XMLHttpRequest');
  expect(loginRequest.headers()['x-csrf-token']).toBeTruthy();
  const { me } = (await login.json()) as { me: { firstName: string; lastName: string } };
  const managerName = `${me.firstName} ${me.lastName}`;

  await expectDashboard(page, demo.studioName, managerName);
  await expect(page.getByTestId('nav-dashboard')).toHaveText('Dashboard');
  await saveScreenshot(page, 'backoffice-dashboard-1366x768');

  // Other sections through the hash router: the client list, the reports.
  await page.getByTestId('nav-clients').click();
  await expect(page).toHaveURL(/#\/clients$/);
  await expect(page.getByTestId('clients-search')).toBeVisible();
  await page.getByTestId('nav-reports').click();
  await expect(page).toHaveURL(/#\/reports$/);
  await expect(page.getByTestId('report-link-sales-by-item')).toBeVisible();
  await page.getByTestId('nav-dashboard').click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();

  // Polish at once, and remembered in the cookie the server reads.
  await page.getByTestId('language-switch').getByText('PL', { exact: true }).click();
  await expect(page.getByTestId('nav-dashboard')).toHaveText('Pulpit');
  await expect(page.getByTestId('dashboard-member-name')).toContainText(`Zalogowano jako ${managerName}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  const localeCookie = (await context.cookies()).find((c) => c.name === 'locale');
  expect(localeCookie?.value).toBe('pl');

  // Reload: still signed in (session cookie), still Polish (locale cookie).
  await page.reload();
  await expectDashboard(page, demo.studioName, managerName);
  await expect(page.getByTestId('nav-dashboard')).toHaveText('Pulpit');
  await saveScreenshot(page, 'backoffice-dashboard-pl-1366x768');

  // Phone: the navigation sits behind the burger.
  await page.setViewportSize(VIEWPORTS.phone);
  const burger = page.getByTestId('nav-burger');
  await expect(burger).toBeVisible();
  await expect(page.getByTestId('nav-schedule')).not.toBeInViewport();
  await saveScreenshot(page, 'backoffice-dashboard-pl-390x844');
  await burger.click();
  await expect(page.getByTestId('nav-schedule')).toBeInViewport();
  await saveScreenshot(page, 'backoffice-nav-open-pl-390x844');
  await page.getByTestId('nav-reports').click();
  await expect(page.getByTestId('reports-catalog')).toBeVisible();
  await expect(page.getByTestId('nav-reports')).not.toBeInViewport(); // closed after choosing
  await saveScreenshot(page, 'backoffice-section-pl-390x844');

  // Sign out: back to the sign-in screen, in Polish, and a reload does not bring the session back.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-in-form')).toBeVisible();
  await expect(page.getByTestId('sign-in-submit')).toHaveText('Zaloguj się');
  await saveScreenshot(page, 'backoffice-sign-in-pl-390x844');
  await page.reload();
  await expect(page.getByTestId('sign-in-form')).toBeVisible();

  expect(pageErrors).toEqual([]);
});

async function expectDashboard(page: Page, studioName: string, managerName: string): Promise<void> {
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await expect(page.getByTestId('dashboard-studio-name')).toHaveText(studioName);
  await expect(page.getByTestId('header-studio-name')).toHaveText(studioName);
  await expect(page.getByTestId('dashboard-member-name')).toContainText(managerName);
  await expect(page.getByTestId('copyright-footer')).toContainText(new Date().getFullYear().toString());
}

test('back office: a client who is not staff sees "no permission" and can sign out', async ({ page }) => {
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto(`/${demo.studioUuid}/backoffice`);
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name="emailAddress"]').fill(demo.clientEmail!);
  await form.locator('input[name="password"]').fill(demo.clientPassword!);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('no-permission')).toContainText(
    'You have no permission to perform this action.',
  );
  await saveScreenshot(page, 'backoffice-no-permission-390x844');
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-in-form')).toBeVisible();
});
