import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll, VIEWPORTS } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * Management insight (issue 20) on the demo studio, whose seed holds six months of classes, visits
 * and sales: the dashboard's figures and charts, the Sales section, the reports (sales by item,
 * attendance by instructor, payroll, voucher liability, stock, receipts and invoices) with totals,
 * and a CSV export; the payroll pages (rates in bulk, one instructor's payroll), DAC7's sole-trader
 * details and the studio's data export. One page load, then in-app (hash) navigation; the studio
 * export is asked for first so it is made while the rest runs. Screenshots of the dashboard and
 * three reports in EN and PL at 390 and 1280 px (the payroll at 390 and 1366):
 * <E2E_RESULTS_DIR>/screenshots/reports-*.
 */
test('reports: the dashboard, three reports and an export', async ({ browser }) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { acceptDownloads: true, errors });
  /** In-app navigation: the router follows the hash, the page is not loaded again. */
  const open = (route: string) =>
    page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/${route}`);

  await expect(page.getByTestId('dash-revenue-month-value')).toContainText(/\d/);
  await expect(page.getByTestId('dash-classes')).toBeVisible();
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await shootAll(page, 'reports-dashboard', async () => {
    await expect(page.getByTestId('dashboard-figures')).toBeVisible();
    await expect(page.locator('.recharts-surface').first()).toBeVisible();
  });

  // The studio's data export, asked for now (a background job), downloaded at the end. DAC7: the
  // studio is a sole trader, named with a date of birth.
  await open('reports');
  await page.getByTestId('studio-export-request').click();
  await expect(page.getByTestId('studio-export-row')).not.toHaveCount(0);
  const dac7 = page.getByTestId('dac7');
  await dac7.getByText('A sole trader', { exact: true }).click();
  await dac7.getByLabel('First name').fill('Anna');
  await dac7.getByLabel('Last name').fill('Wiśniewska');
  await page.getByTestId('dac7-birth-date').fill('1986-03-14');
  await page.getByTestId('dac7-seller-save').click();
  await expect(page.getByTestId('dac7-seller-save')).toBeEnabled();

  await page.getByTestId('nav-sales').click();
  await page.getByTestId('report-link-sales-by-item').click();
  await page.getByTestId('report-last-month').click();
  const totals = page.getByTestId('report-totals');
  await expect(totals).toContainText(/\d/);
  await shootAll(page, 'reports-sales-by-item', async () => {
    await expect(page.getByTestId('report-totals')).toBeVisible();
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('report-export-csv').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^sales-by-item_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.toString('utf8')).toContain('Type,Item,Orders,Quantity,Amount');

  await open('reports/attendance');
  await page.getByTestId('report-last-month').click();
  await page.getByTestId('report-group-by').click();
  await page.getByRole('option', { name: 'Instructor' }).click();
  await expect(page.getByTestId('report-table')).toContainText('Wiśniewska');
  await shootAll(page, 'reports-attendance', async () => {
    await expect(page.getByTestId('report-totals')).toBeVisible();
  });

  await open('reports/payroll');
  await page.getByTestId('report-last-month').click();
  await expect(page.getByTestId('report-totals')).toContainText(/\d/);
  // The classes earned what their visits paid (an entry's worth of each pass, the drop-ins): the
  // demo's history once had visits "paid by a pass" with none behind them, and every class 0 zł.
  await expect(page.getByTestId('report-totals').locator('td').nth(5)).toHaveText(/[1-9]/);
  // The viewport only: a month's payroll is a page of ~180 classes (the totals are at its top).
  await shootAll(
    page,
    'reports-payroll',
    async () => {
      await expect(page.getByTestId('report-totals')).toBeVisible();
    },
    {
      fullPage: false,
      sizes: [
        ['1366', VIEWPORTS.desktop],
        ['390', VIEWPORTS.phone],
      ],
    },
  );
  // Voucher liability and stock this month (the demo's vouchers and desk products are made with the
  // demo), the receipts and invoices of last month (the demo's accounting documents).
  for (const [report, period, column] of [
    ['voucher-liability', 'report-this-month', 'Liability'],
    ['stock', 'report-this-month', 'Value at end'],
    ['fiscal-documents', 'report-last-month', 'Gross'],
  ] as const) {
    await open(`reports/${report}`);
    await page.getByTestId(period).click();
    await expect(page.getByTestId('report-table')).toContainText(column);
    await expect(page.getByTestId('report-totals')).toContainText(/\d/);
  }

  // The payroll pages: pay rates, rates in bulk, one instructor's payroll for a period.
  await open('reports/pay-rates');
  await expect(page.getByTestId('pay-rates-table')).toContainText('Wiśniewska');
  await page.getByTestId('pay-rates-bulk-link').click();
  const row = page.getByTestId('bulk-row').filter({ hasText: 'Wiśniewska' });
  await row.getByTestId('bulk-amount').fill('95');
  await expect(page.getByTestId('bulk-save')).toHaveText('Save 1 rate');
  await page.getByTestId('bulk-save').click();
  await expect(page.getByTestId('bulk-saved')).toBeVisible();
  await expect(row).toContainText(/Per class: 95[.,]00/);
  await row.getByRole('link').click();
  await page.getByTestId('instructor-last-month').click();
  await expect(page.getByTestId('instructor-payroll')).toContainText(/95[.,]00/);
  await expect(page.getByTestId('instructor-payroll-table')).toContainText('Per class');
  await expect(page.getByTestId('instructor-payroll-summary')).toBeVisible();

  // Back on Reports after a fresh load: the sole trader's details were kept, the export is ready.
  await open('reports');
  await page.reload();
  await expect(page.getByTestId('dac7-birth-date')).toHaveValue('1986-03-14');
  const ready = page.getByTestId('studio-export-download').first();
  await expect(ready).toBeVisible();
  const [zip] = await Promise.all([page.waitForEvent('download'), ready.click()]);
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  expect(
    readFileSync((await zip.path())!)
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');
  expect(errors).toEqual([]);
});
