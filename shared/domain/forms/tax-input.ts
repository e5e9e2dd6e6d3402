/**
 * Spec §5: a tax field turns percentage p into the multiplier 1 + p/100, or 1 when p is not
 * positive. NaN and Infinity are not positive percentages either, so they give 1.
 * (100 + p) / 100 rounds once, so 23 gives exactly the double 1.23.
 */
export function taxPercentageToMultiplier(percentage: number): number {
  if (!Number.isFinite(percentage) || percentage <= 0) return 1;
  return (100 + percentage) / 100;
}
