import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { recordChargedSale } from '../../../desktop/main/station/sales';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import type { ChargeSaleInput, Outcome } from '../../../shared/contracts/sync';
import { ChargeSaleOutcomeDataSchema } from '../../../shared/contracts/sync';
import { PaymentMethod } from '../../../shared/enums';
import { createStudioScenario } from '../../../tests/support/factories';
import { useSyncApp } from './sync.test-support';
import { addTenEntryPass, addVat23, addWater } from '../modules/sales/sales-support';

/**
 * chargeSale@1 (an intent): a desk sale paid with the client's wallet and a voucher, recorded at the
 * station first and charged by the cloud's own retail checkout — the wallet never below zero, the
 * voucher used once, a replayed push or a resent sale id charging nothing again.
 */
const { app, dbFile } = useSyncApp('sync-charge-');

/** A studio with VAT 23 %, a pass (100 zł), water (5 zł), a 10 % single-use voucher, a client wallet. */
async function shop(wallet: number) {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const vat = await addVat23(app, studio);
  const passId = await addTenEntryPass(app, studio, vat, 10000);
  const waterId = await addWater(app, studio, vat);
  if (wallet > 0)
    await app.knex('client_wallet_payments').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientId: scenario.client.id,
      amount: wallet,
      currency: 'PLN',
      kind: 'top_up',
    });
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const voucher = await owner.post(`/api/v4/${studio.id}/voucher`, {
    code: `DESK-${uuidv7().slice(-6)}`,
    type: 0,
    discountType: 'percentage',
    value: 1000,
    appliesTo: 'all',
  });
  expect(voucher.status, voucher.text).toBe(201);
  return {
    ...scenario,
    passId,
    waterId,
    voucherId: voucher.body.id as string,
    voucherCode: voucher.body.code as string,
  };
}

/** A real station (SQLite + engine) registered by the manager. */
async function station(manager: { email: string; password: string }) {
  const owner = await app.signedIn(manager.email, manager.password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const db = openLocalDatabase(dbFile());
  const engine = new SyncEngine(db);
  await engine.registerDevice(app.url, cookie, 'Recepcja');
  await engine.syncOnce();
  return { engine, actorId: owner.session!.userId };
}

const walletOf = async (studioId: string, clientId: string) =>
  Number(
    (
      (await app.knex('client_wallet_payments').where({ studioId, clientId }).sum({ n: 'amount' })) as Array<{
        n: string | null;
      }>
    )[0]!.n ?? 0,
  );

const outcomeOf = (engine: SyncEngine, mutationId: string): Outcome | null =>
  engine.outbox().find((r) => r.mutationId === mutationId)?.outcome ?? null;

/** Pass (100 zł) + 2 water (10 zł) − 10 % voucher = 99 zł: 40 wallet, 50 card, 10 cash (1 zł back). */
const split = (
  s: Awaited<ReturnType<typeof shop>>,
  extra: Partial<ChargeSaleInput> = {},
): ChargeSaleInput => ({
  saleId: uuidv7(),
  clientId: s.client.id,
  items: [
    { type: 'pricingOption', id: s.passId, quantity: 1 },
    { type: 'product', id: s.waterId, quantity: 2 },
  ],
  voucherCode: s.voucherCode,
  payments: [
    { method: PaymentMethod.wallet, amount: 4000 },
    { method: PaymentMethod.terminal, amount: 5000 },
    { method: PaymentMethod.cash, amount: 1000 },
  ],
  total: 9900,
  change: 100,
  stationSlug: 'front-1',
  ...extra,
});

describe('chargeSale@1 (wallet, voucher)', () => {
  it('charges a split sale once: wallet, card, cash with change, the voucher redeemed; replays change nothing', async () => {
    const s = await shop(5000);
    const desk = await station(s.manager);
    const input = split(s);
    const recorded = recordChargedSale(desk.engine, input, { actorId: desk.actorId });
    await desk.engine.syncOnce();

    const outcome = outcomeOf(desk.engine, recorded.mutationId)!;
    expect(outcome.status, JSON.stringify(outcome)).toBe('applied');
    const data = ChargeSaleOutcomeDataSchema.parse(outcome.data);
    expect(data.saleId).toBe(input.saleId);
    expect(data.receipt).toMatchObject({ total: 9900, discount: 1100, change: 100 });
    expect(data.receipt!.payments).toEqual(
      expect.arrayContaining([
        { type: 'cash', amount: 1000 },
        { type: 'card', amount: 5000 },
        { type: 'other', amount: 4000 },
      ]),
    );
    expect(await walletOf(s.studio.id, s.client.id)).toBe(1000);
    expect(await app.knex('voucher_redemptions').where({ voucherId: s.voucherId })).toHaveLength(1);
    expect(await app.knex('retail_sales').where({ id: input.saleId })).toHaveLength(1);
    expect(await app.knex('sync_sales').where({ saleId: input.saleId })).toHaveLength(1);
    // The pass was handed over.
    expect(
      await app.knex('client_pricing_options').where({ clientId: s.client.id, pricingOptionId: s.passId }),
    ).toHaveLength(1);

    // The same push again (the answer was lost): the stored outcome, nothing charged twice.
    desk.engine.db.prepare(`update meta set value = '0' where key = 'ackedThrough'`).run();
    desk.engine.db.prepare(`update outbox set status = 'pending', outcome = null`).run();
    await desk.engine.push();
    expect(outcomeOf(desk.engine, recorded.mutationId)).toEqual(outcome);

    // The same sale id from another station's outbox (a copied or restored queue): one sale.
    const other = await station(s.manager);
    const again = recordChargedSale(other.engine, input, { actorId: other.actorId });
    await other.engine.syncOnce();
    const replay = outcomeOf(other.engine, again.mutationId)!;
    expect(replay.status).toBe('applied');
    expect(replay.data).toMatchObject({ saleId: input.saleId, existed: true });
    expect(ChargeSaleOutcomeDataSchema.parse(replay.data).receipt?.id).toBe(data.receipt!.id);

    expect(await walletOf(s.studio.id, s.client.id)).toBe(1000);
    expect(await app.knex('voucher_redemptions').where({ voucherId: s.voucherId })).toHaveLength(1);
    expect(await app.knex('retail_sales').where({ id: input.saleId })).toHaveLength(1);
    expect(
      await app.knex('client_order_payments').where({ studioId: s.studio.id, method: PaymentMethod.wallet }),
    ).toHaveLength(1);
  });

  it("a wallet and voucher sale's receipt carries the buyer's NIP: kept with the receipt and answered to print", async () => {
    const s = await shop(5000);
    const desk = await station(s.manager);
    const input = split(s, { buyerNip: '5260250274' });
    const recorded = recordChargedSale(desk.engine, input, { actorId: desk.actorId });
    await desk.engine.syncOnce();
    const outcome = outcomeOf(desk.engine, recorded.mutationId)!;
    expect(outcome.status, JSON.stringify(outcome)).toBe('applied');
    const data = ChargeSaleOutcomeDataSchema.parse(outcome.data);
    expect(data.receipt).toMatchObject({ total: 9900, buyerNip: '5260250274' });
    expect(await app.knex('retail_receipts').where({ id: data.receipt!.id }).first('buyerNip')).toEqual({
      buyerNip: '5260250274',
    });
    // Without a NIP the receipt names none.
    const plain = recordChargedSale(
      desk.engine,
      split(s, {
        voucherCode: null,
        total: 11000,
        payments: [{ method: PaymentMethod.terminal, amount: 11000 }],
        change: 0,
      }),
      { actorId: desk.actorId },
    );
    await desk.engine.syncOnce();
    const plainData = ChargeSaleOutcomeDataSchema.parse(outcomeOf(desk.engine, plain.mutationId)!.data);
    expect(plainData.receipt!.buyerNip).toBeNull();
  });

  it('refuses a wallet payment above the balance: nothing recorded, wallet and voucher untouched', async () => {
    const s = await shop(3000);
    const desk = await station(s.manager);
    const input = split(s); // 40 zł from a 30 zł wallet
    const recorded = recordChargedSale(desk.engine, input, { actorId: desk.actorId });
    await desk.engine.syncOnce();
    const outcome = outcomeOf(desk.engine, recorded.mutationId)!;
    expect(outcome.status).toBe('rejected');
    expect(outcome.fields?.payments).toEqual(['walletTooLow']);
    expect(await walletOf(s.studio.id, s.client.id)).toBe(3000);
    expect(await app.knex('retail_sales').where({ id: input.saleId })).toHaveLength(0);
    expect(await app.knex('voucher_redemptions').where({ voucherId: s.voucherId })).toHaveLength(0);
  });

  it('two stations charging the same wallet at once: one is charged, the other refused, never below zero', async () => {
    const s = await shop(5000);
    const [a, b] = await Promise.all([station(s.manager), station(s.manager)]);
    const noVoucher = {
      voucherCode: null,
      items: [{ type: 'pricingOption' as const, id: s.passId, quantity: 1 }],
      total: 10000,
      change: 0,
    };
    const first = recordChargedSale(
      a.engine,
      split(s, {
        ...noVoucher,
        payments: [
          { method: PaymentMethod.wallet, amount: 4000 },
          { method: PaymentMethod.terminal, amount: 6000 },
        ],
      }),
      { actorId: a.actorId },
    );
    const second = recordChargedSale(
      b.engine,
      split(s, {
        ...noVoucher,
        payments: [
          { method: PaymentMethod.wallet, amount: 4000 },
          { method: PaymentMethod.terminal, amount: 6000 },
        ],
      }),
      { actorId: b.actorId },
    );
    await Promise.all([a.engine.syncOnce(), b.engine.syncOnce()]);
    const statuses = [outcomeOf(a.engine, first.mutationId)!, outcomeOf(b.engine, second.mutationId)!]
      .map((o) => o.status)
      .sort();
    expect(statuses).toEqual(['applied', 'rejected']);
    expect(await walletOf(s.studio.id, s.client.id)).toBe(1000);
  });

  it('uses a single-use voucher once: the second sale with it is refused (voucherUsedUp)', async () => {
    const s = await shop(0);
    const desk = await station(s.manager);
    const cardOnly = (saleId: string) =>
      split(s, {
        saleId,
        items: [{ type: 'product', id: s.waterId, quantity: 2 }],
        payments: [{ method: PaymentMethod.terminal, amount: 900 }],
        total: 900,
        change: 0,
      });
    const one = recordChargedSale(desk.engine, cardOnly(uuidv7()), { actorId: desk.actorId });
    const two = recordChargedSale(desk.engine, cardOnly(uuidv7()), { actorId: desk.actorId });
    await desk.engine.syncOnce();
    expect(outcomeOf(desk.engine, one.mutationId)!.status).toBe('applied');
    const refused = outcomeOf(desk.engine, two.mutationId)!;
    expect(refused.status).toBe('rejected');
    expect(refused.fields?.voucherCode).toEqual(['voucherUsedUp']);
    expect(await app.knex('voucher_redemptions').where({ voucherId: s.voucherId })).toHaveLength(1);
  });

  it('refuses a sale the cloud prices otherwise than the desk showed (pos.totalChanged)', async () => {
    const s = await shop(0);
    const desk = await station(s.manager);
    const recorded = recordChargedSale(
      desk.engine,
      split(s, {
        items: [{ type: 'product', id: s.waterId, quantity: 2 }],
        voucherCode: null,
        // The desk thought 11 zł (a price since lowered to 10 zł): 12 zł cash, 1 zł back.
        payments: [{ method: PaymentMethod.cash, amount: 1200 }],
        total: 1100,
        change: 100,
      }),
      { actorId: desk.actorId },
    );
    await desk.engine.syncOnce();
    const outcome = outcomeOf(desk.engine, recorded.mutationId)!;
    expect(outcome.status).toBe('rejected');
    expect(outcome.key).toBe('pos.totalChanged');
    expect(await app.knex('retail_sales').where({ studioId: s.studio.id })).toHaveLength(0);
  });
});
