import { expect, test, type Browser, type Page } from '@playwright/test';
import { readDemo, type DemoDetails } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { backofficePage, frontofficePage } from './support/sign-in';

/**
 * Catalog end to end: the demo manager creates a pricing option in the back office; a visitor
 * finds it in the front office's price list; the manager sells it to the demo client from the
 * client's Passes tab and extends it by a week (the audit row and the new end date show); the
 * client sees the extended pass under "My passes". Screenshots in English and Polish at 390 and
 * 1280 px go to <E2E_RESULTS_DIR>/screenshots/catalog-*.
 */

/** A studio calendar day (Europe/Warsaw) `days` after today, as the screens write it in English. */
function studioDayInEnglish(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

async function managerSignIn(browser: Browser, demo: DemoDetails, errors: string[]): Promise<Page> {
  const page = await backofficePage(browser, demo, { errors, label: 'backoffice' });
  await setLanguage(page, 'EN');
  return page;
}

test('catalog: a new pricing option reaches the price list; staff sell and extend a pass', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const suffix = Date.now().toString().slice(-6);
  const nameEn = `Weekend pass ${suffix}`;
  const namePl = `Karnet weekendowy ${suffix}`;

  // 1. The manager creates the option: 6 entries, 30 days from the sale, 210.50 zł.
  const page = await managerSignIn(browser, demo, errors);
  await page.getByTestId('nav-catalog').click();
  await expect(page).toHaveURL(/#\/catalog$/);
  const row = (name: string) => page.locator(`[data-testid="option-row"][data-name="${name}"]`);
  await expect(row('Single entry')).toBeVisible();
  await shootAll(page, 'catalog-options', async () => {
    await expect(page.getByTestId('option-row').first()).toBeVisible();
  });
  await page.getByTestId('catalog-add-option').click();
  const form = page.getByTestId('option-form');
  await expect(form).toBeVisible();
  // Saving an empty form says what is missing, in the screen's language.
  await page.getByTestId('option-save').click();
  await expect(form).toContainText('Enter a price');
  await page.getByTestId('option-name-en').fill(nameEn);
  await page.getByTestId('option-name-pl').fill(namePl);
  await page.getByTestId('option-price').fill('210.50');
  await page.getByTestId('option-entries').fill('6');
  await page.getByTestId('option-validity-count').fill('30');
  await shootAll(page, 'catalog-editor', async () => {
    await expect(page.getByTestId('option-name-en')).toHaveValue(nameEn);
  });
  await page.getByTestId('option-save').click();
  await expect(page).toHaveURL(/#\/catalog$/);
  await expect(row(nameEn)).toBeVisible();
  await expect(row(nameEn)).toContainText('210.50');
  await expect(row(nameEn)).toContainText('6 entries');
  await expect(row(nameEn)).toContainText('30 days');

  // 2. A visitor sees it in the front office's price list, in both languages.
  const visitorContext = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const visitor = await visitorContext.newPage();
  visitor.on('pageerror', (e) => errors.push(`frontoffice: ${e.message}`));
  await visitor.goto(`/${demo.studioUuid}/frontoffice/pricing/pricing-options`);
  await setLanguage(visitor, 'EN');
  const offer = visitor.getByTestId('price-list-option').filter({ hasText: nameEn });
  await expect(offer).toBeVisible();
  await expect(offer.getByTestId('price-list-price')).toContainText('210.50');
  await expect(offer).toContainText('6 entries');
  await setLanguage(visitor, 'PL');
  await expect(visitor.getByTestId('price-list-option').filter({ hasText: namePl })).toContainText('210,50');
  await shootAll(visitor, 'catalog-price-list', async () => {
    await expect(visitor.getByTestId('price-list-option').first()).toBeVisible();
  });
  await visitorContext.close();

  // 3. The manager sells it to the demo client from the Passes tab and extends it by 7 days.
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('clients-search').fill(demo.clientEmail!);
  await page
    .locator(`[data-testid="client-row"][data-email="${demo.clientEmail}"]`)
    .first()
    .getByTestId('client-open')
    .click();
  await expect(page).toHaveURL(/#\/clients\/[0-9a-f-]+$/);
  await page.getByTestId('client-tab-passes').click();
  await expect(page).toHaveURL(/#\/clients\/[0-9a-f-]+\/passes$/);
  await expect(page.getByTestId('client-passes')).toBeVisible();
  await page.getByTestId('sell-pass-open').click();
  await page.getByTestId('sell-pass-option').click();
  await page.getByRole('option', { name: new RegExp(nameEn) }).click();
  await expect(page.getByTestId('sell-pass-price')).toHaveValue('210.50');
  await page.getByTestId('sell-pass-submit').click();
  const card = page.getByTestId('pass-card').filter({ hasText: nameEn });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('pass-status')).toHaveText('Active');
  await expect(card.getByTestId('pass-entries')).toHaveText('0 of 6 entries used · 6 left');
  // 30 days from today: valid through day 29 (today counts).
  await expect(card.getByTestId('pass-validity')).toHaveText(`Valid through ${studioDayInEnglish(29)}`);
  await shootAll(page, 'catalog-client-passes', async () => {
    await expect(page.getByTestId('pass-card').first()).toBeVisible();
  });

  await card.click();
  const detail = page.getByTestId('pass-detail');
  await expect(detail).toBeVisible();
  // A reason is required: the change is refused without one.
  await page.getByTestId('change-extend-days').fill('7');
  await page.getByTestId('pass-change-save').click();
  await expect(page.getByTestId('pass-change-form')).toContainText('Give a reason');
  await expect(page.getByTestId('pass-audit')).toHaveCount(0);
  await page.getByTestId('change-reason').fill('Studio closed for a week');
  await page.getByTestId('pass-change-save').click();
  const audit = page.getByTestId('audit-row').first();
  await expect(audit).toContainText('Extended by 7 days');
  await expect(audit).toContainText('Studio closed for a week');
  await expect(audit).toContainText('Anna Kowalska');
  await expect(detail.getByTestId('pass-validity')).toHaveText(`Valid through ${studioDayInEnglish(36)}`);
  await shootAll(
    page,
    'catalog-pass-drawer',
    async () => {
      await expect(page.getByTestId('audit-row').first()).toBeVisible();
    },
    { fullPage: false },
  );
  await page.keyboard.press('Escape');
  await expect(card.getByTestId('pass-validity')).toHaveText(`Valid through ${studioDayInEnglish(36)}`);

  // 4. The client sees the extended pass under "My passes".
  const client = await frontofficePage(browser, demo, 'passes', { errors, label: 'frontoffice' });
  await setLanguage(client, 'EN');
  const mine = client.getByTestId('pass-card').filter({ hasText: nameEn });
  await expect(mine).toBeVisible();
  await expect(mine.getByTestId('pass-validity')).toHaveText(`Valid through ${studioDayInEnglish(36)}`);
  await shootAll(client, 'catalog-my-passes', async () => {
    await expect(client.getByTestId('pass-card').first()).toBeVisible();
  });
  await client.context().close();

  expect(errors).toEqual([]);
  await page.context().close();
});
