import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { saveScreenshot, VIEWPORTS } from './support/screenshots';

/**
 * Issue 25 (studio administration): staff who sign in at /login land in their back office or choose
 * where to go; "My account" in the client zone explains instead of failing.
 */
const FRONT_DESK = 'frontdesk@demo.studio';

async function signInAtEntry(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-form').locator('input[name="username"]').fill(email);
  await page.getByTestId('lookup-next').click();
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name="password"]').fill(password);
  await page.getByTestId('sign-in-submit').click();
}

test('staff signing in at /login land in the back office; My account in the client zone explains', async ({
  page,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize(VIEWPORTS.laptop);

  await signInAtEntry(page, FRONT_DESK, demo.managerPassword);
  await expect(page).toHaveURL(new RegExp(`/${demo.studioUuid}/backoffice`));
  await expect(page.getByTestId('welcome-card')).toBeVisible();

  // The client zone's "My account": no failure, a notice leading back to the back office.
  await page.goto(`/${demo.studioUuid}/frontoffice/profile`);
  const notice = page.getByTestId('account-staff-only');
  await expect(notice).toContainText(demo.studioName);
  await saveScreenshot(page, 'studio-admin-staff-account-1280');
  await notice.getByTestId('go-to-backoffice').click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  expect(errors).toEqual([]);
});

test('staff of several studios who are also clients choose where to go', async ({ page }) => {
  const demo = readDemo();
  await page.setViewportSize(VIEWPORTS.phone);
  const other = { studioUuid: '0190a000-0000-7000-8000-000000000abc', studioName: 'Druga Sala' };
  // The manager, as if also staff of a second studio and a client of this one.
  type Me = { memberships: Array<Record<string, unknown>> };
  const widen = (me: Me) => {
    me.memberships = me.memberships.map((m) => ({ ...m, isClient: true }));
    me.memberships.push({ ...other, isClient: false, isMember: true, role: 'owner' });
  };
  await page.route('**/api/v4/auth/login', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { me: Me };
    widen(body.me);
    await route.fulfill({ response, json: body });
  });
  await page.route('**/api/v4/auth/me', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Me;
    widen(body);
    await route.fulfill({ response, json: body });
  });
  await signInAtEntry(page, demo.managerEmail, demo.managerPassword);
  const chooser = page.getByTestId('login-destinations');
  await expect(chooser.getByTestId('destination-backoffice')).toHaveText([
    `Back office — ${demo.studioName}`,
    `Back office — ${other.studioName}`,
  ]);
  await expect(chooser.getByTestId('destination-client')).toHaveText(`Client zone — ${demo.studioName}`);
  await saveScreenshot(page, 'studio-admin-choose-390');
  await chooser.getByTestId('destination-backoffice').first().click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();
});
