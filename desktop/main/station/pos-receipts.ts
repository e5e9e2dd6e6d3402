import type { PosReceiptIssue } from '../../../shared/contracts/ipc/pos';
import type { Outcome } from '../../../shared/contracts/sync';
import type { FiscalReceiptOutcome, PendingFiscalReceipt } from '../../../shared/domain/receipts';
import { AppError } from '../../../shared/errors';
import type { LocalDatabase } from '../db/database';
import { documentReport } from '../printing/cloud-settings';
import type { FiscalPrinter, FiscalReceipt } from '../printing/fiscal-printer';

/**
 * The fiscal receipts of the sales made at this desk (`pos_receipts`, written with the sale before
 * anything prints): printing them, settling the ones the printer left unknown, the rule that no new
 * sale starts while an earlier receipt on the printer is unresolved, the rule that a sale invoiced
 * meanwhile is never printed on a receipt, and reporting outcomes to the cloud.
 */

export interface ReceiptRow {
  sale_id: string;
  station_slug: string;
  receipt: string;
  status: 'printing' | 'printed' | 'notPrinted' | 'needsAttention' | 'noPrinter' | 'invoiced';
  outcome: string | null;
  pending: string | null;
  message_key: string | null;
  receipt_number: number | null;
  printed_at: string | null;
  reported_at: string | null;
  created_at: string;
}

export interface PosReceiptsHost {
  db: LocalDatabase;
  clock: () => Date;
  /** The station's fiscal printer (attached by the host, or from the cloud's settings). */
  fiscal: () => FiscalPrinter | null;
  isOnline: () => boolean;
  /** A call to the cloud with the desk's session; throws with `status` on an error answer. */
  cloud: <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
  printTimeoutMs?: number;
  onBackgroundError?: (error: unknown) => void;
}

const NOT_IDENTIFIED = 'printing:cashier.receiptNotIdentified';

/** Receipt states that still need the printer: not printed yet, or its outcome unknown. */
export const OPEN_RECEIPT_STATES = ['printing', 'notPrinted', 'needsAttention'] as const;

export class PosReceipts {
  private opened = new WeakMap<FiscalPrinter, Promise<unknown>>();

  constructor(private readonly host: PosReceiptsHost) {}

  private get db(): LocalDatabase {
    return this.host.db;
  }

  row(saleId: string): ReceiptRow | undefined {
    return this.db.prepare('select * from pos_receipts where sale_id = ?').get(saleId) as
      ReceiptRow | undefined;
  }

  /**
   * Receipts this desk started on the printer whose outcome is unknown: needsAttention, or a print
   * cut short by a crash after the pending state was kept. What a restarted driver must know first.
   */
  unresolved(exceptSaleId?: string): ReceiptRow[] {
    return (
      this.db
        .prepare(
          `select * from pos_receipts where pending is not null and status in ('printing', 'needsAttention')
            order by created_at`,
        )
        .all() as ReceiptRow[]
    ).filter((r) => r.sale_id !== exceptSaleId);
  }

  /** The printer, opened once — told of the unresolved receipts before it sends anything. */
  async ready(printer: FiscalPrinter): Promise<FiscalPrinter> {
    let opening = this.opened.get(printer);
    if (!opening) {
      const unresolved = this.unresolved().map((r) => JSON.parse(r.pending!) as PendingFiscalReceipt);
      opening = printer.open({ unresolved });
      this.opened.set(printer, opening);
      opening.catch(() => this.opened.delete(printer));
    }
    await opening;
    return printer;
  }

  issues(): PosReceiptIssue[] {
    const rows = this.db
      .prepare(
        `select r.sale_id, r.status, r.message_key, s.total, s.sold_at from pos_receipts r
           join local_sales s on s.sale_id = r.sale_id
          where r.status in ('printing', 'notPrinted', 'needsAttention') order by s.sold_at`,
      )
      .all() as Array<{
      sale_id: string;
      status: PosReceiptIssue['status'];
      message_key: string | null;
      total: number;
      sold_at: string;
    }>;
    const waiting = this.db
      .prepare(
        `select c.sale_id, s.total, s.sold_at from pos_cloud_sales c join local_sales s on s.sale_id = c.sale_id
          where c.status = 'waiting' order by s.sold_at`,
      )
      .all() as Array<{ sale_id: string; total: number; sold_at: string }>;
    return [
      ...rows.map((r) => ({
        saleId: r.sale_id,
        status: r.status,
        messageKey: r.message_key,
        total: r.total,
        soldAt: r.sold_at,
        confirmable: r.status === 'needsAttention' && r.message_key === NOT_IDENTIFIED,
      })),
      ...waiting.map((r) => ({
        saleId: r.sale_id,
        status: 'awaitingCloud' as const,
        messageKey: null,
        total: r.total,
        soldAt: r.sold_at,
        confirmable: false,
      })),
    ];
  }

  /**
   * Before a new sale: an earlier receipt whose outcome is unknown is settled first (the printer
   * may be back); one still unknown keeps the sale back — the cashier is told why and what to do.
   */
  async guardNewSale(saleId: string): Promise<void> {
    if (!this.host.fiscal()) return;
    for (const row of this.unresolved(saleId)) await this.settle(row);
    const left = this.unresolved(saleId);
    if (left.length === 0) return;
    const first = left[0]!;
    throw new AppError('pos.receiptUnresolved', {
      message: 'an earlier receipt on this printer is not settled',
      fields: { saleId: [first.message_key ?? 'printing:cashier.outcomeUnknown'] },
    });
  }

  /**
   * Whether the cloud invoiced the sale meanwhile (its orders carry an issued invoice): such a sale
   * is never printed on a receipt. `unknown` when the cloud has the sale but cannot be asked now.
   */
  private async invoiced(saleId: string): Promise<boolean | 'unknown'> {
    const sale = this.db
      .prepare(
        'select o.status, o.outcome from local_sales s join outbox o on o.mutation_id = s.mutation_id where s.sale_id = ?',
      )
      .get(saleId) as { status: string; outcome: string | null } | undefined;
    // Not in the cloud yet: nothing there can have invoiced it.
    if (!sale?.outcome) return false;
    const data = ((JSON.parse(sale.outcome) as Outcome).data ?? {}) as {
      orderId?: unknown;
      orderIds?: unknown;
    };
    const orderIds = Array.isArray(data.orderIds)
      ? data.orderIds.filter((id): id is string => typeof id === 'string')
      : typeof data.orderId === 'string'
        ? [data.orderId]
        : [];
    if (orderIds.length === 0) return false;
    if (!this.host.isOnline()) return 'unknown';
    try {
      for (const orderId of orderIds) {
        const draft = await this.host.cloud<{ existingInvoice: unknown }>(
          'GET',
          `client-order/${orderId}/invoice/init`,
        );
        if (draft.existingInvoice) return true;
      }
      return false;
    } catch (error) {
      // No such order in the cloud: nothing invoiced it.
      if ((error as { status?: number }).status === 404) return false;
      this.host.onBackgroundError?.(error);
      return 'unknown';
    }
  }

  private mark(saleId: string, status: ReceiptRow['status'], messageKey: string | null): void {
    this.db
      .prepare('update pos_receipts set status = ?, message_key = ? where sale_id = ?')
      .run(status, messageKey, saleId);
  }

  /**
   * Prints the receipt, or settles one the printer left unknown: a receipt that got as far as the
   * printer (pending kept) is settled by the driver's resolvePending (never printed twice); one that
   * never started is printed afresh — unless its sale was invoiced meanwhile (never printed then;
   * `fresh`: printed right after the sale was recorded, nothing can have invoiced it yet).
   */
  async settle(row: ReceiptRow, options: { fresh?: boolean } = {}): Promise<void> {
    const printer = this.host.fiscal();
    if (!printer) {
      this.mark(row.sale_id, 'noPrinter', null);
      return;
    }
    // A receipt printed right after its sale was recorded cannot have been invoiced yet.
    if (!row.pending && !options.fresh) {
      const invoiced = await this.invoiced(row.sale_id);
      if (invoiced === true) return this.mark(row.sale_id, 'invoiced', 'printing:cashier.orderInvoiced');
      if (invoiced === 'unknown')
        return this.mark(row.sale_id, 'notPrinted', 'printing:cashier.invoiceCheckNeedsConnection');
    }
    let outcome: FiscalReceiptOutcome;
    try {
      await this.ready(printer);
      if (row.pending) {
        outcome = await printer.resolvePending(JSON.parse(row.pending) as PendingFiscalReceipt);
      } else {
        const receipt = JSON.parse(row.receipt) as FiscalReceipt;
        outcome = await printer.printReceipt(receipt, {
          signal: AbortSignal.timeout(this.host.printTimeoutMs ?? 60_000),
          onStarted: (pending) =>
            this.db
              .prepare('update pos_receipts set pending = ? where sale_id = ?')
              .run(JSON.stringify(pending), row.sale_id),
        });
      }
    } catch (error) {
      // The printer could not even be reached: nothing started, the sale stands, print later.
      if (!row.pending) this.mark(row.sale_id, 'notPrinted', 'printing:cashier.printerNotResponding');
      this.host.onBackgroundError?.(error);
      return;
    }
    this.db
      .prepare(
        `update pos_receipts set status = ?, outcome = ?, message_key = ?, receipt_number = ?, printed_at = ?,
           pending = ?, reported_at = null where sale_id = ?`,
      )
      .run(
        outcome.status,
        JSON.stringify(outcome),
        outcome.status === 'printed' ? null : outcome.messageKey,
        outcome.status === 'printed' ? outcome.receiptNumber : null,
        outcome.status === 'printed' ? this.host.clock().toISOString() : null,
        outcome.status === 'needsAttention' ? JSON.stringify(outcome.pending) : null,
        row.sale_id,
      );
  }

  /**
   * The cashier's way out of a receipt the printer cannot identify (receiptNotIdentified: other
   * receipts completed since, or its memory was reset): read from the paper roll or the electronic
   * copy, it was printed (with that number) or it was not. Only such a receipt may be settled by hand;
   * the decision is kept (`pos_receipt_resolutions`: who, when, the number read) and the outcome is
   * reported to the cloud like the printer's. Not printed: the sale stands and its receipt may be
   * printed afresh. The driver stops holding new receipts for it.
   */
  confirmByCashier(
    saleId: string,
    decision: { printed: boolean; receiptNumber?: number },
    cashierId: string,
  ): void {
    const row = this.row(saleId);
    if (!row || row.status !== 'needsAttention' || row.message_key !== NOT_IDENTIFIED)
      throw new AppError('pos.nothingToResolve', {
        message: 'only a receipt the printer cannot identify is settled by hand',
        fields: { saleId: ['notConfirmable'] },
      });
    const pending = JSON.parse(row.pending!) as PendingFiscalReceipt;
    const now = this.host.clock().toISOString();
    const outcome: FiscalReceiptOutcome = decision.printed
      ? {
          status: 'printed',
          receiptId: pending.receiptId,
          receiptNumber: decision.receiptNumber!,
          total: pending.total,
          recovered: true,
        }
      : {
          status: 'notPrinted',
          receiptId: pending.receiptId,
          reason: 'cancelledByPrinter',
          messageKey: 'printing:cashier.confirmedNotPrinted',
        };
    this.db.transaction(() => {
      this.db
        .prepare(
          `insert into pos_receipt_resolutions (sale_id, resolution, receipt_number, resolved_by, resolved_at)
           values (?, ?, ?, ?, ?)`,
        )
        .run(saleId, outcome.status, decision.printed ? decision.receiptNumber! : null, cashierId, now);
      this.db
        .prepare(
          `update pos_receipts set status = ?, outcome = ?, message_key = ?, receipt_number = ?, printed_at = ?,
             pending = null, reported_at = null where sale_id = ?`,
        )
        .run(
          outcome.status,
          JSON.stringify(outcome),
          outcome.status === 'printed' ? null : outcome.messageKey,
          outcome.status === 'printed' ? outcome.receiptNumber : null,
          outcome.status === 'printed' ? now : null,
          saleId,
        );
    })();
    this.host.fiscal()?.settledByCashier(pending.receiptId);
  }

  /** Printed (or refused) receipts told to the cloud once their sale is there (it makes the receipt). */
  async report(): Promise<void> {
    const rows = this.db
      .prepare(
        `select r.* from pos_receipts r join outbox o on o.mutation_id = (
            select mutation_id from local_sales where sale_id = r.sale_id)
          where r.reported_at is null and r.outcome is not null and o.status = 'acked'
          order by r.created_at limit 20`,
      )
      .all() as ReceiptRow[];
    const bySlug = new Map<string, ReceiptRow[]>();
    for (const row of rows) bySlug.set(row.station_slug, [...(bySlug.get(row.station_slug) ?? []), row]);
    for (const [slug, list] of bySlug) {
      const documents = list.map((r) =>
        documentReport(
          JSON.parse(r.receipt) as FiscalReceipt,
          JSON.parse(r.outcome!) as FiscalReceiptOutcome,
          r.printed_at ? new Date(r.printed_at) : undefined,
        ),
      );
      const now = this.host.clock().toISOString();
      try {
        await this.host.cloud('POST', `fiscal-printer/${encodeURIComponent(slug)}`, { documents });
      } catch (error) {
        // No fiscal printer in the cloud for the slug (the host's emulator): nothing to tell it.
        if ((error as { status?: number }).status !== 404) throw error;
      }
      const mark = this.db.prepare('update pos_receipts set reported_at = ? where sale_id = ?');
      for (const r of list) mark.run(now, r.sale_id);
    }
  }
}
