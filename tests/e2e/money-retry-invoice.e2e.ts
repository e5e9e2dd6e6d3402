import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { readDemo } from './support/demo';
import { RESULTS_DIR } from './support/paths';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { addToCartFromPriceList, clientShopPage } from './support/shop';
import { signInBackoffice, demoManager } from './support/sign-in';
import { managerSession } from './support/studio-api';

/**
 * Money online and at the desk (issue 26):
 * 1. a declined online payment leaves the items in the cart and offers "Try again", which leads to a
 *    new payment at the bank; the client comes back in the language they paid in (Polish), even in a
 *    browser without the language cookie (a bank's app returning to another browser);
 * 2. an invoice is started from the order, found by the client's name (no id to paste); an order
 *    paid part in cash, part by terminal shows the split on the order's page, the invoice's screen
 *    and its PDF.
 * Screenshots in EN and PL at 390 and 1280 px: <E2E_RESULTS_DIR>/screenshots/money-*.
 */

/** Every column of the table has exactly one heading, with text, and no two say the same. */
async function expectOneHeadingPerColumn(table: Locator) {
  const headings = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const firstRow = await table.locator('tbody tr').first().locator('td').count();
  expect(headings).toHaveLength(firstRow);
  expect(headings.filter((h) => h === '')).toEqual([]);
  expect(new Set(headings).size).toBe(headings.length);
}

test('a declined online payment keeps the cart, comes back in Polish and "Try again" pays anew', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const page = await clientShopPage(browser, demo, errors);
  await addToCartFromPriceList(page, demo, '8 entries');
  await expect(page.getByTestId('cart-item').filter({ hasText: '8 entries' })).toHaveCount(1);

  // The client reads the shop in Polish and pays online; the bank declines.
  await setLanguage(page, 'PL');
  await page.getByTestId('method-online').check();
  await page.getByTestId('checkout-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  const firstBank = page.url();
  await page.locator('button[data-outcome="failed"]').click();
  await expect(page).toHaveURL(/\/frontoffice\/purchases\?order=/);
  const paymentId = new URL(page.url()).searchParams.get('payment')!;

  // Back in Polish, told what happened, with the way to try again.
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  const result = page.getByTestId('payment-result');
  await expect(result).toHaveAttribute('data-outcome', 'failed');
  await expect(result).toContainText('Płatność została odrzucona');
  await expect(page.getByTestId('payment-retry-hint')).toContainText('czekają w koszyku');
  await expect(page.getByTestId('payment-retry')).toHaveText('Spróbuj ponownie');

  // The bank's app sends the payer back to another browser (no cookies, English): still Polish.
  const other = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'en-US' });
  const otherPage = await other.newPage();
  await otherPage.goto(`/app/return?payment=${paymentId}`);
  await expect(otherPage.locator('html')).toHaveAttribute('lang', 'pl');
  await other.close();

  await shootAll(page, 'money-payment-declined', async () => {
    await expect(page.getByTestId('payment-retry')).toBeVisible();
  });

  // "Try again": the cart still holds the pass, and paying opens a new payment at the bank.
  await page.getByTestId('payment-retry').click();
  await expect(page.getByTestId('cart-item').filter({ hasText: '8 entries' })).toHaveCount(1);
  await page.getByTestId('method-online').check();
  await page.getByTestId('checkout-pay').click();
  await expect(page).toHaveURL(/\/app\/test-provider\//);
  expect(page.url()).not.toBe(firstBank);
  await page.locator('button[data-outcome="succeeded"]').click();
  await expect(page.getByTestId('payment-result')).toHaveAttribute('data-outcome', 'succeeded');
  await page.getByTestId('frontoffice-menu-cart').click();
  await expect(page.getByTestId('cart-empty')).toBeVisible();

  expect(errors).toEqual([]);
  await page.context().close();
});

test('an invoice starts from the order found by the client, and shows the split payment', async ({
  browser,
  request,
}) => {
  const demo = readDemo();
  const errors: string[] = [];

  // At the desk: the demo client buys a pass, part in cash, part by the payment terminal.
  const { headers } = await managerSession(request, demo);
  const api = `/api/v4/${demo.studioUuid}`;
  const orders = (await (
    await request.get(`${api}/client-order/all?q=${encodeURIComponent(demo.clientEmail!)}&limit=1`, {
      headers,
    })
  ).json()) as { items: { client: { id: string } | null }[] };
  const clientId = orders.items[0]!.client!.id;
  const init = (await (await request.get(`${api}/retail/init`, { headers })).json()) as {
    items: { type: string; id: string; price: number }[];
  };
  const pass = init.items.find((i) => i.type === 'pricingOption' && i.price > 5000)!;
  const sold = await request.post(`${api}/retail/checkout`, {
    headers: { ...headers, 'idempotency-key': `money-e2e-${Date.now()}` },
    data: {
      clientId,
      items: [{ type: 'pricingOption', id: pass.id }],
      payments: [
        { method: 2, amount: pass.price - 3000 },
        { method: 12, amount: 3000 },
      ],
    },
  });
  expect(sold.status(), await sold.text()).toBe(201);
  const orderId = ((await sold.json()) as { orders: { id: string }[] }).orders[0]!.id;
  const reference = orderId.slice(-8).toUpperCase();

  const office = await browser.newContext({
    viewport: VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: true,
  });
  const page = await office.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signInBackoffice(page, demo.studioUuid, demoManager(demo));
  await setLanguage(page, 'EN');

  // The order's page shows how it was paid.
  await page.goto(`/${demo.studioUuid}/backoffice#/orders/${orderId}`);
  const orderSplit = page.getByTestId('order-payment-split');
  await expect(orderSplit).toContainText('Cash');
  await expect(orderSplit).toContainText('Payment terminal');
  await expect(orderSplit.getByTestId('order-payment-split-part')).toHaveCount(2);
  // One heading per column, none left empty (the refund column's is for screen readers).
  await expectOneHeadingPerColumn(page.getByTestId('order-payments'));
  await shootAll(page, 'money-order-split', async () => {
    await expect(orderSplit).toBeVisible();
  });

  // Issue invoice: no order id to paste — the order is found by the client's name.
  await page.goto(`/${demo.studioUuid}/backoffice#/invoices/new`);
  await expect(page.locator('input[name="orderId"]')).toHaveCount(0);
  await page.getByTestId('invoice-order-search').fill('Julia Nowak');
  const found = page.locator(`[data-testid="invoice-order-result"][data-order="${orderId}"]`);
  await expect(found).toContainText(reference);
  await expect(found).toContainText('Julia Nowak');
  await shootAll(page, 'money-invoice-order-search', async () => {
    await expect(found).toBeVisible();
  });
  // By its number too.
  await page.getByTestId('invoice-order-search').fill(reference);
  await expect(page.getByTestId('invoice-order-result')).toHaveCount(1);
  await found.click();
  const form = page.getByTestId('invoice-issue-form');
  await expect(form).toBeVisible();
  await expect(form.getByTestId('payment-split')).toContainText('Cash');
  await form.locator('input[name="buyer.addressLine"]').fill('ul. Złota 44/12');
  await form.locator('input[name="buyer.postalCode"]').fill('00-120');
  await form.locator('input[name="buyer.city"]').fill('Warszawa');
  await page.getByTestId('invoice-issue-submit').click();
  await expect(page.getByTestId('invoice-detail')).toBeVisible();
  const split = page.getByTestId('invoice-detail').getByTestId('payment-split');
  await expect(split.getByTestId('payment-split-part')).toHaveCount(2);
  await expect(split).toContainText('Payment terminal');
  // The lines table named the VAT rate and the VAT amount both "VAT": now each its own heading.
  await expectOneHeadingPerColumn(page.getByTestId('invoice-detail').locator('table').first());
  await shootAll(page, 'money-invoice-split', async () => {
    await expect(split).toBeVisible();
  });

  // The PDF lists both methods with their amounts.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('invoice-download').click(),
  ]);
  const file = path.join(RESULTS_DIR, 'money-invoice-split.pdf');
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  // Passes cost under 1 000 zł: no thousands separator.
  const amount = (minor: number) => `${Math.floor(minor / 100)},${String(minor % 100).padStart(2, '0')}`;
  expect(text).toContain('Sposoby płatności');
  expect(text).toContain(`Gotówka ${amount(pass.price - 3000)} PLN`);
  expect(text).toContain(`Terminal płatniczy ${amount(3000)} PLN`);

  expect(errors).toEqual([]);
  await office.close();
});
