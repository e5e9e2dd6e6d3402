/**
 * What a sale records about its fiscal receipt. A printer driver answers every print with exactly
 * one of these; the sale is stored with it (recordSale), and a `needsAttention` outcome carries what
 * is needed to settle it later without printing the receipt twice.
 */

/** i18next keys (namespace "printing") of the messages shown to the cashier. */
export const PRINTING_MESSAGE_KEYS = [
  'printing:cashier.paperOut',
  'printing:cashier.coverOpen',
  'printing:cashier.printerBusy',
  'printing:cashier.printerWaiting',
  'printing:cashier.printerNotResponding',
  'printing:cashier.notConnected',
  'printing:cashier.dailyReportMissing',
  'printing:cashier.vatRateNotOnPrinter',
  'printing:cashier.invalidReceipt',
  'printing:cashier.itemNameLocked',
  'printing:cashier.totalsMismatch',
  'printing:cashier.printerRejected',
  'printing:cashier.receiptCancelled',
  'printing:cashier.outcomeUnknown',
  'printing:cashier.previousReceiptUnresolved',
  'printing:cashier.receiptNotIdentified',
  'printing:cashier.confirmedNotPrinted',
  'printing:cashier.orderInvoiced',
  'printing:cashier.invoiceCheckNeedsConnection',
  'printing:cashier.cashOutExceedsDrawer',
] as const;
export type PrintingMessageKey = (typeof PRINTING_MESSAGE_KEYS)[number];

export type NotPrintedReason =
  /** The receipt itself is invalid (prices, quantities, payments, too many lines): fix the sale. */
  | 'invalidReceipt'
  /** A rate of the sale has no active slot in the printer's VAT table. */
  | 'vatRateNotOnPrinter'
  | 'dailyReportMissing'
  /** Another interface (the printer's keyboard, another program) holds the printer. */
  | 'printerBusy'
  | 'itemNameLocked'
  | 'totalsMismatch'
  /** Any other printer error code (see printerError). */
  | 'printerRejected'
  /** A fault happened mid-receipt; the open receipt was cancelled on the printer. */
  | 'cancelledAfterFault'
  /** The printer itself dropped the open receipt (e.g. after a power loss). */
  | 'cancelledByPrinter'
  | 'notConnected'
  | 'printerNotResponding'
  /** An earlier receipt's outcome is still unknown; it must be settled first. */
  | 'previousReceiptUnresolved'
  /** The sale was invoiced meanwhile: its receipt is never printed (the sale would be registered twice). */
  | 'orderInvoiced';

export type NeedsAttentionReason =
  /** The link went silent after the receipt was started: whether it printed is not known yet. */
  | 'printerNotResponding'
  /** The cashier stopped waiting (paper out, cover open) while a command was held by the printer. */
  | 'abandonedWhileWaiting'
  /**
   * The printer answers, but what it reports cannot prove whether this receipt was the one printed
   * (several receipts completed since it began, or its last-document totals were reset).
   */
  | 'receiptNotIdentified';

/** Enough to settle an unknown outcome later, even after a restart of the app. */
export interface PendingFiscalReceipt {
  receiptId: string;
  /** The printer's count of completed receipts (scnt bn) read before the receipt was opened. */
  completedBefore: number;
  total: number;
  /** Token of the `trend` command, when it was sent: `rpt` may still return its reply. */
  endToken?: string;
  /** The printer's last receipt number (scnt) read before the receipt was opened. */
  lastNumberBefore?: number;
  /**
   * The receipt's own evidence, as the printer reports a receipt it completed (strns after trend):
   * the total per VAT slot (A..G: index 0..6), the payments and the change.
   */
  slotTotals?: number[];
  payments?: number;
  change?: number;
}

export type FiscalReceiptOutcome =
  | {
      status: 'printed';
      receiptId: string;
      /** The printer's receipt number. */
      receiptNumber: number;
      total: number;
      /** True when the reply was lost and the result was established by recovery. */
      recovered: boolean;
    }
  | {
      status: 'notPrinted';
      receiptId: string;
      reason: NotPrintedReason;
      messageKey: PrintingMessageKey;
      params?: Record<string, string | number>;
      /** For invalidReceipt: every problem found, e.g. { path: 'lines.2.unitPrice', code: 'unitPriceInvalid' }. */
      problems?: { path: string; code: string }[];
      printerError?: number;
    }
  | {
      status: 'needsAttention';
      receiptId: string;
      reason: NeedsAttentionReason;
      messageKey: PrintingMessageKey;
      pending: PendingFiscalReceipt;
    };
