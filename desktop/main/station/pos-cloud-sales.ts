import { ZodError } from 'zod';
import type {
  PosSellInputSchema,
  PosInvoicePdf,
  PosSaleOrders,
  PosSellResult,
  PosState,
  PosStation,
} from '../../../shared/contracts/ipc/pos';
import type { RetailQuote } from '../../../shared/contracts/api/retail';
import { ChargeSaleOutcomeDataSchema, type Outcome } from '../../../shared/contracts/sync';
import { PaymentMethod } from '../../../shared/enums';
import { AppError, ERRORS, zodIssuesToFields, type ErrorKey } from '../../../shared/errors';
import type { LocalDatabase } from '../db/database';
import type { FiscalPaymentType, FiscalPrinter, FiscalReceipt } from '../printing/fiscal-printer';
import type { PosReceipts } from './pos-receipts';
import type { StationPosOptions } from './pos.service';
import { recordChargedSale, voidSale } from './sales';
import type { Cashier, StationShiftView } from './shifts';

/**
 * The desk's sales that only the cloud can charge (wallet, voucher, contracts: `chargeSale@1`,
 * online only) and the sale's cloud side (its orders for an invoice, the invoice's PDF): recorded
 * here first, pushed at once, printed only once the cloud applied the sale. Split from
 * StationPos (pos.service.ts), which it serves.
 */

export interface PosCloudHost {
  options: StationPosOptions;
  db: LocalDatabase;
  clock: () => Date;
  cloud: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
  receipts: PosReceipts;
  state: () => PosState;
  openDrawer: () => Promise<{ opened: boolean }>;
  station: () => PosStation | null;
  fiscal: () => FiscalPrinter | null;
  cashier: () => Cashier;
}

type SellInput = ReturnType<typeof PosSellInputSchema.parse>;

interface CloudSaleRow {
  sale_id: string;
  mutation_id: string;
  status: 'waiting' | 'charged' | 'refused';
  outcome: string | null;
}

/** How long a sale waits for the cloud's answer before it is left awaitingCloud. */
const CLOUD_ANSWER_MS = 20_000;

/** The cloud's refusal of a chargeSale, as the error the screen shows (its key when we know it). */
function refusalOf(outcome: Outcome): AppError {
  const key =
    outcome.key && Object.hasOwn(ERRORS, outcome.key) ? (outcome.key as ErrorKey) : 'pos.saleRefused';
  return new AppError(key, {
    message: outcome.message ?? 'the cloud refused the sale',
    ...(outcome.fields ? { fields: outcome.fields } : {}),
  });
}

export class PosCloudSales {
  constructor(private readonly host: PosCloudHost) {}

  row(saleId: string): CloudSaleRow | undefined {
    return this.host.db
      .prepare('select sale_id, mutation_id, status, outcome from pos_cloud_sales where sale_id = ?')
      .get(saleId) as CloudSaleRow | undefined;
  }

  /**
   * A sale paid with the wallet or a voucher, or selling a contract: the cloud prices it (its own
   * quote, every problem as field errors; a buyer's NIP goes with it for a NIP receipt), the station records it (`chargeSale@1`) before anything
   * else, pushes it and prints only the receipt the cloud answered once it applied the sale.
   */
  async sell(
    input: SellInput,
    cashier: Cashier,
    station: PosStation,
    shift: StationShiftView,
    /** The buyer's NIP for the receipt (checked by the caller), sent with the sale. */
    buyerNip: string | null = null,
  ): Promise<PosSellResult> {
    const known = this.row(input.saleId);
    if (!known) {
      if (!this.host.options.isOnline())
        throw new AppError('pos.needsConnection', {
          message: 'wallet, vouchers and contracts need the connection',
          fields: { payments: ['needsConnection'] },
        });
      const voucherCode = input.voucherCode?.trim().toUpperCase() || null;
      const basket = {
        clientId: input.clientId,
        items: input.lines.map((l) => ({ type: l.type, id: l.id, quantity: l.quantity })),
        voucherCode,
        payments: input.payments,
        stationSlug: station.slug,
      };
      const quote = await this.host.cloud<RetailQuote>(
        'POST',
        `retail/validate?locale=${this.host.options.locale()}`,
        basket,
      );
      const problems: Record<string, string[]> = { ...quote.problems };
      if (quote.remaining > 0) problems.payments = [...(problems.payments ?? []), 'notCovered'];
      if (Object.keys(problems).length > 0)
        throw new AppError('retail.basketInvalid', {
          message: 'the basket cannot be sold as it is',
          fields: problems,
        });
      try {
        recordChargedSale(
          this.host.options.engine,
          {
            ...basket,
            buyerNip,
            saleId: input.saleId,
            total: quote.due,
            change: quote.change,
            shiftId: shift.id,
          },
          {
            actorId: cashier.id,
            alsoWrite: ({ mutationId, occurredAt }) =>
              this.host.db
                .prepare(
                  `insert into pos_cloud_sales (sale_id, mutation_id, status, created_at) values (?, ?, 'waiting', ?)`,
                )
                .run(input.saleId, mutationId, occurredAt),
          },
        );
      } catch (error) {
        if (error instanceof ZodError) throw AppError.invalid(zodIssuesToFields(error.issues));
        throw error;
      }
    }

    const answer = await this.confirm(input.saleId, { shownAtDesk: cashier.id });
    const sale = this.host.db
      .prepare('select total, args from local_sales where sale_id = ?')
      .get(input.saleId) as { total: number; args: string };
    const args = JSON.parse(sale.args) as { change: number; payments: Array<{ method: number }> };
    if (answer.status === 'refused') throw answer.error;
    if (answer.status === 'waiting')
      return {
        saleId: input.saleId,
        total: sale.total,
        change: args.change,
        receipt: { status: 'awaitingCloud', receiptNumber: null, messageKey: null },
        drawerOpened: false,
        state: this.host.state(),
      };

    let row = this.host.receipts.row(input.saleId);
    if (row && ['printing', 'notPrinted', 'needsAttention'].includes(row.status)) {
      await this.host.receipts.settle(row, { fresh: answer.first });
      row = this.host.receipts.row(input.saleId);
    }
    const tookCash = args.payments.some((p) => p.method === PaymentMethod.cash);
    const drawerOpened = answer.first && tookCash ? (await this.host.openDrawer()).opened : false;
    return {
      saleId: input.saleId,
      total: sale.total,
      change: args.change,
      receipt: row
        ? {
            status: row.status === 'printing' ? 'needsAttention' : row.status,
            receiptNumber: row.receipt_number,
            messageKey: row.message_key,
          }
        : { status: 'noPrinter', receiptNumber: null, messageKey: null },
      drawerOpened,
      state: this.host.state(),
    };
  }

  /** The outcome of an outbox row: pushed now (the engine's round) when the cloud has not answered yet. */
  private async awaitOutcome(mutationId: string): Promise<Outcome | null> {
    const read = () =>
      this.host.db.prepare('select status, outcome from outbox where mutation_id = ?').get(mutationId) as
        { status: 'pending' | 'acked'; outcome: string | null } | undefined;
    const deadline = this.host.clock().getTime() + CLOUD_ANSWER_MS;
    for (let round = 0; round < 3; round += 1) {
      const row = read();
      if (!row) return null;
      if (row.status === 'acked' && row.outcome) return JSON.parse(row.outcome) as Outcome;
      if (!this.host.options.isOnline()) return null;
      const left = deadline - this.host.clock().getTime();
      if (left <= 0) break;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.host.options.engine.syncOnce().catch(() => undefined),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
      ]);
      clearTimeout(timer);
    }
    const row = read();
    return row?.status === 'acked' && row.outcome ? (JSON.parse(row.outcome) as Outcome) : null;
  }

  /**
   * What the cloud said about a chargeSale: applied → the receipt it answered is written (to print);
   * refused → the local sale is voided (`shownAtDesk`: the refusal is shown on the screen, so it is
   * not also a sync notice); no answer → still waiting.
   */
  async confirm(
    saleId: string,
    options: { shownAtDesk?: string } = {},
  ): Promise<
    { status: 'charged'; first: boolean } | { status: 'waiting' } | { status: 'refused'; error: AppError }
  > {
    const row = this.row(saleId)!;
    if (row.status === 'charged') return { status: 'charged', first: false };
    if (row.status === 'refused')
      return { status: 'refused', error: refusalOf(JSON.parse(row.outcome!) as Outcome) };
    const outcome = await this.awaitOutcome(row.mutation_id);
    if (!outcome) return { status: 'waiting' };
    const now = this.host.clock().toISOString();
    if (outcome.status === 'applied' || outcome.status === 'flagged') {
      const data = ChargeSaleOutcomeDataSchema.parse(outcome.data);
      const station = this.host.station();
      const printer = this.host.fiscal();
      this.host.db.transaction(() => {
        const changed = this.host.db
          .prepare(
            `update pos_cloud_sales set status = 'charged', outcome = ? where sale_id = ? and status = 'waiting'`,
          )
          .run(JSON.stringify(outcome), saleId).changes;
        if (changed === 0 || !data.receipt) return;
        // The receipt the cloud made (its id is what the printer's outcome is reported under).
        const receipt: FiscalReceipt = {
          id: data.receipt.id,
          lines: data.receipt.lines.map((l) => ({
            name: l.name,
            unitPrice: l.unitPrice,
            quantity: l.quantity,
            vatRate: l.vatRate,
          })),
          ...(data.receipt.discount > 0 ? { discount: data.receipt.discount } : {}),
          payments: data.receipt.payments.map((p) => ({
            type: p.type as FiscalPaymentType,
            amount: p.amount,
          })),
          // A NIP receipt: the NIP the cloud kept with it (the one the desk sent).
          ...(data.receipt.buyerNip ? { buyerNip: data.receipt.buyerNip } : {}),
        };
        this.host.db
          .prepare(
            `insert into pos_receipts (sale_id, station_slug, receipt, status, created_at) values (?, ?, ?, ?, ?)
             on conflict (sale_id) do nothing`,
          )
          .run(saleId, station?.slug ?? '', JSON.stringify(receipt), printer ? 'printing' : 'noPrinter', now);
      })();
      return { status: 'charged', first: true };
    }
    this.host.db.transaction(() => {
      this.host.db
        .prepare(`update pos_cloud_sales set status = 'refused', outcome = ? where sale_id = ?`)
        .run(JSON.stringify(outcome), saleId);
      voidSale(this.host.options.engine, saleId, now);
      if (options.shownAtDesk)
        this.host.db
          .prepare(
            'update outbox set noticed_at = ?, noticed_by = ? where mutation_id = ? and noticed_at is null',
          )
          .run(now, options.shownAtDesk, row.mutation_id);
    })();
    return { status: 'refused', error: refusalOf(outcome) };
  }

  /** The orders the cloud made of a sale made here (to issue an invoice for), pushed now if need be. */
  async saleOrders(saleId: string): Promise<PosSaleOrders> {
    this.host.cashier();
    const sale = this.host.db
      .prepare('select mutation_id, voided_at from local_sales where sale_id = ?')
      .get(saleId) as { mutation_id: string; voided_at: string | null } | undefined;
    if (!sale) throw AppError.notFound('sale');
    if (sale.voided_at) return { orderIds: [], reason: 'refused' };
    if (!this.host.options.isOnline()) {
      const known = this.host.db
        .prepare('select outcome from outbox where mutation_id = ?')
        .get(sale.mutation_id) as { outcome: string | null } | undefined;
      if (!known?.outcome) return { orderIds: [], reason: 'offline' };
    }
    const outcome = await this.awaitOutcome(sale.mutation_id);
    if (!outcome) return { orderIds: [], reason: this.host.options.isOnline() ? 'waitingToSync' : 'offline' };
    const data = (outcome.data ?? {}) as { orderId?: unknown; orderIds?: unknown; duplicateOf?: unknown };
    const orderIds = Array.isArray(data.orderIds)
      ? data.orderIds.filter((id): id is string => typeof id === 'string')
      : typeof data.orderId === 'string'
        ? [data.orderId]
        : [];
    if (orderIds.length === 0)
      return { orderIds: [], reason: outcome.status === 'rejected' ? 'refused' : 'waitingToSync' };
    return { orderIds, reason: null };
  }

  /** An invoice's PDF from the cloud (the desk downloads or prints it). */
  async invoicePdf(invoiceId: string): Promise<PosInvoicePdf> {
    this.host.cashier();
    const studio = this.host.options.studioUuid();
    if (!studio) throw new AppError('station.notRegistered', { message: 'the station is not registered' });
    const response = await this.host.options.forward({
      method: 'GET',
      path: `v4/${studio}/invoice/${invoiceId}/pdf`,
      accept: 'application/pdf',
    });
    if (response.status >= 300) {
      if (response.status === 404) throw AppError.notFound('invoice');
      throw new AppError('pos.saleNotSynced', { message: `the cloud answered ${response.status}` });
    }
    const fileName = /filename="?([^";]+)"?/.exec(response.contentDisposition ?? '')?.[1] ?? 'invoice.pdf';
    return {
      fileName,
      contentType: response.contentType ?? 'application/pdf',
      base64:
        response.encoding === 'base64'
          ? response.body
          : Buffer.from(response.body, 'utf8').toString('base64'),
    };
  }
}
