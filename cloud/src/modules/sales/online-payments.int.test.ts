import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '../../../../shared/enums';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { PROVIDERS } from './providers';
import { api, payAtTestBank, salesStudio } from './sales-support';

/**
 * No call to the payment provider while a transaction holds the order's row lock: the checkout
 * commits a pending payment, then asks the provider, then records the answer. The test provider is
 * wrapped so that, while it handles the call, another connection locks the order row `for update
 * nowait` (PostgreSQL answers 55P03 at once if the request still held it; on the embedded database,
 * one connection, that other transaction could not even start).
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const provider = PROVIDERS.test;
const createPayment = provider.createPayment.bind(provider);
afterEach(() => {
  provider.createPayment = createPayment;
});

/** While the provider is asked: can another transaction lock the order row right now? */
function lockProbe() {
  const probes: Array<{ orderId: string; lockable: boolean | string }> = [];
  provider.createPayment = async (db, request) => {
    const { orderId } = (await app
      .knex('client_order_payments')
      .where({ id: request.paymentId })
      .first('orderId')) as { orderId: string };
    const probe = app.knex.transaction(async (trx) => {
      await trx.raw('select id from client_orders where id = ? for update nowait', [orderId]);
      return true as const;
    });
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('no connection'), 3_000));
    const lockable = await Promise.race([probe, timeout]).catch((err: Error) => err.message);
    probes.push({ orderId, lockable });
    return createPayment(db, request);
  };
  return probes;
}

describe('starting an online payment', () => {
  it('a wallet top-up asks the provider after the commit, then records its answer', async () => {
    const s = await salesStudio(app);
    const probes = lockProbe();
    const top = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 30000 },
      { headers: { 'idempotency-key': `k-${uuidv7()}` } },
    );
    expect(top.status, top.text).toBe(201);
    expect(probes).toEqual([{ orderId: top.body.orderId, lockable: true }]);
    const paymentId = new URL(top.body.redirectUrl, app.url).searchParams.get('payment')!;
    // The provider's answer is recorded: the payer goes on to its page.
    const payment = await app.knex('client_order_payments').where({ id: paymentId }).first();
    expect(payment).toMatchObject({ status: 'pending', provider: 'test' });
    expect(payment!.providerRef).toBeTruthy();
    expect(JSON.parse(payment!.redirectUrl as string).url).toContain('/app/test-provider/');
    await payAtTestBank(app, s.clientHttp, top.body.redirectUrl, 'succeeded');
  });

  it('a donation too; a provider that fails leaves the payment and the order failed, not locked', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const probes = lockProbe();
    const gift = { amount: 2500, email: `d-${uuidv7().slice(-8)}@example.com` };
    const donated = await visitor.post(api(s.studio, 'donation/checkout'), gift, {
      headers: { 'idempotency-key': `k-${uuidv7()}` },
    });
    expect(donated.status, donated.text).toBe(201);
    expect(probes).toEqual([{ orderId: donated.body.orderId, lockable: true }]);

    provider.createPayment = async () => {
      throw new Error('provider down');
    };
    const key = `k-${uuidv7()}`;
    const refused = await visitor.post(api(s.studio, 'donation/checkout'), gift, {
      headers: { 'idempotency-key': key },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error.key).toBe('payment.providerError');
    const order = await app
      .knex('client_orders')
      .where({ studioId: s.studio.id, source: 'donation', sourceId: key })
      .first('id', 'status');
    const payments = await app.knex('client_order_payments').where({ orderId: order!.id });
    expect(payments.map((p: { status: string }) => p.status)).toEqual(['failed']);
    expect(order!.status).toBe(OrderStatus.failed);
  });
});
