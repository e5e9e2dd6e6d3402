import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * A till's cash shift in the browser POS: the manager sets up a POS station in Settings, chooses it
 * at the POS, opens a shift with a 200 zł float, sells a drink for cash (change given), takes 50 zł
 * out to the safe and closes the shift with 5 zł missing — the difference is shown before and after
 * the close. Screenshots in English and Polish at 390 and 1280 px (E2E_RESULTS_DIR/screenshots).
 */

test('shifts: open with a float, a cash sale, cash out, close with the difference shown', async ({
  browser,
}) => {
  // Twenty-four screenshots (six screens, two languages, two widths) take most of the time.
  test.setTimeout(300_000);
  const demo = readDemo();
  const pageErrors: string[] = [];
  const page = await backofficePage(browser, demo, { errors: pageErrors });

  // Settings → POS stations: add the reception till.
  const slug = `till-${Date.now().toString(36)}`;
  await page.goto(`/${demo.studioUuid}/backoffice#/settings/stations`);
  await page.getByTestId('station-add').click();
  await page.getByTestId('station-save').click();
  await expect(page.getByRole('dialog')).toContainText('This field is required.');
  await page.getByTestId('station-name').fill('Reception till');
  await page.getByTestId('station-slug').fill(slug);
  await page.getByTestId('station-save').click();
  const card = page.locator(`[data-testid="station"][data-slug="${slug}"]`);
  await expect(card).toContainText('Reception till');
  await expect(card.getByTestId('station-shift')).toHaveText('No open shift');
  await shootAll(page, 'shifts-settings', async () => {
    await expect(card).toBeVisible();
  });

  // The POS: choose the till; no shift is open, so the float comes first.
  await page.getByTestId('nav-pos').click();
  await expect(page).toHaveURL(/#\/pos$/);
  const station = page.getByTestId('pos-station');
  await station.selectOption({ label: `Reception till (${slug})` });
  await expect(page.getByTestId('shift-open-card')).toBeVisible();
  await expect(page.getByTestId('pos-search')).toHaveCount(0);
  await page.getByTestId('shift-float').fill('abc');
  await expect(page.getByTestId('shift-open-card')).toContainText('Enter an amount');
  await shootAll(page, 'shifts-open', async () => {
    await expect(page.getByTestId('shift-open-card')).toBeVisible();
  });
  await page.getByTestId('shift-float').fill('200');
  await page.getByTestId('shift-open').click();
  await expect(page.getByTestId('shift-bar')).toBeVisible();
  await expect(page.getByTestId('shift-expected')).toContainText('200');

  // A drink for 5 zł, paid with a 10 zł note.
  await page.getByTestId('pos-search').fill('Woda mineralna');
  await page.getByRole('button', { name: /Add Woda mineralna/ }).click();
  await page.getByTestId('pos-payment-amount-0').fill('10');
  await expect(page.getByTestId('pos-change')).toContainText('5');
  await page.getByTestId('pos-sell').click();
  await expect(page.getByTestId('pos-done')).toBeVisible();
  await page.getByTestId('pos-new-sale').click();
  await expect(page.getByTestId('shift-cash-sales')).toContainText('5');
  await expect(page.getByTestId('shift-expected')).toContainText('205');

  // 50 zł to the safe; more than the drawer holds is refused.
  await page.getByTestId('shift-cash').click();
  await page.getByTestId('shift-cash-kind').getByText('Cash out').click();
  await page.getByTestId('shift-cash-amount').fill('5000');
  await page.getByTestId('shift-cash-record').click();
  await expect(page.getByTestId('shift-error')).toHaveText('The drawer does not hold that much.');
  await page.getByTestId('shift-cash-amount').fill('50');
  await page.getByTestId('shift-cash-reason').fill('Safe drop');
  await shootAll(page, 'shifts-cash', async () => {
    await expect(page.getByTestId('shift-cash-amount')).toBeVisible();
  });
  await page.getByTestId('shift-cash-record').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('shift-expected')).toContainText('155');
  await expect(page.getByTestId('shift-cash-moves')).toContainText('50');
  await shootAll(page, 'shifts-bar', async () => {
    await expect(page.getByTestId('shift-bar')).toBeVisible();
  });

  // Close with 150 zł counted: 5 zł short, shown as it is typed and after the close.
  await page.getByTestId('shift-close').click();
  await expect(page.getByTestId('shift-close-expected')).toContainText('155');
  await page.getByTestId('shift-counted').fill('150');
  await expect(page.getByTestId('shift-difference')).toContainText('Short by 5');
  await shootAll(page, 'shifts-close', async () => {
    await expect(page.getByTestId('shift-difference')).toBeVisible();
  });
  await page.getByTestId('shift-close-confirm').click();
  const closed = page.getByTestId('shift-closed');
  await expect(closed).toBeVisible();
  await expect(closed.getByTestId('shift-difference')).toContainText('Short by 5');
  await expect(closed.getByTestId('shift-closed-counted')).toContainText('150');
  await expect(closed).toContainText('Cash');
  await shootAll(page, 'shifts-closed', async () => {
    await expect(closed).toBeVisible();
  });
  await page.getByTestId('shift-next').click();
  await expect(page.getByTestId('shift-open-card')).toBeVisible();

  // Settings shows the till without an open shift; leave the device unbound for other tests.
  await page.getByTestId('pos-station').selectOption({ value: '' });
  await expect(page.getByTestId('pos-search')).toBeVisible();
  expect(pageErrors).toEqual([]);
  await page.context().close();
});
