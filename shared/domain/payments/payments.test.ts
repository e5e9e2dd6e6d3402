import { describe, expect, it } from 'vitest';
import { nextPaymentState, type PaymentOutcome, type PaymentState } from './payment-status';
import { refundableOf, refundRefusal } from './refunds';

describe('payment state after a provider outcome', () => {
  // [current, outcome, next (null: nothing changes)]
  const TABLE: Array<[PaymentState, PaymentOutcome, PaymentState | null]> = [
    ['pending', 'succeeded', 'succeeded'],
    ['pending', 'failed', 'failed'],
    ['pending', 'cancelled', 'cancelled'],
    ['pending', 'chargeback', null],
    ['succeeded', 'succeeded', null],
    ['succeeded', 'failed', null],
    ['succeeded', 'cancelled', null],
    ['succeeded', 'chargeback', 'chargeback'],
    // The money was taken after all: a late success wins over a failure or a cancellation.
    ['failed', 'succeeded', 'succeeded'],
    ['cancelled', 'succeeded', 'succeeded'],
    ['failed', 'cancelled', null],
    ['chargeback', 'succeeded', null],
    ['chargeback', 'chargeback', null],
  ];
  it.each(TABLE)('%s + %s → %s', (current, outcome, next) => {
    expect(nextPaymentState(current, outcome)).toBe(next);
  });
});

describe('refunds never give back more than was paid', () => {
  const paid = { amount: 10000, status: 'succeeded' as const };
  it('counts refunds that hold money, not failed or cancelled ones', () => {
    expect(
      refundableOf(paid, [
        { amount: 3000, status: 'success' },
        { amount: 1000, status: 'pending' },
        { amount: 5000, status: 'failed' },
        { amount: 5000, status: 'cancelled' },
      ]),
    ).toBe(6000);
  });
  it.each([
    [10000, [], null],
    [10001, [], 'exceededAmount'],
    [0, [], 'exceededAmount'],
    [6001, [{ amount: 4000, status: 'success' as const }], 'exceededAmount'],
    [6000, [{ amount: 4000, status: 'awaiting' as const }], null],
  ])('asking %i after %j → %s', (amount, refunds, refusal) => {
    expect(refundRefusal(paid, refunds, amount)).toBe(refusal);
  });
  it('a payment that is not settled cannot be refunded', () => {
    for (const status of ['pending', 'failed', 'cancelled', 'chargeback'] as const)
      expect(refundRefusal({ amount: 10000, status }, [], 100)).toBe('cannotRefund');
  });
});
