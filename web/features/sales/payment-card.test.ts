import { describe, expect, it } from 'vitest';
import { isCardExpired } from './PaymentCardList';

describe('isCardExpired', () => {
  const now = new Date(2026, 10, 24); // 24 November 2026
  it.each([
    [11, 2026, false], // valid to the end of its expiry month
    [10, 2026, true],
    [12, 2025, true],
    [1, 2027, false],
  ])('%i/%i', (expMonth, expYear, expired) => {
    expect(isCardExpired({ expMonth, expYear }, now)).toBe(expired);
  });
});
