import i18next from 'i18next';
import { v7 as uuidv7 } from 'uuid';
import enEnums from '../../../locales/en/enums.json';
import enStations from '../../../locales/en/stations.json';
import plEnums from '../../../locales/pl/enums.json';
import plStations from '../../../locales/pl/stations.json';
import {
  CashMovementSchema,
  ShiftCloseSchema,
  ShiftOpenSchema,
  type CashMovementView,
  type ShiftView,
} from '../../../shared/contracts/api/stations';
import { canTakeCashOut, reconcileShift, shiftCashTotals } from '../../../shared/domain/shifts';
import { PaymentMethod } from '../../../shared/enums';
import { AppError } from '../../../shared/errors';
import type { Locale } from '../../../shared/i18n/locales';
import type { LocalDatabase } from '../db/database';
import type { FiscalPrinter } from '../printing/fiscal-printer';
import type { TicketPrinterInterface } from '../printing/escpos/interfaces';
import type { ShiftSummary, TicketPrinter } from '../printing/ticket-printer';
import type { SyncEngine } from '../sync/engine';
import { localSales } from './sales';
import { deviceTimeZone, formatDateTime } from '../../../shared/i18n/dates';

/**
 * The till's shift on the station (the desktop POS), offline as well as online:
 *
 * - open with a float, cash in/out, close against the counted cash — written to `station.db`
 *   (`pos_shifts`, `pos_shift_cash`) in one synchronous transaction each, so a shift survives a crash;
 * - cash in/out goes to the fiscal printer first (its own cash in/out document, which keeps the
 *   printer's drawer count equal to ours); a refused print records nothing;
 * - the close is refused while any of the shift's sales (`recordSale@1` rows of the engine's outbox)
 *   still waits to sync; then it is recorded, the fiscal daily report is printed and a shift summary
 *   ticket goes to the ESC/POS printer (a failed print does not undo the close: it is reported);
 * - expected cash = float + cash kept from the shift's sales (`local_sales`, cash less change) −
 *   cash refunds (none at the station: refunds are the cloud's) + cash in − cash out, the same
 *   `shared/domain/shifts` arithmetic the cloud uses;
 * - `pushToCloud` replays the steps to `studio-pos/{posId}/shift/...` under the same ids and with the
 *   station's times, so the cloud's shift is this one (idempotent: a replay answers what was done).
 */

export interface StationShiftsOptions {
  engine: Pick<SyncEngine, 'db'>;
  /** The POS station's slug: what its sales and fiscal printer carry. */
  stationSlug: string;
  currency: string;
  /** The configured fiscal printer, if any (looked up at each use: it may be set up later). */
  fiscalPrinter?: () => FiscalPrinter | null;
  ticketPrinter?: () => TicketPrinter | null;
  /** Where the drawer hangs (ESC/POS drawer kick); usually the ticket printer's interface. */
  drawer?: () => TicketPrinterInterface | null;
  clock?: () => Date;
  locale?: () => Locale;
  studioName?: () => string;
}

export interface Cashier {
  id: string;
  name: string;
}

export interface StationShiftView extends ShiftView {
  /** The shift's sales still waiting to sync: the close is refused while it is above zero. */
  pendingSales: number;
}

export interface CloseOutcome {
  shift: StationShiftView;
  dailyReport: 'printed' | 'failed' | 'noPrinter';
  /** The printer's message key when the daily report failed. */
  dailyReportMessage: string | null;
  ticket: 'printed' | 'failed' | 'noPrinter';
}

interface ShiftRow {
  id: string;
  pos_id: string | null;
  station_slug: string;
  opened_by: string;
  opened_by_name: string;
  opened_at: string;
  float: number;
  closed_by: string | null;
  closed_at: string | null;
  cash_sales: number | null;
  cash_refunds: number | null;
  expected: number | null;
  counted: number | null;
  note: string;
  daily_report: 'printed' | 'failed' | 'noPrinter' | null;
  open_synced_at: string | null;
  close_synced_at: string | null;
}

interface CashRow {
  id: string;
  shift_id: string;
  kind: 'in' | 'out';
  amount: number;
  reason: string;
  at: string;
  by_user: string;
  synced_at: string | null;
}

/** ESC p m t1 t2: pulse pin 2 (m = 0) for 50 ms on, 500 ms off — what Epson-compatible printers take. */
export const DRAWER_KICK = Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]);

/** Opens the cash drawer hung on an ESC/POS printer. */
export async function kickCashDrawer(target: TicketPrinterInterface): Promise<void> {
  await target.execute(DRAWER_KICK);
}

function badInput(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): AppError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) (fields[issue.path.map(String).join('.')] ??= []).push(issue.message);
  return new AppError('request.invalid', { message: 'invalid input', fields });
}

export class StationShifts {
  private readonly db: LocalDatabase;
  private readonly clock: () => Date;

  constructor(private readonly options: StationShiftsOptions) {
    this.db = options.engine.db;
    this.clock = options.clock ?? (() => new Date());
  }

  // ------------------------------------------------------------------------------ reading

  private openRow(): ShiftRow | undefined {
    return this.db
      .prepare('select * from pos_shifts where station_slug = ? and closed_at is null')
      .get(this.options.stationSlug) as ShiftRow | undefined;
  }

  private row(id: string): ShiftRow {
    const row = this.db.prepare('select * from pos_shifts where id = ?').get(id) as ShiftRow | undefined;
    if (!row) throw new AppError('resource.notFound', { message: 'shift not found' });
    return row;
  }

  private cashRows(shiftId: string): CashRow[] {
    return this.db
      .prepare('select * from pos_shift_cash where shift_id = ? order by at, id')
      .all(shiftId) as CashRow[];
  }

  /** The shift's sales still in the engine's outbox, not yet answered by the cloud. */
  pendingSales(shiftId: string): number {
    const row = this.db
      .prepare(
        `select count(*) as n from outbox
          where name in ('recordSale', 'chargeSale') and status = 'pending' and json_extract(args, '$.shiftId') = ?`,
      )
      .get(shiftId) as { n: number };
    return row.n;
  }

  /** Cash kept, sales and money per method, from the sales this station recorded in the shift. */
  private salesOf(shiftId: string) {
    const sales = localSales(this.options.engine as SyncEngine, { shiftId });
    const byMethod = new Map<number, number>();
    for (const { sale } of sales) {
      let change = sale.change;
      for (const p of sale.payments) {
        let amount = p.amount;
        if (p.method === PaymentMethod.cash && change > 0) {
          const back = Math.min(change, amount);
          amount -= back;
          change -= back;
        }
        if (amount > 0) byMethod.set(p.method, (byMethod.get(p.method) ?? 0) + amount);
      }
    }
    const methods = [...byMethod.entries()]
      .map(([method, amount]) => ({ method, amount }))
      .sort((a, b) => a.method - b.method);
    return {
      sales: sales.length,
      byMethod: methods,
      cashSales: byMethod.get(PaymentMethod.cash) ?? 0,
      total: sales.reduce((sum, s) => sum + s.total, 0),
    };
  }

  private view(row: ShiftRow): StationShiftView {
    const cash = this.cashRows(row.id);
    const movements: CashMovementView[] = cash.map((c) => ({
      id: c.id,
      kind: c.kind,
      amount: c.amount,
      reason: c.reason,
      at: c.at,
      by: c.by_user,
    }));
    const sales = this.salesOf(row.id);
    const closed = row.closed_at !== null;
    const cashSales = closed ? (row.cash_sales ?? 0) : sales.cashSales;
    const totals = shiftCashTotals({ float: row.float, cashSales, cashRefunds: 0, movements });
    const expected = closed ? (row.expected ?? totals.expected) : totals.expected;
    return {
      id: row.id,
      posId: row.pos_id ?? '',
      posName: row.station_slug,
      status: closed ? 'closed' : 'open',
      currency: this.options.currency,
      openedAt: row.opened_at,
      openedBy: row.opened_by_name,
      closedAt: row.closed_at,
      closedBy: row.closed_by,
      float: row.float,
      cashSales,
      cashRefunds: 0,
      cashIn: totals.cashIn,
      cashOut: totals.cashOut,
      expected,
      counted: row.counted,
      difference: row.counted === null ? null : row.counted - expected,
      lateCashSales: closed ? sales.cashSales - cashSales : 0,
      sales: sales.sales,
      byMethod: sales.byMethod,
      movements,
      note: row.note,
      dailyReport: row.daily_report,
      pendingSales: this.pendingSales(row.id),
    };
  }

  current(): StationShiftView | null {
    const row = this.openRow();
    return row ? this.view(row) : null;
  }

  get(id: string): StationShiftView {
    return this.view(this.row(id));
  }

  // ------------------------------------------------------------------------------ the till

  open(input: { float: number; id?: string }, cashier: Cashier): StationShiftView {
    const parsed = ShiftOpenSchema.safeParse(input);
    if (!parsed.success) throw badInput(parsed.error);
    if (this.openRow())
      throw new AppError('shift.alreadyOpen', { message: 'this POS has an open shift; close it first' });
    const id = parsed.data.id ?? uuidv7();
    this.db
      .prepare(
        `insert into pos_shifts (id, station_slug, opened_by, opened_by_name, opened_at, float)
         values (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        this.options.stationSlug,
        cashier.id,
        cashier.name,
        this.clock().toISOString(),
        parsed.data.float,
      );
    return this.get(id);
  }

  private requireOpen(): ShiftRow {
    const row = this.openRow();
    if (!row) throw new AppError('shift.notOpen', { message: 'no shift is open at this POS' });
    return row;
  }

  /**
   * Cash in or out. With a fiscal printer the printer's own cash in/out document comes first; if it
   * refuses (paper out, not connected), nothing is recorded and the cashier sees why.
   */
  async cash(
    input: { kind: 'in' | 'out'; amount: number; reason?: string },
    cashier: Cashier,
  ): Promise<StationShiftView> {
    const parsed = CashMovementSchema.safeParse(input);
    if (!parsed.success) throw badInput(parsed.error);
    const { kind, amount, reason } = parsed.data;
    const shift = this.requireOpen();
    if (kind === 'out') {
      const now = this.view(shift);
      if (
        !canTakeCashOut(
          { float: now.float, cashSales: now.cashSales, cashRefunds: 0, movements: now.movements },
          amount,
        )
      )
        throw new AppError('shift.notEnoughCash', {
          message: 'the drawer does not hold that much',
          fields: { amount: ['notEnoughCash'] },
        });
    }
    const printer = this.options.fiscalPrinter?.() ?? null;
    if (printer) {
      let result;
      try {
        result = kind === 'in' ? await printer.cashIn(amount) : await printer.cashOut(amount);
      } catch (error) {
        throw new AppError('shift.printerFailed', {
          message: error instanceof Error ? error.message : 'the fiscal printer did not answer',
        });
      }
      if (!result.ok) throw new AppError('shift.printerFailed', { message: result.messageKey });
    }
    this.db
      .prepare(
        'insert into pos_shift_cash (id, shift_id, kind, amount, reason, at, by_user) values (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(uuidv7(), shift.id, kind, amount, reason ?? '', this.clock().toISOString(), cashier.name);
    return this.get(shift.id);
  }

  /**
   * Closes the open shift against the counted cash. Refused (`shift.salesWaiting`, with the count)
   * while any of its sales waits to sync. The close is durable before anything prints.
   */
  async close(input: { counted: number; note?: string }, cashier: Cashier): Promise<CloseOutcome> {
    const parsed = ShiftCloseSchema.safeParse(input);
    if (!parsed.success) throw badInput(parsed.error);
    const shift = this.requireOpen();
    const waiting = this.pendingSales(shift.id);
    if (waiting > 0)
      throw new AppError('shift.salesWaiting', {
        message: `${waiting} sale(s) of this shift are still waiting to sync`,
        fields: { pendingSales: [String(waiting)] },
      });
    const sales = this.salesOf(shift.id);
    const movements = this.cashRows(shift.id);
    const result = reconcileShift(
      { float: shift.float, cashSales: sales.cashSales, cashRefunds: 0, movements },
      parsed.data.counted,
    );
    const closedAt = this.clock().toISOString();
    this.db
      .prepare(
        `update pos_shifts set closed_at = ?, closed_by = ?, cash_sales = ?, cash_refunds = 0, expected = ?,
           counted = ?, note = ? where id = ? and closed_at is null`,
      )
      .run(
        closedAt,
        cashier.name,
        result.cashSales,
        result.expected,
        result.counted,
        parsed.data.note ?? '',
        shift.id,
      );

    const report = await this.dailyReport();
    this.db.prepare('update pos_shifts set daily_report = ? where id = ?').run(report.status, shift.id);
    const view = this.get(shift.id);
    const ticket = await this.printSummary(view, sales.total);
    return { shift: view, dailyReport: report.status, dailyReportMessage: report.message, ticket };
  }

  private async dailyReport(): Promise<{
    status: 'printed' | 'failed' | 'noPrinter';
    message: string | null;
  }> {
    const printer = this.options.fiscalPrinter?.() ?? null;
    if (!printer) return { status: 'noPrinter', message: null };
    try {
      const result = await printer.dailyReport();
      return result.ok
        ? { status: 'printed', message: null }
        : { status: 'failed', message: result.messageKey };
    } catch (error) {
      return { status: 'failed', message: error instanceof Error ? error.message : 'printer error' };
    }
  }

  /** The shift summary ticket as the ESC/POS printer gets it (labels in the station's language). */
  summaryTicket(view: StationShiftView, salesTotal: number): ShiftSummary {
    const locale = this.options.locale?.() ?? 'pl';
    const t = stationsTranslator(locale);
    // The shift was kept on this desk's clock.
    const time = (iso: string | null) => (iso ? formatDateTime(iso, locale, deviceTimeZone()) : '');
    const cashLines = [
      [t('stations:shift.float'), view.float],
      [t('stations:shift.cashSales'), view.cashSales],
      [t('stations:shift.cashIn'), view.cashIn],
      [t('stations:shift.cashOut'), -view.cashOut],
      [t('stations:shift.expected'), view.expected],
      [t('stations:shift.counted'), view.counted ?? 0],
      [t('stations:shift.difference'), view.difference ?? 0],
    ] as const;
    return {
      kind: 'shiftSummary',
      studioName: this.options.studioName?.() ?? '',
      stationName: view.posName,
      cashierName: view.closedBy ?? view.openedBy,
      openedAt: time(view.openedAt),
      closedAt: time(view.closedAt),
      receipts: view.sales,
      cancelledReceipts: 0,
      currency: view.currency,
      byPayment: [
        ...view.byMethod.map((m) => ({ label: t(`enums:paymentMethod.${m.method}`), amount: m.amount })),
        // The cash reconciliation under the payment lines, as "label: amount" rows of the same ticket.
        ...cashLines.map(([label, amount]) => ({ label, amount })),
      ],
      total: salesTotal,
    };
  }

  private async printSummary(view: StationShiftView, salesTotal: number): Promise<CloseOutcome['ticket']> {
    const printer = this.options.ticketPrinter?.() ?? null;
    if (!printer) return 'noPrinter';
    try {
      await printer.print(this.summaryTicket(view, salesTotal));
      return 'printed';
    } catch {
      return 'failed';
    }
  }

  /** Opens the drawer (a cash payment, a cash in/out). False when no drawer is set up or it failed. */
  async openDrawer(): Promise<boolean> {
    const drawer = this.options.drawer?.() ?? null;
    if (!drawer) return false;
    try {
      await kickCashDrawer(drawer);
      return true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------------------------ to the cloud

  /**
   * Replays what the cloud has not seen yet, in order (opens, cash, closes), to the POS's shift
   * routes; each step is marked when the cloud took it. Stops at the first step the cloud refuses or
   * cannot be reached for, so the order holds. Answers how many steps went up.
   */
  async pushToCloud(
    posId: string,
    call: (path: string, body: unknown) => Promise<{ status: number; body: unknown }>,
  ): Promise<{ sent: number; stoppedAt: { step: string; status: number } | null }> {
    let sent = 0;
    const shifts = this.db
      .prepare(
        `select * from pos_shifts where open_synced_at is null or (closed_at is not null and close_synced_at is null)
          or id in (select shift_id from pos_shift_cash where synced_at is null) order by opened_at`,
      )
      .all() as ShiftRow[];
    const now = () => this.clock().toISOString();
    for (const shift of shifts) {
      const base = `studio-pos/${posId}/shift`;
      if (!shift.open_synced_at) {
        const res = await call(`${base}/open`, {
          id: shift.id,
          float: shift.float,
          openedAt: shift.opened_at,
        });
        if (res.status >= 300) return { sent, stoppedAt: { step: `open ${shift.id}`, status: res.status } };
        this.db
          .prepare('update pos_shifts set open_synced_at = ?, pos_id = ? where id = ?')
          .run(now(), posId, shift.id);
        sent++;
      }
      for (const c of this.cashRows(shift.id).filter((r) => !r.synced_at)) {
        const res = await call(`${base}/${shift.id}/cash`, {
          id: c.id,
          kind: c.kind,
          amount: c.amount,
          reason: c.reason,
          at: c.at,
        });
        if (res.status >= 300) return { sent, stoppedAt: { step: `cash ${c.id}`, status: res.status } };
        this.db.prepare('update pos_shift_cash set synced_at = ? where id = ?').run(now(), c.id);
        sent++;
      }
      if (shift.closed_at && !shift.close_synced_at) {
        const res = await call(`${base}/${shift.id}/close`, {
          counted: shift.counted,
          note: shift.note,
          closedAt: shift.closed_at,
          ...(shift.daily_report ? { dailyReport: shift.daily_report } : {}),
        });
        if (res.status >= 300) return { sent, stoppedAt: { step: `close ${shift.id}`, status: res.status } };
        this.db.prepare('update pos_shifts set close_synced_at = ? where id = ?').run(now(), shift.id);
        sent++;
      }
    }
    return { sent, stoppedAt: null };
  }
}

/** Labels of the summary ticket: the stations namespace and the payment methods' names. */
function stationsTranslator(locale: Locale): (key: string) => string {
  const instance = i18next.createInstance();
  void instance.init({
    resources: {
      en: { stations: enStations, enums: enEnums },
      pl: { stations: plStations, enums: plEnums },
    },
    lng: locale,
    fallbackLng: 'en',
    ns: ['stations', 'enums'],
    defaultNS: 'stations',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (key) => instance.t(key);
}
