import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { setLanguage, shootAll } from './support/screenshots';
import { backofficePage } from './support/sign-in';

/**
 * KSeF states in the back office (issue 19) on the demo studio, which is seeded with two invoices
 * already accepted by KSeF: the Invoices → KSeF tab lists them with their KSeF numbers (filter
 * "Accepted"), shows the studio's KSeF settings (test environment, no token: write-only), and an
 * invoice's detail has its KSeF card with the number and the UPO. Screenshots in EN and PL at 390 and
 * 1280 px: <E2E_RESULTS_DIR>/screenshots/ksef-*.
 */
test('ksef: the manager sees each invoice’s KSeF state, its number and UPO, and the KSeF settings', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await backofficePage(browser, demo, { errors });
  await setLanguage(page, 'EN');

  await page.goto(`/${demo.studioUuid}/backoffice#/invoices`);
  await page.getByTestId('invoices-tab-ksef').click();
  await expect(page.getByTestId('ksef-screen')).toBeVisible();
  await expect(page.getByTestId('ksef-token-state')).toHaveText('No token: invoices are not sent');
  await page.getByTestId('ksef-filter').getByText('Accepted', { exact: true }).click();
  const rows = page.getByTestId('ksef-row');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    await expect(row.getByTestId('ksef-state')).toHaveText('Accepted');
    await expect(row).toContainText(/\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}/);
  }
  await shootAll(page, 'ksef-states', async (locale) => {
    await expect(rows.first().getByTestId('ksef-state')).toHaveText(
      locale === 'EN' ? 'Accepted' : 'Przyjęta',
    );
  });

  await rows.first().getByRole('link').click();
  const panel = page.getByTestId('ksef-panel');
  await expect(panel.getByTestId('ksef-state')).toHaveText('Accepted');
  await expect(panel.getByTestId('ksef-number')).toContainText(
    /KSeF number: \d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}/,
  );
  await expect(panel.getByRole('link', { name: 'Download UPO' })).toHaveAttribute(
    'href',
    /\/ksef\/upo\.xml$/,
  );
  const upo = await page.request.get(
    (await panel.getByRole('link', { name: 'Download UPO' }).getAttribute('href'))!,
  );
  expect(upo.status()).toBe(200);
  expect(await upo.text()).toContain('<NumerKSeFDokumentu>');
  // In KSeF: no cancelling (only a correction), no resending.
  await expect(panel.getByTestId('ksef-resend')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel the invoice' })).toHaveCount(0);
  await expect(page.getByTestId('invoice-correct')).toBeVisible();
  await shootAll(page, 'ksef-invoice-detail', async (locale) => {
    await expect(panel.getByTestId('ksef-number')).toContainText(
      locale === 'EN' ? 'KSeF number' : 'Numer KSeF',
    );
  });
  expect(errors).toEqual([]);
  await page.context().close();
});
