import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, shootAll } from './support/screenshots';
import { signInBackoffice, demoManager, frontofficePage } from './support/sign-in';

/**
 * Contracts bought online and edited with days and hours: the manager opens the demo's "Weekday
 * mornings" contract (Mon–Fri 6:00–12:00) in the back office editor; the demo client buys it from
 * the front office's membership list through the cart and the test bank, sees the paid order in
 * "My purchases", and the manager finds it on the client's Contracts tab, sold online, first payment
 * paid. Screenshots in English and Polish at 390 and 1280 px (contracts-online-*).
 */
const MORNINGS = 'Weekday mornings';

async function managerPage(page: Page, demo: ReturnType<typeof readDemo>) {
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
}

test('a client buys a contract online; the editor shows its days and hours', async ({ browser }) => {
  test.setTimeout(300_000);
  const demo = readDemo();
  test.skip(!demo.clientEmail || !demo.clientPassword, 'the demo has no client login');
  const errors: string[] = [];

  // 1. The back office editor edits days and hours: the seeded contract's Mon–Fri 6:00–12:00.
  const staff = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  const manager = await staff.newPage();
  manager.on('pageerror', (e) => errors.push(e.message));
  await managerPage(manager, demo);
  await manager.getByTestId('nav-contracts').click();
  await manager.locator(`[data-testid="contract-row"][data-name="${MORNINGS}"]`).click();
  const window = manager.getByTestId('time-window');
  await expect(window).toHaveCount(1);
  await expect(window.getByTestId('time-window-from')).toHaveValue('06:00');
  await expect(window.getByTestId('time-window-to')).toHaveValue('12:00');
  // A second window typed backwards is refused where it was typed, and nothing is saved.
  await manager.getByTestId('add-time-window').click();
  await manager.getByTestId('time-window').nth(1).getByTestId('time-window-from').fill('18:00');
  await manager.getByTestId('time-window').nth(1).getByTestId('time-window-to').fill('17:00');
  await manager.getByTestId('contract-save').click();
  await expect(manager.getByText('Must end after it starts.')).toBeVisible();
  await shootAll(manager, 'contracts-online-editor', async () => {
    await expect(manager.getByTestId('time-window')).toHaveCount(2);
  });
  await manager.getByTestId('time-window').nth(1).getByRole('button').click();
  await expect(manager.getByTestId('time-window')).toHaveCount(1);
  await manager.getByTestId('contract-save').click();
  await expect(manager).toHaveURL(/#\/contracts$/);

  // 2. The client buys it from the membership list: Buy → cart → test bank → purchases.
  const page = await frontofficePage(browser, demo, 'pricing/contracts', { errors, englishCookie: true });
  const offer = page.locator(`[data-testid="contract-offer"][data-name="${MORNINGS}"]`);
  await expect(offer).toBeVisible();
  // Screenshots of the list come last: a language switch here would cache an empty Polish cart
  // (the cart query is per language and a prepare updates only the current one — see the report).
  await offer.getByRole('button').click();
  await expect(page).toHaveURL(/\/frontoffice\/cart/);
  const item = page.getByTestId('cart-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(MORNINGS);
  await expect(page.getByTestId('cart-total')).toHaveText('179 zł');
  await shootAll(page, 'contracts-online-cart', async () => {
    await expect(page.getByTestId('checkout-pay')).toBeEnabled();
  });
  await page.getByTestId('method-online').check();
  await page.getByTestId('checkout-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await expect(page.locator('[data-amount]')).toHaveText('179 zł');
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/purchases\?order=/);
  await expect(page.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'succeeded');
  const orderId = new URL(page.url()).searchParams.get('order')!;
  const bought = page.locator(`[data-testid="purchase"][data-order="${orderId}"]`);
  await expect(bought).toContainText(MORNINGS);
  await expect(bought.getByTestId('purchase-status')).toHaveText('Paid');
  await shootAll(page, 'contracts-online-purchases', async () => {
    await expect(page.getByTestId('payment-result')).toBeVisible();
  });
  await page.goto(`/${demo.studioUuid}/frontoffice/pricing/contracts`);
  await expect(page.locator(`[data-testid="contract-offer"][data-name="${MORNINGS}"]`)).toBeVisible();
  await shootAll(page, 'contracts-online-price-list', async () => {
    await expect(page.locator('[data-testid="contract-offer"]').first()).toBeVisible();
  });
  await page.context().close();

  // 3. Staff see it on the client's Contracts tab: sold online, first month paid by that order.
  await manager.getByTestId('nav-clients').click();
  await manager.getByTestId('clients-search').fill(demo.clientEmail!);
  await manager
    .locator(`[data-testid="client-row"][data-email="${demo.clientEmail}"]`)
    .getByTestId('client-open')
    .click();
  await manager.getByTestId('client-tab-contracts').click();
  const card = manager.locator(`[data-testid="client-contract-card"][data-name="${MORNINGS}"]`);
  await expect(card).toBeVisible();
  await card.click();
  const detail = manager.getByTestId('client-contract-detail');
  await expect(detail).toBeVisible();
  await expect(detail).toContainText('online');
  await expect(detail.getByTestId('instalment-row').first()).toHaveAttribute('data-status', 'paid');
  await expect(detail.getByTestId('instalment-row').nth(1)).toHaveAttribute('data-status', 'scheduled');
  await shootAll(
    manager,
    'contracts-online-client-schedule',
    async () => {
      await expect(detail.getByTestId('instalment-row').first()).toBeVisible();
    },
    { fullPage: false },
  );
  expect(errors).toEqual([]);
  await staff.close();
});
