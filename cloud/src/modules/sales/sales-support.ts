import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import type { TestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';
import { signedNotification } from './test-provider';

/** Shared by the sales integration tests: a studio with a tax, a pass, a product, signed-in people. */

export const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
export const unique = () => uuidv7().slice(-8);

/** The studio's VAT 23 % rate, in fiscal slot A; the studio's default unless told otherwise. */
export async function addVat23(app: TestApp, studio: { id: string }, isDefault = true): Promise<string> {
  const taxId = uuidv7();
  await app.knex('taxes').insert({
    id: taxId,
    studioId: studio.id,
    name: 'VAT 23%',
    rateBp: 2300,
    fiscalSlot: 'A',
    isDefault,
  });
  return taxId;
}

/** A pass of 10 entries valid 30 days at the price, taxed at 23 %. */
export async function addTenEntryPass(
  app: TestApp,
  studio: { id: string },
  taxId: string,
  price: number,
): Promise<string> {
  const passId = uuidv7();
  await app.knex('pricing_options').insert({
    id: passId,
    studioId: studio.id,
    name: { en: { value: '10 entries' }, pl: { value: 'Karnet 10 wejść' } },
    price,
    taxId,
    taxRateBp: 2300,
    entries: 10,
    validityCount: 30,
    validityUnit: 'day',
  });
  return passId;
}

/** Water at 5 zł; with a stock, its stock is tracked and that many are in stock. */
export async function addWater(
  app: TestApp,
  studio: { id: string },
  taxId: string,
  stock?: number,
): Promise<string> {
  const productId = uuidv7();
  await app.knex('products').insert({
    id: productId,
    studioId: studio.id,
    name: 'Water',
    price: 500,
    taxId,
    trackStock: stock !== undefined,
  });
  if (stock !== undefined) await addStock(app, studio, productId, stock);
  return productId;
}

/** The product's initial stock. */
export async function addStock(app: TestApp, studio: { id: string }, productId: string, quantity: number) {
  await app.knex('product_stock_movements').insert({
    id: uuidv7(),
    studioId: studio.id,
    productId,
    quantity,
    reason: 'initial',
  });
}

export async function salesStudio(app: TestApp) {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const taxId = await addVat23(app, studio);
  const passId = await addTenEntryPass(app, studio, taxId, 25000);
  const productId = await addWater(app, studio, taxId, 10);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const client = await app.signedIn(scenario.client.email, scenario.client.password);
  return { ...scenario, owner, clientHttp: client, taxId, passId, productId };
}

export async function staffWithRole(app: TestApp, studio: Studio, role: string): Promise<HttpClient> {
  return studioSessions(() => app).staffWithRole(studio, role);
}

export async function anotherClient(app: TestApp, studio: Studio) {
  const user = await createUser(app.knex, { firstName: 'Other', lastName: 'Client' });
  await addMembership(app.knex, studio, user, { isClient: true });
  return { user, http: await app.signedIn(user.email, user.password) };
}

/** An order straight in the database, in any status (the transitions tests start from each). */
export async function orderInStatus(
  app: TestApp,
  studio: Studio,
  clientId: string | null,
  status: number,
  total = 10000,
): Promise<string> {
  const id = uuidv7();
  await app.knex('client_orders').insert({
    id,
    studioId: studio.id,
    clientId,
    source: 'desk',
    status,
    currency: 'PLN',
    subtotal: total,
    discount: 0,
    total,
  });
  await app.knex('client_order_lines').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    position: 0,
    kind: 'fee',
    name: 'Fee',
    quantity: 1,
    unitPrice: total,
    vatRate: '2300',
    total,
  });
  return id;
}

export async function topUpDirect(app: TestApp, studio: Studio, clientId: string, amount: number) {
  await app.knex('client_wallet_payments').insert({
    id: uuidv7(),
    studioId: studio.id,
    clientId,
    amount,
    currency: 'PLN',
    kind: 'top_up',
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/**
 * Walks the browser's part of the online flow: the form redirect, the test bank's page, the payer's
 * choice. Returns the return URL the bank sent the browser to and the transaction id. The bank's
 * notification is not sent (`notify=never`): the test delivers it, or relies on the return.
 */
export async function payAtTestBank(
  app: TestApp,
  http: HttpClient,
  redirectUrl: string,
  outcome: 'succeeded' | 'failed' | 'cancelled',
): Promise<{ returnUrl: string; transactionId: string; sig: string }> {
  const redirect = await http.get(redirectUrl);
  expect(redirect.status, redirect.text).toBe(200);
  const action = /action="([^"]+)"/.exec(redirect.text)![1]!;
  const sig = /name="sig" value="([^"]+)"/.exec(redirect.text)![1]!;
  const bankPath = new URL(action).pathname;
  const bank = await http.request('POST', bankPath, undefined, {
    raw: form({ sig }),
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(bank.status, bank.text).toBe(200);
  expect(bank.text).toContain('data-outcome="succeeded"');
  const decided = await http.request('POST', `${bankPath}/decide?notify=never`, undefined, {
    raw: form({ sig, outcome }),
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(decided.status).toBe(302);
  return { returnUrl: decided.headers.get('location')!, transactionId: bankPath.split('/').pop()!, sig };
}

/** What the test bank would post to the webhook, delivered now. */
export async function deliverNotification(
  app: TestApp,
  studioId: string,
  transactionId: string,
  status: 'succeeded' | 'failed' | 'cancelled' | 'chargeback',
  eventId?: string,
) {
  const body = await signedNotification(app.knex, { id: transactionId, studioId }, status, eventId);
  const res = await fetch(`${app.url}/app/payment-notification/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { result?: string }, sent: body };
}

/**
 * The client puts the studio's pass in the cart and checks out online: the answer (order id and the
 * redirect to the bank). `pay` goes on to the test bank and delivers its success notification.
 */
export async function checkoutPassOnline(app: TestApp, s: Awaited<ReturnType<typeof salesStudio>>) {
  await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
    items: [{ type: 'pricingOption', id: s.passId }],
  });
  const checkout = await s.clientHttp.post(
    api(s.studio, 'shopping-cart/checkout'),
    { paymentMethod: 'online' },
    { headers: { 'idempotency-key': `key-${uuidv7()}` } },
  );
  expect(checkout.status, checkout.text).toBe(201);
  const orderId = checkout.body.orderId as string;
  const pay = async () => {
    const { transactionId } = await payAtTestBank(app, s.clientHttp, checkout.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    return transactionId;
  };
  return { orderId, redirectUrl: checkout.body.redirectUrl as string, pay };
}
