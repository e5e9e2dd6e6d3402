import type { NotPrintedReason, PrintingMessageKey } from '../../../../shared/domain/receipts';

/** The POSNET error codes the driver and the emulator use (POT-I-DEV-37 numbering). */
export const PosnetError = {
  // Frame errors ("ERR ?nn"): the frame was not executed.
  unknownCommand: 1,
  missingField: 2,
  badValue: 3,
  badCrc: 5,
  badFieldLength: 10,
  immediateForbidden: 12,
  tokenNotFound: 13,
  // Command errors ("cmd ?nnnn").
  busyOtherInterface: 41,
  noDailyReport: 383,
  cashBelowZero: 503,
  zeroPayment: 1962,
  zeroDiscount: 1984,
  valueAfterDiscountNotPositive: 1985,
  discountNotAllowed: 1991,
  emptyReceipt: 1992,
  badVatSlot: 2000,
  priceNotPositive: 2006,
  quantityNotPositive: 2007,
  zeroTotal: 2041,
  transactionBufferFull: 2052,
  paymentsDoNotCover: 2054,
  badTransactionState: 2060,
  badName: 2104,
  nameLocked: 2106,
  badDiscountType: 2600,
  badPaymentType: 2705,
  lineTotalMismatch: 2802,
  receiptTotalMismatch: 2805,
  paymentsMismatch: 2808,
} as const;

/** Frame errors after which the same command may be sent again: the printer says it did not run it. */
export const RESENDABLE_FRAME_ERRORS: ReadonlySet<number> = new Set([PosnetError.badCrc, 11, 14, 15]);

export function rejectionOf(code: number): { reason: NotPrintedReason; messageKey: PrintingMessageKey } {
  switch (code) {
    case PosnetError.noDailyReport:
      return { reason: 'dailyReportMissing', messageKey: 'printing:cashier.dailyReportMissing' };
    case PosnetError.busyOtherInterface:
      return { reason: 'printerBusy', messageKey: 'printing:cashier.printerBusy' };
    case PosnetError.badVatSlot:
      return { reason: 'vatRateNotOnPrinter', messageKey: 'printing:cashier.vatRateNotOnPrinter' };
    case PosnetError.nameLocked:
      return { reason: 'itemNameLocked', messageKey: 'printing:cashier.itemNameLocked' };
    case PosnetError.lineTotalMismatch:
    case PosnetError.receiptTotalMismatch:
    case PosnetError.paymentsMismatch:
    case PosnetError.paymentsDoNotCover:
      return { reason: 'totalsMismatch', messageKey: 'printing:cashier.totalsMismatch' };
    default:
      return { reason: 'printerRejected', messageKey: 'printing:cashier.printerRejected' };
  }
}
