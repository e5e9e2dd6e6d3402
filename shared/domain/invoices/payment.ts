import { addLocalDays, isLocalDate } from '../entitlements/local-dates';

/**
 * Payment terms. The spec gives the deadline as a number of days (value not shown); ours defaults to
 * 14 and runs 0–365. The deadline is that many calendar days after the date of issue; 0 means "due
 * on the day of issue".
 */
export const PAYMENT_TERM_DAYS_DEFAULT = 14;
export const PAYMENT_TERM_DAYS_MAX = 365;

export function paymentDueDate(issueDate: string, termDays: number): string {
  if (!isLocalDate(issueDate)) throw new RangeError(`not a calendar date: ${issueDate}`);
  if (!Number.isInteger(termDays) || termDays < 0 || termDays > PAYMENT_TERM_DAYS_MAX)
    throw new RangeError(`payment term out of range: ${termDays}`);
  return addLocalDays(issueDate, termDays);
}

/** What is left to pay: gross − paid, never below zero (an overpayment is not "due"). */
export function totalDue(gross: number, paid: number): number {
  return Math.max(0, gross - paid);
}

export type PaymentState = 'paid' | 'due' | 'overdue' | 'refundDue' | 'none';

/**
 * The payment line an invoice prints: paid in full, due by the deadline, overdue (today after the
 * deadline), nothing to pay (a zero invoice), or — for a corrective invoice that lowers the amount —
 * money to give back.
 */
export function paymentState(input: {
  gross: number;
  paid: number;
  dueDate: string;
  today: string;
}): PaymentState {
  if (input.gross < 0) return 'refundDue';
  if (input.gross === 0) return 'none';
  if (input.paid >= input.gross) return 'paid';
  return input.today > input.dueDate ? 'overdue' : 'due';
}
