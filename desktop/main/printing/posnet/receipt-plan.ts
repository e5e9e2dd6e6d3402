import {
  computeReceiptTotals,
  describeVatRate,
  formatQuantity,
  receiptProblems,
  vatRateKey,
  type FiscalReceiptOutcome,
  type ReceiptTotals,
} from '../../../../shared/domain/receipts';
import { checkNip } from '../../../../shared/domain/invoices/tax-id';
import type { FiscalPaymentType, FiscalReceipt, VatTable } from '../fiscal-printer';
import { field, type PosnetField } from './frame';
import { cleanItemName, formatAmount, MAX_AMOUNT } from './text';
import { slotsForRates, VatRateNotOnPrinterError } from './vat-table';

export const MAX_RECEIPT_LINES = 500;

/** POSNET `ty` of each payment type. */
export const PAYMENT_TYPE_CODES: Record<FiscalPaymentType, number> = {
  cash: 0,
  card: 2,
  cheque: 3,
  bon: 4,
  credit: 5,
  other: 6,
  voucher: 7,
  transfer: 8,
};

/** What `strns` reports about the open receipt; the driver knows what it should be after each step. */
export interface TransactionSnapshot {
  open: boolean;
  lines: number;
  /** Amount due so far (after discounts). */
  total: number;
  /** Σ payments registered (not change). */
  payments: number;
  /** Σ change registered. */
  change: number;
}

export interface ReceiptStep {
  command: string;
  fields: PosnetField[];
  before: TransactionSnapshot;
  after: TransactionSnapshot;
  /** Sending it again is harmless (trnipset overwrites): a lost reply is settled by resending. */
  repeatable?: boolean;
}

/** What the printer reports about the receipt once completed (strns, no transaction open). */
export interface ReceiptEvidence {
  /** Total per VAT slot A..G (index 0..6). */
  slotTotals: number[];
  payments: number;
  change: number;
}

export type ReceiptPlan =
  | { ok: true; steps: ReceiptStep[]; totals: ReceiptTotals; change: number; evidence: ReceiptEvidence }
  | { ok: false; outcome: Extract<FiscalReceiptOutcome, { status: 'notPrinted' }> };

export const CLOSED: TransactionSnapshot = { open: false, lines: 0, total: 0, payments: 0, change: 0 };

function invalid(receiptId: string, problems: { path: string; code: string }[]): ReceiptPlan {
  return {
    ok: false,
    outcome: {
      status: 'notPrinted',
      receiptId,
      reason: 'invalidReceipt',
      messageKey: 'printing:cashier.invalidReceipt',
      problems,
    },
  };
}

/** Checks a fiscal printer adds to the receipt maths: everything the printer would refuse. */
function fiscalProblems(receipt: FiscalReceipt, totals: ReceiptTotals): { path: string; code: string }[] {
  const problems: { path: string; code: string }[] = [];
  if (receipt.lines.length === 0) problems.push({ path: 'lines', code: 'emptyReceipt' });
  if (receipt.lines.length > MAX_RECEIPT_LINES) problems.push({ path: 'lines', code: 'tooManyLines' });
  receipt.lines.forEach((line, i) => {
    if (line.unitPrice <= 0) problems.push({ path: `lines.${i}.unitPrice`, code: 'unitPriceNotPositive' });
    else if (totals.lines[i]!.gross === 0)
      problems.push({ path: `lines.${i}.quantity`, code: 'lineTotalZero' });
    if (line.unitPrice > MAX_AMOUNT) problems.push({ path: `lines.${i}.unitPrice`, code: 'amountTooLarge' });
    if (cleanItemName(line.name) === '') problems.push({ path: `lines.${i}.name`, code: 'nameEmpty' });
  });
  if (receipt.lines.length > 0 && totals.total <= 0) problems.push({ path: 'total', code: 'zeroTotal' });
  if (totals.total > MAX_AMOUNT) problems.push({ path: 'total', code: 'amountTooLarge' });
  if (receipt.payments.length === 0) problems.push({ path: 'payments', code: 'paymentsMissing' });
  let paid = 0;
  let cash = 0;
  receipt.payments.forEach((payment, i) => {
    if (!Number.isSafeInteger(payment.amount) || payment.amount <= 0 || payment.amount > MAX_AMOUNT) {
      problems.push({ path: `payments.${i}.amount`, code: 'amountInvalid' });
    } else {
      paid += payment.amount;
      if (payment.type === 'cash') cash += payment.amount;
    }
    if (!(payment.type in PAYMENT_TYPE_CODES))
      problems.push({ path: `payments.${i}.type`, code: 'typeInvalid' });
  });
  if (receipt.payments.length > 0 && paid < totals.total) {
    problems.push({ path: 'payments', code: 'paymentsDoNotCover' });
  }
  // Change is handed back in cash, so it can never exceed the cash tendered.
  if (paid - totals.total > cash) problems.push({ path: 'payments', code: 'changeExceedsCash' });
  if (receipt.buyerNip !== undefined && !checkNip(receipt.buyerNip).valid)
    problems.push({ path: 'buyerNip', code: 'nipInvalid' });
  return problems;
}

/**
 * The whole POSNET sequence of a receipt, decided before anything is sent: the receipt is checked
 * (our one totals function, then what the printer itself refuses), rates are mapped to slots by value,
 * and each step carries the transaction state before and after it so that a lost reply can be settled
 * by reading `strns` instead of guessing.
 */
export function planReceipt(receipt: FiscalReceipt, vatTable: VatTable): ReceiptPlan {
  const shared = receiptProblems(receipt);
  if (shared.length > 0) return invalid(receipt.id, shared);
  const totals = computeReceiptTotals(receipt);
  const problems = fiscalProblems(receipt, totals);
  if (problems.length > 0) return invalid(receipt.id, problems);

  let slots;
  try {
    slots = slotsForRates(
      vatTable,
      receipt.lines.map((l) => l.vatRate),
    );
  } catch (error) {
    if (!(error instanceof VatRateNotOnPrinterError)) throw error;
    return {
      ok: false,
      outcome: {
        status: 'notPrinted',
        receiptId: receipt.id,
        reason: 'vatRateNotOnPrinter',
        messageKey: 'printing:cashier.vatRateNotOnPrinter',
        params: { rates: error.rates.map(describeVatRate).join(', ') },
      },
    };
  }

  const steps: ReceiptStep[] = [];
  let state: TransactionSnapshot = CLOSED;
  const step = (command: string, fields: PosnetField[], after: TransactionSnapshot) => {
    steps.push({ command, fields, before: state, after });
    state = after;
  };

  step('trinit', [field('bm', 0)], { ...CLOSED, open: true });
  // The buyer's NIP ("paragon z NIP-em"): printed with the footer; the printer keeps the last one sent.
  if (receipt.buyerNip !== undefined) {
    step('trnipset', [field('ni', normalized(receipt.buyerNip))], state);
    steps.at(-1)!.repeatable = true;
  }
  totals.lines.forEach((line, i) => {
    const input = receipt.lines[i]!;
    const fields = [
      field('na', cleanItemName(line.name)),
      field('vt', slots.get(vatRateKey(line.vatRate))!.index),
      field('pr', formatAmount(line.unitPrice)),
    ];
    if (line.quantityThousandths !== 1000) fields.push(field('il', formatQuantity(line.quantityThousandths)));
    fields.push(field('wa', formatAmount(line.gross)));
    // A percentage that rounds to no grosz at all is left out: the printer refuses a zero discount (1984).
    if (line.discount > 0 && input.discount && 'percent' in input.discount)
      fields.push(field('rp', input.discount.percent));
    if (line.discount > 0 && input.discount && 'amount' in input.discount) {
      fields.push(field('rw', formatAmount(input.discount.amount)));
    }
    step('trline', fields, { ...state, lines: state.lines + 1, total: state.total + line.total });
  });
  if (totals.discount > 0) {
    step('trdiscntbill', [field('rw', formatAmount(totals.discount))], { ...state, total: totals.total });
  }
  const paid = receipt.payments.reduce((a, p) => a + p.amount, 0);
  for (const payment of receipt.payments) {
    step(
      'trpayment',
      [field('ty', PAYMENT_TYPE_CODES[payment.type]), field('wa', formatAmount(payment.amount))],
      {
        ...state,
        payments: state.payments + payment.amount,
      },
    );
  }
  const change = paid - totals.total;
  if (change > 0) {
    step(
      'trpayment',
      [field('ty', PAYMENT_TYPE_CODES.cash), field('wa', formatAmount(change)), field('re', 1)],
      {
        ...state,
        change,
      },
    );
  }
  step(
    'trend',
    [
      field('to', formatAmount(totals.total)),
      field('fp', formatAmount(paid)),
      field('re', formatAmount(change)),
    ],
    CLOSED,
  );
  const slotTotals = [0, 0, 0, 0, 0, 0, 0];
  for (const group of totals.vatGroups) {
    const index = slots.get(vatRateKey(group.vatRate))!.index;
    slotTotals[index] = (slotTotals[index] ?? 0) + group.total;
  }
  return { ok: true, steps, totals, change, evidence: { slotTotals, payments: paid, change } };
}

function normalized(nip: string): string {
  const check = checkNip(nip);
  return check.valid ? check.nip : nip;
}
