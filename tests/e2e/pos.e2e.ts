import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll, VIEWPORTS, type ScreenshotSizes } from './support/screenshots';
import { DESK_SMALL, expectSaleInView } from './support/pos';
import { backofficePage } from './support/sign-in';

/** The POS at a laptop, a small laptop and a phone (issue 26: the same screens as the desk's); back at the first. */
const POS_SHOTS: ScreenshotSizes = [
  ['1280', VIEWPORTS.laptop],
  ['1024', { width: 1024, height: 768 }],
  ['390', VIEWPORTS.phone],
];

/**
 * The front desk sells at the point of sale: a drink and a pass to a client, paid partly in cash
 * and partly by card; the done screen names the order, and the order is found in the orders list
 * with both payments. The POS is the desk's (issue 26): tiles filtered by category and search, the
 * basket in a bar at the bottom of a phone, and after the sale the change given and the payment split.
 * Screenshots of the POS and the done screen at 390, 1024 and 1280 px, the orders screens at 390 and
 * 1280, in English and Polish (into E2E_RESULTS_DIR/screenshots).
 */

test('pos: the front desk sells a product and a pass to a client with cash and card, then finds the order', async ({
  browser,
}) => {
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, {
    who: { email: 'frontdesk@demo.studio', password: demo.managerPassword },
    errors: pageErrors,
  });

  await page.getByTestId('nav-pos').click();
  await expect(page).toHaveURL(/#\/pos$/);

  // The desk's tiles: a search, the product categories and passes as groups, one tile per item.
  const catalog = page.getByTestId('pos-catalog');
  await expect(catalog.getByTestId('pos-search')).toBeVisible();
  await catalog.getByTestId('pos-groups').getByText('Napoje', { exact: true }).click();
  await expect(catalog.getByTestId('pos-result').filter({ hasText: 'Woda mineralna' }).first()).toBeVisible();
  await expect(catalog.getByTestId('pos-result').filter({ hasText: '4 entries' })).toHaveCount(0);
  await catalog.getByTestId('pos-groups').getByText('Pass', { exact: true }).click();
  await expect(catalog.getByTestId('pos-result').filter({ hasText: '4 entries' })).toHaveCount(1);
  await expect(catalog.locator('[data-testid="pos-result"]:not([data-type="pricingOption"])')).toHaveCount(0);
  await catalog.getByTestId('pos-groups').getByText('All', { exact: true }).click();

  // A drink (5,00 zł) and a pass (160,00 zł).
  await page.getByTestId('pos-search').fill('Woda mineralna');
  await page.getByRole('button', { name: /Add Woda mineralna/ }).click();
  await page.getByTestId('pos-search').fill('4 entries');
  await page.getByRole('button', { name: 'Add 4 entries' }).click();
  await expect(page.getByTestId('pos-basket-line')).toHaveCount(2);
  await page.getByTestId('pos-search').fill('');

  // On a phone the basket stays in view at the bottom, with the total, wherever the page is scrolled.
  await page.setViewportSize(VIEWPORTS.phone);
  await page.evaluate(() => window.scrollTo(0, 0));
  const bar = page.getByTestId('pos-basket-bar');
  await expect(bar).toBeInViewport({ ratio: 1 });
  await expect(bar.getByTestId('pos-basket-bar-count')).toHaveText('2 items');
  await expect(bar.getByTestId('pos-basket-bar-total')).toContainText('165');
  await bar.getByTestId('pos-basket-bar-open').click();
  await expect(page.getByTestId('pos-checkout')).toBeInViewport();
  await page.setViewportSize(VIEWPORTS.laptop);
  await expect(bar).toHaveCount(0);

  // Without a client the pass cannot be sold: the summary says so and the button stays off.
  await expect(page.getByTestId('pos-due')).toContainText('165');
  await expect(page.getByTestId('pos-sell')).toBeDisabled();
  await expect(page.getByTestId('pos-summary')).toContainText('Choose a client');

  await page.getByTestId('pos-client-search').fill('client@demo.studio');
  await page.getByTestId('pos-client-option').first().click();
  await expect(page.getByTestId('pos-client')).toHaveText('Julia Nowak');

  // At a laptop and at the desk's 1024×768 the basket, the first payment and the sell button are
  // all in view without scrolling, nothing on top of them.
  await expectSaleInView(page, DESK_SMALL);
  await expectSaleInView(page, VIEWPORTS.laptop);

  // Split: 100 zł cash, the rest by card.
  await page.getByTestId('pos-payment-amount-0').fill('100');
  await page.getByTestId('pos-add-payment').click();
  await expect(page.getByTestId('pos-payment-method-1')).toHaveValue('12');
  await expect(page.getByTestId('pos-remaining')).toContainText('65');
  await page.getByRole('button', { name: 'Fill' }).nth(1).click();
  await expect(page.getByTestId('pos-payment-amount-1')).toHaveValue('65.00');
  await expect(page.getByTestId('pos-remaining')).toHaveCount(0);
  // 120 zł handed over in cash: 20 zł back.
  await page.getByTestId('pos-payment-amount-0').fill('120');
  await expect(page.getByTestId('pos-change')).toContainText('20');
  await expect(page.getByTestId('pos-sell')).toBeEnabled();
  await shootAll(
    page,
    'pos-basket',
    async () => {
      await expect(page.getByTestId('pos-sell')).toBeEnabled();
    },
    { sizes: POS_SHOTS },
  );

  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done')).toBeVisible();
  await expect(page.getByTestId('pos-done')).toContainText('Paid');
  const reference = (await page.getByTestId('pos-done-order').innerText()).trim();
  expect(reference).toMatch(/^[0-9A-F]{8}$/);
  // The change given and how the sale was paid, as at the desk.
  await expect(page.getByTestId('pos-done-change')).toHaveText(/^20([.,]00)? zł$/);
  await expect(page.getByTestId('pos-done-total')).toContainText(/165([.,]00)? zł/);
  const split = page.getByTestId('pos-done-payment');
  await expect(split).toHaveCount(2);
  await expect(split.nth(0)).toContainText('Cash');
  await expect(split.nth(0)).toContainText(/120([.,]00)? zł/);
  await expect(split.nth(1)).toContainText('Payment terminal');
  await expect(split.nth(1)).toContainText(/65([.,]00)? zł/);
  await shootAll(
    page,
    'pos-done',
    async () => {
      await expect(page.getByTestId('pos-done-change')).toHaveText(/^20([.,]00)? zł$/);
    },
    { sizes: POS_SHOTS },
  );

  // The order in the orders list, found by its reference, with both payments.
  await page.getByTestId('nav-orders').click();
  await expect(page).toHaveURL(/#\/orders$/);
  await page.getByTestId('orders-search').fill(reference);
  await expect(page.getByTestId('order-row')).toHaveCount(1);
  const row = page.getByTestId('order-row');
  await expect(row).toContainText('Julia Nowak');
  await expect(row).toContainText('Paid');
  await expect(row).toContainText('165');
  await shootAll(page, 'pos-orders', async () => {
    await expect(page.getByTestId('order-row')).toHaveCount(1);
  });
  await row.getByRole('link', { name: reference }).click();
  await expect(page.getByTestId('order-detail')).toContainText(`Order ${reference}`);
  await expect(page.getByTestId('order-payment')).toHaveCount(2);
  await expect(page.getByTestId('order-payments')).toContainText('Cash');
  await expect(page.getByTestId('order-payments')).toContainText('Payment terminal');
  await shootAll(page, 'pos-order-detail', async () => {
    await expect(page.getByTestId('order-payment')).toHaveCount(2);
  });

  expect(pageErrors).toEqual([]);
  await page.context().close();
});
