import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { HttpClient } from '../../../../tests/support/http-client';
import { useTestApp } from '../../../../tests/support/test-app';
import { hashApiKey } from './api-keys';
import { payAtTestBank, salesStudio } from '../sales/sales-support';

/**
 * POST /api/v2/public/retail/orders/checkout (issue 24): a partner's shop sells the studio's products
 * and passes through the public API, paid online at the studio's provider or recorded as paid
 * elsewhere.
 */
const app = useTestApp();

async function keyOf(studioId: string, scope: 'read' | 'read_write' = 'read_write') {
  const key = `sk_live_${uuidv7().replace(/-/g, '')}`;
  const id = uuidv7();
  await app.knex('studio_apis').insert({ id, studioId, name: 'Shop', keyHash: hashApiKey(key), scope });
  return { key, id };
}

const checkout = (key: string | null, body: unknown) =>
  new HttpClient(app.url).request('POST', '/api/v2/public/retail/orders/checkout', body, {
    noDefaults: true,
    headers: key ? { 'x-api-key': key } : {},
  });

const stockOf = async (productId: string) => {
  const row = (await app
    .knex('product_stock_movements')
    .where({ productId })
    .sum('quantity as s')
    .first()) as { s: string } | undefined;
  return Number(row?.s ?? 0);
};

describe('public retail orders checkout', () => {
  it('refuses missing, wrong and revoked keys, bad input, read keys and other studios', async () => {
    const s = await salesStudio(app);
    const { key } = await keyOf(s.studio.id);
    const body = { userId: s.client.id, items: [{ type: 'product', id: s.productId, quantity: 2 }] };

    for (const k of [null, 'sk_live_not-a-real-key-at-all']) {
      const res = await checkout(k, body);
      expect(res.status).toBe(401);
      expect(res.body.error.key).toBe('apiKey.invalid');
    }
    const { key: revoked, id: revokedId } = await keyOf(s.studio.id);
    await app.knex('studio_apis').where({ id: revokedId }).update({ revokedAt: new Date() });
    expect((await checkout(revoked, body)).status).toBe(401);

    const bad = await checkout(key, { userId: 'nope', items: [], payment: 'cash' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['items', 'payment', 'userId']);

    const { key: readKey } = await keyOf(s.studio.id, 'read');
    const read = await checkout(readKey, body);
    expect(read.status).toBe(403);
    expect(read.body.error.key).toBe('apiKey.readOnly');

    // Another studio's key names neither this studio's client nor its product.
    const other = await salesStudio(app);
    const { key: otherKey } = await keyOf(other.studio.id);
    expect((await checkout(otherKey, body)).status).toBe(404);
    expect(
      (
        await checkout(otherKey, {
          userId: other.client.id,
          items: [{ type: 'product', id: s.productId }],
        })
      ).status,
    ).toBe(409);
    expect(await app.knex('client_orders').where({ studioId: s.studio.id })).toEqual([]);
    expect(await app.knex('client_orders').where({ studioId: other.studio.id })).toEqual([]);
  });

  it('sells paid elsewhere at once, and online through the studio provider', async () => {
    const s = await salesStudio(app);
    const { key } = await keyOf(s.studio.id);

    // Paid at the partner's shop: paid now (method other), the pass handed over, the stock taken.
    const paid = await checkout(key, {
      userId: s.client.id,
      items: [
        { type: 'pricingOption', id: s.passId },
        { type: 'product', id: s.productId, quantity: 3 },
      ],
      payment: 'external',
      reference: 'SHOP-1001',
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body).toMatchObject({ created: true, paymentUrl: null });
    expect(paid.body.order).toMatchObject({ status: OrderStatus.paid, total: 25000 + 1500 });
    expect(paid.body.order.payments.map((p: { method: number }) => p.method)).toEqual([PaymentMethod.other]);
    expect(await app.knex('client_pricing_options').where({ clientId: s.client.id })).toHaveLength(1);
    expect(await stockOf(s.productId)).toBe(7);

    // The same reference again: the same order, nothing sold twice.
    const again = await checkout(key, {
      userId: s.client.id,
      items: [{ type: 'product', id: s.productId, quantity: 3 }],
      payment: 'external',
      reference: 'SHOP-1001',
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ created: false, order: { id: paid.body.order.id } });
    expect(await stockOf(s.productId)).toBe(7);

    // More than is in stock: 409 on the item, nothing made.
    const tooMany = await checkout(key, {
      userId: s.client.id,
      items: [{ type: 'product', id: s.productId, quantity: 8 }],
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.fields).toEqual({ 'items.0.id': ['cart.problem.outOfStock'] });

    // Online: the order awaits payment; the client pays at the URL, then the goods are handed over.
    const online = await checkout(key, {
      userId: s.client.id,
      items: [{ type: 'product', id: s.productId, quantity: 2 }],
    });
    expect(online.status, online.text).toBe(201);
    expect(online.body.order.status).toBe(OrderStatus.awaiting);
    const url = new URL(online.body.paymentUrl as string);
    expect(url.pathname).toBe('/app/form-redirect');
    expect(await stockOf(s.productId)).toBe(7);
    await payAtTestBank(app, new HttpClient(app.url), `${url.pathname}${url.search}`, 'succeeded');
    const ret = await new HttpClient(app.url).get(`/app/return?payment=${url.searchParams.get('payment')}`);
    expect([200, 302]).toContain(ret.status);
    const order = await app.knex('client_orders').where({ id: online.body.order.id }).first();
    expect(order!.status).toBe(OrderStatus.paid);
    expect(await stockOf(s.productId)).toBe(5);
  });
});
