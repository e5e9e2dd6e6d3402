import type { ClientOrderRefundError, ClientOrderRefundStatus } from '../../enums';
import type { PaymentState } from './payment-status';

/** Refunds that hold money: done, or under way at the provider. Failed and cancelled ones do not. */
const HOLDING: ReadonlySet<ClientOrderRefundStatus> = new Set(['awaiting', 'pending', 'success']);

export function refundHoldsMoney(status: ClientOrderRefundStatus): boolean {
  return HOLDING.has(status);
}

/** What a payment can still give back: its amount less the refunds that hold money. */
export function refundableOf(
  payment: { amount: number; status: PaymentState },
  refunds: ReadonlyArray<{ amount: number; status: ClientOrderRefundStatus }>,
): number {
  if (payment.status !== 'succeeded') return 0;
  const held = refunds.filter((r) => refundHoldsMoney(r.status)).reduce((s, r) => s + r.amount, 0);
  return Math.max(0, payment.amount - held);
}

/**
 * Why a refund cannot be asked for, checked before any provider is called (spec §3 refund errors):
 * only a settled payment can be refunded, and never more than it still holds.
 */
export function refundRefusal(
  payment: { amount: number; status: PaymentState },
  refunds: ReadonlyArray<{ amount: number; status: ClientOrderRefundStatus }>,
  amount: number,
): Extract<ClientOrderRefundError, 'cannotRefund' | 'exceededAmount'> | null {
  if (payment.status !== 'succeeded') return 'cannotRefund';
  if (!Number.isSafeInteger(amount) || amount <= 0) return 'exceededAmount';
  return amount > refundableOf(payment, refunds) ? 'exceededAmount' : null;
}
