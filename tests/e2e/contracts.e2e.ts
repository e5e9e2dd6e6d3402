import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Contracts (memberships): the demo manager creates a contract, sells it to the demo client from the
 * client's Contracts tab, sees the instalment schedule (what is due today already ordered), and
 * suspends it; a visitor sees it in the front office's price list. Screenshots of every screen in
 * English and Polish at 390 and 1280 px (under this run's results dir).
 */

test('contracts: staff create a contract, sell it from the client tab, see the schedule, suspend it', async ({
  browser,
}) => {
  // Twenty screenshots on a shared machine take longer than the default two minutes.
  test.setTimeout(300_000);
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  // A new contract: 199 zł a month for 12 months, 49 zł sign-up fee, one month's notice.
  await page.getByTestId('nav-contracts').click();
  await expect(page).toHaveURL(/#\/contracts$/);
  await page.getByTestId('contracts-add').click();
  const suffix = Date.now().toString().slice(-5);
  const name = `Open ${suffix}`;
  // A wrong price is refused where it was typed, and nothing is saved.
  await page.getByTestId('contract-name-en').fill(name);
  await page.getByTestId('contract-name-pl').fill(`Karnet open ${suffix}`);
  await page.getByTestId('contract-price').fill('abc');
  await page.getByTestId('contract-save').click();
  await expect(page.getByText('Enter an amount, e.g. 199 or 199.90.')).toBeVisible();
  await page.getByTestId('contract-price').fill('199');
  await page.getByTestId('contract-sign-up-fee').fill('49');
  await page.getByTestId('contract-duration').fill('12');
  await page.getByTestId('contract-notice').fill('1');
  await expect(page.getByTestId('contract-summary')).toContainText('For 12 months');
  await shootAll(page, 'contracts-editor', async () => {
    await expect(page.getByTestId('contract-summary')).toBeVisible();
  });
  await page.getByTestId('contract-save').click();
  await expect(page).toHaveURL(/#\/contracts$/);
  const row = page.locator(`[data-testid="contract-row"][data-name="${name}"]`);
  await expect(row).toContainText('199');
  await expect(row).toContainText('Sign-up fee 49');
  await expect(row).toContainText('For 12 months');
  await shootAll(page, 'contracts-list', async () => {
    await expect(page.locator('[data-testid="contract-row"]').first()).toBeVisible();
  });

  // Sell it to the demo client from their Contracts tab.
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('clients-search').fill(demo.clientEmail!);
  const clientRow = page.locator(`[data-testid="client-row"][data-email="${demo.clientEmail}"]`);
  await clientRow.getByTestId('client-open').click();
  await page.getByTestId('client-tab-contracts').click();
  await expect(page).toHaveURL(/#\/clients\/[^/]+\/contracts$/);
  await page.getByTestId('client-contract-sell').click();
  await page.getByTestId('client-contract-choose').click();
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await page.getByTestId('client-contract-sell-submit').click();

  // The drawer opens on the sold contract: sign-up fee + 12 periods; today's two are orders already.
  const detail = page.getByTestId('client-contract-detail');
  await expect(detail).toBeVisible();
  const instalments = detail.getByTestId('instalment-row');
  await expect(instalments).toHaveCount(13);
  await expect(instalments.nth(0)).toHaveAttribute('data-status', 'ordered');
  await expect(instalments.nth(0)).toContainText('Sign-up fee');
  await expect(instalments.nth(1)).toHaveAttribute('data-status', 'ordered');
  await expect(instalments.nth(2)).toHaveAttribute('data-status', 'scheduled');
  await expect(detail.getByTestId('client-contract-outstanding')).toContainText('2,189');
  await shootAll(
    page,
    'contracts-client-schedule',
    async () => {
      await expect(instalments).toHaveCount(13);
    },
    { fullPage: false },
  );

  // Suspend from today: billing pauses from the next period; the 11 later instalments are suspended.
  await detail.getByTestId('client-contract-suspend').click();
  await expect(detail.getByTestId('client-contract-suspend-form')).toBeVisible();
  await detail.getByTestId('client-contract-action-submit').click();
  await expect(detail.getByTestId('client-contract-resume')).toBeVisible();
  await expect(detail.getByTestId('client-contract-suspend')).toHaveCount(0);
  await expect(detail.locator('[data-testid="instalment-row"][data-status="suspended"]')).toHaveCount(11);
  await expect(detail.getByTestId('client-contract-suspension')).toBeVisible();
  await expect(detail.getByTestId('client-contract-suspended-from')).toContainText(
    'Instalments suspended from',
  );
  await expect(detail.getByTestId('client-contract-event').first()).toContainText('Suspended from');
  await shootAll(
    page,
    'contracts-client-suspended',
    async () => {
      await expect(detail.getByTestId('client-contract-resume')).toBeVisible();
    },
    { fullPage: false },
  );
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  const card = page.locator(`[data-testid="client-contract-card"][data-name="${name}"]`);
  await expect(card).toBeVisible();
  await shootAll(page, 'contracts-client-tab', async () => {
    await expect(page.getByTestId('client-contract-card').first()).toBeVisible();
  });
  expect(pageErrors).toEqual([]);
  await page.context().close();

  // A visitor sees the contract in the front office's price list.
  const visitor = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const front = await visitor.newPage();
  await front.goto(`/${demo.studioUuid}/frontoffice/pricing/contracts`);
  const offer = front.locator(`[data-testid="contract-offer"][data-name="${name}"]`);
  await expect(offer).toBeVisible();
  await expect(offer.getByTestId('contract-offer-price')).toContainText('/ month');
  await expect(offer.getByTestId('contract-offer-fee')).toContainText('49');
  await shootAll(front, 'contracts-front-price-list', async () => {
    await expect(front.locator('[data-testid="contract-offer"]').first()).toBeVisible();
  });
  // In Polish the contract's Polish name is shown.
  await setLanguage(front, 'PL');
  await expect(
    front.locator(`[data-testid="contract-offer"][data-name="Karnet open ${suffix}"]`),
  ).toBeVisible();
  await visitor.close();
});
