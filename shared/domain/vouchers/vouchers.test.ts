import { describe, expect, it } from 'vitest';
import { VoucherType } from '../../enums/payments';
import {
  generateVoucherCode,
  GENERATED_CODE_ALPHABET,
  isVoucherCode,
  normalizeVoucherCode,
  voucherDiscount,
  voucherRefusal,
  voucherStatus,
  type RedemptionFacts,
  type VoucherRules,
} from './index';

describe('voucherDiscount', () => {
  it.each([
    // amount: the value, capped at the eligible total
    ['amount', 2000, 10000, 2000],
    ['amount', 2000, 1500, 1500],
    ['amount', 2000, 2000, 2000],
    ['amount', 2000, 0, 0],
    // percentage in basis points, rounded half up on the whole eligible total
    ['percentage', 1000, 10000, 1000],
    ['percentage', 1000, 999, 100], // 99.9 → 100
    ['percentage', 1000, 995, 100], // 99.5 → 100 (half up)
    ['percentage', 1000, 994, 99], // 99.4 → 99
    ['percentage', 1500, 333, 50], // 49.95 → 50
    ['percentage', 3333, 100, 33], // 33.33 → 33
    ['percentage', 10000, 4599, 4599], // 100 % is the whole total
    ['percentage', 250, 1, 0], // 0.025 → 0
    ['percentage', 5000, 1, 1], // 0.5 → 1 (half up), still capped at the total
    ['percentage', 1000, 0, 0],
  ] as const)('%s %i on %i → %i', (discountType, value, total, expected) => {
    expect(voucherDiscount({ discountType, value }, total)).toBe(expected);
  });

  it('is exact for large totals (no floating point)', () => {
    expect(voucherDiscount({ discountType: 'percentage', value: 1999 }, 9_007_199_254_740_005)).toBe(
      1_800_539_131_022_527,
    );
  });

  it('refuses negative or fractional totals', () => {
    expect(() => voucherDiscount({ discountType: 'amount', value: 100 }, -1)).toThrow(RangeError);
    expect(() => voucherDiscount({ discountType: 'amount', value: 100 }, 1.5)).toThrow(RangeError);
  });
});

const rules = (over: Partial<VoucherRules> = {}): VoucherRules => ({
  type: VoucherType.multiUse,
  archived: false,
  validFrom: null,
  validTo: null,
  usageLimitTotal: null,
  usageLimitPerClient: null,
  ...over,
});
const facts = (over: Partial<RedemptionFacts> = {}): RedemptionFacts => ({
  today: '2026-11-22',
  usesTotal: 0,
  usesByClient: 0,
  clientNamed: false,
  eligibleTotal: 5000,
  ...over,
});

describe('voucherRefusal', () => {
  it.each([
    ['open multi use', rules(), facts(), null],
    ['archived', rules({ archived: true }), facts(), 'archived'],
    ['first day of validity', rules({ validFrom: '2026-11-22' }), facts(), null],
    ['day before validity', rules({ validFrom: '2026-11-23' }), facts(), 'notYetValid'],
    ['last day of validity', rules({ validTo: '2026-11-22' }), facts(), null],
    ['day after validity', rules({ validTo: '2026-11-21' }), facts(), 'expired'],
    ['single use, unused', rules({ type: VoucherType.singleUse }), facts(), null],
    ['single use, used once', rules({ type: VoucherType.singleUse }), facts({ usesTotal: 1 }), 'usedUp'],
    [
      'single use ignores a total limit',
      rules({ type: VoucherType.singleUse, usageLimitTotal: 5 }),
      facts({ usesTotal: 1 }),
      'usedUp',
    ],
    ['multi use under the limit', rules({ usageLimitTotal: 3 }), facts({ usesTotal: 2 }), null],
    ['multi use at the limit', rules({ usageLimitTotal: 3 }), facts({ usesTotal: 3 }), 'usedUp'],
    ['per-client limit, no client', rules({ usageLimitPerClient: 1 }), facts(), 'clientRequired'],
    [
      'per-client limit, under',
      rules({ usageLimitPerClient: 2 }),
      facts({ clientNamed: true, usesByClient: 1 }),
      null,
    ],
    [
      'per-client limit, reached',
      rules({ usageLimitPerClient: 2 }),
      facts({ clientNamed: true, usesByClient: 2 }),
      'clientLimitReached',
    ],
    ['nothing it applies to', rules(), facts({ eligibleTotal: 0 }), 'notApplicable'],
    [
      'expiry is told before used up',
      rules({ type: VoucherType.singleUse, validTo: '2026-01-01' }),
      facts({ usesTotal: 1 }),
      'expired',
    ],
  ] as const)('%s → %s', (_name, r, f, expected) => {
    expect(voucherRefusal(r, f)).toBe(expected);
  });
});

describe('voucherStatus', () => {
  it.each([
    [rules(), 0, 'active'],
    [rules({ archived: true }), 0, 'archived'],
    [rules({ type: VoucherType.singleUse }), 1, 'usedUp'],
    [rules({ validTo: '2026-11-21' }), 0, 'expired'],
    [rules({ validFrom: '2026-12-01' }), 0, 'scheduled'],
    [rules({ usageLimitTotal: 2, validTo: '2026-01-01' }), 2, 'usedUp'],
  ] as const)('%j with %i uses → %s', (r, uses, expected) => {
    expect(voucherStatus(r, uses, '2026-11-22')).toBe(expected);
  });
});

describe('voucher codes', () => {
  it.each([
    [' summer-25 ', 'SUMMER-25', true],
    ['abcd efgh', 'ABCDEFGH', true],
    ['ab', 'AB', false],
    ['-ABCD', '-ABCD', false],
    ['ABCD-', 'ABCD-', false],
    ['ZNIŻKA', 'ZNIŻKA', false],
    ['A'.repeat(33), 'A'.repeat(33), false],
  ])('%j → %j (valid: %s)', (input, normalized, valid) => {
    expect(normalizeVoucherCode(input)).toBe(normalized);
    expect(isVoucherCode(normalizeVoucherCode(input))).toBe(valid);
  });

  it('generates XXXXX-XXXXX from the unambiguous alphabet, uniformly', () => {
    let seed = 1;
    const bytes = (n: number) =>
      Uint8Array.from({ length: n }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed >> 23;
      });
    const codes = Array.from({ length: 200 }, () => generateVoucherCode(bytes));
    for (const code of codes) {
      expect(code).toMatch(/^[346789A-Z]{5}-[346789A-Z]{5}$/);
      expect(isVoucherCode(code)).toBe(true);
      for (const ch of code.replace('-', '')) expect(GENERATED_CODE_ALPHABET).toContain(ch);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('skips bytes above the last whole multiple of the alphabet (no bias)', () => {
    const queue = [255, 254, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const code = generateVoucherCode((n) => Uint8Array.from(queue.splice(0, n)));
    expect(code).toBe('34678-9ABCD');
  });
});
