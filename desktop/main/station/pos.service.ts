import { ZodError } from 'zod';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import {
  PosConfirmReceiptInputSchema,
  PosSellInputSchema,
  type PosCatalog,
  type PosConfirmReceiptInput,
  type PosCatalogItem,
  type PosInvoicePdf,
  type PosSaleOrders,
  type PosSellInput,
  type PosSellResult,
  type PosState,
  type PosStation,
} from '../../../shared/contracts/ipc/pos';
import type { RetailInit } from '../../../shared/contracts/api/retail';
import type { ProductCategorized } from '../../../shared/contracts/api/products';
import type { StationFiscalPrinter } from '../../../shared/contracts/api/fiscal-printers';
import type { StudioPosList } from '../../../shared/contracts/api/stations';
import { PaymentMethod } from '../../../shared/enums';
import { checkNip } from '../../../shared/domain/invoices/tax-id';
import { AppError, zodIssuesToFields } from '../../../shared/errors';
import { LOCALES, type Locale } from '../../../shared/i18n/locales';
import type { LocalDatabase } from '../db/database';
import { connectionFromCloud } from '../printing/cloud-settings';
import { createPosnetPrinter } from '../printing/connection';
import { EscPosTicketPrinter } from '../printing/escpos/escpos-ticket-printer';
import type { TicketPrinterInterface } from '../printing/escpos/interfaces';
import type { FiscalPaymentType, FiscalPrinter, FiscalReceipt } from '../printing/fiscal-printer';
import { printingTranslator } from '../printing/i18n';
import type { SyncEngine } from '../sync/engine';
import { PosCloudSales } from './pos-cloud-sales';
import { PosReceipts } from './pos-receipts';
import { recordSale } from './sales';
import { StationShifts, kickCashDrawer, type Cashier, type StationShiftView } from './shifts';

/**
 * The desktop point of sale (the `pos*` IPC channels): which studio-pos station this desk is, its
 * shifts (StationShifts, in station.db), and the sale:
 *
 * 1. priced here from the catalog the cloud last gave (kept for offline), discount only for staff
 *    holding `sales.discount` (the cloud's last word on the person);
 * 2. recorded locally first — `recordSale` (local_sales + recordSale@1 outbox row) and its fiscal
 *    receipt row (`pos_receipts`) in ONE SQLite transaction — so nothing printed is ever unrecorded;
 * 3. the fiscal receipt printed through the driver (`printReceipt`; `onStarted` keeps the pending
 *    state first): `needsAttention` and `notPrinted` stay listed and are settled by `resolvePending`
 *    (which never prints twice: `resolvePending` of the driver, or a fresh print when nothing started);
 * 4. the drawer kicked when cash was taken;
 * 5. when the cloud is there: the receipt outcomes reported (`fiscal-printer/{slug}` documents) and
 *    the shift's steps replayed (`StationShifts.pushToCloud`). The sale itself goes up with the
 *    engine, exactly once.
 *
 * Wallet, voucher and contract sales (`PosCloudSales`, pos-cloud-sales.ts; online only): priced by the cloud's own
 * quote (retail/validate), recorded here as a `chargeSale@1` intent (local_sales + outbox row +
 * pos_cloud_sales, one transaction), pushed at once, and printed only once the cloud applied it —
 * the receipt printed is the one the cloud answered. A refusal (wallet too low, voucher used up)
 * voids the local record and nothing prints; no answer leaves it `awaitingCloud` (listed; printed
 * when the answer comes). Replays charge once: the mutation id and the sale id.
 *
 * The fiscal printer comes from the station's cloud settings (kept for offline) unless the host
 * attaches one (the emulator); the ticket printer (shift summary, drawer) only from the host/app
 * options for now (no cloud settings for it yet).
 */

export interface StationPosOptions {
  engine: SyncEngine;
  /** A call to the cloud with the person at the desk's session (StationService.forwardApi). */
  forward: (request: ApiRequestInput) => Promise<ApiResponse>;
  /** Who is at the desk (null: locked). */
  staff: () => { userId: string; name: string } | null;
  studioUuid: () => string | null;
  /** This desk's sync device id: a studio-pos station assigned to it in the back office is taken. */
  deviceId?: () => string | null;
  studioName?: () => string;
  locale: () => Locale;
  isOnline: () => boolean;
  /** A fiscal printer attached by the host or app (the emulator); else the cloud's settings. */
  fiscalPrinter?: FiscalPrinter | null;
  /**
   * Where the ticket printer and the drawer hang (ESC/POS); a function is asked at each use (the
   * station's setting from the cloud, desktop/main/printing/ticket-printer-resolver.ts).
   */
  ticketInterface?: TicketPrinterInterface | null | (() => TicketPrinterInterface | null);
  /** How long a sale waits on the printer (paper out, cover open) before it is left pending. */
  printTimeoutMs?: number;
  clock?: () => Date;
  onBackgroundError?: (error: unknown) => void;
  /**
   * The cloud no longer accepts this desk's version (desktop.tooOld, issue 29): every sale is refused
   * with that error until the desk updates (desktop/main/updates).
   */
  refuseSales?: () => AppError | null;
}

interface StationRow {
  pos_id: string;
  slug: string;
  name: string;
}

const STATION_KEY = '';
const catalogKey = (locale: Locale) => `pos:catalog:${locale}`;
const fiscalKey = (slug: string) => `pos:fiscal:${slug}`;

const FISCAL_TYPES: Record<number, FiscalPaymentType> = {
  [PaymentMethod.cash]: 'cash',
  [PaymentMethod.terminal]: 'card',
  [PaymentMethod.bankTransfer]: 'transfer',
  [PaymentMethod.gift]: 'voucher',
  [PaymentMethod.other]: 'other',
};

export class StationPos {
  private readonly db: LocalDatabase;
  private readonly clock: () => Date;
  private shiftsCache: { slug: string; shifts: StationShifts } | null = null;
  private cloudPrinter: { slug: string; key: string; printer: FiscalPrinter } | null = null;
  private readonly receipts: PosReceipts;
  private readonly cloudSales: PosCloudSales;
  private background: Promise<void> | null = null;
  private ticketPrinter: EscPosTicketPrinter | null = null;
  private lookedForAssignedAt = 0;

  constructor(private readonly options: StationPosOptions) {
    this.db = options.engine.db;
    this.clock = options.clock ?? (() => new Date());
    this.receipts = new PosReceipts({
      db: this.db,
      clock: this.clock,
      fiscal: () => this.fiscal(),
      isOnline: options.isOnline,
      cloud: (method, path, body) => this.cloud(method, path, body),
      ...(options.printTimeoutMs !== undefined && { printTimeoutMs: options.printTimeoutMs }),
      ...(options.onBackgroundError && { onBackgroundError: options.onBackgroundError }),
    });
    this.cloudSales = new PosCloudSales({
      options,
      db: this.db,
      clock: this.clock,
      cloud: (method, path, body) => this.cloud(method, path, body),
      receipts: this.receipts,
      state: () => this.state(),
      openDrawer: () => this.openDrawer(),
      station: () => this.station(),
      fiscal: () => this.fiscal(),
      cashier: () => this.cashier(),
    });
  }

  /** The orders the cloud made of a sale made here (to issue an invoice for), pushed now if need be. */
  saleOrders(saleId: string): Promise<PosSaleOrders> {
    return this.cloudSales.saleOrders(saleId);
  }

  /** An invoice's PDF from the cloud (the desk downloads or prints it). */
  invoicePdf(invoiceId: string): Promise<PosInvoicePdf> {
    return this.cloudSales.invoicePdf(invoiceId);
  }

  // ------------------------------------------------------------------------------ reading

  private stationRow(): StationRow | undefined {
    return this.db.prepare('select pos_id, slug, name from pos_station where id = 1').get() as
      StationRow | undefined;
  }

  private station(): PosStation | null {
    const row = this.stationRow();
    return row ? { posId: row.pos_id, slug: row.slug, name: row.name } : null;
  }

  private cached<T>(key: string, userId = STATION_KEY): { body: T; savedAt: string } | null {
    const row = this.db
      .prepare('select body, saved_at from api_cache where user_id = ? and key = ?')
      .get(userId, key) as { body: string; saved_at: string } | undefined;
    return row ? { body: JSON.parse(row.body) as T, savedAt: row.saved_at } : null;
  }

  private keep(key: string, body: unknown): void {
    this.db
      .prepare(
        `insert into api_cache (user_id, key, body, saved_at) values (?, ?, ?, ?)
         on conflict (user_id, key) do update set body = excluded.body, saved_at = excluded.saved_at`,
      )
      .run(STATION_KEY, key, JSON.stringify(body), this.clock().toISOString());
  }

  private shifts(): StationShifts | null {
    const station = this.station();
    if (!station) return null;
    if (this.shiftsCache?.slug !== station.slug) {
      this.shiftsCache = {
        slug: station.slug,
        shifts: new StationShifts({
          engine: this.options.engine,
          stationSlug: station.slug,
          currency: this.currency(),
          fiscalPrinter: () => this.fiscal(),
          ticketPrinter: () => this.tickets(),
          drawer: () => this.ticketTarget(),
          clock: this.clock,
          locale: this.options.locale,
          studioName: () => this.options.studioName?.() ?? '',
        }),
      };
    }
    return this.shiftsCache.shifts;
  }

  private currency(): string {
    const locale = this.options.locale();
    return (
      this.cached<PosCatalog>(catalogKey(locale))?.body.currency ??
      this.cached<PosCatalog>(catalogKey(locale === 'pl' ? 'en' : 'pl'))?.body.currency ??
      'PLN'
    );
  }

  /** The person at the desk may give discounts: the cloud's last answer for them says `sales.discount`. */
  private canDiscount(userId: string | null): boolean {
    if (!userId) return false;
    const init = this.cached<{ member?: { abilities?: string[] } }>('backoffice/init', userId);
    return init?.body.member?.abilities?.includes('sales.discount') ?? false;
  }

  state(): PosState {
    const staff = this.options.staff();
    const shifts = this.shifts();
    const station = this.station();
    // What waited for the cloud goes up now (never holding the answer).
    this.syncInBackground();
    return {
      available: true,
      station,
      shift: shifts?.current() ?? null,
      currency: this.currency(),
      printer: {
        fiscal: Boolean(this.options.fiscalPrinter ?? (station && this.cached(fiscalKey(station.slug)))),
        ticket: Boolean(this.ticketTarget()),
      },
      receiptIssues: this.receipts.issues(),
      canDiscount: this.canDiscount(staff?.userId ?? null),
      updateRequired: this.updateRequired(),
    };
  }

  /**
   * The state the screen asks for: a desk that has not chosen its station yet first takes the one
   * the back office assigned to it (studio-pos assign), when the cloud is there.
   */
  /** The versions of the refusal (desktop.tooOld) while the cloud does not accept this desk. */
  private updateRequired(): PosState['updateRequired'] {
    const refusal = this.options.refuseSales?.();
    if (!refusal) return null;
    return {
      version: refusal.fields?.version?.[0] ?? '',
      oldestAccepted: refusal.fields?.oldestAccepted?.[0] ?? '',
    };
  }

  async current(): Promise<PosState> {
    if (!this.station()) await this.takeAssignedStation();
    return this.state();
  }

  /** The studio-pos station assigned to this device, if any, becomes this desk's (asked at most every 30 s). */
  private async takeAssignedStation(): Promise<void> {
    const deviceId = this.options.deviceId?.() ?? null;
    const now = this.clock().getTime();
    if (!deviceId || !this.options.isOnline() || !this.options.staff()) return;
    if (now - this.lookedForAssignedAt < 30_000) return;
    this.lookedForAssignedAt = now;
    try {
      const list = await this.cloud<StudioPosList>('GET', 'studio-pos/collection');
      const assigned = list.items.find((p) => p.device?.id === deviceId);
      if (assigned && !this.station()) await this.take(assigned);
    } catch (error) {
      // Not allowed to list stations, or the cloud went away: the desk chooses by hand.
      this.options.onBackgroundError?.(error);
    }
  }

  // ------------------------------------------------------------------------------ the cloud

  private async cloud<T>(method: ApiRequestInput['method'], path: string, body?: unknown): Promise<T> {
    const studio = this.options.studioUuid();
    if (!studio) throw new AppError('station.notRegistered', { message: 'the station is not registered' });
    const response = await this.options.forward({
      method,
      path: `v4/${studio}/${path}`,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed: unknown = response.body ? JSON.parse(response.body) : null;
    if (response.status >= 300) {
      const envelope = parsed as { error?: { key?: string; message?: string } } | null;
      throw Object.assign(new Error(envelope?.error?.message ?? `cloud answered ${response.status}`), {
        status: response.status,
      });
    }
    return parsed as T;
  }

  /** The catalog for the sale: the cloud's retail/init with product categories; offline, the kept copy. */
  async catalog(locale: Locale): Promise<PosCatalog> {
    if (this.options.isOnline()) {
      try {
        const [init, categorized] = await Promise.all([
          this.cloud<RetailInit>('GET', `retail/init?locale=${locale}`),
          this.cloud<ProductCategorized>('GET', 'product/categorized').catch(() => null),
        ]);
        const categoryOf = new Map<string, { id: string; name: string }>();
        for (const c of categorized?.categories ?? [])
          for (const p of c.products) categoryOf.set(p.id, { id: c.id, name: c.name });
        // Contracts too: sold through the cloud only (the screen disables them offline).
        const items: PosCatalogItem[] = init.items.map((i) => ({
          type: i.type,
          id: i.id,
          name: i.name,
          price: i.price,
          vatRate: i.vatRate,
          stock: i.stock,
          barcode: i.barcode,
          needsClient: i.needsClient,
          // retail/init names it since issue 26; product/categorized for a cloud that does not yet.
          category: i.type === 'product' ? (i.category ?? categoryOf.get(i.id) ?? null) : null,
        }));
        const catalog: PosCatalog = {
          currency: init.currency,
          items,
          savedAt: this.clock().toISOString(),
          offline: false,
        };
        this.keep(catalogKey(locale), catalog);
        return catalog;
      } catch (error) {
        if (!(error instanceof AppError && error.key === 'station.cloudUnreachable')) throw error;
      }
    }
    // Offline: the copy kept in this language, else in the other one (a desk switched to Polish
    // after the connection dropped still sells, with the names it has).
    const kept = [locale, ...LOCALES.filter((l) => l !== locale)]
      .map((l) => this.cached<PosCatalog>(catalogKey(l)))
      .find((c) => c !== null && c !== undefined);
    if (!kept) throw new AppError('station.cloudUnreachable', { message: 'no catalog kept for offline' });
    return { ...kept.body, offline: true };
  }

  /** This desk sells as the studio-pos station `posId` (online: the cloud's list says which). */
  async chooseStation(posId: string): Promise<PosState> {
    const current = this.station();
    if (current && current.posId !== posId && this.shifts()?.current())
      throw new AppError('shift.alreadyOpen', { message: 'close the open shift before changing station' });
    const list = await this.cloud<StudioPosList>('GET', 'studio-pos/collection');
    const pos = list.items.find((p) => p.id === posId);
    if (!pos) throw new AppError('resource.notFound', { message: 'no such POS station' });
    await this.take(pos);
    return this.state();
  }

  private async take(pos: { id: string; slug: string; name: string }): Promise<void> {
    this.db
      .prepare(
        `insert into pos_station (id, pos_id, slug, name, chosen_at) values (1, ?, ?, ?, ?)
         on conflict (id) do update set pos_id = excluded.pos_id, slug = excluded.slug, name = excluded.name,
           chosen_at = excluded.chosen_at`,
      )
      .run(pos.id, pos.slug, pos.name, this.clock().toISOString());
    await this.refreshFiscalSettings().catch(() => undefined);
  }

  /** The station's fiscal printer settings from the cloud (kept for offline). */
  private async refreshFiscalSettings(): Promise<void> {
    const station = this.station();
    if (!station || this.options.fiscalPrinter) return;
    try {
      const settings = await this.cloud<StationFiscalPrinter>(
        'GET',
        `fiscal-printer/${encodeURIComponent(station.slug)}`,
      );
      this.keep(fiscalKey(station.slug), connectionFromCloud(settings.printer));
    } catch (error) {
      if ((error as { status?: number }).status === 404)
        this.db
          .prepare('delete from api_cache where user_id = ? and key = ?')
          .run(STATION_KEY, fiscalKey(station.slug));
      else throw error;
    }
  }

  private fiscal(): FiscalPrinter | null {
    if (this.options.fiscalPrinter) return this.options.fiscalPrinter;
    const station = this.station();
    if (!station) return null;
    const kept = this.cached<unknown>(fiscalKey(station.slug));
    if (!kept) return null;
    const key = JSON.stringify(kept.body);
    if (this.cloudPrinter?.slug !== station.slug || this.cloudPrinter.key !== key) {
      void this.cloudPrinter?.printer.close().catch(() => undefined);
      this.cloudPrinter = {
        slug: station.slug,
        key,
        printer: createPosnetPrinter(kept.body as Parameters<typeof createPosnetPrinter>[0]),
      };
    }
    return this.cloudPrinter.printer;
  }

  private ticketTarget(): TicketPrinterInterface | null {
    const target = this.options.ticketInterface;
    return typeof target === 'function' ? target() : (target ?? null);
  }

  private tickets(): EscPosTicketPrinter | null {
    const target = this.ticketTarget();
    if (!target) return null;
    const locale = this.options.locale();
    this.ticketPrinter = new EscPosTicketPrinter({
      interface: target,
      locale,
      translate: printingTranslator(locale),
    });
    return this.ticketPrinter;
  }

  private syncInBackground(): void {
    if (this.background || !this.options.isOnline() || !this.options.staff()) return;
    this.background = this.pushNow()
      .catch((error: unknown) => this.options.onBackgroundError?.(error))
      .finally(() => (this.background = null));
  }

  /** Shift steps and receipt outcomes the cloud has not seen yet. */
  async pushNow(): Promise<void> {
    const station = this.station();
    const shifts = this.shifts();
    if (!station || !shifts) return;
    await shifts.pushToCloud(station.posId, async (path, body) => {
      const studio = this.options.studioUuid()!;
      const res = await this.options.forward({
        method: 'POST',
        path: `v4/${studio}/${path}`,
        body: JSON.stringify(body),
      });
      return { status: res.status, body: res.body };
    });
    await this.receipts.report();
  }

  // ------------------------------------------------------------------------------ the till

  private cashier(): Cashier {
    const staff = this.options.staff();
    if (!staff) throw new AppError('station.notSignedIn', { message: 'nobody is signed in at the station' });
    return { id: staff.userId, name: staff.name };
  }

  private requireShifts(): StationShifts {
    const shifts = this.shifts();
    if (!shifts)
      throw new AppError('pos.noStation', { message: 'choose the POS station of this desk first' });
    return shifts;
  }

  async openShift(float: number): Promise<PosState> {
    this.requireShifts().open({ float }, this.cashier());
    if (this.options.isOnline()) await this.refreshFiscalSettings().catch(() => undefined);
    return this.state();
  }

  async cashMovement(input: { kind: 'in' | 'out'; amount: number; reason?: string }): Promise<PosState> {
    const shifts = this.requireShifts();
    if (this.fiscal()) await this.receipts.ready(this.fiscal()!).catch(() => undefined);
    await shifts.cash(input, this.cashier());
    await shifts.openDrawer();
    return this.state();
  }

  async closeShift(input: { counted: number; note?: string }) {
    const shifts = this.requireShifts();
    if (this.fiscal()) await this.receipts.ready(this.fiscal()!).catch(() => undefined);
    const outcome = await shifts.close(input, this.cashier());
    return {
      shift: outcome.shift,
      dailyReport: outcome.dailyReport,
      ticket: outcome.ticket,
      state: this.state(),
    };
  }

  async openDrawer(): Promise<{ opened: boolean }> {
    this.cashier();
    const target = this.ticketTarget();
    if (!target) return { opened: false };
    try {
      await kickCashDrawer(target);
      return { opened: true };
    } catch {
      return { opened: false };
    }
  }

  /** Prices a line from the kept catalog (the screen never sets a price). */
  private priced(line: { type: string; id: string }, index: number): PosCatalogItem {
    for (const locale of [this.options.locale(), 'en', 'pl'] as Locale[]) {
      const item = this.cached<PosCatalog>(catalogKey(locale))?.body.items.find(
        (i) => i.type === line.type && i.id === line.id,
      );
      if (item) return item;
    }
    throw new AppError('pos.itemUnknown', {
      message: 'not in the catalog this station has',
      fields: { [`lines.${index}.id`]: ['unknown'] },
    });
  }

  /** A cash shift is open at this desk's till (an update waits for its close, update-policy.ts). */
  shiftOpen(): boolean {
    return Boolean(this.shifts()?.current());
  }

  async sell(raw: PosSellInput): Promise<PosSellResult> {
    const refusal = this.options.refuseSales?.();
    if (refusal) throw refusal;
    const input = PosSellInputSchema.parse(raw);
    const cashier = this.cashier();
    const station = this.station();
    const shifts = this.requireShifts();
    const shift: StationShiftView | null = shifts.current();
    if (!station || !shift) throw new AppError('shift.notOpen', { message: 'no shift is open at this POS' });
    if (input.discount > 0 && !this.canDiscount(cashier.id))
      throw new AppError('pos.discountNotAllowed', {
        message: 'no permission to give discounts',
        fields: { discount: ['notAllowed'] },
      });

    // The same attempt again (a lost answer) is not a new sale; a new one waits for an earlier
    // receipt on the printer whose outcome is unknown (settled here first when the printer is back).
    const retried =
      Boolean(this.db.prepare('select 1 from local_sales where sale_id = ?').get(input.saleId)) ||
      Boolean(this.cloudSales.row(input.saleId));
    if (!retried) await this.receipts.guardNewSale(input.saleId);

    const nipText = input.buyerNip?.trim() || null;
    const nip = nipText === null ? null : checkNip(nipText);
    if (nip && !nip.valid)
      throw AppError.invalid({ buyerNip: [nip.reason === 'format' ? 'format' : 'checksum'] });
    const buyerNip = nip?.valid ? nip.nip : null;

    const viaCloud =
      Boolean(input.voucherCode?.trim()) ||
      input.payments.some((p) => p.method === PaymentMethod.wallet) ||
      input.lines.some((l) => l.type === 'contract') ||
      Boolean(this.cloudSales.row(input.saleId));
    if (viaCloud) return this.cloudSales.sell(input, cashier, station, shift, buyerNip);

    // The same attempt again (a lost answer): the sale stands; settle its receipt, do not sell twice.
    const known = this.db.prepare('select 1 from local_sales where sale_id = ?').get(input.saleId);
    if (!known) {
      const lines = input.lines.map((l, i) => {
        const item = this.priced(l, i);
        return {
          // Contract lines went through the cloud above.
          type: l.type as 'product' | 'pricingOption',
          id: l.id,
          name: item.name,
          quantity: l.quantity,
          unitPrice: item.price,
          vatRate: item.vatRate,
        };
      });
      const total = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0) - input.discount;
      const paid = input.payments.reduce((sum, p) => sum + p.amount, 0);
      const cash = input.payments
        .filter((p) => p.method === PaymentMethod.cash)
        .reduce((sum, p) => sum + p.amount, 0);
      const change = Math.max(0, paid - total);
      const fields: Record<string, string[]> = {};
      if (paid < total) fields.payments = ['notEnough'];
      else if (change > cash) fields.payments = ['changeFromCashOnly'];
      if (total < 0) fields.discount = ['moreThanTotal'];
      if (Object.keys(fields).length) throw AppError.invalid(fields);

      const printer = this.fiscal();
      const receipt: FiscalReceipt = {
        id: input.saleId,
        lines: lines.map((l) => ({
          name: l.name,
          unitPrice: l.unitPrice,
          quantity: String(l.quantity),
          vatRate: l.vatRate,
        })),
        ...(input.discount > 0 ? { discount: input.discount } : {}),
        payments: input.payments.map((p) => ({ type: FISCAL_TYPES[p.method] ?? 'other', amount: p.amount })),
        ...(buyerNip ? { buyerNip } : {}),
      };
      try {
        this.db.transaction(() => {
          recordSale(
            this.options.engine,
            {
              saleId: input.saleId,
              clientId: input.clientId,
              lines,
              discount: input.discount,
              payments: input.payments,
              change,
              shiftId: shift.id,
              stationSlug: station.slug,
              buyerNip,
            },
            { actorId: cashier.id },
          );
          this.db
            .prepare(
              `insert into pos_receipts (sale_id, station_slug, receipt, status, created_at) values (?, ?, ?, ?, ?)`,
            )
            .run(
              input.saleId,
              station.slug,
              JSON.stringify(receipt),
              printer ? 'printing' : 'noPrinter',
              this.clock().toISOString(),
            );
        })();
      } catch (error) {
        if (error instanceof ZodError) throw AppError.invalid(zodIssuesToFields(error.issues));
        throw error;
      }
    }

    const row = this.receipts.row(input.saleId)!;
    if (row.status === 'printing' || row.status === 'notPrinted' || row.status === 'needsAttention')
      await this.receipts.settle(row, { fresh: !known });
    const after = this.receipts.row(input.saleId)!;
    const sale = this.db
      .prepare('select total, args from local_sales where sale_id = ?')
      .get(input.saleId) as {
      total: number;
      args: string;
    };
    const args = JSON.parse(sale.args) as { change: number; payments: Array<{ method: number }> };
    const tookCash = args.payments.some((p) => p.method === PaymentMethod.cash);
    const drawerOpened = !known && tookCash ? (await this.openDrawer()).opened : false;
    return {
      saleId: input.saleId,
      total: sale.total,
      change: args.change,
      receipt: {
        status: after.status === 'printing' ? 'needsAttention' : after.status,
        receiptNumber: after.receipt_number,
        messageKey: after.message_key,
      },
      drawerOpened,
      state: this.state(),
    };
  }

  /** Settles a receipt left pending or not printed (the cashier fixed the printer). */
  async resolvePending(saleId: string): Promise<PosState> {
    this.cashier();
    const cloudSale = this.cloudSales.row(saleId);
    if (cloudSale?.status === 'waiting') {
      // Ask the cloud again; once it applied the sale, its receipt prints below.
      const answer = await this.cloudSales.confirm(saleId);
      if (answer.status !== 'charged') return this.state();
    }
    const row = this.receipts.row(saleId);
    if (!row || !['printing', 'notPrinted', 'needsAttention'].includes(row.status))
      throw new AppError('pos.nothingToResolve', { message: 'no receipt of that sale waits' });
    await this.receipts.settle(row);
    return this.state();
  }

  /** The cashier settles by hand a receipt the printer cannot identify (see PosReceipts.confirmByCashier). */
  confirmReceipt(input: PosConfirmReceiptInput): PosState {
    const cashier = this.cashier();
    const decision = PosConfirmReceiptInputSchema.parse(input);
    this.receipts.confirmByCashier(decision.saleId, decision, cashier.id);
    return this.state();
  }

  async close(): Promise<void> {
    await this.background;
    await this.cloudPrinter?.printer.close().catch(() => undefined);
  }
}
