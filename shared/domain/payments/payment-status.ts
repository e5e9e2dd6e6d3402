/**
 * What a payment's state becomes when its provider reports an outcome. A provider may repeat a
 * notification or send them out of order, so the rules must be idempotent and never go backwards.
 */
export type PaymentState = 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'chargeback';
export type PaymentOutcome = 'succeeded' | 'failed' | 'cancelled' | 'chargeback';

/**
 * The new state, or null when the outcome changes nothing (a repeat, or an outcome that cannot follow
 * the current state). A late success after a failure or cancellation is honoured: the money was taken.
 * A chargeback only follows a success.
 */
export function nextPaymentState(current: PaymentState, outcome: PaymentOutcome): PaymentState | null {
  if (current === outcome) return null;
  switch (outcome) {
    case 'succeeded':
      return current === 'chargeback' ? null : 'succeeded';
    case 'failed':
    case 'cancelled':
      return current === 'pending' ? outcome : null;
    case 'chargeback':
      return current === 'succeeded' ? 'chargeback' : null;
  }
}
