import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Download } from '@playwright/test';
import { readDemo } from './support/demo';
import { RESULTS_DIR } from './support/paths';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { signInBackoffice, demoManager, demoClient, signInFrontoffice } from './support/sign-in';
import { managerSession } from './support/studio-api';

/**
 * Invoices end to end on the demo studio: the manager issues a VAT invoice for the demo client's paid
 * order (seeded: "Karnet 4 wejścia", paid by card three days ago) with a company buyer — a NIP with a
 * wrong check digit is refused first — and downloads the PDF; the client downloads the same invoice
 * from "My purchases". The invoiced order's receipt is refused (the invoice registered the sale);
 * another sale's receipt is sent to the printer and found on the batch-print screen. Screenshots in EN and PL at 390 and 1280 px: <E2E_RESULTS_DIR>/screenshots/invoices-*.
 */

/** The downloaded file: a PDF whose document info names the invoice number (pdfkit writes it plain). */
function expectInvoicePdf(download: Download, file: string, number: string): Buffer {
  expect(download.suggestedFilename()).toBe(`${number.replaceAll('/', '_')}.pdf`);
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.toString('latin1')).toContain(`(${number})`);
  expect(bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
  return bytes;
}

test('invoices: the manager invoices a paid order, both the manager and the client download the PDF', async ({
  browser,
  request,
}) => {
  const demo = readDemo();
  const errors: string[] = [];

  // ---- back office: the manager
  const office = await browser.newContext({
    viewport: VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: true,
  });
  const page = await office.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await setLanguage(page, 'EN');

  // The demo client's paid order (the oldest of theirs: other suites may add newer ones). Named by the
  // client too: until the search answers, the list shows the studio's latest orders (months of them).
  await page.goto(`/${demo.studioUuid}/backoffice#/orders`);
  await page.getByTestId('orders-search').fill(demo.clientEmail!);
  const row = page
    .getByTestId('order-row')
    .filter({ hasText: 'Julia Nowak' })
    .filter({ hasText: 'Karnet 4 wejścia' })
    .filter({ hasNotText: 'Woda' })
    .last();
  await expect(row).toBeVisible();
  await row.click();
  await expect(page.getByTestId('order-detail')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Paid');
  const orderUrl = page.url();

  await page.getByTestId('order-issue-invoice').click();
  const form = page.getByTestId('invoice-issue-form');
  await expect(form).toBeVisible();
  await expect(form.locator('input[name="buyer.name"]')).toHaveValue('Julia Nowak');
  await form.locator('input[name="buyer.name"]').fill('Pracownia Ruchu Julia Nowak');
  await form.locator('input[name="buyer.addressLine"]').fill('ul. Złota 44/12');
  await form.locator('input[name="buyer.postalCode"]').fill('00-120');
  await form.locator('input[name="buyer.city"]').fill('Warszawa');
  // A NIP with a wrong check digit: the check says so, and issuing is refused on the field.
  await form.locator('input[name="buyer.taxId"]').fill('774-000-14-55');
  await form.getByRole('button', { name: 'Check the NIP' }).click();
  await expect(page.getByTestId('invoice-nip-check')).toHaveText(
    'This NIP is not valid: its check digit does not match.',
  );
  // The check's answer is the server's reason, worded by key: Polish on the Polish screen.
  await setLanguage(page, 'PL');
  await expect(page.getByTestId('invoice-nip-check')).toHaveText(
    'Ten NIP jest nieprawidłowy: cyfra kontrolna się nie zgadza.',
  );
  await setLanguage(page, 'EN');
  await page.getByTestId('invoice-issue-submit').click();
  const taxIdField = form.locator('input[name="buyer.taxId"]');
  await expect(taxIdField).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('This NIP is not valid: its check digit does not match.');
  await shootAll(page, 'invoices-issue-nip-error', async () => {
    await expect(taxIdField).toHaveAttribute('aria-invalid', 'true');
  });
  // The server's refusal is shown by key: switching to Polish words the same errors in Polish.
  await setLanguage(page, 'PL');
  await expect(form).toContainText('Ten NIP jest nieprawidłowy: cyfra kontrolna się nie zgadza.');
  await expect(form).not.toContainText('check digit');
  await setLanguage(page, 'EN');

  await taxIdField.fill('774-000-14-54');
  await form.getByRole('button', { name: 'Check the NIP' }).click();
  await expect(page.getByTestId('invoice-nip-check')).toHaveText('Valid NIP: 774-000-14-54');
  await page.getByTestId('invoice-issue-submit').click();
  await expect(page.getByTestId('invoice-detail')).toBeVisible();
  const number = (await page.getByTestId('invoice-number').innerText()).match(/FV\/\d{4}\/\d{6}/)?.[0];
  // The demo studio has months of invoices already (the accountant's data, two of them in KSeF): any next number.
  expect(number).toMatch(/^FV\/\d{4}\/\d{6}$/);
  await expect(page.getByTestId('invoice-detail')).toContainText('Pracownia Ruchu Julia Nowak');
  await expect(page.getByTestId('invoice-detail')).toContainText('7740001454');
  await expect(page.getByTestId('invoice-due')).toContainText('0');
  await shootAll(page, 'invoices-detail', async () => {
    await expect(page.getByTestId('invoice-download')).toBeVisible();
  });

  const [managerDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('invoice-download').click(),
  ]);
  const managerFile = path.join(RESULTS_DIR, 'invoices-manager.pdf');
  await managerDownload.saveAs(managerFile);
  expectInvoicePdf(managerDownload, managerFile, number!);

  // ---- front office: the client downloads the same invoice from "My purchases"
  const shop = await browser.newContext({
    viewport: VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: true,
  });
  await shop.addCookies([{ name: 'locale', value: 'en', url: demo.baseURL }]);
  const client = await shop.newPage();
  client.on('pageerror', (e) => errors.push(e.message));
  await signInFrontoffice(client, demo.studioUuid, demoClient(demo), 'purchases');
  const orderId = orderUrl.split('/').pop()!;
  const purchase = client.locator(`[data-testid="purchase"][data-order="${orderId}"]`);
  // The demo client has months of purchases (passes and drop-ins): the order is as far down her list
  // as it is old, so she shows more until it is there, as she would.
  await expect(client.getByTestId('purchase').first()).toBeVisible();
  for (let round = 0; round < 20 && !(await purchase.isVisible()); round += 1) {
    const count = await client.getByTestId('purchase').count();
    await client.getByTestId('purchases-more').click();
    await expect(client.getByTestId('purchase')).not.toHaveCount(count);
  }
  const link = purchase.getByTestId('purchase-invoice');
  await expect(link).toHaveAttribute('data-number', number!);
  await shootAll(client, 'invoices-purchases', async () => {
    await expect(link).toBeVisible();
  });
  // One date format per language (issue 26): in Polish the client's purchase and the manager's order
  // show the same day the same way, "27.11.2026" (the order adds its time, "27.11.2026, 14:30").
  await setLanguage(client, 'PL');
  const purchaseDate = (await purchase.getByTestId('purchase-date').innerText()).trim();
  expect(purchaseDate).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  await page.goto(orderUrl);
  await setLanguage(page, 'PL');
  await expect(page.getByTestId('order-created')).toHaveText(
    new RegExp(`^${purchaseDate.replace(/\./g, '\\.')}, \\d{2}:\\d{2}$`),
  );
  await setLanguage(page, 'EN');
  await expect(page.getByTestId('order-created')).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
  await setLanguage(client, 'EN');
  await expect(purchase.getByTestId('purchase-date')).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);

  const [clientDownload] = await Promise.all([client.waitForEvent('download'), link.click()]);
  const clientFile = path.join(RESULTS_DIR, 'invoices-client.pdf');
  await clientDownload.saveAs(clientFile);
  expectInvoicePdf(clientDownload, clientFile, number!);

  // ---- back office: the invoiced order's sale is registered by its invoice: no receipt is printed
  await page.goto(orderUrl);
  await page.getByTestId('order-print-receipt').click();
  await expect(page.getByTestId('order-message')).toContainText('An invoice was issued for this order');

  // ---- another sale (a walk-in buys a product at the desk): its receipt goes to the printer, the
  // batch screen shows its job
  const soldOrderId = await sellAndRequestReceipt(request, demo);
  await page.goto(`/${demo.studioUuid}/backoffice#/orders`);
  await page.getByTestId('orders-batch-print').click();
  await expect(page.getByTestId('batch-print')).toBeVisible();
  const reference = soldOrderId.slice(-8).toUpperCase();
  const receipt = page.getByTestId('batch-receipt').filter({ hasText: reference });
  await expect(receipt.getByTestId('batch-receipt-state')).toHaveAttribute('data-state', 'sent');
  await expect(receipt).toContainText('sent 1 time');
  await receipt.getByRole('checkbox').check();
  await expect(page.getByTestId('batch-print-submit')).toHaveText('Print 1 receipt');
  await page.getByTestId('batch-print-submit').click();
  await expect(page.getByTestId('batch-result')).toContainText('1 receipt sent to the printer');
  await expect(receipt).toContainText('sent 2 times');
  // Nothing chosen after sending: the button says what to do and is disabled (never "Print 0").
  await expect(page.getByTestId('batch-print-submit')).toBeDisabled();
  await expect(page.getByTestId('batch-print-submit')).toHaveText('Choose receipts to print');
  await shootAll(page, 'invoices-batch-print', async () => {
    await expect(receipt).toBeVisible();
  });
  // A filter with nothing in it: an empty state, no selection bar, no print button.
  await page.getByTestId('batch-filter').getByText('Need attention').click();
  await expect(page.getByTestId('batch-empty')).toContainText('No receipt needs attention.');
  await expect(page.getByTestId('batch-print-submit')).toHaveCount(0);
  await shootAll(page, 'invoices-batch-print-empty', async () => {
    await expect(page.getByTestId('batch-empty')).toBeVisible();
  });
  await setLanguage(page, 'PL');
  await page.getByTestId('batch-filter').getByText('Do wydruku').click();
  await expect(page.getByTestId('batch-print-submit')).toHaveText('Zaznacz paragony do wydruku');
  await receipt.getByRole('checkbox').check();
  await expect(page.getByTestId('batch-print-submit')).toHaveText('Drukuj 1 paragon');
  await setLanguage(page, 'EN');

  expect(errors).toEqual([]);
  await office.close();
  await shop.close();
});

/** A walk-in's product sale at the back-office POS (cash), and a print request for its receipt. */
async function sellAndRequestReceipt(request: APIRequestContext, demo: ReturnType<typeof readDemo>) {
  const { headers } = await managerSession(request, demo);
  const api = `/api/v4/${demo.studioUuid}`;
  const init = (await (await request.get(`${api}/retail/init`, { headers })).json()) as {
    items: { type: string; id: string; price: number; stock: number | null }[];
  };
  const product = init.items.find((i) => i.type === 'product' && i.price > 0 && (i.stock ?? 1) > 0)!;
  const sold = await request.post(`${api}/retail/checkout`, {
    headers: { ...headers, 'idempotency-key': `invoices-e2e-${Date.now()}` },
    data: {
      clientId: null,
      items: [{ type: 'product', id: product.id }],
      payments: [{ method: 2, amount: product.price }],
    },
  });
  expect(sold.status(), await sold.text()).toBe(201);
  const orderId = ((await sold.json()) as { orders: { id: string }[] }).orders[0]!.id;
  const printed = await request.post(`${api}/client-order/${orderId}/print-receipt`, { headers, data: {} });
  expect(printed.status(), await printed.text()).toBe(200);
  return orderId;
}
