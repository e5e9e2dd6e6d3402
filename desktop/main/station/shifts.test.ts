import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { PaymentMethod } from '../../../shared/enums';
import { AppError } from '../../../shared/errors';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { EscPosTicketPrinter } from '../printing/escpos/escpos-ticket-printer';
import { CaptureInterface } from '../printing/escpos/interfaces';
import type { FiscalOperationResult, FiscalPrinter } from '../printing/fiscal-printer';
import { printingTranslator } from '../printing/i18n';
import { SyncEngine } from '../sync/engine';
import { recordSale } from './sales';
import { DRAWER_KICK, StationShifts, kickCashDrawer } from './shifts';

const cashier = { id: uuidv7(), name: 'Anna Kasjer' };
let db: LocalDatabase | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

/** A fiscal printer that answers cash in/out and the daily report as told, and remembers the calls. */
function fakeFiscal(answer: FiscalOperationResult = { ok: true }) {
  const calls: string[] = [];
  const printer = {
    cashIn: async (amount: number) => (calls.push(`in ${amount}`), answer),
    cashOut: async (amount: number) => (calls.push(`out ${amount}`), answer),
    dailyReport: async () => (calls.push('daily'), answer),
  } as unknown as FiscalPrinter;
  return { printer, calls };
}

function setup(options: { fiscal?: FiscalPrinter | null; locale?: 'en' | 'pl' } = {}) {
  db = openLocalDatabase(':memory:');
  // A registered station (the engine queues local commands only then).
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?)`).run(uuidv7(), uuidv7());
  const engine = new SyncEngine(db);
  const capture = new CaptureInterface();
  const locale = options.locale ?? 'en';
  const tickets = new EscPosTicketPrinter({
    interface: capture,
    locale,
    translate: printingTranslator(locale),
  });
  let now = new Date('2026-11-23T08:00:00Z');
  const shifts = new StationShifts({
    engine,
    stationSlug: 'front-1',
    currency: 'PLN',
    fiscalPrinter: () => options.fiscal ?? null,
    ticketPrinter: () => tickets,
    drawer: () => capture,
    clock: () => now,
    locale: () => locale,
    studioName: () => 'Harmonia',
  });
  const later = (minutes: number) => (now = new Date(now.getTime() + minutes * 60_000));
  return { engine, shifts, capture, later, db };
}

/** A water sale at the desk: 3 × 5 zł paid with 20 zł in cash, 5 zł change. */
function sellWater(engine: SyncEngine, shiftId: string) {
  return recordSale(engine, {
    clientId: null,
    lines: [{ type: 'product', id: uuidv7(), name: 'Woda', quantity: 3, unitPrice: 500, vatRate: 2300 }],
    payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    change: 500,
    shiftId,
    stationSlug: 'front-1',
  });
}

const appErrorKey = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e instanceof AppError ? e.key : String(e);
  }
  return null;
};

describe('station shifts', () => {
  it('open, a cash sale, cash in and out on the fiscal printer, close after the sale synced, report and ticket', async () => {
    const fiscal = fakeFiscal();
    const { engine, shifts, capture, later, db } = setup({ fiscal: fiscal.printer });
    const shift = shifts.open({ float: 20000 }, cashier);
    expect(shift).toMatchObject({ status: 'open', float: 20000, expected: 20000, openedBy: 'Anna Kasjer' });
    expect(await appErrorKey(() => shifts.open({ float: 1 }, cashier))).toBe('shift.alreadyOpen');

    later(5);
    sellWater(engine, shift.id);
    expect(shifts.current()).toMatchObject({ cashSales: 1500, sales: 1, expected: 21500, pendingSales: 1 });

    later(5);
    await shifts.cash({ kind: 'in', amount: 5000, reason: 'coins' }, cashier);
    expect(await appErrorKey(shifts.cash({ kind: 'out', amount: 999_999 }, cashier))).toBe(
      'shift.notEnoughCash',
    );
    await shifts.cash({ kind: 'out', amount: 3000, reason: 'safe drop' }, cashier);
    expect(fiscal.calls).toEqual(['in 5000', 'out 3000']);
    expect(shifts.current()).toMatchObject({ cashIn: 5000, cashOut: 3000, expected: 23500 });

    // The sale still waits in the outbox: no close, nothing printed.
    expect(await appErrorKey(shifts.close({ counted: 23500 }, cashier))).toBe('shift.salesWaiting');
    expect(fiscal.calls).not.toContain('daily');
    expect(shifts.current()?.status).toBe('open');

    // The cloud answered: the sale is synced.
    db.prepare(`update outbox set status = 'acked' where name = 'recordSale'`).run();
    later(60);
    const closed = await shifts.close({ counted: 23300, note: 'short' }, cashier);
    expect(closed.shift).toMatchObject({
      status: 'closed',
      expected: 23500,
      counted: 23300,
      difference: -200,
      dailyReport: 'printed',
      byMethod: [{ method: PaymentMethod.cash, amount: 1500 }],
    });
    expect(closed).toMatchObject({ dailyReport: 'printed', ticket: 'printed' });
    expect(fiscal.calls.at(-1)).toBe('daily');
    expect(shifts.current()).toBeNull();

    // The ticket's bytes: title, the cash reconciliation and the payment method's name.
    const ticket = capture.jobs.at(-1)!.toString('latin1');
    for (const text of [
      'Shift summary',
      'front-1',
      'Anna Kasjer',
      'Cash',
      'Float',
      'Expected cash',
      'Counted cash',
      'Difference',
    ])
      expect(ticket).toContain(text);
    expect(ticket).toContain('235.00');
    expect(ticket).toContain('-2.00');

    // A new shift starts from nothing.
    expect(shifts.open({ float: 23300 }, cashier)).toMatchObject({ cashSales: 0, sales: 0, expected: 23300 });
  });

  it('a cash out the fiscal printer refuses records nothing', async () => {
    const fiscal = fakeFiscal({ ok: false, messageKey: 'printing.paperOut' as never });
    const { shifts } = setup({ fiscal: fiscal.printer });
    shifts.open({ float: 10000 }, cashier);
    expect(await appErrorKey(shifts.cash({ kind: 'out', amount: 1000 }, cashier))).toBe(
      'shift.printerFailed',
    );
    expect(shifts.current()).toMatchObject({ cashOut: 0, movements: [] });
  });

  it('without a fiscal printer: cash moves are recorded, the close says there was no daily report', async () => {
    const { shifts } = setup({ fiscal: null });
    shifts.open({ float: 0 }, cashier);
    await shifts.cash({ kind: 'in', amount: 700 }, cashier);
    const closed = await shifts.close({ counted: 700 }, cashier);
    expect(closed).toMatchObject({ dailyReport: 'noPrinter', shift: { difference: 0 } });
  });

  it('refuses bad amounts with every field, and cash or close with no shift open', async () => {
    const { shifts } = setup();
    const error = (() => {
      try {
        shifts.open({ float: -5 }, cashier);
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(error?.key).toBe('request.invalid');
    expect(Object.keys(error?.fields ?? {})).toEqual(['float']);
    expect(await appErrorKey(shifts.cash({ kind: 'in', amount: 100 }, cashier))).toBe('shift.notOpen');
    expect(await appErrorKey(shifts.close({ counted: 0 }, cashier))).toBe('shift.notOpen');
  });

  it('the open shift survives a restart of the station', async () => {
    const { engine, shifts } = setup();
    const shift = shifts.open({ float: 5000 }, cashier);
    const again = new StationShifts({ engine, stationSlug: 'front-1', currency: 'PLN' });
    expect(again.current()?.id).toBe(shift.id);
  });

  it('replays the shift to the cloud in order, under the same ids, resuming after a refusal', async () => {
    const { shifts, later } = setup();
    const shift = shifts.open({ float: 10000 }, cashier);
    later(10);
    await shifts.cash({ kind: 'in', amount: 500 }, cashier);
    later(10);
    await shifts.close({ counted: 10500 }, cashier);

    const seen: Array<[string, any]> = [];
    let fail = true;
    const call = async (path: string, body: unknown) => {
      seen.push([path, body]);
      if (path.endsWith('/cash') && fail) return { status: 503, body: null };
      return { status: 200, body: {} };
    };
    const posId = uuidv7();
    let result = await shifts.pushToCloud(posId, call);
    expect(result).toMatchObject({ sent: 1, stoppedAt: { status: 503 } });
    fail = false;
    result = await shifts.pushToCloud(posId, call);
    expect(result).toEqual({ sent: 2, stoppedAt: null });
    expect(seen.map(([p]) => p)).toEqual([
      `studio-pos/${posId}/shift/open`,
      `studio-pos/${posId}/shift/${shift.id}/cash`,
      `studio-pos/${posId}/shift/${shift.id}/cash`,
      `studio-pos/${posId}/shift/${shift.id}/close`,
    ]);
    expect(seen[0]![1]).toEqual({ id: shift.id, float: 10000, openedAt: '2026-11-23T08:00:00.000Z' });
    expect(seen[3]![1]).toMatchObject({
      counted: 10500,
      closedAt: '2026-11-23T08:20:00.000Z',
      dailyReport: 'noPrinter',
    });
    // Nothing left to send.
    expect(await shifts.pushToCloud(posId, call)).toEqual({ sent: 0, stoppedAt: null });
  });

  it('opens the cash drawer with the ESC/POS kick', async () => {
    const { shifts, capture } = setup();
    expect(await shifts.openDrawer()).toBe(true);
    expect(capture.jobs.at(-1)).toEqual(Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]));
    const other = new CaptureInterface();
    await kickCashDrawer(other);
    expect(other.jobs).toEqual([DRAWER_KICK]);
  });
});
