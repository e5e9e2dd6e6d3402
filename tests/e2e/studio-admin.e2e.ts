import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { readDemo } from './support/demo';
import { saveScreenshot, shootAll, VIEWPORTS } from './support/screenshots';
import { backofficePage, demoClient, signInFrontoffice } from './support/sign-in';

/**
 * Issue 25 (studio administration): the settings screens (studio, policies, appearance) in English
 * and Polish at 1280 and 390 px; a logo and colours set in the back office show on the front office
 * and the kiosk; staff who sign in at /login land in their back office or choose
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

test('settings: studio, policies and appearance; a new logo and colour show on the front office and kiosk', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await page.getByTestId('nav-settings').click();
  await expect(page).toHaveURL(/#\/settings\/studio$/);
  const profile = page.getByTestId('studio-profile-form');
  await expect(profile.locator('input[name="name"]')).toHaveValue(demo.studioName);
  await shootAll(page, 'studio-admin-studio', () => expect(profile).toBeVisible());
  // A bad tax id: the field's message, nothing saved.
  await profile.locator('input[name="taxId"]').fill('1234567890');
  await page.getByTestId('studio-profile-save').click();
  await expect(profile.locator('input[name="taxId"]')).toHaveAttribute('aria-invalid', 'true');
  await profile.locator('input[name="taxId"]').fill('526-025-02-74');
  await profile.locator('input[name="phone"]').fill('+48 22 555 66 77');
  await page.getByTestId('studio-profile-save').click();
  await expect(page.getByTestId('studio-profile-save')).toHaveAttribute('data-state', 'success');

  await page.getByTestId('settings-tab-policies').click();
  const policies = page.getByTestId('policies-form');
  await expect(policies.locator('input[name="bookingWindowDays"]')).toBeVisible();
  await shootAll(page, 'studio-admin-policies', () => expect(policies).toBeVisible());
  await policies.locator('input[name="bookingWindowDays"]').fill('28');
  await page.getByTestId('policies-save').click();
  await expect(page.getByTestId('policies-save')).toHaveAttribute('data-state', 'success');

  await page.getByTestId('settings-tab-appearance').click();
  const logoCard = page.getByTestId('appearance-logo');
  await expect(logoCard).toBeVisible();
  const before = await logoCard.getByTestId('appearance-logo-image').getAttribute('src');
  const png = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#c2255c' } })
    .png()
    .toBuffer();
  const upload = page.waitForResponse(
    (r) => r.url().endsWith('/studio-appearance/logo') && r.request().method() === 'POST',
  );
  await logoCard
    .locator('input[type="file"]')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  expect((await upload).status()).toBe(200);
  const logo = logoCard.getByTestId('appearance-logo-image');
  await expect(logo).not.toHaveAttribute('src', before ?? '');
  const logoSrc = (await logo.getAttribute('src'))!;
  const colours = page.getByTestId('appearance-colours-form');
  const primary = colours.locator('input[name="primaryColor"]');
  const previous = await primary.inputValue();
  await primary.fill('#c2255c');
  await page.getByTestId('appearance-colours-save').click();
  await expect(page.getByTestId('appearance-colours-save')).toHaveAttribute('data-state', 'success');
  await shootAll(page, 'studio-admin-appearance', () => expect(logo).toBeVisible());

  // The front office, signed out: the new logo and the colour on its buttons.
  const visitor = await browser.newPage({ viewport: VIEWPORTS.phone });
  await visitor.goto(`/${demo.studioUuid}/frontoffice`);
  await expect(visitor.getByTestId('studio-logo')).toHaveAttribute('src', logoSrc);
  await expect
    .poll(() =>
      visitor.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--mantine-color-studio-filled').trim(),
      ),
    )
    .toBe('#c2255c');
  await expect(visitor.getByTestId('go-to-login')).toHaveCSS('background-color', 'rgb(194, 37, 92)');
  await saveScreenshot(visitor, 'studio-admin-branded-frontoffice-390');
  // The kiosk (not set up on this device: its sign-in screen) carries the logo too.
  await visitor.goto(`/${demo.studioUuid}/kiosk/front-desk`);
  await expect(visitor.getByTestId('studio-logo')).toHaveAttribute('src', logoSrc);
  await saveScreenshot(visitor, 'studio-admin-branded-kiosk-390');
  await visitor.close();

  // Put the demo's colour back for the other specs' screenshots.
  await primary.fill(previous);
  await page.getByTestId('appearance-colours-save').click();
  await expect(page.getByTestId('appearance-colours-save')).toHaveAttribute('data-state', 'success');
  expect(errors).toEqual([]);
  await page.context().close();
});

test("agreements: a new version of the terms is asked again at the client's next sign-in", async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/agreements`);
  const terms = page.getByTestId('agreement-terms');
  await expect(terms).toContainText('Version 2');
  const form = page.getByTestId('agreement-publish-form');
  await form.locator('textarea[name="contentEn"]').fill('Classes must be booked in advance. Bring a towel.');
  await form
    .locator('textarea[name="contentPl"]')
    .fill('Zajęcia należy rezerwować z wyprzedzeniem. Zabierz ręcznik.');
  await shootAll(page, 'studio-admin-agreements', () => expect(form).toBeVisible());
  await form.locator('input[name="titleEn"]').fill('Terms of service');
  await page.getByTestId('agreement-publish').click();
  await expect(terms).toContainText('Version 3');
  await expect(terms).toContainText('Accepted by 0');
  const csv = await page.request.get(`/api/v4/${demo.studioUuid}/studio-agreement/acceptances.csv`);
  expect(csv.status()).toBe(200);
  expect((await csv.text()).split('\r\n')[0]).toBe(
    'first_name,last_name,email,agreement,version,accepted,decided_at',
  );

  // The client's next visit: the changed terms, which must be accepted to go on.
  const client = await browser.newPage({ viewport: VIEWPORTS.phone });
  await signInFrontoffice(client, demo.studioUuid, demoClient(demo), 'timetable');
  const gate = client.getByTestId('agreements-gate');
  await expect(gate).toContainText(/Bring a towel\.|Zabierz ręcznik\./);
  await expect(gate).toContainText('The studio has changed its agreements');
  await saveScreenshot(client, 'studio-admin-agreements-gate-390');
  await expect(client.getByTestId('agreements-continue')).toBeDisabled();
  await client.getByTestId('agreement-accept-terms').click();
  await client.getByTestId('agreements-continue').click();
  await expect(gate).toBeHidden();
  await client.reload();
  await expect(client.getByTestId('frontoffice-menu')).toBeVisible();
  await expect(client.getByTestId('agreements-gate')).toBeHidden();
  await client.close();

  await page.reload();
  await expect(page.getByTestId('agreement-terms')).toContainText('Accepted by 1');
  expect(errors).toEqual([]);
  await page.context().close();
});

test('bank accounts and documents: staff add an account and publish a file; the client downloads it', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/bank-accounts`);
  const accounts = page.getByTestId('bank-account');
  await expect(accounts.first()).toBeVisible();
  const before = await accounts.count();
  const form = page.getByTestId('bank-account-form');
  await form.locator('input[name="name"]').fill(`Savings ${Date.now()}`);
  await form.locator('input[name="iban"]').fill('PL61 1090 1014 0000 0712 1981 2875');
  await page.getByTestId('bank-account-save').click();
  // A typo in the check digits is the field's message; nothing saved.
  await expect(form.locator('input[name="iban"]')).toHaveAttribute('aria-invalid', 'true');
  await expect(accounts).toHaveCount(before);
  await form.locator('input[name="iban"]').fill('PL27 1140 2004 0000 3002 0135 5387');
  await page.getByTestId('bank-account-save').click();
  await expect(accounts).toHaveCount(before + 1);
  await shootAll(page, 'studio-admin-bank-accounts', () => expect(form).toBeVisible());

  await page.getByTestId('settings-tab-documents').click();
  const rows = page.getByTestId('studio-document');
  await expect(rows.first()).toBeVisible();
  const name = `price-list-${Date.now()}`;
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('studio-document-upload').click();
  await (await chooser).setFiles({ name: `${name}.pdf`, mimeType: 'application/pdf', buffer: pdf });
  const row = rows.filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.getByTestId('studio-document-publish').click();
  await expect(row).toContainText('Visible to clients');
  await shootAll(page, 'studio-admin-documents', () => expect(row).toBeVisible());
  expect(errors).toEqual([]);
  await page.context().close();

  const client = await browser.newPage({ viewport: VIEWPORTS.phone });
  await signInFrontoffice(client, demo.studioUuid, demoClient(demo), 'documents');
  const gate = client.getByTestId('agreements-continue');
  if (await gate.isVisible().catch(() => false)) await gate.click();
  const published = client.getByTestId('published-document').filter({ hasText: name });
  await expect(published).toBeVisible();
  await expect(client.getByTestId('transfer-instructions')).toContainText(
    'PL61 1090 1014 0000 0712 1981 2874',
  );
  await shootAll(client, 'studio-admin-front-documents', () => expect(published).toBeVisible());
  const download = client.waitForEvent('download');
  await published.getByRole('button').click();
  expect((await download).suggestedFilename()).toBe(`${name}.pdf`);
  await client.close();
});
