import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import { PaymentMethod } from '../../../shared/enums';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { CaptureInterface } from '../printing/escpos/interfaces';
import { FAST_TIMING, inProcessRig, sampleReceipt } from '../printing/emulator/test-rig';
import { PosnetFiscalPrinter } from '../printing/posnet/posnet-printer';
import { createInProcessPair } from '../printing/posnet/transport';
import { SyncEngine } from '../sync/engine';
import { StationPos } from './pos.service';
import { DRAWER_KICK } from './shifts';

const studio = uuidv7();
const posId = uuidv7();
const water = uuidv7();
const pass = uuidv7();
const manager = { userId: uuidv7(), name: 'Anna Kowalska' };
let db: LocalDatabase | null = null;
let closeRig: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeRig?.();
  db?.close();
  db = null;
});

const json = (status: number, body: unknown): ApiResponse => ({
  status,
  contentType: 'application/json',
  contentDisposition: null,
  encoding: 'utf8',
  body: JSON.stringify(body),
});

const thisDevice = uuidv7();

async function setup(options: { abilities?: string[]; online?: boolean; assignedTo?: string | null } = {}) {
  db = openLocalDatabase(':memory:');
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?)`).run(uuidv7(), uuidv7());
  db.prepare(`insert into api_cache (user_id, key, body, saved_at) values (?, 'backoffice/init', ?, ?)`).run(
    manager.userId,
    JSON.stringify({ member: { abilities: options.abilities ?? ['sales.sell'] } }),
    new Date().toISOString(),
  );
  const engine = new SyncEngine(db);
  const rig = await inProcessRig();
  closeRig = rig.close;
  const capture = new CaptureInterface();
  const calls: string[] = [];
  let online = options.online ?? true;
  let quote: unknown = null;
  let invoicedOrder: string | null = null;
  const forward = async (request: ApiRequestInput): Promise<ApiResponse> => {
    calls.push(`${request.method} ${request.path}`);
    if (!online) throw Object.assign(new Error('offline'), { key: 'station.cloudUnreachable' });
    const path = request.path.replace(`v4/${studio}/`, '').split('?')[0];
    if (path === 'retail/validate') return json(200, quote);
    if (path?.startsWith('client-order/') && path.endsWith('/invoice/init'))
      return json(200, {
        existingInvoice: path.includes(invoicedOrder ?? '-') ? { id: uuidv7(), number: 'FV/1' } : null,
      });
    if (path?.startsWith('invoice/') && path.endsWith('/pdf'))
      return {
        status: 200,
        contentType: 'application/pdf',
        contentDisposition: 'attachment; filename="FV_2026_000001.pdf"',
        encoding: 'base64',
        body: Buffer.from('%PDF-1.7').toString('base64'),
      };
    if (path === 'retail/init')
      return json(200, {
        currency: 'PLN',
        items: [
          {
            type: 'product',
            id: water,
            name: 'Woda',
            price: 500,
            vatRate: 500,
            stock: 10,
            barcode: '590',
            periodPrice: null,
            needsClient: false,
          },
          {
            type: 'pricingOption',
            id: pass,
            name: 'Karnet',
            price: 12000,
            vatRate: 2300,
            stock: null,
            barcode: null,
            periodPrice: null,
            needsClient: true,
          },
          {
            type: 'contract',
            id: uuidv7(),
            name: 'Umowa',
            price: 100,
            vatRate: 2300,
            stock: null,
            barcode: null,
            periodPrice: 100,
            needsClient: true,
          },
        ],
        itemStatuses: [],
        paymentMethods: [],
        stations: [],
        receiptsToPrint: 0,
      });
    if (path === 'product/categorized')
      return json(200, {
        categories: [{ id: 'c1', name: 'Napoje', products: [{ id: water }] }],
        uncategorized: [],
      });
    if (path === 'studio-pos/collection')
      return json(200, {
        items: [
          { id: uuidv7(), name: 'Bar', slug: 'bar-1', device: null },
          {
            id: posId,
            name: 'Recepcja',
            slug: 'front-1',
            device: options.assignedTo ? { id: options.assignedTo, name: 'PC', lastSeenAt: null } : null,
          },
        ],
        next: null,
      });
    return json(404, { error: { code: 1004, key: 'resource.notFound', message: 'no' } });
  };
  const pos = new StationPos({
    engine,
    forward,
    staff: () => manager,
    studioUuid: () => studio,
    deviceId: () => thisDevice,
    locale: () => 'pl',
    isOnline: () => online,
    fiscalPrinter: rig.printer,
    ticketInterface: capture,
  });
  return {
    pos,
    rig,
    capture,
    calls,
    engine,
    db,
    goOffline: () => (online = false),
    goOnline: () => (online = true),
    setQuote: (q: unknown) => (quote = q),
    invoiceOrder: (orderId: string) => (invoicedOrder = orderId),
  };
}

describe('StationPos', () => {
  it('records the sale locally, then prints the fiscal receipt and kicks the drawer for cash', async () => {
    const { pos, rig, capture, db } = await setup();
    const catalog = await pos.catalog('pl');
    // Contracts too: sold through the cloud (online only).
    expect(catalog.items.map((i) => i.name)).toEqual(['Woda', 'Karnet', 'Umowa']);
    expect(catalog.items[0]!.category).toEqual({ id: 'c1', name: 'Napoje' });
    await pos.chooseStation(posId);
    await pos.openShift(10_000);
    const saleId = uuidv7();
    const result = await pos.sell({
      saleId,
      clientId: null,
      lines: [{ type: 'product', id: water, quantity: 3 }],
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    });
    expect(result).toMatchObject({ total: 1500, change: 500, drawerOpened: true });
    expect(result.receipt.status).toBe('printed');
    const printed = rig.emulator.receipts().at(-1)!;
    expect(printed).toMatchObject({ total: 1500, change: 500 });
    expect(printed.lines.map((l) => l.name)).toEqual(['Woda']);
    expect(Buffer.concat(capture.jobs).includes(DRAWER_KICK)).toBe(true);
    // In the outbox, waiting to sync, and counted in the shift.
    expect(db.prepare(`select count(*) as n from outbox where name = 'recordSale'`).get()).toEqual({ n: 1 });
    expect(result.state.shift).toMatchObject({ cashSales: 1500, expected: 11_500, pendingSales: 1 });
    // A retried pay (lost answer) is the same sale: nothing recorded or printed twice.
    await pos.sell({
      saleId,
      clientId: null,
      lines: [{ type: 'product', id: water, quantity: 3 }],
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    });
    expect(rig.emulator.receipts()).toHaveLength(1);
    expect(db.prepare(`select count(*) as n from local_sales`).get()).toEqual({ n: 1 });
  });

  it('prices from the kept catalog offline; refuses discounts without sales.discount; passes need a client', async () => {
    const { pos, goOffline } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    goOffline();
    expect((await pos.catalog('pl')).offline).toBe(true);
    // Switched to English after the connection dropped: the Polish copy still sells.
    const other = await pos.catalog('en');
    expect(other.offline).toBe(true);
    expect(other.items.length).toBeGreaterThan(0);
    await expect(
      pos.sell({
        saleId: uuidv7(),
        clientId: null,
        lines: [{ type: 'product', id: water, quantity: 1 }],
        discount: 100,
        payments: [{ method: PaymentMethod.cash, amount: 400 }],
      }),
    ).rejects.toMatchObject({ key: 'pos.discountNotAllowed' });
    await expect(
      pos.sell({
        saleId: uuidv7(),
        clientId: null,
        lines: [{ type: 'pricingOption', id: pass, quantity: 1 }],
        payments: [{ method: PaymentMethod.terminal, amount: 12000 }],
      }),
    ).rejects.toMatchObject({ key: 'request.invalid' });
    const sold = await pos.sell({
      saleId: uuidv7(),
      clientId: uuidv7(),
      lines: [{ type: 'pricingOption', id: pass, quantity: 1 }],
      payments: [
        { method: PaymentMethod.cash, amount: 2000 },
        { method: PaymentMethod.terminal, amount: 10000 },
      ],
    });
    expect(sold).toMatchObject({ total: 12000, change: 0 });
    expect(sold.receipt.status).toBe('printed');
  });

  it('takes the station the back office assigned to this desk; else waits for the desk to choose', async () => {
    const assigned = await setup({ assignedTo: thisDevice });
    expect((await assigned.pos.current()).station).toEqual({ posId, slug: 'front-1', name: 'Recepcja' });
    db!.close();
    await closeRig?.();
    const elsewhere = await setup({ assignedTo: uuidv7() });
    expect((await elsewhere.pos.current()).station).toBeNull();
    // Asked once, not at every poll of the screen.
    await elsewhere.pos.current();
    expect(elsewhere.calls.filter((c) => c.endsWith('studio-pos/collection'))).toHaveLength(1);
  });

  it('keeps a receipt whose outcome is unknown pending, and settles it without printing twice', async () => {
    const { pos, rig } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    rig.emulator.disconnect({ forMs: 2_000, during: 'reply', match: 'trend' });
    const sold = await pos.sell({
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product', id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    });
    expect(sold.receipt.status).toBe('needsAttention');
    expect(sold.state.receiptIssues).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the cable is back
    const after = await pos.resolvePending(sold.saleId);
    expect(after.receiptIssues).toHaveLength(0);
    expect(rig.emulator.receipts()).toHaveLength(1);
  }, 60_000);

  it('a new sale waits while an earlier receipt is unresolved: the cashier is told; settled first once the printer is back', async () => {
    const { pos, rig, db } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    rig.emulator.disconnect({ forMs: 1_500, during: 'command', match: 'trend' });
    const a = await pos.sell({
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product', id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    });
    expect(a.receipt.status).toBe('needsAttention');
    const b = {
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product' as const, id: water, quantity: 2 }],
      payments: [{ method: PaymentMethod.terminal, amount: 1000 }],
    };
    // The printer is still away: B is not recorded, the screen gets the reason (A's message key).
    await expect(pos.sell(b)).rejects.toMatchObject({
      key: 'pos.receiptUnresolved',
      fields: { saleId: ['printing:cashier.outcomeUnknown'] },
    });
    expect(db.prepare('select count(*) as n from local_sales').get()).toEqual({ n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_600)); // the cable is back
    // A is settled first (its trend never ran: cancelled, nothing printed), then B prints.
    const sold = await pos.sell(b);
    expect(sold.receipt).toMatchObject({ status: 'printed', receiptNumber: 1 });
    expect(sold.state.receiptIssues).toMatchObject([{ saleId: a.saleId, status: 'notPrinted' }]);
    expect(rig.emulator.receipts().map((r) => r.total)).toEqual([1000]);
  }, 30_000);

  it("prints the buyer's NIP on the receipt and records it with the sale; a bad NIP is a field error", async () => {
    const { pos, rig, db } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    const sale = (buyerNip: string) => ({
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product' as const, id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
      buyerNip,
    });
    await expect(pos.sell(sale('526-025-02-75'))).rejects.toMatchObject({
      key: 'request.invalid',
      fields: { buyerNip: ['checksum'] },
    });
    const sold = await pos.sell(sale('PL 526-025-02-74'));
    expect(sold.receipt.status).toBe('printed');
    expect(rig.emulator.receipts()[0]).toMatchObject({ buyerNip: '5260250274' });
    const args = db.prepare(`select args from outbox where name = 'recordSale'`).get() as { args: string };
    expect(JSON.parse(args.args)).toMatchObject({ saleId: sold.saleId, buyerNip: '5260250274' });
  });

  it('the cashier settles a receipt the printer cannot identify by the roll: printed with its number, or not printed; audited', async () => {
    const { pos, rig, db } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    const sale = () => ({
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product' as const, id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    });
    // A's trend runs (A is printed as no. 1) but its reply is lost; meanwhile another program
    // prints two receipts on the same printer: the printer cannot show which one was A's.
    rig.emulator.disconnect({ forMs: 1_500, during: 'reply', match: 'trend' });
    const a = sale();
    expect((await pos.sell(a)).receipt.status).toBe('needsAttention');
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const other = createInProcessPair();
    rig.emulator.attach(other.device);
    const stranger = new PosnetFiscalPrinter({ transport: other.app, timing: FAST_TIMING });
    await stranger.open();
    for (const id of ['s1', 's2'])
      expect((await stranger.printReceipt(sampleReceipt({ id }))).status).toBe('printed');
    await stranger.close();
    const state = await pos.resolvePending(a.saleId);
    expect(state.receiptIssues).toMatchObject([
      { saleId: a.saleId, messageKey: 'printing:cashier.receiptNotIdentified', confirmable: true },
    ]);
    // No new sale while it is unresolved; only such a receipt is settled by hand.
    await expect(pos.sell(sale())).rejects.toMatchObject({ key: 'pos.receiptUnresolved' });
    expect(() => pos.confirmReceipt({ saleId: uuidv7(), printed: false })).toThrow();
    expect(() => pos.confirmReceipt({ saleId: a.saleId, printed: true })).toThrow(); // no number
    // The cashier finds A on the roll as receipt no. 1.
    const after = pos.confirmReceipt({ saleId: a.saleId, printed: true, receiptNumber: 1 });
    expect(after.receiptIssues).toHaveLength(0);
    expect(
      db.prepare('select status, receipt_number from pos_receipts where sale_id = ?').get(a.saleId),
    ).toEqual({
      status: 'printed',
      receipt_number: 1,
    });
    expect(db.prepare('select * from pos_receipt_resolutions').all()).toEqual([
      expect.objectContaining({
        sale_id: a.saleId,
        resolution: 'printed',
        receipt_number: 1,
        resolved_by: manager.userId,
      }),
    ]);
    // The desk sells again: B prints as no. 4 (after A and the two others); A is never printed again.
    const b = await pos.sell(sale());
    expect(b.receipt).toMatchObject({ status: 'printed', receiptNumber: 4 });
    expect(rig.emulator.receipts().map((r) => r.number)).toEqual([1, 2, 3, 4]);
  }, 30_000);

  it('a receipt confirmed not printed by the cashier stays a sale whose receipt is printed afresh', async () => {
    const { pos, rig, db } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    const a = {
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product' as const, id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    };
    // A's trend never reaches the printer (nothing printed); the evidence is then made unidentifiable.
    rig.emulator.disconnect({ forMs: 1_500, during: 'command', match: 'trend' });
    await pos.sell(a);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    db.prepare(
      `update pos_receipts set status = 'needsAttention', message_key = 'printing:cashier.receiptNotIdentified' where sale_id = ?`,
    ).run(a.saleId);
    const state = pos.confirmReceipt({ saleId: a.saleId, printed: false });
    expect(state.receiptIssues).toMatchObject([
      {
        saleId: a.saleId,
        status: 'notPrinted',
        messageKey: 'printing:cashier.confirmedNotPrinted',
        confirmable: false,
      },
    ]);
    expect(db.prepare('select resolution, receipt_number from pos_receipt_resolutions').all()).toEqual([
      { resolution: 'notPrinted', receipt_number: null },
    ]);
    const printed = await pos.resolvePending(a.saleId);
    expect(printed.receiptIssues).toHaveLength(0);
    expect(rig.emulator.receipts()).toHaveLength(1);
  }, 30_000);

  it('never prints the receipt of a sale the cloud invoiced meanwhile', async () => {
    const { pos, rig, db, goOffline, goOnline, invoiceOrder } = await setup();
    await pos.catalog('pl');
    await pos.chooseStation(posId);
    await pos.openShift(0);
    rig.emulator.requireDailyReport();
    const sold = await pos.sell({
      saleId: uuidv7(),
      clientId: null,
      lines: [{ type: 'product', id: water, quantity: 1 }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    });
    expect(sold.receipt.status).toBe('notPrinted');
    rig.emulator.device.dailyReportRequired = false;
    // The sale reached the cloud, which made order O; someone invoiced O.
    const orderId = uuidv7();
    db.prepare(
      `update outbox set status = 'acked', outcome = ? where mutation_id = (select mutation_id from local_sales where sale_id = ?)`,
    ).run(JSON.stringify({ status: 'applied', data: { saleId: sold.saleId, orderId } }), sold.saleId);
    // Offline the desk cannot know: it does not print.
    goOffline();
    await pos.resolvePending(sold.saleId);
    expect(rig.emulator.receipts()).toHaveLength(0);
    goOnline();
    invoiceOrder(orderId);
    const state = await pos.resolvePending(sold.saleId);
    expect(state.receiptIssues).toHaveLength(0);
    expect(rig.emulator.receipts()).toHaveLength(0);
    expect(
      db.prepare('select status, message_key from pos_receipts where sale_id = ?').get(sold.saleId),
    ).toEqual({
      status: 'invoiced',
      message_key: 'printing:cashier.orderInvoiced',
    });
  });

  describe('wallet, voucher and contracts (chargeSale@1)', () => {
    const quoteOf = (due: number, change: number) => ({
      currency: 'PLN',
      client: null,
      items: [],
      groups: { payNow: due, unpaid: 0, scheduled: 0, suspended: 0 },
      voucher: { code: 'SUMMER', discount: 100 },
      receipt: null,
      due,
      tendered: due + change,
      change,
      remaining: 0,
      walletBalance: 500,
      problems: {},
      canCheckout: true,
    });
    /** What the engine's push writes when the cloud answers. */
    const answer = (db: LocalDatabase, saleId: string, outcome: unknown) => {
      const { mutation_id } = db
        .prepare('select mutation_id from pos_cloud_sales where sale_id = ?')
        .get(saleId) as {
        mutation_id: string;
      };
      db.prepare(`update outbox set status = 'acked', outcome = ? where mutation_id = ?`).run(
        JSON.stringify(outcome),
        mutation_id,
      );
    };
    const client = uuidv7();
    const walletSale = (saleId: string) => ({
      saleId,
      clientId: client,
      lines: [{ type: 'product' as const, id: water, quantity: 2 }],
      voucherCode: 'summer',
      payments: [
        { method: PaymentMethod.wallet, amount: 400 },
        { method: PaymentMethod.cash, amount: 600 },
      ],
    });

    it('offline: refused before anything is recorded (cash and card still sell)', async () => {
      const { pos, db, goOffline } = await setup();
      await pos.catalog('pl');
      await pos.chooseStation(posId);
      await pos.openShift(0);
      goOffline();
      await expect(pos.sell(walletSale(uuidv7()))).rejects.toMatchObject({ key: 'pos.needsConnection' });
      await expect(
        pos.sell({
          saleId: uuidv7(),
          clientId: null,
          lines: [{ type: 'product', id: water, quantity: 1 }],
          voucherCode: 'SUMMER',
          payments: [{ method: PaymentMethod.cash, amount: 500 }],
        }),
      ).rejects.toMatchObject({ key: 'pos.needsConnection' });
      expect(db.prepare('select count(*) as n from local_sales').get()).toEqual({ n: 0 });
      expect(db.prepare('select count(*) as n from outbox').get()).toEqual({ n: 0 });
      const cash = await pos.sell({
        saleId: uuidv7(),
        clientId: null,
        lines: [{ type: 'product', id: water, quantity: 1 }],
        payments: [{ method: PaymentMethod.cash, amount: 500 }],
      });
      expect(cash.receipt.status).toBe('printed');
    });

    it('recorded first, printed only once the cloud charged it — the receipt it answered, once', async () => {
      const { pos, rig, db, setQuote } = await setup();
      await pos.catalog('pl');
      await pos.chooseStation(posId);
      await pos.openShift(0);
      setQuote(quoteOf(900, 100));
      const saleId = uuidv7();
      const waiting = await pos.sell(walletSale(saleId));
      // No answer from the cloud yet: recorded, not printed, listed.
      expect(waiting.receipt.status).toBe('awaitingCloud');
      expect(rig.emulator.receipts()).toHaveLength(0);
      expect(waiting.state.receiptIssues).toEqual([
        expect.objectContaining({ saleId, status: 'awaitingCloud', total: 900 }),
      ]);
      const queued = db.prepare(`select name, args from outbox`).all() as Array<{
        name: string;
        args: string;
      }>;
      expect(queued.map((r) => r.name)).toEqual(['chargeSale']);
      expect(JSON.parse(queued[0]!.args)).toMatchObject({ voucherCode: 'SUMMER', total: 900, change: 100 });
      expect(await pos.saleOrders(saleId)).toEqual({ orderIds: [], reason: 'waitingToSync' });

      const receiptId = uuidv7();
      const orderId = uuidv7();
      answer(db, saleId, {
        status: 'applied',
        data: {
          saleId,
          orderIds: [orderId],
          change: 100,
          receipt: {
            id: receiptId,
            lines: [{ name: 'Woda', unitPrice: 500, quantity: '2', vatRate: 500 }],
            discount: 100,
            payments: [
              { type: 'cash', amount: 600 },
              { type: 'other', amount: 400 },
            ],
            change: 100,
            total: 900,
          },
        },
      });
      // The cashier settles it (or pays again: the same sale id).
      const printed = await pos.sell(walletSale(saleId));
      expect(printed).toMatchObject({ total: 900, change: 100 });
      expect(printed.receipt.status).toBe('printed');
      expect(rig.emulator.receipts()).toHaveLength(1);
      expect(rig.emulator.receipts()[0]).toMatchObject({ total: 900, change: 100 });
      await pos.sell(walletSale(saleId));
      await pos.resolvePending(saleId).catch(() => undefined);
      expect(rig.emulator.receipts()).toHaveLength(1);
      expect(db.prepare('select count(*) as n from local_sales').get()).toEqual({ n: 1 });
      expect(db.prepare('select count(*) as n from outbox').get()).toEqual({ n: 1 });
      // The shift counts the cash kept (6 zł − 1 zł change); the receipt is reported under the cloud's id.
      expect(printed.state.shift).toMatchObject({ cashSales: 500 });
      expect(printed.state.receiptIssues).toHaveLength(0);
      expect(await pos.saleOrders(saleId)).toEqual({ orderIds: [orderId], reason: null });
      expect(await pos.invoicePdf(uuidv7())).toMatchObject({
        fileName: 'FV_2026_000001.pdf',
        base64: Buffer.from('%PDF-1.7').toString('base64'),
      });
    });

    it("a wallet and voucher sale may carry the buyer's NIP: sent with the sale, printed on the receipt the cloud answered", async () => {
      const { pos, rig, db, setQuote } = await setup();
      await pos.catalog('pl');
      await pos.chooseStation(posId);
      await pos.openShift(0);
      setQuote(quoteOf(900, 100));
      const saleId = uuidv7();
      await expect(pos.sell({ ...walletSale(saleId), buyerNip: '526-025-02-75' })).rejects.toMatchObject({
        fields: { buyerNip: ['checksum'] },
      });
      const waiting = await pos.sell({ ...walletSale(saleId), buyerNip: 'PL 526-025-02-74' });
      expect(waiting.receipt.status).toBe('awaitingCloud');
      const queued = db.prepare(`select args from outbox where name = 'chargeSale'`).get() as {
        args: string;
      };
      expect(JSON.parse(queued.args)).toMatchObject({ saleId, buyerNip: '5260250274' });
      answer(db, saleId, {
        status: 'applied',
        data: {
          saleId,
          orderIds: [uuidv7()],
          change: 100,
          receipt: {
            id: uuidv7(),
            lines: [{ name: 'Woda', unitPrice: 500, quantity: '2', vatRate: 500 }],
            discount: 100,
            payments: [
              { type: 'cash', amount: 600 },
              { type: 'other', amount: 400 },
            ],
            change: 100,
            total: 900,
            buyerNip: '5260250274',
          },
        },
      });
      const printed = await pos.sell({ ...walletSale(saleId), buyerNip: 'PL 526-025-02-74' });
      expect(printed.receipt.status).toBe('printed');
      expect(rig.emulator.receipts()[0]).toMatchObject({ total: 900, buyerNip: '5260250274' });
    });

    it('refused by the cloud (wallet too low): voided, never printed nor counted, the refusal shown', async () => {
      const { pos, rig, db, setQuote } = await setup();
      await pos.catalog('pl');
      await pos.chooseStation(posId);
      await pos.openShift(0);
      setQuote(quoteOf(900, 100));
      const saleId = uuidv7();
      await pos.sell(walletSale(saleId));
      answer(db, saleId, {
        status: 'rejected',
        code: 2020,
        key: 'wallet.insufficientFunds',
        message: 'the wallet balance is too low',
        fields: { payments: ['walletTooLow'] },
      });
      await expect(pos.sell(walletSale(saleId))).rejects.toMatchObject({
        key: 'wallet.insufficientFunds',
        fields: { payments: ['walletTooLow'] },
      });
      const state = await pos.current();
      expect(rig.emulator.receipts()).toHaveLength(0);
      expect(state.shift).toMatchObject({ cashSales: 0 });
      expect(state.receiptIssues).toHaveLength(0);
      expect(await pos.saleOrders(saleId)).toEqual({ orderIds: [], reason: 'refused' });
      // Shown on the screen, so not also a "changed by the studio" notice.
      expect(db.prepare('select noticed_at from outbox').get()).toEqual({ noticed_at: expect.any(String) });
    });

    it("the cloud's quote refuses the basket (voucher used up): nothing recorded", async () => {
      const { pos, db, setQuote } = await setup();
      await pos.catalog('pl');
      await pos.chooseStation(posId);
      await pos.openShift(0);
      setQuote({ ...quoteOf(1000, 0), voucher: null, problems: { voucherCode: ['voucherUsedUp'] } });
      await expect(pos.sell(walletSale(uuidv7()))).rejects.toMatchObject({
        key: 'retail.basketInvalid',
        fields: { voucherCode: ['voucherUsedUp'] },
      });
      expect(db.prepare('select count(*) as n from outbox').get()).toEqual({ n: 0 });
    });
  });
});
