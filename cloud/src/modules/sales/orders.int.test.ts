import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { useTestApp } from '../../../../tests/support/test-app';
import { bookingStudio, sessionClient } from '../bookings/bookings-fixtures';
import {
  api,
  deliverNotification,
  orderInStatus,
  payAtTestBank,
  salesStudio,
  staffWithRole,
  topUpDirect,
} from './sales-support';

const app = useTestApp();

const key = () => `key-${uuidv7()}`;
const S = OrderStatus;

async function statusOf(orderId: string): Promise<{ status: number; paymentReminder: boolean }> {
  return (await app
    .knex('client_orders')
    .where({ id: orderId })
    .first('status', 'payment_reminder as paymentReminder')) as {
    status: number;
    paymentReminder: boolean;
  };
}

/** Spec §4 — the statuses each action is allowed from; every other status refuses it. */
const ALLOWED: Record<'markUnpaid' | 'enablePaymentReminder' | 'markPaid', number[]> = {
  markUnpaid: [S.paid, S.void, S.scheduled, S.authorizationAllowed, S.chargeback],
  enablePaymentReminder: [S.unpaid, S.scheduled],
  markPaid: [S.authorizationAllowed, S.scheduled],
};
const RESULT = { markUnpaid: S.unpaid, enablePaymentReminder: null, markPaid: S.paid } as const;

describe('order status changes (spec §4), through the API', () => {
  it('allows exactly the listed transitions from each of the 15 statuses and refuses the rest', async () => {
    const s = await salesStudio(app);
    const statuses = Object.values(OrderStatus) as number[];
    expect(statuses).toHaveLength(15);
    for (const action of ['markUnpaid', 'enablePaymentReminder', 'markPaid'] as const) {
      for (const status of statuses) {
        const id = await orderInStatus(app, s.studio, s.client.id, status);
        const res = await s.owner.post(api(s.studio, `client-order/${id}/status`), { action });
        const label = `${action} from ${status}`;
        if (ALLOWED[action].includes(status)) {
          expect(res.status, `${label}: ${res.text}`).toBe(200);
          const expected = RESULT[action] ?? status;
          expect(res.body.status, label).toBe(expected);
          expect(await statusOf(id), label).toEqual({
            status: expected,
            paymentReminder: action === 'enablePaymentReminder',
          });
        } else {
          expect(res.status, label).toBe(409);
          expect(res.body.error.key, label).toBe('order.statusActionNotAllowed');
          expect(res.body.error.code).toBe(2000);
          expect(await statusOf(id), label).toEqual({ status, paymentReminder: false });
        }
      }
    }
  }, 180_000);

  it('shows only the allowed actions, and a reminder cannot be enabled twice', async () => {
    const s = await salesStudio(app);
    const scheduled = await orderInStatus(app, s.studio, s.client.id, S.scheduled);
    const detail = await s.owner.get(api(s.studio, `client-order/${scheduled}/init`));
    expect(detail.body.actions).toEqual(['markUnpaid', 'enablePaymentReminder', 'markPaid']);
    const on = await s.owner.post(api(s.studio, `client-order/${scheduled}/status`), {
      action: 'enablePaymentReminder',
    });
    expect(on.body).toMatchObject({ paymentReminder: true, actions: ['markUnpaid', 'markPaid'] });
    const again = await s.owner.post(api(s.studio, `client-order/${scheduled}/status`), {
      action: 'enablePaymentReminder',
    });
    expect(again.status).toBe(409);
    // Marking as paid clears the reminder and records when.
    const paid = await s.owner.post(api(s.studio, `client-order/${scheduled}/status`), {
      action: 'markPaid',
    });
    expect(paid.body).toMatchObject({ status: S.paid, paymentReminder: false });
    expect(paid.body.paidAt).not.toBeNull();
  });

  it('PATCH sets the target state the same way, and refuses what §4 refuses', async () => {
    const s = await salesStudio(app);
    const scheduled = await orderInStatus(app, s.studio, s.client.id, S.scheduled);
    const paid = await s.owner.patch(api(s.studio, `client-order/${scheduled}`), { status: S.paid });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.status).toBe(S.paid);
    const pending = await orderInStatus(app, s.studio, s.client.id, S.pending);
    const refused = await s.owner.patch(api(s.studio, `client-order/${pending}`), { status: S.unpaid });
    expect(refused.status).toBe(409);
    const unpaid = await orderInStatus(app, s.studio, s.client.id, S.unpaid);
    const reminder = await s.owner.patch(api(s.studio, `client-order/${unpaid}`), { paymentReminder: true });
    expect(reminder.body).toMatchObject({ status: S.unpaid, paymentReminder: true });
    const empty = await s.owner.patch(api(s.studio, `client-order/${unpaid}`), {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.status).toBeDefined();
    const wrong = await s.owner.patch(api(s.studio, `client-order/${unpaid}`), { status: S.void });
    expect(wrong.status).toBe(400);
  });

  it('marking a scheduled pass order paid creates the pass', async () => {
    const s = await salesStudio(app);
    const id = await orderInStatus(app, s.studio, s.client.id, S.scheduled, 25000);
    await app.knex('client_order_lines').where({ orderId: id }).update({ kind: 'pass', refId: s.passId });
    await s.owner.post(api(s.studio, `client-order/${id}/status`), { action: 'markPaid' });
    expect(await app.knex('client_pricing_options').where({ clientId: s.client.id })).toHaveLength(1);
  });
});

describe('refunds', () => {
  async function cashPaidOrder(s: Awaited<ReturnType<typeof salesStudio>>, total = 10000) {
    const id = await orderInStatus(app, s.studio, s.client.id, S.unpaid, total);
    const paid = await s.owner.post(api(s.studio, `client-order/${id}/payment`), {
      method: PaymentMethod.cash,
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.status).toBe(S.paid);
    return { id, paymentId: paid.body.payments[0].id as string };
  }

  it('refunds in parts and never more than was paid', async () => {
    const s = await salesStudio(app);
    const { id, paymentId } = await cashPaidOrder(s);
    const first = await s.owner.post(api(s.studio, `client-order/${id}/refund`), {
      paymentId,
      amount: 4000,
      reason: 'class cancelled',
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ amount: 4000, status: 'success', error: null });
    const tooMuch = await s.owner.post(api(s.studio, `client-order/${id}/refund`), {
      paymentId,
      amount: 6001,
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ key: 'refund.exceededAmount', code: 2012 });
    expect(tooMuch.body.error.fields.amount).toBeDefined();
    const rest = await s.owner.post(api(s.studio, `client-order/${id}/refund`), { paymentId, amount: 6000 });
    expect(rest.status).toBe(201);
    const one = await s.owner.post(api(s.studio, `client-order/${id}/refund`), { paymentId, amount: 1 });
    expect(one.body.error.key).toBe('refund.exceededAmount');
    const detail = await s.owner.get(api(s.studio, `client-order/${id}/init`));
    expect(detail.body).toMatchObject({ paid: 10000, refunded: 10000, refundable: 0 });
    expect(detail.body.refunds).toHaveLength(2);
  });

  it('two refunds at once never give back more than was paid', async () => {
    const s = await salesStudio(app);
    const { id, paymentId } = await cashPaidOrder(s);
    const results = await Promise.all(
      [7000, 7000].map((amount) =>
        s.owner.post(api(s.studio, `client-order/${id}/refund`), { paymentId, amount }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await s.owner.get(api(s.studio, `client-order/${id}/init`))).body.refunded).toBe(7000);
  });

  it('transactionNotFound for a payment not on this order, cannotRefund for one not settled', async () => {
    const s = await salesStudio(app);
    const { id } = await cashPaidOrder(s);
    const other = await cashPaidOrder(s);
    for (const paymentId of [uuidv7(), other.paymentId]) {
      const res = await s.owner.post(api(s.studio, `client-order/${id}/refund`), { paymentId, amount: 100 });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ key: 'refund.transactionNotFound', code: 2010 });
    }
    // An online payment the client has not finished yet.
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const checkout = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const detail = await s.owner.get(api(s.studio, `client-order/${checkout.body.orderId}/init`));
    const pending = await s.owner.post(api(s.studio, `client-order/${checkout.body.orderId}/refund`), {
      paymentId: detail.body.payments[0].id,
      amount: 100,
    });
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatchObject({ key: 'refund.cannotRefund', code: 2011 });
    expect(await app.knex('client_order_refunds').where({ studioId: s.studio.id })).toHaveLength(0);
  });

  it('an online payment is refunded through the provider; its refusals are recorded as failed', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const checkout = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId } = await payAtTestBank(app, s.clientHttp, checkout.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    const orderId = checkout.body.orderId as string;
    const paymentId = (await s.owner.get(api(s.studio, `client-order/${orderId}/init`))).body.payments[0].id;
    const ok = await s.owner.post(api(s.studio, `client-order/${orderId}/refund`), {
      paymentId,
      amount: 5000,
    });
    expect(ok.body).toMatchObject({ status: 'success', amount: 5000 });
    expect(
      (await app.knex('test_provider_transactions').where({ id: transactionId }).first())!.refunded,
    ).toBe(5000);
    // The studio makes the sandbox bank answer "unknown": the attempt is kept, as failed.
    const sandbox = await s.owner.patch(api(s.studio, 'payment-provider/test'), { refundError: 'unknown' });
    expect(sandbox.body.settings.refundError).toBe('unknown');
    const failed = await s.owner.post(api(s.studio, `client-order/${orderId}/refund`), {
      paymentId,
      amount: 1000,
    });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ status: 'failed', error: 'unknown' });
    const detail = await s.owner.get(api(s.studio, `client-order/${orderId}/init`));
    expect(detail.body).toMatchObject({ refunded: 5000, refundable: 20000 });
  });

  it('a wallet payment goes back to the wallet; a spent top-up cannot be refunded', async () => {
    const s = await salesStudio(app);
    const top = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 30000 },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId } = await payAtTestBank(app, s.clientHttp, top.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const bought = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': key() } },
    );
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(5000);

    const topUpPayment = (await s.owner.get(api(s.studio, `client-order/${top.body.orderId}/init`))).body
      .payments[0].id;
    const spent = await s.owner.post(api(s.studio, `client-order/${top.body.orderId}/refund`), {
      paymentId: topUpPayment,
      amount: 10000,
    });
    expect(spent.status).toBe(409);
    expect(spent.body.error).toMatchObject({ key: 'refund.insufficientFunds', code: 2013 });

    const walletPayment = (await s.owner.get(api(s.studio, `client-order/${bought.body.orderId}/init`))).body
      .payments[0];
    expect(walletPayment.method).toBe(PaymentMethod.wallet);
    const back = await s.owner.post(api(s.studio, `client-order/${bought.body.orderId}/refund`), {
      paymentId: walletPayment.id,
      amount: 25000,
    });
    expect(back.body.status).toBe('success');
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(30000);
    // With the money back in the wallet, the top-up can be refunded to the card (and leaves the wallet).
    const now = await s.owner.post(api(s.studio, `client-order/${top.body.orderId}/refund`), {
      paymentId: topUpPayment,
      amount: 10000,
    });
    expect(now.body.status).toBe('success');
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(20000);
  });

  it('a chargeback of a top-up takes the money back out of the wallet', async () => {
    const s = await salesStudio(app);
    const top = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 5000 },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId } = await payAtTestBank(app, s.clientHttp, top.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(5000);
    await app
      .knex('test_provider_transactions')
      .where({ id: transactionId })
      .update({ status: 'chargeback' });
    const n = await deliverNotification(app, s.studio.id, transactionId, 'chargeback');
    expect(n.body.result).toBe('applied');
    const wallet = (await s.clientHttp.get(api(s.studio, 'wallet/init'))).body;
    expect(wallet.balance).toBe(0);
    expect(wallet.entries[0]).toMatchObject({ kind: 'chargeback', amount: -5000 });
    expect((await statusOf(top.body.orderId)).status).toBe(S.chargeback);
  });
});

describe('bulk charge', () => {
  it('charges what the wallet covers and lists the rest with the reason', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 12000);
    const a = await orderInStatus(app, s.studio, s.client.id, S.unpaid, 10000);
    const b = await orderInStatus(app, s.studio, s.client.id, S.unpaid, 5000);
    const done = await orderInStatus(app, s.studio, s.client.id, S.paid, 5000);
    const res = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [a, b, done] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      charged: [a],
      failed: [
        { id: b, key: 'wallet.insufficientFunds' },
        { id: done, key: 'order.notPayable' },
      ],
    });
    expect((await statusOf(a)).status).toBe(S.paid);
    expect((await statusOf(b)).status).toBe(S.unpaid);
  });
});

describe('paying a booked visit at the desk (v2 client-visits/pay)', () => {
  it('marks the visit paid and booked, once', async () => {
    // Wednesday 13 January 2027, 18:00 in Warsaw (winter time).
    const startsAt = new Date('2027-01-13T17:00:00Z');
    const t = await bookingStudio(app, startsAt);
    const owner = await sessionClient(app, t.manager.id);
    await owner.patch(`/api/v4/${t.studio.id}/settings/booking`, { payAtDeskAllowed: true });
    const { user } = await t.addClient(false, 'Desk');
    const me = await sessionClient(app, user.id);
    const booked = await me.post(`/api/v4/${t.studio.id}/booking/classroom/book`, {
      scheduleEventId: t.eventId,
    });
    expect(booked.body).toMatchObject({ outcome: 'unconfirmed', visit: { status: 9 } });
    const visitId = booked.body.visit.id as string;

    const pay = () =>
      owner.post(`/api/v2/${t.studio.id}/client-visits/pay`, {
        userId: user.id,
        visitIds: [visitId],
        unitPrice: 4000,
        method: PaymentMethod.cash,
      });
    const paid = await pay();
    expect(paid.status, paid.text).toBe(201);
    const visit = await app.knex('client_visits').where({ id: visitId }).first();
    expect(visit!.status).toBe(0);
    expect(visit!.paidAt).not.toBeNull();
    const order = await owner.get(`/api/v4/${t.studio.id}/client-order/${paid.body.orderId}/init`);
    expect(order.body).toMatchObject({ status: S.paid, source: 'visit', total: 4000, paid: 4000 });
    expect(order.body.lines[0]).toMatchObject({ kind: 'visit', refId: visitId, fulfilled: true });
    expect(order.body.lines[0].name).toBe('Vinyasa 2027-01-13 18:00');
    expect(order.body.payments[0].method).toBe(PaymentMethod.cash);

    const again = await pay();
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('visit.statusNotAllowed');
    expect(again.body.error.fields['visitIds.0']).toBeDefined();
    expect(await app.knex('client_orders').where({ studioId: t.studio.id, source: 'visit' })).toHaveLength(1);
  });

  it('refuses a visit paid with a pass, and 404s a visit or client of another studio', async () => {
    const startsAt = new Date(Date.now() + 3 * 24 * 3_600_000);
    const t = await bookingStudio(app, startsAt);
    const owner = await sessionClient(app, t.manager.id);
    const me = await sessionClient(app, t.client.id);
    const booked = await me.post(`/api/v4/${t.studio.id}/booking/classroom/book`, {
      scheduleEventId: t.eventId,
    });
    expect(booked.body.outcome).toBe('booked');
    const body = {
      userId: t.client.id,
      visitIds: [booked.body.visit.id],
      unitPrice: 4000,
      method: PaymentMethod.cash,
    };
    const withPass = await owner.post(`/api/v2/${t.studio.id}/client-visits/pay`, body);
    expect(withPass.status).toBe(409);
    expect(withPass.body.error.key).toBe('visit.statusNotAllowed');

    const other = await bookingStudio(app, startsAt);
    const otherOwner = await sessionClient(app, other.manager.id);
    const foreignVisit = await otherOwner.post(`/api/v2/${other.studio.id}/client-visits/pay`, {
      ...body,
      userId: other.client.id,
    });
    expect(foreignVisit.status).toBe(404);
    const foreignClient = await otherOwner.post(`/api/v2/${other.studio.id}/client-visits/pay`, body);
    expect(foreignClient.status).toBe(404);
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: `/api/v2/${t.studio.id}/client-visits/pay`,
      body,
    });
    const bad = await owner.post(`/api/v2/${t.studio.id}/client-visits/pay`, {
      userId: 'x',
      visitIds: [],
      unitPrice: -1,
      method: PaymentMethod.online,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['method', 'unitPrice', 'userId', 'visitIds']);
  });
});

describe('access to the sales routes', () => {
  it('401 without a session, 403 without the ability', async () => {
    const s = await salesStudio(app);
    const id = await orderInStatus(app, s.studio, s.client.id, S.unpaid);
    const anonymous = await app.anonymous();
    for (const [method, path, body] of [
      ['GET', 'client-order/all'],
      ['GET', `client/${s.client.id}/client-order/all`],
      ['GET', `client-order/${id}/init`],
      ['GET', `client-order/${id}`],
      ['GET', `client-order/${id}/status`],
      ['POST', `client-order/${id}/status`, { action: 'markUnpaid' }],
      ['PATCH', `client-order/${id}`, { status: 1 }],
      ['POST', `client-order/${id}/payment`, { method: PaymentMethod.cash }],
      ['POST', `client-order/${id}/refund`, { paymentId: uuidv7(), amount: 1 }],
      ['POST', 'client-order/bulk/charge', { orderIds: [id] }],
      ['GET', 'payment-provider/all'],
      ['POST', 'payment-provider/test-connection', { provider: 'test' }],
      ['PATCH', 'payment-provider/test', { enabled: false }],
      ['GET', 'payment-option/all'],
      ['GET', 'payment-option/init'],
      ['GET', `client-wallet/${s.client.id}/init`],
      ['GET', `client/${s.client.id}/client-wallet-payment/all`],
      ['GET', `client/${s.client.id}/payment-cards`],
      ['GET', 'me/payment-cards'],
      ['GET', 'shopping-cart/status'],
      ['POST', 'shopping-cart/prepare', { items: [] }],
      ['POST', 'shopping-cart/voucher-redeem', { code: null }],
      ['POST', 'shopping-cart/checkout', { paymentMethod: 'online' }],
      ['GET', 'wallet/init'],
      ['POST', 'wallet/top-up', { amount: 5000 }],
      ['POST', 'purchases', {}],
    ] as const) {
      const res = await anonymous.request(method, api(s.studio, path), body);
      expect(res.status, path).toBe(401);
    }
    const visitPay = await anonymous.post(`/api/v2/${s.studio.id}/client-visits/pay`, {
      userId: s.client.id,
      visitIds: [uuidv7()],
      unitPrice: 100,
      method: PaymentMethod.cash,
    });
    expect(visitPay.status).toBe(401);
    const instructor = await staffWithRole(app, s.studio, 'instructor');
    expect((await instructor.get(api(s.studio, 'client-order/all'))).status).toBe(403);
    const frontDesk = await staffWithRole(app, s.studio, 'front_desk');
    const paid = await frontDesk.post(api(s.studio, `client-order/${id}/payment`), {
      method: PaymentMethod.cash,
    });
    expect(paid.status).toBe(201);
    const refund = await frontDesk.post(api(s.studio, `client-order/${id}/refund`), {
      paymentId: paid.body.payments[0].id,
      amount: 100,
    });
    expect(refund.status).toBe(403);
    expect(paid.body.abilities).toEqual({ refund: false, changeStatus: true });
    // A client sees only their own order's status.
    const mine = await s.clientHttp.get(api(s.studio, `client-order/${id}/status`));
    expect(mine.status).toBe(200);
    const otherClientOrder = await orderInStatus(app, s.studio, null, S.unpaid);
    expect((await s.clientHttp.get(api(s.studio, `client-order/${otherClientOrder}/status`))).status).toBe(
      404,
    );
  });

  it('400 with every invalid field on the staff routes that take input', async () => {
    const s = await salesStudio(app);
    const id = await orderInStatus(app, s.studio, s.client.id, S.unpaid);
    const fieldsOf = async (method: string, path: string, body: unknown) => {
      const res = await s.owner.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      return Object.keys(res.body.error.fields).sort();
    };
    expect(await fieldsOf('POST', api(s.studio, `client-order/${id}/status`), { action: 'void' })).toEqual([
      'action',
    ]);
    expect(
      await fieldsOf('POST', api(s.studio, `client-order/${id}/payment`), { method: 99, amount: -5 }),
    ).toEqual(['amount', 'method']);
    expect(
      await fieldsOf('POST', api(s.studio, `client-order/${id}/refund`), { paymentId: 'x', amount: 0 }),
    ).toEqual(['amount', 'paymentId']);
    expect(await fieldsOf('POST', api(s.studio, 'client-order/bulk/charge'), { orderIds: [] })).toEqual([
      'orderIds',
    ]);
    expect(
      await fieldsOf('POST', `/api/v2/${s.studio.id}/client-visits/pay`, {
        userId: 'nobody',
        visitIds: [],
        unitPrice: -1,
        method: PaymentMethod.online,
      }),
    ).toEqual(['method', 'unitPrice', 'userId', 'visitIds']);
    // Nothing was recorded.
    expect(await app.knex('client_order_payments').where({ orderId: id })).toHaveLength(0);
  });

  it("every sales route hides one studio's data from another", async () => {
    const s = await salesStudio(app);
    const id = await orderInStatus(app, s.studio, s.client.id, S.unpaid);
    const paymentId = uuidv7();
    const routes: Array<{ method: 'GET' | 'POST' | 'PATCH'; path: string; body?: unknown }> = [
      { method: 'GET', path: api(s.studio, 'client-order/all') },
      { method: 'GET', path: api(s.studio, `client/${s.client.id}/client-order/all`) },
      { method: 'POST', path: api(s.studio, 'client-order/bulk/charge'), body: { orderIds: [id] } },
      { method: 'GET', path: api(s.studio, `client-order/${id}/init`) },
      { method: 'GET', path: api(s.studio, `client-order/${id}/status`) },
      { method: 'POST', path: api(s.studio, `client-order/${id}/status`), body: { action: 'markUnpaid' } },
      { method: 'POST', path: api(s.studio, `client-order/${id}/payment`), body: { method: 2 } },
      { method: 'POST', path: api(s.studio, `client-order/${id}/refund`), body: { paymentId, amount: 1 } },
      { method: 'GET', path: api(s.studio, `client-order/${id}`) },
      { method: 'PATCH', path: api(s.studio, `client-order/${id}`), body: { status: 1 } },
      { method: 'GET', path: api(s.studio, 'payment-provider/all') },
      { method: 'POST', path: api(s.studio, 'payment-provider/test-connection'), body: { provider: 'test' } },
      { method: 'PATCH', path: api(s.studio, 'payment-provider/test'), body: { enabled: false } },
      { method: 'GET', path: api(s.studio, 'payment-option/all') },
      { method: 'GET', path: api(s.studio, 'payment-option/init') },
      { method: 'GET', path: api(s.studio, `client-wallet/${s.client.id}/init`) },
      { method: 'GET', path: api(s.studio, `client/${s.client.id}/client-wallet-payment/all`) },
      { method: 'GET', path: api(s.studio, 'wallet/init') },
      { method: 'POST', path: api(s.studio, 'wallet/top-up'), body: { amount: 5000 } },
      { method: 'GET', path: api(s.studio, 'shopping-cart/status') },
      { method: 'POST', path: api(s.studio, 'shopping-cart/prepare'), body: { items: [] } },
      { method: 'POST', path: api(s.studio, 'shopping-cart/voucher-redeem'), body: { code: null } },
      { method: 'POST', path: api(s.studio, 'shopping-cart/checkout'), body: { paymentMethod: 'online' } },
      { method: 'POST', path: api(s.studio, 'purchases'), body: {} },
      { method: 'GET', path: api(s.studio, `client/${s.client.id}/payment-cards`) },
      { method: 'GET', path: api(s.studio, 'me/payment-cards') },
    ];
    for (const route of routes) await expectHiddenFromOtherStudio(app, route, [s.client.email]);
    // Nothing changed: the order is still unpaid and nothing was recorded against it.
    expect((await statusOf(id)).status).toBe(S.unpaid);
    expect(await app.knex('client_order_payments').where({ orderId: id })).toHaveLength(0);
  }, 180_000);

  it("another studio's ids are unknown in one's own studio", async () => {
    const s = await salesStudio(app);
    const other = await salesStudio(app);
    const id = await orderInStatus(app, s.studio, s.client.id, S.unpaid);
    const theirs = other.owner;
    const o = other.studio;
    for (const [method, path, body] of [
      ['GET', `client-order/${id}/init`],
      ['GET', `client-order/${id}/status`],
      ['GET', `client-order/${id}`],
      ['POST', `client-order/${id}/status`, { action: 'markUnpaid' }],
      ['POST', `client-order/${id}/payment`, { method: 2 }],
      ['PATCH', `client-order/${id}`, { status: 1 }],
      ['POST', `client-order/${id}/refund`, { paymentId: uuidv7(), amount: 1 }],
      ['POST', 'client-order/bulk/charge', { orderIds: [id] }],
      ['GET', `client/${s.client.id}/client-order/all`],
      ['GET', `client-wallet/${s.client.id}/init`],
      ['GET', `client/${s.client.id}/client-wallet-payment/all`],
    ] as const) {
      const res = await theirs.request(method, api(o, path), body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // The other studio's client does not see this order's status either.
    expect((await other.clientHttp.get(api(o, `client-order/${id}/status`))).status).toBe(404);
    expect((await statusOf(id)).status).toBe(S.unpaid);
  });
});
