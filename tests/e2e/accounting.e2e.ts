import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { demoManager, signInBackoffice } from './support/sign-in';

/**
 * For the accountant (issue 19) on the demo studio, whose seed holds three months of invoices and desk
 * receipts: the manager opens Accounting, last month is chosen, the screen says what it holds, and the
 * JPK_FA, JPK_V7M and register files download (XML of the MF namespaces, CSV with a BOM and Polish
 * letters). A range that is not a whole month leaves JPK_V7M off with the reason. Screenshots in EN
 * and PL at 390 and 1280 px: <E2E_RESULTS_DIR>/screenshots/accounting-*.
 */
test('accounting: last month’s JPK files and sales register download', async ({ browser }) => {
  const demo = readDemo();
  const errors: string[] = [];
  const context = await browser.newContext({
    viewport: VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await setLanguage(page, 'EN');
  await page.goto(`/${demo.studioUuid}/backoffice#/accounting`);
  const summary = page.getByTestId('accounting-summary');
  await expect(summary).toContainText('Invoices');
  await expect(page.getByTestId('accounting-tax-office')).toHaveValue(/1435/);

  const download = async (file: string) => {
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId(`accounting-download-${file}`).click(),
    ]);
    return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
  };
  const fa = await download('getJpkFa');
  expect(fa.name).toMatch(/^JPK_FA_\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.xml$/);
  expect(fa.bytes.toString('utf8')).toContain('http://jpk.mf.gov.pl/wzor/2022/02/17/02171/');
  expect(fa.bytes.toString('utf8')).toMatch(/<Faktura>/);
  const v7 = await download('getJpkV7m');
  expect(v7.name).toMatch(/^JPK_V7M_\d{4}-\d{2}\.xml$/);
  expect(v7.bytes.toString('utf8')).toContain('<TypDokumentu>RO</TypDokumentu>');
  const csv = await download('getSalesRegisterCsv');
  expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.bytes.toString('utf8')).toContain('Data sprzedaży;');
  const xlsx = await download('getSalesRegisterXlsx');
  expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  await shootAll(page, 'accounting', async () => {
    await expect(summary).toBeVisible();
  });

  // Half a month: JPK_V7M is off and says why.
  await setLanguage(page, 'EN');
  const to = page.getByTestId('accounting-to');
  const from = await page.getByTestId('accounting-from').inputValue();
  await to.fill(`${from.slice(0, 8)}15`);
  await expect(page.getByTestId('accounting-download-getJpkV7m')).toBeDisabled();
  await expect(page.getByText('JPK_V7M covers one whole calendar month')).toBeVisible();
  await setLanguage(page, 'PL');
  await expect(page.getByText('JPK_V7M obejmuje jeden pełny miesiąc kalendarzowy')).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});
