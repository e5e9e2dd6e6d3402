import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod, RetailItemStatus } from '../../../../shared/enums';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { scheduledOrdersChargeJob } from '../../jobs/scheduled-orders.job';
import { anotherClient, api, salesStudio, topUpDirect } from './sales-support';
import { chargeDueScheduledOrders } from './scheduled-charges';

/**
 * Scheduled desk orders charged on their day (retail item status "scheduled"): the client's wallet
 * (or saved card, see stripe.int.test.ts for cards) pays on `scheduled_for` in the studio's time zone;
 * a failed charge is tried once, switches the payment reminder on and leaves the order to staff.
 */

// 1 December 2026, 10:00 in Warsaw.
const clock = new ManualClock(new Date('2026-12-01T09:00:00Z'));
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

/** The desk sells two waters (10 zł) to the client, to be paid on `day`. */
async function scheduledSale(s: Awaited<ReturnType<typeof salesStudio>>, clientId: string, day: string) {
  const res = await s.owner.post(
    api(s.studio, 'retail/checkout'),
    {
      clientId,
      items: [{ type: 'product', id: s.productId, quantity: 2, status: RetailItemStatus.scheduled }],
      scheduledFor: day,
    },
    { headers: { 'idempotency-key': `sched-${uuidv7()}` } },
  );
  expect(res.status, res.text).toBe(201);
  const order = res.body.orders.find(
    (o: { itemStatus: number }) => o.itemStatus === RetailItemStatus.scheduled,
  );
  expect(order.status).toBe(OrderStatus.scheduled);
  return order.id as string;
}

const orderOf = async (id: string) =>
  (await app.knex('client_orders').where({ id }).first()) as {
    status: number;
    paymentReminder: boolean;
    chargeAttemptedAt: Date | null;
  };
const walletOf = async (studioId: string, clientId: string) =>
  Number(
    (
      (await app.knex('client_wallet_payments').where({ studioId, clientId }).sum({ n: 'amount' })) as Array<{
        n: string | null;
      }>
    )[0]?.n ?? 0,
  );

describe('scheduled orders on their day', () => {
  it("charges the wallet on the studio's day, once; not before", async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 2500);
    const orderId = await scheduledSale(s, s.client.id, '2026-12-03');

    // 22:30 UTC on 2 December is 23:30 in Warsaw, still the day before; 23:30 UTC is 3 December there.
    const before = await chargeDueScheduledOrders(app.knex, new Date('2026-12-02T22:30:00Z'));
    expect(before.charged).not.toContain(orderId);
    expect((await orderOf(orderId)).status).toBe(OrderStatus.scheduled);
    const onTheDay = await chargeDueScheduledOrders(app.knex, new Date('2026-12-02T23:30:00Z'));
    expect(onTheDay.charged).toContain(orderId);
    expect((await orderOf(orderId)).status).toBe(OrderStatus.paid);
    expect(await walletOf(s.studio.id, s.client.id)).toBe(1500);
    const payments = await app.knex('client_order_payments').where({ orderId });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ method: PaymentMethod.wallet, amount: 1000, status: 'succeeded' });

    // Running again (or late) changes nothing.
    const again = await chargeDueScheduledOrders(app.knex, new Date('2026-12-05T12:00:00Z'));
    expect(again.charged).not.toContain(orderId);
    expect(await app.knex('client_order_payments').where({ orderId })).toHaveLength(1);
    const detail = await s.owner.get(api(s.studio, `client-order/${orderId}`));
    expect(detail.body.status).toBe(OrderStatus.paid);
  });

  it('a client who cannot pay: tried once, the reminder switched on, left to staff', async () => {
    const s = await salesStudio(app);
    const broke = await anotherClient(app, s.studio);
    const orderId = await scheduledSale(s, broke.user.id, '2026-12-02');
    const run = await chargeDueScheduledOrders(app.knex, new Date('2026-12-02T08:00:00Z'));
    expect(run.failed).toContainEqual({ id: orderId, key: 'wallet.insufficientFunds' });
    const order = await orderOf(orderId);
    expect(order).toMatchObject({ status: OrderStatus.scheduled, paymentReminder: true });
    expect(order.chargeAttemptedAt).not.toBeNull();
    expect(await app.knex('client_order_payments').where({ orderId })).toHaveLength(0);

    // Not tried again by the job, even once the money is there; staff's bulk charge takes it then.
    await topUpDirect(app, s.studio, broke.user.id, 1000);
    const next = await chargeDueScheduledOrders(app.knex, new Date('2026-12-02T08:10:00Z'));
    expect([...next.charged, ...next.failed.map((f) => f.id)]).not.toContain(orderId);
    const bulk = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [orderId] });
    expect(bulk.body).toEqual({ charged: [orderId], failed: [] });
    expect((await orderOf(orderId)).status).toBe(OrderStatus.paid);
  });

  it('two runs at once charge a scheduled order once', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 1000);
    const orderId = await scheduledSale(s, s.client.id, '2026-12-02');
    const at = new Date('2026-12-02T08:00:00Z');
    const runs = await Promise.all([
      chargeDueScheduledOrders(app.knex, at),
      chargeDueScheduledOrders(app.knex, at),
    ]);
    expect(runs.flatMap((r) => r.charged).filter((id) => id === orderId)).toHaveLength(1);
    expect(runs.flatMap((r) => r.failed).filter((f) => f.id === orderId)).toEqual([]);
    expect(await app.knex('client_order_payments').where({ orderId })).toHaveLength(1);
    expect(await walletOf(s.studio.id, s.client.id)).toBe(0);
  });

  it('leaves unpaid and suspended desk orders alone; the job runs it with its clock', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 5000);
    const res = await s.owner.post(
      api(s.studio, 'retail/checkout'),
      {
        clientId: s.client.id,
        items: [
          { type: 'product', id: s.productId, quantity: 1, status: RetailItemStatus.unpaid },
          { type: 'product', id: s.productId, quantity: 1, status: RetailItemStatus.suspended },
        ],
      },
      { headers: { 'idempotency-key': `sched-${uuidv7()}` } },
    );
    expect(res.status, res.text).toBe(201);
    const scheduled = await scheduledSale(s, s.client.id, '2026-12-01');
    clock.set(new Date('2026-12-01T12:00:00Z'));
    await scheduledOrdersChargeJob.run({ knex: app.knex, clock, log: app.deps.log });
    expect((await orderOf(scheduled)).status).toBe(OrderStatus.paid);
    const statuses = await Promise.all(
      res.body.orders.map(async (o: { id: string }) => (await orderOf(o.id)).status),
    );
    expect(statuses.sort()).toEqual([OrderStatus.unpaid, OrderStatus.suspended].sort());
    expect(await walletOf(s.studio.id, s.client.id)).toBe(4000);
  });
});
