import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { api, deliverNotification, payAtTestBank, salesStudio } from './sales-support';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const key = () => `don-${uuidv7()}`;
const gift = { amount: 5000, name: 'Anna Nowak', email: 'Anna@Example.com', message: 'Thank you!' };

describe('donations', () => {
  it('anyone can donate online: page data, checkout, bank, return, payment status', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const init = await visitor.post(api(s.studio, 'donation/init'), {});
    expect(init.status, init.text).toBe(200);
    expect(init.body).toMatchObject({
      studio: { id: s.studio.id, name: s.studio.name },
      currency: 'PLN',
      amounts: [2000, 5000, 10000, 20000],
      min: 500,
      available: true,
      donor: null,
    });
    const res = await visitor.post(api(s.studio, 'donation/checkout'), gift, {
      headers: { 'idempotency-key': key() },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: OrderStatus.awaiting });
    const { returnUrl, transactionId } = await payAtTestBank(app, visitor, res.body.redirectUrl, 'succeeded');
    const paymentId = new URL(returnUrl).searchParams.get('payment')!;

    const pending = await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`));
    expect(pending.body).toEqual({
      orderId: res.body.orderId,
      amount: 5000,
      currency: 'PLN',
      status: 'pending',
    });

    // Coming back from the bank settles it and lands on the donation's payment-status page.
    const back = await visitor.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    expect(back.headers.get('location')).toBe(
      `/${s.studio.id}/donation/payment-status?order=${res.body.orderId}&payment=${paymentId}`,
    );
    const done = await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`));
    expect(done.body.status).toBe('succeeded');
    expect((await deliverNotification(app, s.studio.id, transactionId, 'succeeded')).body.result).toBe(
      'ignored',
    );

    // Staff see it as a paid donation order of no client, with the donor kept beside it.
    const order = await s.owner.get(api(s.studio, `client-order/${res.body.orderId}/init`));
    expect(order.body).toMatchObject({
      status: OrderStatus.paid,
      source: 'donation',
      client: null,
      total: 5000,
      lines: [{ kind: 'donation', name: 'Darowizna', vatRate: 'exempt', fulfilled: true }],
      payments: [{ method: PaymentMethod.test, status: 'succeeded' }],
    });
    const donation = await app.knex('donations').where({ orderId: res.body.orderId }).first();
    expect(donation).toMatchObject({
      donorName: 'Anna Nowak',
      donorEmail: 'anna@example.com',
      message: 'Thank you!',
      anonymous: false,
    });
  });

  it('a retried checkout with the same key gives the same payment; a declined one shows failed', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const k = key();
    const send = () =>
      visitor.post(api(s.studio, 'donation/checkout'), gift, { headers: { 'idempotency-key': k } });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(await app.knex('client_order_payments').where({ orderId: a.body.orderId })).toHaveLength(1);
    expect(await app.knex('donations').where({ studioId: s.studio.id })).toHaveLength(1);
    const otherAmount = await visitor.post(
      api(s.studio, 'donation/checkout'),
      { ...gift, amount: 9000 },
      { headers: { 'idempotency-key': k } },
    );
    expect(otherAmount.status).toBe(409);

    const { returnUrl } = await payAtTestBank(app, visitor, a.body.redirectUrl, 'failed');
    await visitor.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    const paymentId = new URL(returnUrl).searchParams.get('payment')!;
    const st = await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`));
    expect(st.body.status).toBe('failed');
    // A retry after the decision goes nowhere near the bank again.
    const late = await send();
    expect(late.body).toMatchObject({
      orderId: a.body.orderId,
      status: OrderStatus.failed,
      redirectUrl: null,
    });
  });

  it('records a signed-in client as the donor and prefills the form', async () => {
    const s = await salesStudio(app);
    const init = await s.clientHttp.post(api(s.studio, 'donation/init'), {});
    expect(init.body.donor).toEqual({ name: 'Kamil Client', email: s.client.email });
    const res = await s.clientHttp.post(
      api(s.studio, 'donation/checkout'),
      { amount: 2000, email: s.client.email, anonymous: true },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    const order = await app.knex('client_orders').where({ id: res.body.orderId }).first();
    expect(order!.clientId).toBe(s.client.id);
    const purchases = await s.clientHttp.post(api(s.studio, 'purchases'), {});
    expect(purchases.body.items[0].lines[0]).toMatchObject({ kind: 'donation', total: 2000 });
  });

  it('refuses bad input, a missing key, and a studio without online payment', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const bad = await visitor.post(
      api(s.studio, 'donation/checkout'),
      { amount: 10, email: 'nope', message: 'x'.repeat(501), extra: 1 },
      { headers: { 'idempotency-key': key() } },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.amount).toBeDefined();
    expect(bad.body.error.fields.email).toBeDefined();
    expect(bad.body.error.fields.message).toBeDefined();
    const noKey = await visitor.post(api(s.studio, 'donation/checkout'), gift);
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.key).toBe('checkout.idempotencyKeyRequired');

    await s.owner.patch(api(s.studio, 'payment-provider/test'), { enabled: false });
    expect((await visitor.post(api(s.studio, 'donation/init'), {})).body.available).toBe(false);
    const off = await visitor.post(api(s.studio, 'donation/checkout'), gift, {
      headers: { 'idempotency-key': key() },
    });
    expect(off.status).toBe(409);
    expect(off.body.error.key).toBe('payment.providerUnavailable');
    expect(await app.knex('client_orders').where({ studioId: s.studio.id })).toHaveLength(0);
  });

  it("a studio's donation payments are unknown to another studio and to unknown ids", async () => {
    const s = await salesStudio(app);
    const other = await salesStudio(app);
    const visitor = await app.anonymous();
    const res = await visitor.post(api(s.studio, 'donation/checkout'), gift, {
      headers: { 'idempotency-key': key() },
    });
    const paymentId = new URL(`http://x${res.body.redirectUrl}`).searchParams.get('payment')!;
    expect((await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`))).status).toBe(
      200,
    );
    const foreign = await visitor.get(api(other.studio, `donation/payment-status?payment=${paymentId}`));
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('5000');
    expect((await visitor.get(api(s.studio, `donation/payment-status?payment=${uuidv7()}`))).status).toBe(
      404,
    );
    expect((await visitor.post(api({ id: uuidv7() }, 'donation/init'), {})).status).toBe(404);
    // A payment of an ordinary order is not a donation's.
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const bought = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const orderPayment = new URL(`http://x${bought.body.redirectUrl}`).searchParams.get('payment')!;
    expect((await visitor.get(api(s.studio, `donation/payment-status?payment=${orderPayment}`))).status).toBe(
      404,
    );
  });
});
