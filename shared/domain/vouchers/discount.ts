import { mulDivRoundHalfUp } from '../receipts/rounding';

/**
 * How a voucher lowers a price. The spec's voucher TYPE is single use / multi use (§3); the kind of
 * discount is a separate field: an amount in minor units of the studio's currency, or a percentage
 * in basis points (1000 = 10 %, 10000 = 100 %), the same unit as receipt discounts.
 */
export const VOUCHER_DISCOUNT_TYPES = ['amount', 'percentage'] as const;
export type VoucherDiscountType = (typeof VOUCHER_DISCOUNT_TYPES)[number];

export const PERCENTAGE_MAX_BP = 10_000;

/**
 * The discount a voucher gives on the total of the basket lines it applies to (minor units):
 * - amount: the voucher's value, but never more than that total (what is left is not paid out);
 * - percentage: total × bp / 10000 on the eligible total as a whole (not line by line), rounded to
 *   the minor unit half up (away from zero), as receipts round percent discounts; never more than
 *   the total.
 * A total of 0 (nothing in the basket the voucher applies to) gives 0.
 */
export function voucherDiscount(
  voucher: { discountType: VoucherDiscountType; value: number },
  eligibleTotal: number,
): number {
  if (!Number.isSafeInteger(eligibleTotal) || eligibleTotal < 0)
    throw new RangeError('eligibleTotal must be a non-negative integer');
  if (!Number.isSafeInteger(voucher.value) || voucher.value < 0)
    throw new RangeError('voucher value must be a non-negative integer');
  if (voucher.discountType === 'amount') return Math.min(voucher.value, eligibleTotal);
  const bp = Math.min(voucher.value, PERCENTAGE_MAX_BP);
  return Math.min(mulDivRoundHalfUp(eligibleTotal, bp, PERCENTAGE_MAX_BP), eligibleTotal);
}
