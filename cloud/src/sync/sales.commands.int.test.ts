import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { localSales, recordSale } from '../../../desktop/main/station/sales';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import type { RecordSaleInput } from '../../../shared/contracts/sync';
import { OrderStatus, PaymentMethod } from '../../../shared/enums';
import { createStudioScenario } from '../../../tests/support/factories';
import { addTenEntryPass, addVat23, addWater } from '../modules/sales/sales-support';
import type { Studio } from '../modules/identity/rows';
import { studioWithStation, useSyncApp } from './sync.test-support';

/**
 * recordSale@1 (a fact): recorded at the station first (offline), delivered once however often the
 * push is retried or duplicated, recorded through the sales/retail services, flagged where the world
 * moved on, and confined to the station's studio.
 */
const { app, dbFile } = useSyncApp('sync-sales-');

/** A studio with VAT 23 %, a pass (250 zł, 10 entries), water (5 zł, 10 in stock), a station. */
async function shop(existing?: Studio) {
  const scenario = existing ? null : await createStudioScenario(app.knex);
  const studio = existing ?? scenario!.studio;
  const vat = await addVat23(app, studio, !existing);
  const passId = await addTenEntryPass(app, studio, vat, 25000);
  const waterId = await addWater(app, studio, vat, 10);
  return { studio, client: scenario?.client ?? null, passId, waterId, manager: scenario?.manager ?? null };
}

/** A real station (SQLite + engine) registered by the manager; `offline` cuts its network. */
async function station(manager: { email: string; password: string }) {
  const owner = await app.signedIn(manager.email, manager.password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const net = { offline: false };
  const fetchFn: typeof fetch = async (input, init) => {
    if (net.offline) throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    return fetch(input, init);
  };
  const db = openLocalDatabase(dbFile());
  const engine = new SyncEngine(db, { fetch: fetchFn });
  await engine.registerDevice(app.url, cookie, 'Recepcja');
  await engine.syncOnce();
  return { engine, net, actorId: owner.session!.userId };
}

const sale = (
  s: Awaited<ReturnType<typeof shop>>,
  extra: Partial<RecordSaleInput> = {},
): RecordSaleInput => ({
  clientId: s.client!.id,
  lines: [
    { type: 'pricingOption', id: s.passId, name: '10 entries', quantity: 1, unitPrice: 25000, vatRate: 2300 },
    { type: 'product', id: s.waterId, name: 'Water', quantity: 2, unitPrice: 500, vatRate: 2300 },
  ],
  payments: [
    { method: PaymentMethod.terminal, amount: 20000 },
    { method: PaymentMethod.cash, amount: 10000 },
  ],
  change: 4000,
  stationSlug: 'front-1',
  ...extra,
});

const stockOf = async (productId: string) =>
  Number(
    (
      (await app.knex('product_stock_movements').where({ productId }).sum({ n: 'quantity' })) as Array<{
        n: string;
      }>
    )[0]!.n,
  );

describe('recordSale@1 (fact)', () => {
  it('recorded at the station while offline, then delivered once: order, payments, receipt, pass and stock', async () => {
    const s = await shop();
    const desk = await station(s.manager!);
    desk.net.offline = true;
    const receiptId = uuidv7();
    const recorded = recordSale(
      desk.engine,
      sale(s, {
        receipt: {
          receiptId,
          stationSlug: 'front-1',
          outcome: { status: 'printed', receiptNumber: 77, total: 26000, recovered: false },
        },
      }),
      { actorId: desk.actorId },
    );
    expect(recorded.total).toBe(26000);
    // Durable and visible at the desk before any network: the sale, its outbox row, the pass.
    expect(desk.engine.status().pending).toBe(1);
    expect(desk.engine.hasPendingFacts()).toBe(true);
    const [local] = localSales(desk.engine);
    expect(local).toMatchObject({ saleId: recorded.saleId, total: 26000, status: 'pending', outcome: null });
    const provisional = desk.engine.store
      .list<{ id: string; client_id: string; provisional?: boolean }>('client_pricing_options')
      .filter((p) => p.client_id === s.client!.id);
    expect(provisional).toHaveLength(1);
    expect(provisional[0]!.provisional).toBe(true);
    await expect(desk.engine.syncOnce()).rejects.toThrow();
    expect(desk.engine.status().pending).toBe(1);
    expect(await app.knex('retail_sales').where({ id: recorded.saleId })).toHaveLength(0);

    desk.net.offline = false;
    await desk.engine.syncOnce();
    expect(desk.engine.status()).toMatchObject({ pending: 0, lastError: null });
    expect(desk.engine.hasPendingFacts()).toBe(false);
    expect(localSales(desk.engine)[0]).toMatchObject({ status: 'acked', outcome: { status: 'applied' } });

    const saleRow = await app.knex('retail_sales').where({ id: recorded.saleId }).first();
    expect(saleRow).toMatchObject({
      studioId: s.studio.id,
      clientId: s.client!.id,
      tendered: 30000,
      change: 4000,
    });
    const orders = await app
      .knex('client_orders')
      .where({ studioId: s.studio.id, sourceId: recorded.saleId });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ source: 'desk', status: OrderStatus.paid, total: 26000 });
    const payments = await app
      .knex('client_order_payments')
      .where({ orderId: orders[0]!.id })
      .orderBy('amount');
    expect(payments.map((p) => [p.method, p.amount])).toEqual([
      [PaymentMethod.cash, 6000],
      [PaymentMethod.terminal, 20000],
    ]);
    // The receipt keeps the id it was printed under, and the printed number is kept with the sale.
    expect(await app.knex('retail_receipts').where({ id: receiptId }).first()).toMatchObject({
      saleId: recorded.saleId,
      total: 26000,
      change: 4000,
    });
    expect(await app.knex('sync_sales').where({ saleId: recorded.saleId }).first()).toMatchObject({
      fiscalReceiptNumber: 77,
      receiptId,
    });
    // Handed over: one pass for the client (the server's, which replaced the provisional one), stock 10 → 8.
    const passes = await app
      .knex('client_pricing_options')
      .where({ studioId: s.studio.id, clientId: s.client!.id });
    expect(passes).toHaveLength(1);
    expect(await stockOf(s.waterId)).toBe(8);
    const cached = desk.engine.store
      .list<{ id: string; client_id: string }>('client_pricing_options')
      .filter((p) => p.client_id === s.client!.id);
    expect(cached.map((p) => p.id)).toEqual([passes[0]!.id]);
  });

  it("a receipt with the buyer's NIP keeps it in the cloud (retail_receipts.buyer_nip); a bad NIP never leaves the desk", async () => {
    const s = await shop();
    const desk = await station(s.manager!);
    const receiptId = uuidv7();
    const recorded = recordSale(
      desk.engine,
      sale(s, {
        buyerNip: '5260250274',
        receipt: {
          receiptId,
          stationSlug: 'front-1',
          outcome: { status: 'printed', receiptNumber: 78, total: 26000, recovered: false },
        },
      }),
      { actorId: desk.actorId },
    );
    await desk.engine.syncOnce();
    expect(await app.knex('retail_receipts').where({ id: receiptId }).first()).toMatchObject({
      saleId: recorded.saleId,
      buyerNip: '5260250274',
    });
    // Without a NIP the column stays empty; a NIP failing its checksum is refused at the station.
    const plain = recordSale(desk.engine, sale(s), { actorId: desk.actorId });
    await desk.engine.syncOnce();
    const receipt = (await app.knex('retail_receipts').where({ saleId: plain.saleId }).first('buyerNip')) as {
      buyerNip: string | null;
    };
    expect(receipt.buyerNip).toBeNull();
    expect(() => recordSale(desk.engine, sale(s, { buyerNip: '5260250275' }))).toThrow();
    await expect(
      app.knex('retail_receipts').where({ id: receiptId }).update({ buyerNip: '12345' }),
    ).rejects.toThrow();
  });

  it('pushed twice, replayed, resent under a new mutation id, or its printed receipt resent: one sale', async () => {
    const s = await shop();
    const st = await studioWithStation(app, s.studio);
    const args = { ...sale(s), saleId: uuidv7(), clientId: s.client!.id };
    const m1 = st.mutation(1, 'recordSale', args);
    // The same push twice at once, then again in sequence (a retry after a lost answer).
    const [a, b] = await Promise.all([
      st.call('POST', '/sync/push', { mutations: [m1] }),
      st.call('POST', '/sync/push', { mutations: [m1] }),
    ]);
    const again = await st.call('POST', '/sync/push', { mutations: [m1] });
    for (const res of [a, b, again]) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.results[0].outcome.status).toBe('applied');
    }
    expect([a, b, again].filter((r) => r.body.results[0].replayed)).toHaveLength(2);
    // The same sale id under another mutation (a restored outbox): answered, nothing new.
    const m2 = st.mutation(2, 'recordSale', args);
    const second = await st.call('POST', '/sync/push', { mutations: [m2] });
    expect(second.body.results[0].outcome).toMatchObject({ status: 'applied', data: { existed: true } });
    // The same printed receipt of this station under a new sale id: one sale, flagged for the desk.
    const printed = {
      receiptId: uuidv7(),
      stationSlug: 'front-1',
      outcome: { status: 'printed', receiptNumber: 5, total: 26000, recovered: false },
    };
    const first = st.mutation(3, 'recordSale', { ...args, saleId: uuidv7(), receipt: printed });
    const copy = st.mutation(4, 'recordSale', {
      ...args,
      saleId: uuidv7(),
      receipt: { ...printed, receiptId: uuidv7() },
    });
    const res = await st.call('POST', '/sync/push', { mutations: [first, copy] });
    expect(res.body.results.map((r: any) => r.outcome.status)).toEqual(['applied', 'flagged']);
    expect(res.body.results[1].outcome).toMatchObject({
      flags: ['duplicateReceipt'],
      data: { duplicateOf: first.args.saleId },
    });

    const sales = await app.knex('retail_sales').where({ studioId: s.studio.id });
    expect(sales.map((r) => r.id).sort()).toEqual([args.saleId, first.args.saleId].sort());
    expect(await app.knex('client_orders').where({ studioId: s.studio.id, source: 'desk' })).toHaveLength(2);
    expect(await app.knex('client_pricing_options').where({ studioId: s.studio.id })).toHaveLength(2);
    expect(await stockOf(s.waterId)).toBe(6);
    expect(await app.knex('sync_mutations').where({ deviceId: st.deviceId })).toHaveLength(4);
  });

  it("with the station's fiscal printer set up, the printed receipt becomes its fiscal document (a wrong total is flagged, the sale stands)", async () => {
    const s = await shop();
    const owner = await app.signedIn(s.manager!.email, s.manager!.password);
    const slug = `front-${uuidv7().slice(-8)}`;
    const printer = await owner.post(`/api/v4/${s.studio.id}/fiscal-printer`, {
      name: 'Front desk POSNET',
      stationSlug: slug,
      connection: { kind: 'tcp', host: '10.0.0.5', port: 6666 },
    });
    expect(printer.status, printer.text).toBe(201);
    const desk = await station(s.manager!);
    const printed = (receiptNumber: number, total: number) => ({
      receiptId: uuidv7(),
      stationSlug: slug,
      outcome: { status: 'printed' as const, receiptNumber, total, recovered: false },
    });
    const good = printed(101, 26000);
    const wrong = printed(102, 25999);
    recordSale(desk.engine, sale(s, { receipt: good }), { actorId: desk.actorId });
    recordSale(desk.engine, sale(s, { receipt: wrong }), { actorId: desk.actorId });
    await desk.engine.syncOnce();
    const [first, second] = desk.engine.outbox().map((m) => m.outcome!);
    expect(first!.status).toBe('applied');
    expect(await app.knex('fiscal_documents').where({ saleId: good.receiptId }).first()).toMatchObject({
      status: 'printed',
      receiptNumber: 101,
      total: 26000,
    });
    expect(second).toMatchObject({ status: 'flagged', flags: ['receiptNotRecorded'] });
    expect(await app.knex('fiscal_documents').where({ saleId: wrong.receiptId })).toHaveLength(0);
    expect(await app.knex('retail_receipts').where({ id: wrong.receiptId })).toHaveLength(1);
  });

  it('kept as sold when the world moved on: price changed, product archived, stock below zero — flagged, never rejected', async () => {
    const s = await shop();
    const desk = await station(s.manager!);
    desk.net.offline = true;
    const recorded = recordSale(
      desk.engine,
      {
        clientId: null,
        lines: [
          { type: 'product', id: s.waterId, name: 'Water', quantity: 12, unitPrice: 450, vatRate: 2300 },
        ],
        payments: [{ method: PaymentMethod.cash, amount: 5400 }],
      },
      { actorId: desk.actorId },
    );
    await app.knex('products').where({ id: s.waterId }).update({ archivedAt: new Date() });
    desk.net.offline = false;
    await desk.engine.syncOnce();
    const outcome = desk.engine.outbox()[0]!.outcome!;
    expect(outcome.status).toBe('flagged');
    expect(outcome.flags).toEqual(
      expect.arrayContaining(['priceChanged', 'archivedProduct', 'negativeStock']),
    );
    const order = await app.knex('client_orders').where({ sourceId: recorded.saleId }).first();
    expect(order).toMatchObject({ status: OrderStatus.paid, total: 5400 });
    expect(await stockOf(s.waterId)).toBe(-2);
    const flags = await app.knex('sync_flags').where({ studioId: s.studio.id, subjectId: recorded.saleId });
    expect(flags.map((f) => f.kind).sort()).toEqual(['archivedProduct', 'negativeStock', 'priceChanged']);
  });

  it('refuses bad sales at the station before anything is written (every field)', async () => {
    const s = await shop();
    const desk = await station(s.manager!);
    expect(() =>
      recordSale(desk.engine, {
        ...sale(s),
        clientId: null,
        payments: [{ method: PaymentMethod.wallet, amount: 26000 }],
      }),
    ).toThrow(
      /a pass needs a client[\s\S]*not an offline desk method|not an offline desk method[\s\S]*a pass needs a client/,
    );
    expect(desk.engine.outbox()).toEqual([]);
    expect(localSales(desk.engine)).toEqual([]);
  });
});

describe('recordSale@1 tenancy', () => {
  it("a station of another studio can neither sell the studio's goods nor reach its sales", async () => {
    const a = await shop();
    const deskA = await station(a.manager!);
    const recorded = recordSale(deskA.engine, sale(a), { actorId: deskA.actorId });
    await deskA.engine.syncOnce();
    expect(deskA.engine.outbox()[0]!.outcome!.status).toBe('applied');

    const other = await studioWithStation(app);
    // A's products from B's station: rejected as another studio's ids (not kept, nothing in A).
    const foreign = other.mutation(1, 'recordSale', {
      ...sale(a),
      saleId: uuidv7(),
      clientId: null,
      lines: [sale(a).lines[1]],
      payments: [{ method: PaymentMethod.cash, amount: 1000 }],
      change: 0,
    });
    // A's sale id from B's station: not B's, and A's sale is untouched.
    const stolen = other.mutation(2, 'recordSale', {
      ...sale(a),
      saleId: recorded.saleId,
      clientId: null,
      lines: [sale(a).lines[1]],
      payments: [{ method: PaymentMethod.cash, amount: 1000 }],
      change: 0,
    });
    const res = await other.call('POST', '/sync/push', { mutations: [foreign, stolen] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: any) => r.outcome.status)).toEqual(['rejected', 'rejected']);
    expect(res.body.results[0].outcome).toMatchObject({
      key: 'resource.notFound',
      fields: { 'lines.0.id': ['not found in this studio'] },
    });
    expect(res.body.results[1].outcome).toMatchObject({
      key: 'resource.notFound',
      fields: { saleId: ['not found in this studio'], 'lines.0.id': ['not found in this studio'] },
    });
    expect(await app.knex('retail_sales').where({ studioId: other.studio.id })).toHaveLength(0);
    expect(await app.knex('retail_sales').where({ id: recorded.saleId }).first()).toMatchObject({
      studioId: a.studio.id,
    });
    expect(await app.knex('client_orders').where({ studioId: a.studio.id, source: 'desk' })).toHaveLength(1);
    expect(await stockOf(a.waterId)).toBe(8);
    expect(await app.knex('sync_quarantine').where({ studioId: other.studio.id })).toHaveLength(0);
  });
});
