import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type BrowserContext, type Locator } from '@playwright/test';
import {
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
} from '../../shared/contracts/page-context';
import { readDemo } from './support/demo';
import { RESULTS_DIR } from './support/paths';
import { VIEWPORTS, setLanguage, shootAll } from './support/screenshots';
import { demoClient, demoManager } from './support/sign-in';

/**
 * Money online and at the desk (issue 26):
 * 1. a declined online payment leaves the items in the cart and offers "Try again", which leads to a
 *    new payment at the bank; the client comes back in the language they paid in (Polish), and a
 *    return to a browser without the language cookie (a bank's app) sets it to Polish;
 * 2. an invoice is started from the order, found by the client's name (no id to paste); an order
 *    paid part in cash, part by terminal shows the split on the order's page, the invoice's screen
 *    and its PDF.
 * Screenshots in EN and PL at 390 and 1280 px: <E2E_RESULTS_DIR>/screenshots/money-*.
 * Kept short (issue 26: under 90 s): sessions are signed in through the API into the browser's own
 * cookie jar (no sign-in pages), one browser context per test, items put in the cart by its link.
 */

/** Every column of the table has exactly one heading, with text, and no two say the same. */
async function expectOneHeadingPerColumn(table: Locator) {
  const headings = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const firstRow = await table.locator('tbody tr').first().locator('td').count();
  expect(headings).toHaveLength(firstRow);
  expect(headings.filter((h) => h === '')).toEqual([]);
  expect(new Set(headings).size).toBe(headings.length);
}

/**
 * Signs `who` in through the API on the context's own request client, so the session cookie is the
 * browser's (no sign-in page to load); answers the headers for API calls of that session.
 */
async function signInByApi(
  context: BrowserContext,
  who: { email: string; password: string },
  studioUuid: string,
): Promise<Record<string, string>> {
  const base = { [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE };
  const csrf = (await (await context.request.get('/api/v4/auth/csrf', { headers: base })).json()) as {
    token: string;
  };
  const login = await context.request.post('/api/v4/auth/login', {
    headers: { ...base, [CSRF_HEADER]: csrf.token },
    data: { emailAddress: who.email, password: who.password, studioUuid },
  });
  expect(login.status(), await login.text()).toBe(200);
  const session = (await login.json()) as { token: string };
  return { ...base, [CSRF_HEADER]: session.token };
}

test('a declined online payment keeps the cart, comes back in Polish and "Try again" pays anew', async ({
  browser,
  request,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const context = await browser.newContext({ viewport: VIEWPORTS.laptop, locale: 'en-US' });
  await context.addCookies([{ name: 'locale', value: 'en', url: demo.baseURL }]);
  const headers = await signInByApi(context, demoClient(demo), demo.studioUuid);
  const list = (await (
    await context.request.post(`/api/v4/${demo.studioUuid}/pricing/pricing-options`, { headers, data: {} })
  ).json()) as {
    uncategorized: Array<{ id: string; name: { en: { value: string } } }>;
    categories: Array<{ items: Array<{ id: string; name: { en: { value: string } } }> }>;
  };
  const option = [...list.uncategorized, ...list.categories.flatMap((c) => c.items)].find(
    (o) => o.name.en.value === '8 entries',
  )!;
  expect(option).toBeDefined();
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  // One page load: the cart with the pass put in by its link.
  await page.goto(`/${demo.studioUuid}/frontoffice/cart?add=pricingOption:${option.id}`);
  // The context's first page: nothing cached yet, so a loaded machine may take longer than 10 s.
  await expect(page.getByTestId('cart-item').filter({ hasText: '8 entries' })).toHaveCount(1, {
    timeout: 30_000,
  });

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

  // The bank's app sends the payer back to another browser (no cookies, English): the return
  // switches it to Polish (the page reads the cookie first; the page itself is checked above).
  const other = await request.get(`/app/return?payment=${paymentId}`, {
    maxRedirects: 0,
    headers: { 'accept-language': 'en-US', cookie: 'locale=en' },
  });
  expect(other.status()).toBe(302);
  expect(other.headers()['set-cookie']).toMatch(/(^|\n|, )locale=pl;/);
  expect(other.headers().location).toContain('/frontoffice/purchases?order=');

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
  // Paid: nothing is left in the cart (asked of the API: one page load less).
  const cart = (await (
    await context.request.get(`/api/v4/${demo.studioUuid}/shopping-cart/status`, { headers })
  ).json()) as { items: unknown[] };
  expect(cart.items).toEqual([]);

  expect(errors).toEqual([]);
  await context.close();
});

test('an invoice starts from the order found by the client, and shows the split payment', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const office = await browser.newContext({
    viewport: VIEWPORTS.laptop,
    locale: 'en-US',
    acceptDownloads: true,
  });
  // The manager's session is the browser's: no sign-in page to load.
  const headers = await signInByApi(office, demoManager(demo), demo.studioUuid);
  const request = office.request;

  // At the desk: the demo client buys a pass, part in cash, part by the payment terminal.
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

  const page = await office.newPage();
  page.on('pageerror', (e) => errors.push(e.message));

  // The order's page shows how it was paid.
  await page.goto(`/${demo.studioUuid}/backoffice#/orders/${orderId}`);
  const orderSplit = page.getByTestId('order-payment-split');
  // The context's first page: nothing cached yet, so a loaded machine may take longer than 10 s.
  await expect(orderSplit).toBeVisible({ timeout: 30_000 });
  await setLanguage(page, 'EN');
  await expect(orderSplit).toContainText('Cash');
  await expect(orderSplit).toContainText('Payment terminal');
  await expect(orderSplit.getByTestId('order-payment-split-part')).toHaveCount(2);
  // One heading per column, none left empty (the refund column's is for screen readers). Not
  // photographed: the same split text is photographed on the invoice (money-invoice-split).
  await expectOneHeadingPerColumn(page.getByTestId('order-payments'));

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

  // Its KSeF FA(3) XML: paid in full in two parts, each with its amount and form (cash 1, card 2).
  const invoiceId = /#\/invoices\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const xml = (await (await request.get(`${api}/invoice/${invoiceId}/ksef.xml`, { headers })).text()).replace(
    /\s+/g,
    '',
  );
  expect(xml).toContain('<ZnacznikZaplatyCzesciowej>2</ZnacznikZaplatyCzesciowej>');
  expect(xml).toContain(
    `<KwotaZaplatyCzesciowej>${amount(pass.price - 3000).replace(',', '.')}</KwotaZaplatyCzesciowej>`,
  );
  expect(xml.match(/<ZaplataCzesciowa>/g)).toHaveLength(2);
  expect(xml).toContain('<FormaPlatnosci>1</FormaPlatnosci></ZaplataCzesciowa>');
  expect(xml).toContain('<FormaPlatnosci>2</FormaPlatnosci></ZaplataCzesciowa>');

  expect(errors).toEqual([]);
  await office.close();
});
