import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import { PaymentMethod } from '../../../shared/enums';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { CaptureInterface } from '../printing/escpos/interfaces';
import { inProcessRig } from '../printing/emulator/test-rig';
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
  const forward = async (request: ApiRequestInput): Promise<ApiResponse> => {
    calls.push(`${request.method} ${request.path}`);
    if (!online) throw Object.assign(new Error('offline'), { key: 'station.cloudUnreachable' });
    const path = request.path.replace(`v4/${studio}/`, '').split('?')[0];
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
  return { pos, rig, capture, calls, engine, db, goOffline: () => (online = false) };
}

describe('StationPos', () => {
  it('records the sale locally, then prints the fiscal receipt and kicks the drawer for cash', async () => {
    const { pos, rig, capture, db } = await setup();
    const catalog = await pos.catalog('pl');
    expect(catalog.items.map((i) => i.name)).toEqual(['Woda', 'Karnet']); // no contracts at the desk
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
});
