import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../../../shared/enums';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { api, deliverNotification, payAtTestBank, salesStudio } from '../sales/sales-support';
import { processDueInstalments } from './client-contracts.service';
import { seedDemoContracts } from './demo-contracts';

// Monday 23 November 2026, 10:00 in Warsaw.
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const key = () => `key-${uuidv7()}`;
const lt = (en: string, pl: string) => ({ en: { value: en }, pl: { value: pl } });

async function studioWithContract(over: Record<string, unknown> = {}) {
  clock.set(NOW);
  const s = await salesStudio(app);
  const created = await s.owner.post(api(s.studio, 'contract'), {
    name: lt('Monthly unlimited, 12 months', 'Miesięczny bez limitu, 12 miesięcy'),
    price: 19900,
    periodUnit: 'month',
    periodLength: 1,
    durationPeriods: 12,
    activationType: 0,
    serviceTypes: ['classroomPricingOption'],
    noticePeriods: 1,
    signUpFee: 4900,
    taxId: s.taxId,
    ...over,
  });
  expect(created.status, created.text).toBe(201);
  return { ...s, contractId: created.body.id as string };
}

describe('buying a contract online', () => {
  it('cart → checkout → test bank: the client contract exists with its schedule, first payment paid', async () => {
    const s = await studioWithContract();
    const prepared = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/prepare'),
      { items: [{ type: 'contract', id: s.contractId }] },
      { headers: { 'accept-language': 'en' } },
    );
    expect(prepared.status, prepared.text).toBe(200);
    // What is due on the sale day: the sign-up fee and the first month.
    expect(prepared.body.items[0]).toMatchObject({
      type: 'contract',
      unitPrice: 4900 + 19900,
      vatRate: '2300',
      problem: null,
    });
    expect(prepared.body.total).toBe(24800);
    const inPolish = await s.clientHttp.get(api(s.studio, 'shopping-cart/status'), {
      headers: { 'accept-language': 'pl' },
    });
    expect(inPolish.body.items[0]).toMatchObject({
      name: 'Miesięczny bez limitu, 12 miesięcy — pierwsza płatność',
      unitPrice: 24800,
    });
    expect(prepared.body.canCheckout).toBe(true);

    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe(OrderStatus.awaiting);
    // Nothing is sold before the money arrives.
    expect(await app.knex('client_contracts').where({ studioId: s.studio.id })).toHaveLength(0);

    const { transactionId } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'succeeded');
    const n = await deliverNotification(app, s.studio.id, transactionId, 'succeeded', 'evt-c1');
    expect(n.body.result).toBe('applied');
    // A repeated notification sells nothing twice.
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded', 'evt-c1');

    const mine = await s.clientHttp.get(api(s.studio, 'contracts'));
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.items).toHaveLength(1);
    const contract = mine.body.items[0];
    expect(contract).toMatchObject({
      contractId: s.contractId,
      channel: 'online',
      status: 'active',
      entitledFrom: '2026-11-23',
      endsOn: '2027-11-22',
    });
    const instalments = contract.instalments as Array<{ kind: string; status: string; orderId: string }>;
    expect(instalments).toHaveLength(13);
    expect(instalments.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: 'signUpFee', status: 'paid', orderId: res.body.orderId }),
      expect.objectContaining({ kind: 'period', status: 'paid', orderId: res.body.orderId }),
    ]);
    expect(instalments.slice(2).every((i) => i.status === 'scheduled')).toBe(true);
    expect(contract.outstanding).toBe(11 * 19900);
    // The checkout's order paid the first payment: no second order for it.
    expect(
      await app.knex('client_orders').where({ studioId: s.studio.id, source: 'contract_instalment' }),
    ).toHaveLength(0);
    const detail = await s.owner.get(api(s.studio, `client-order/${res.body.orderId}/init`));
    expect(detail.body.lines[0]).toMatchObject({ kind: 'contract_instalment', fulfilled: true });
    expect(detail.body.lines[0].fulfilledRefId).toBe(contract.id);

    // A month later the job orders the second month, as for a contract sold at the desk.
    clock.set(new Date('2026-12-23T09:00:00Z'));
    await processDueInstalments(app.knex, clock.now());
    const orders = await app
      .knex('client_orders')
      .where({ studioId: s.studio.id, source: 'contract_instalment' })
      .select('total');
    expect(orders.map((o: { total: number }) => o.total)).toEqual([19900]);
  });

  it('a declined payment sells nothing', async () => {
    const s = await studioWithContract({ signUpFee: 0 });
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'contract', id: s.contractId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'failed');
    await deliverNotification(app, s.studio.id, transactionId, 'failed', 'evt-f');
    expect((await s.clientHttp.get(api(s.studio, 'contracts'))).body.items).toEqual([]);
  });

  it('a contract not sold online, archived, or of another studio cannot be bought', async () => {
    const s = await studioWithContract({ sellOnline: false });
    const other = await studioWithContract();
    const archived = await s.owner.post(api(s.studio, 'contract'), {
      name: lt('Old', 'Stary'),
      price: 10000,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 6,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
    });
    expect(archived.status, archived.text).toBe(201);
    expect((await s.owner.delete(api(s.studio, `contract/${archived.body.id}`))).status).toBeLessThan(300);
    const prepared = await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [
        { type: 'contract', id: s.contractId },
        { type: 'contract', id: archived.body.id },
        { type: 'contract', id: other.contractId },
      ],
    });
    expect(prepared.body.items.map((i: { problem: string }) => i.problem)).toEqual([
      'cart.problem.unavailable',
      'cart.problem.unavailable',
      'cart.problem.unavailable',
    ]);
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status).toBe(409);
    expect(await app.knex('client_contracts').where({ studioId: s.studio.id })).toHaveLength(0);
  });
});

describe('the demo seed', () => {
  it('adds two memberships for sale online and a client holding an active, paid-up contract', async () => {
    clock.set(NOW);
    const s = await salesStudio(app);
    const id = await app.knex.transaction((trx) => seedDemoContracts(trx, s.studio.id, s.client.id, NOW));
    const offers = await s.clientHttp.post(
      api(s.studio, 'pricing/contracts'),
      {},
      { headers: { 'accept-language': 'en' } },
    );
    expect(offers.body.items.map((o: { name: string }) => o.name)).toEqual([
      'Monthly unlimited, 12 months',
      'Weekday mornings',
    ]);
    const held = await s.clientHttp.get(api(s.studio, 'contracts'));
    expect(held.body.items).toHaveLength(1);
    expect(held.body.items[0]).toMatchObject({
      id,
      status: 'active',
      channel: 'desk',
      outstanding: 11 * 25900,
    });
    expect(
      held.body.items[0].instalments
        .filter((i: { status: string }) => i.status === 'paid')
        .map((i: { kind: string }) => i.kind),
    ).toEqual(['signUpFee', 'period']);
  });
});
