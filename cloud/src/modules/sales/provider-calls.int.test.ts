import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { PROVIDERS } from './providers';
import { api, checkoutPassOnline, salesStudio } from './sales-support';

/**
 * A refund through the payment provider (issue 18: no outside call under a row lock): the refund is
 * recorded as awaiting and committed, the provider is asked after the commit (the order row can be
 * locked by anyone meanwhile), the answer is recorded. When the answer never comes back (the provider
 * is unreachable, or the process dies mid-call), the `sales.provider-call` job asks again with the
 * same idempotency key: the money goes back once.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const bank = PROVIDERS.test;
const refund = bank.refund.bind(bank);
afterEach(() => {
  bank.refund = refund;
});

/** An order of the pass paid at the test bank; its payment, its transaction at the bank. */
async function paidOnline() {
  const s = await salesStudio(app);
  const { orderId, pay } = await checkoutPassOnline(app, s);
  const transactionId = await pay();
  const paymentId = (await s.owner.get(api(s.studio, `client-order/${orderId}/init`))).body.payments[0]
    .id as string;
  const refundAt = (amount: number) =>
    s.owner.post(api(s.studio, `client-order/${orderId}/refund`), { paymentId, amount });
  const refundedAtBank = async () =>
    (await app.knex('test_provider_transactions').where({ id: transactionId }).first('refunded'))!.refunded;
  return { s, orderId, paymentId, refundAt, refundedAtBank };
}

/** Can another transaction lock the order row right now? (55P03 at once if the refund held it.) */
async function orderLockable(orderId: string): Promise<boolean | string> {
  const probe = app.knex.transaction(async (trx) => {
    await trx.raw('select id from client_orders where id = ? for update nowait', [orderId]);
    return true as const;
  });
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('no connection'), 3_000));
  return Promise.race([probe, timeout]).catch((err: Error) => err.message);
}

describe('a refund through the payment provider', () => {
  it('asks the provider after the commit, with the order unlocked, then records its answer', async () => {
    const o = await paidOnline();
    const seen: Array<{ status: string | undefined; lockable: boolean | string }> = [];
    bank.refund = async (db, studioId, providerRef, amount, key) => {
      const row = await app.knex('client_order_refunds').where({ id: key }).first('status');
      seen.push({ status: row?.status, lockable: await orderLockable(o.orderId) });
      return refund(db, studioId, providerRef, amount, key);
    };
    const res = await o.refundAt(5000);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'success', amount: 5000 });
    // When the bank was asked, the refund was already committed as awaiting and the order free.
    expect(seen).toEqual([{ status: 'awaiting', lockable: true }]);
    expect(await o.refundedAtBank()).toBe(5000);
  });

  it('an unreachable provider leaves the refund awaiting; the job finishes it later', async () => {
    const o = await paidOnline();
    bank.refund = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    const res = await o.refundAt(4000);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'awaiting', amount: 4000 });
    // Staff see it on the order, counted against what can still be refunded.
    const detail = await o.s.owner.get(api(o.s.studio, `client-order/${o.orderId}/init`));
    expect(detail.body.refunds).toMatchObject([{ status: 'awaiting', amount: 4000 }]);
    expect(detail.body).toMatchObject({ refunded: 4000, refundable: 21000 });
    expect(await o.refundedAtBank()).toBe(0);
    // Still unreachable: the job fails (pg-boss retries it), the refund waits.
    await app.drainJobs();
    expect((await app.knex('client_order_refunds').where({ id: res.body.id }).first())!.status).toBe(
      'awaiting',
    );
    bank.refund = refund;
    await app.drainJobs();
    expect((await app.knex('client_order_refunds').where({ id: res.body.id }).first())!.status).toBe(
      'success',
    );
    expect(await o.refundedAtBank()).toBe(4000);
  });

  it('an answer lost after the bank refunded: asked again, the bank refunds once', async () => {
    const o = await paidOnline();
    // The bank does the refund, then the connection drops before its answer arrives.
    bank.refund = async (...args) => {
      await refund(...args);
      throw new Error('socket hang up');
    };
    const res = await o.refundAt(3000);
    expect(res.body).toMatchObject({ status: 'awaiting' });
    expect(await o.refundedAtBank()).toBe(3000);
    bank.refund = refund;
    await app.drainJobs();
    const row = (await app.knex('client_order_refunds').where({ id: res.body.id }).first())!;
    expect(row.status).toBe('success');
    expect(row.providerRef).toMatch(/:r3000$/);
    expect(await o.refundedAtBank()).toBe(3000);
    // A refund already answered is not asked again by its job.
    await app.drainJobs();
    expect(await o.refundedAtBank()).toBe(3000);
  });
});
