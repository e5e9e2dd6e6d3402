import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus } from '../../../../shared/enums';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { api, checkoutPassOnline, salesStudio, topUpDirect } from './sales-support';

/**
 * Bulk charge of an order whose online checkout is still open (status awaiting): the charge closes
 * the open payment at the provider and records it cancelled, so the client cannot pay twice.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('bulk charge of an order awaiting an online payment', () => {
  it('charges the wallet, cancels the open checkout, and the bank page no longer takes money', async () => {
    const s = await salesStudio(app);
    const { orderId, redirectUrl } = await checkoutPassOnline(app, s);
    // The client opened the bank's page and left it open.
    const redirect = await s.clientHttp.get(redirectUrl);
    const action = /action="([^"]+)"/.exec(redirect.text)![1]!;
    const sig = /name="sig" value="([^"]+)"/.exec(redirect.text)![1]!;
    const bankPath = new URL(action).pathname;

    await topUpDirect(app, s.studio, s.client.id, 30000);
    const charged = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [orderId] });
    expect(charged.body, charged.text).toEqual({ charged: [orderId], failed: [] });

    const payments = await app.knex('client_order_payments').where({ orderId }).orderBy('id');
    expect(payments.map((p) => [p.method, p.status])).toEqual([
      [11, 'cancelled'],
      [expect.any(Number), 'succeeded'],
    ]);
    const tx = await app
      .knex('test_provider_transactions')
      .where({ id: bankPath.split('/').pop() })
      .first();
    expect(tx!.status).toBe('cancelled');

    // Pressing Pay on the page still open changes nothing: one payment, one pass, order paid.
    const decided = await s.clientHttp.request('POST', `${bankPath}/decide?notify=never`, undefined, {
      raw: form({ sig, outcome: 'succeeded' }),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(decided.status).toBe(302);
    const back = new URL(decided.headers.get('location')!);
    await s.clientHttp.get(back.pathname + back.search);
    const status = await s.clientHttp.get(api(s.studio, `client-order/${orderId}/status`));
    expect(status.body).toMatchObject({ status: OrderStatus.paid, paid: 25000 });
    const succeeded = await app.knex('client_order_payments').where({ orderId, status: 'succeeded' });
    expect(succeeded).toHaveLength(1);
    const passes = await app
      .knex('client_pricing_options')
      .where({ studioId: s.studio.id, clientId: s.client.id });
    expect(passes).toHaveLength(1);
  });
});
