import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { HttpClient } from '../../../../tests/support/http-client';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { orderInStatus, salesStudio } from './sales-support';

/**
 * The public API's order calls (spec §7 "GET and PATCH client-order/{clientOrder}", "GET
 * payment-option all"): a partner's server with the studio's API key (`x-api-key`), no session.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

async function apiKey(studio: Studio, revoked = false): Promise<string> {
  const key = `sk_test_${uuidv7().replace(/-/g, '')}`;
  await app.knex('studio_apis').insert({
    id: uuidv7(),
    studioId: studio.id,
    name: 'Partner',
    keyHash: createHash('sha256').update(key, 'utf8').digest('hex'),
    revokedAt: revoked ? new Date() : null,
  });
  return key;
}

function partner(key: string | null) {
  const http = new HttpClient(app.url);
  return (method: string, path: string, body?: unknown) =>
    http.request(method, `/api/v2/public/${path}`, body, {
      noDefaults: true,
      headers: key ? { 'x-api-key': key } : {},
    });
}

describe('public API: client-order/{clientOrder}', () => {
  it('reads an order and applies the §4 changes with the studio key', async () => {
    const s = await salesStudio(app);
    const call = partner(await apiKey(s.studio));
    const orderId = await orderInStatus(app, s.studio, s.client.id, OrderStatus.scheduled, 4200);

    const read = await call('GET', `client-order/${orderId}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({
      id: orderId,
      status: OrderStatus.scheduled,
      total: 4200,
      client: { id: s.client.id },
      lines: [{ name: 'Fee', total: 4200 }],
      actions: expect.arrayContaining(['markPaid', 'enablePaymentReminder', 'markUnpaid']),
    });

    const reminder = await call('PATCH', `client-order/${orderId}`, { paymentReminder: true });
    expect(reminder.status, reminder.text).toBe(200);
    expect(reminder.body.paymentReminder).toBe(true);
    const paid = await call('PATCH', `client-order/${orderId}`, { status: OrderStatus.paid });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe(OrderStatus.paid);
    expect((await app.knex('client_orders').where({ id: orderId }).first())!.status).toBe(OrderStatus.paid);

    // §4: paid → unpaid is allowed, unpaid cannot be marked paid by hand.
    const unpaid = await call('PATCH', `client-order/${orderId}`, { status: OrderStatus.unpaid });
    expect(unpaid.body.status).toBe(OrderStatus.unpaid);
    const refused = await call('PATCH', `client-order/${orderId}`, { status: OrderStatus.paid });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('order.statusActionNotAllowed');
  });

  it('401 without or with a wrong or revoked key, 400 field errors, 404 for unknown and other studios', async () => {
    const s = await salesStudio(app);
    const orderId = await orderInStatus(app, s.studio, s.client.id, OrderStatus.unpaid);
    for (const key of [null, 'sk_wrong_000000000000000', await apiKey(s.studio, true)]) {
      const call = partner(key);
      const read = await call('GET', `client-order/${orderId}`);
      expect(read.status).toBe(401);
      expect(read.body.error.key).toBe('apiKey.invalid');
      // The key is checked before anything else (integrations' gate): 401 without one too.
      expect((await call('PATCH', `client-order/${orderId}`, { paymentReminder: true })).status).toBe(401);
      expect((await call('GET', 'payment-option/all')).status).toBe(401);
    }
    expect((await app.knex('client_orders').where({ id: orderId }).first())!.paymentReminder).toBe(false);

    const call = partner(await apiKey(s.studio));
    const empty = await call('PATCH', `client-order/${orderId}`, {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.error.fields)).toEqual(['status']);
    const bad = await call('PATCH', `client-order/${orderId}`, { status: 3, paymentReminder: false, x: 1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['paymentReminder', 'status', 'x']);
    expect((await call('GET', `client-order/${uuidv7()}`)).status).toBe(404);
    expect((await call('GET', 'client-order/not-an-id')).status).toBe(404);

    // Another studio's key: this studio's order does not exist for it, and is left unchanged.
    const other = await salesStudio(app);
    const theirs = partner(await apiKey(other.studio));
    expect((await theirs('GET', `client-order/${orderId}`)).status).toBe(404);
    expect((await theirs('PATCH', `client-order/${orderId}`, { paymentReminder: true })).status).toBe(404);
    expect((await app.knex('client_orders').where({ id: orderId }).first())!.paymentReminder).toBe(false);
    // The key is not a session: the staff routes still want one.
    const staffRoute = await new HttpClient(app.url).request(
      'GET',
      `/api/v4/${s.studio.id}/client-order/${orderId}`,
      undefined,
      { noDefaults: true, headers: { 'x-api-key': await apiKey(s.studio) } },
    );
    expect(staffRoute.status).toBe(401);
  });
});

describe('public API: payment-option/all', () => {
  it("lists the studio's payment methods with the online ones marked", async () => {
    const s = await salesStudio(app);
    const res = await partner(await apiKey(s.studio))('GET', 'payment-option/all');
    expect(res.status, res.text).toBe(200);
    const methods = res.body.items.map((o: { method: number }) => o.method);
    expect(methods).toContain(PaymentMethod.cash);
    expect(res.body.items.find((o: { provider: string | null }) => o.provider === 'test')).toEqual({
      method: PaymentMethod.test,
      online: true,
      provider: 'test',
    });
    // Another studio's key answers for that studio: one without the test provider lists no online method.
    const other = await salesStudio(app);
    await other.owner.patch(`/api/v4/${other.studio.id}/payment-provider/test`, { enabled: false });
    const theirs = await partner(await apiKey(other.studio))('GET', 'payment-option/all');
    expect(theirs.body.items.some((o: { online: boolean }) => o.online)).toBe(false);
  });
});
