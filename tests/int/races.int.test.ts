import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PaymentMethod } from '../../shared/enums';
import { addMembership, createUser } from '../support/factories';
import type { HttpClient } from '../support/http-client';
import { startTestApp, type TestApp } from '../support/test-app';
import { salesStudio } from '../../cloud/src/modules/sales/sales-support';

/**
 * Single-use and limited resources under parallel requests: tracked stock (desk and online), a
 * single-use voucher, the wallet, the Idempotency-Key, and one client's cart prepare / voucher redeem
 * / checkout at once (they deadlocked). Each test fires the requests together, then counts in SQL
 * that nothing was oversold or doubled, and that no answer was a 500. Places in a class and shared
 * passes have their own races in bookings/*.concurrency.int.test.ts. PostgreSQL only: the embedded
 * PGlite is one connection, so nothing runs in parallel there.
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');

let app: TestApp;
beforeAll(async () => {
  if (realPg) app = await startTestApp();
});
afterAll(async () => app?.close());

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const key = () => `race-${uuidv7()}`;
const sell = (http: HttpClient, studio: { id: string }, body: unknown, idempotencyKey = key()) =>
  http.post(api(studio, 'retail/checkout'), body, { headers: { 'idempotency-key': idempotencyKey } });

async function stockOf(productId: string): Promise<number> {
  const row = (await app
    .knex('product_stock_movements')
    .where({ productId: productId })
    .sum({ n: 'quantity' })
    .first()) as { n: string | number | null };
  return Number(row.n ?? 0);
}

async function setStock(studioId: string, productId: string, quantity: number) {
  await app.knex('product_stock_movements').where({ productId: productId }).delete();
  await app.knex('product_stock_movements').insert({
    id: uuidv7(),
    studioId: studioId,
    productId: productId,
    quantity,
    reason: 'initial',
  });
}

async function credit(studioId: string, clientId: string, amount: number) {
  await app.knex('client_wallet_payments').insert({
    id: uuidv7(),
    studioId: studioId,
    clientId: clientId,
    amount,
    currency: 'PLN',
    kind: 'top_up',
  });
}

const statuses = (answers: Array<{ status: number }>) =>
  answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});

describe.skipIf(!realPg)('races on limited resources (PostgreSQL)', () => {
  it('20 parallel desk sales of a product with stock 1 sell exactly one', async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 1);
    const basket = {
      clientId: null,
      items: [{ type: 'product', id: s.productId, quantity: 1, status: 0 }],
      payments: [{ method: PaymentMethod.cash, amount: 500 }],
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => sell(s.owner, s.studio, basket)));
    expect(statuses(answers)).toEqual({ 201: 1, 409: 19 });
    expect(answers.find((a) => a.status === 409)?.body.error.key).toBe('retail.itemUnavailable');
    expect(await stockOf(s.productId)).toBe(0);
    const sold = await app
      .knex('client_order_lines as l')
      .join('client_orders as o', 'o.id', 'l.order_id')
      .where({ 'o.studio_id': s.studio.id, 'l.ref_id': s.productId });
    expect(sold).toHaveLength(1);
  });

  it('parallel online wallet checkouts of a product with stock 1 by different clients sell exactly one', async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 1);
    const buyers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const user = await createUser(app.knex, { firstName: 'Buyer', lastName: String(i) });
        await addMembership(app.knex, s.studio, user, { isClient: true });
        await credit(s.studio.id, user.id, 10_000);
        const http = await app.signedIn(user.email, user.password);
        const prepared = await http.post(api(s.studio, 'shopping-cart/prepare'), {
          items: [{ type: 'product', id: s.productId, quantity: 1 }],
        });
        expect(prepared.status, prepared.text).toBe(200);
        return http;
      }),
    );
    const answers = await Promise.all(
      buyers.map((http) =>
        http.post(
          api(s.studio, 'shopping-cart/checkout'),
          { paymentMethod: 'wallet' },
          { headers: { 'idempotency-key': key() } },
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 409: 7 });
    expect(await stockOf(s.productId)).toBe(0);
  });

  it('a single-use voucher on 10 parallel desk sales is redeemed once', async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 100);
    const voucher = await s.owner.post(api(s.studio, 'voucher'), {
      code: `RACE-${uuidv7().slice(-6)}`,
      type: 0,
      discountType: 'percentage',
      value: 1000,
      appliesTo: 'all', // type 0: single use
    });
    expect(voucher.status, voucher.text).toBe(201);
    const basket = {
      clientId: null,
      items: [{ type: 'product', id: s.productId, quantity: 1, status: 0 }],
      voucherCode: voucher.body.code,
      payments: [{ method: PaymentMethod.cash, amount: 450 }],
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => sell(s.owner, s.studio, basket)));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await app.knex('voucher_redemptions').where({ voucherId: voucher.body.id })).toHaveLength(1);
  });

  it('parallel desk sales paid from one wallet never take it below zero', async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 100);
    await credit(s.studio.id, s.client.id, 1_000); // two waters' worth
    const basket = {
      clientId: s.client.id,
      items: [{ type: 'product', id: s.productId, quantity: 1, status: 0 }],
      payments: [{ method: PaymentMethod.wallet, amount: 500 }],
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => sell(s.owner, s.studio, basket)));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    const balance = (await app
      .knex('client_wallet_payments')
      .where({ studioId: s.studio.id, clientId: s.client.id })
      .sum({ n: 'amount' })
      .first()) as { n: string };
    expect(Number(balance.n)).toBe(0);
  });

  it('one Idempotency-Key sent 10 times at once sells once and answers the same sale', async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 100);
    const basket = {
      clientId: null,
      items: [{ type: 'product', id: s.productId, quantity: 2, status: 0 }],
      payments: [{ method: PaymentMethod.cash, amount: 1000 }],
    };
    const k = key();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sell(s.owner, s.studio, basket, k)));
    expect(statuses(answers)).toEqual({ 201: 10 });
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(await app.knex('retail_sales').where({ studioId: s.studio.id })).toHaveLength(1);
    expect(await stockOf(s.productId)).toBe(98);
  });

  it("one client's cart prepare, voucher redeem and checkout at once never deadlock into a 500", async () => {
    const s = await salesStudio(app);
    await setStock(s.studio.id, s.productId, 1000);
    await credit(s.studio.id, s.client.id, 1_000_000);
    const voucher = await s.owner.post(api(s.studio, 'voucher'), {
      code: `CART-${uuidv7().slice(-6)}`,
      type: 0,
      discountType: 'percentage',
      value: 1000,
      appliesTo: 'all',
    });
    expect(voucher.status, voucher.text).toBe(201);
    const items = [
      { type: 'product', id: s.productId, quantity: 1 },
      { type: 'pricingOption', id: s.passId },
    ];
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), { items });
    const answers = [];
    for (let round = 0; round < 6; round += 1) {
      answers.push(
        ...(await Promise.all([
          s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), { items }),
          s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: voucher.body.code }),
          s.clientHttp.post(
            api(s.studio, 'shopping-cart/checkout'),
            { paymentMethod: 'wallet' },
            { headers: { 'idempotency-key': key() } },
          ),
          s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), { items }),
          s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: voucher.body.code }),
          s.clientHttp.post(
            api(s.studio, 'shopping-cart/checkout'),
            { paymentMethod: 'wallet' },
            { headers: { 'idempotency-key': key() } },
          ),
        ])),
      );
    }
    expect(answers.filter((a) => a.status >= 500).map((a) => a.text)).toEqual([]);
    // Every order paid from the wallet: the wallet's entries and the paid orders agree to the grosz.
    const paid = (await app
      .knex('client_orders')
      .where({ studioId: s.studio.id, clientId: s.client.id, source: 'online' })
      .sum({ n: 'total' })
      .first()) as { n: string | null };
    const spent = (await app
      .knex('client_wallet_payments')
      .where({ studioId: s.studio.id, clientId: s.client.id })
      .where('amount', '<', 0)
      .sum({ n: 'amount' })
      .first()) as { n: string | null };
    expect(-Number(spent.n ?? 0)).toBe(Number(paid.n ?? 0));
  });
});
