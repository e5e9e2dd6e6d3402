import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../enums';
import { canChangeToUnpaid, canEnablePaymentReminder, canMarkAsPaid } from './order-status-rules';

// Every status with the spec §4 answer per rule: [change to unpaid, enable payment reminder, mark as paid].
const RULES: [keyof typeof OrderStatus, boolean, boolean, boolean][] = [
  ['pending', false, false, false],
  ['paid', true, false, false],
  ['unpaid', false, true, false],
  ['cancelled', false, false, false],
  ['rejected', false, false, false],
  ['awaiting', false, false, false],
  ['void', true, false, false],
  ['scheduled', true, true, true],
  ['failed', false, false, false],
  ['authorizationAllowed', true, false, true],
  ['authorizationDisallowed', false, false, false],
  ['freeOfCharge', false, false, false],
  ['suspended', false, false, false],
  ['terminated', false, false, false],
  ['chargeback', true, false, false],
];

describe('order status rules (spec §4)', () => {
  it('covers all 15 statuses', () => {
    expect(RULES.map(([name]) => OrderStatus[name]).sort((a, b) => a - b)).toEqual(
      Object.values(OrderStatus).sort((a, b) => a - b),
    );
  });

  it.each(RULES)('%s: unpaid %s, reminder %s, paid %s', (name, toUnpaid, reminder, markPaid) => {
    const status = OrderStatus[name];
    expect(canChangeToUnpaid(status)).toBe(toUnpaid);
    expect(canEnablePaymentReminder(status)).toBe(reminder);
    expect(canMarkAsPaid(status)).toBe(markPaid);
  });
});
