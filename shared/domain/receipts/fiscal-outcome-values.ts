import type { NeedsAttentionReason, NotPrintedReason } from './fiscal-outcome';

/** Every `notPrinted` reason, as values (schemas and screens enumerate them). */
export const NOT_PRINTED_REASONS = [
  'invalidReceipt',
  'vatRateNotOnPrinter',
  'dailyReportMissing',
  'printerBusy',
  'itemNameLocked',
  'totalsMismatch',
  'printerRejected',
  'cancelledAfterFault',
  'cancelledByPrinter',
  'notConnected',
  'printerNotResponding',
  'previousReceiptUnresolved',
  'orderInvoiced',
] as const satisfies readonly NotPrintedReason[];

export const NEEDS_ATTENTION_REASONS = [
  'printerNotResponding',
  'abandonedWhileWaiting',
  'receiptNotIdentified',
] as const satisfies readonly NeedsAttentionReason[];

// Compile-time: the lists hold every member of the unions (a new reason must be added here).
type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : Exclude<All, Listed>;
const _allNotPrinted: Missing<NotPrintedReason, (typeof NOT_PRINTED_REASONS)[number]> = true;
const _allNeedsAttention: Missing<NeedsAttentionReason, (typeof NEEDS_ATTENTION_REASONS)[number]> = true;
void _allNotPrinted;
void _allNeedsAttention;
