import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readDemo } from './support/demo';
import { SCREENSHOT_DIR, VIEWPORTS, LAPTOP_AND_PHONE, shootAll, capture } from './support/screenshots';
import { addToCartFromPriceList, clientShopPage } from './support/shop';

/**
 * Buying online through the test provider, as the demo client: a pass from the price list into the
 * cart, checkout, the test bank's page, the return, and the pass in "My purchases" and "My passes";
 * then a wallet top-up and a donation through the same bank. Screenshots in English and Polish at
 * 390 and 1280 px go to <E2E_RESULTS_DIR>/screenshots/sales-*.
 */

/** The server-rendered bank page has no language switch: it follows the locale cookie. */
async function shootBank(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const [size, viewport] of LAPTOP_AND_PHONE) {
    await page.setViewportSize(viewport);
    await capture(page, { path: path.join(SCREENSHOT_DIR, `sales-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.laptop);
}

test('a client buys a pass online through the test provider and sees it in purchases', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await clientShopPage(browser, demo, errors);

  // 1. The price list names the pass; "buy this" links put it in the cart.
  await addToCartFromPriceList(page, demo, '8 entries');
  const item = page.getByTestId('cart-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('8 entries');
  await expect(page.getByTestId('cart-total')).toHaveText('280 zł');
  await expect(page).not.toHaveURL(/add=/);
  await shootAll(page, 'sales-cart', async () => {
    await expect(page.getByTestId('checkout-pay')).toBeEnabled();
  });

  // 2. Checkout online: the form redirect takes the client to the test bank's page.
  await page.getByTestId('method-online').check();
  await page.getByTestId('checkout-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await expect(page.locator('[data-amount]')).toHaveText('280 zł');
  await shootBank(page, 'bank-en');

  // 3. The client pays; the bank sends them back, and purchases shows the paid order.
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/purchases\?order=/);
  await expect(page.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'succeeded');
  const orderId = new URL(page.url()).searchParams.get('order')!;
  const bought = page.locator(`[data-testid="purchase"][data-order="${orderId}"]`);
  await expect(bought).toContainText('8 entries');
  await expect(bought).toContainText('280 zł');
  await expect(bought.getByTestId('purchase-status')).toHaveText('Paid');
  await shootAll(page, 'sales-purchases', async () => {
    await expect(page.getByTestId('payment-result')).toBeVisible();
  });

  // The cart is empty again; the pass is among "My passes".
  await page.getByTestId('frontoffice-menu-cart').click();
  await expect(page.getByTestId('cart-empty')).toBeVisible();
  await page.getByTestId('frontoffice-menu-passes').click();
  await expect(page.getByTestId('my-passes')).toContainText('8 entries');

  // 4. A wallet top-up through the same bank comes back to the wallet with the new balance.
  await page.getByTestId('frontoffice-menu-wallet').click();
  const before = await page.getByTestId('wallet-balance').textContent();
  await page.getByTestId('top-up-amount-10000').click();
  await page.getByTestId('top-up-submit').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/wallet\?order=/);
  await expect(page.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'succeeded');
  await expect(page.getByTestId('wallet-entry').first()).toContainText('+100 zł');
  expect(await page.getByTestId('wallet-balance').textContent()).not.toBe(before);
  await shootAll(page, 'sales-wallet', async () => {
    await expect(page.getByTestId('wallet-balance')).toBeVisible();
  });

  // 5. A donation: declined at the bank first, then given.
  await page.goto(`/${demo.studioUuid}/frontoffice/donation`);
  await expect(page.getByTestId('donation-email')).toHaveValue(demo.clientEmail!);
  await shootAll(page, 'sales-donation', async () => {
    await expect(page.getByTestId('donation-submit')).toBeEnabled();
  });
  await page.getByTestId('donation-amount-custom').fill('35');
  await page.getByTestId('donation-submit').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  await page.locator('button[data-outcome="failed"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/donation\/payment-status\?/);
  await expect(page.getByTestId('donation-status')).toHaveAttribute('data-outcome', 'failed');
  await page.getByRole('link', { name: 'Try again' }).click();
  await page.getByTestId('donation-amount-5000').click();
  await page.getByTestId('donation-submit').click();
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page.getByTestId('donation-status')).toHaveAttribute('data-outcome', 'succeeded');
  await expect(page.getByTestId('donation-status')).toContainText('Thank you for your donation of 50 zł!');
  await shootAll(page, 'sales-donation-status', async () => {
    await expect(page.getByTestId('donation-status')).toBeVisible();
  });

  expect(errors).toEqual([]);
  await page.context().close();
});
