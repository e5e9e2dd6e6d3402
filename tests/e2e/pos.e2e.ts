import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * The front desk sells at the point of sale: a drink and a pass to a client, paid partly in cash
 * and partly by card; the done screen names the order, and the order is found in the orders list
 * with both payments. Screenshots of the POS, the done screen and the orders screens in English and
 * Polish at 390 and 1280 px (into E2E_RESULTS_DIR/screenshots).
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

  // A drink (5,00 zł) and a pass (160,00 zł).
  await page.getByTestId('pos-search').fill('Woda mineralna');
  await page.getByRole('button', { name: /Add Woda mineralna/ }).click();
  await page.getByTestId('pos-search').fill('4 entries');
  await page.getByRole('button', { name: 'Add 4 entries' }).click();
  await expect(page.getByTestId('pos-basket-line')).toHaveCount(2);

  // Without a client the pass cannot be sold: the summary says so and the button stays off.
  await expect(page.getByTestId('pos-due')).toContainText('165');
  await expect(page.getByTestId('pos-sell')).toBeDisabled();
  await expect(page.getByTestId('pos-summary')).toContainText('Choose a client');

  await page.getByTestId('pos-client-search').fill('client@demo.studio');
  await page.getByTestId('pos-client-option').first().click();
  await expect(page.getByTestId('pos-client')).toHaveText('Julia Nowak');

  // Split: 100 zł cash, the rest by card.
  await page.getByTestId('pos-payment-amount-0').fill('100');
  await page.getByTestId('pos-add-payment').click();
  await expect(page.getByTestId('pos-payment-method-1')).toHaveValue('12');
  await expect(page.getByTestId('pos-remaining')).toContainText('65');
  await page.getByRole('button', { name: 'Fill' }).nth(1).click();
  await expect(page.getByTestId('pos-payment-amount-1')).toHaveValue('65.00');
  await expect(page.getByTestId('pos-remaining')).toHaveCount(0);
  await expect(page.getByTestId('pos-sell')).toBeEnabled();
  await shootAll(page, 'pos-basket', async () => {
    await expect(page.getByTestId('pos-sell')).toBeEnabled();
  });

  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done')).toBeVisible();
  await expect(page.getByTestId('pos-done')).toContainText('Paid');
  const reference = (await page.getByTestId('pos-done-order').innerText()).trim();
  expect(reference).toMatch(/^[0-9A-F]{8}$/);
  await shootAll(page, 'pos-done', async () => {
    await expect(page.getByTestId('pos-done')).toBeVisible();
  });

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
