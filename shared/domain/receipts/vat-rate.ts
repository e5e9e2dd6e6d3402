/**
 * A VAT rate as the studio stores it: basis points (2300 = 23 %, 0 = 0 %) or 'exempt' ("zw.").
 * Rates are compared by value, never by the letter a fiscal printer happens to use for them.
 */
export type VatRate = number | 'exempt';

/** Basis points run 0..9999 (0 % .. 99.99 %), the range a fiscal printer accepts for a rate. */
export function isVatRate(value: unknown): value is VatRate {
  return (
    value === 'exempt' || (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 10000)
  );
}

/**
 * Rank used wherever rates need an order: the higher rate first, 0 % after every positive rate and
 * exempt last. Receipts list VAT groups in this order and ties in the discount spread follow it.
 */
export function compareVatRates(a: VatRate, b: VatRate): number {
  return vatRateRank(b) - vatRateRank(a);
}

/** Exempt ranks below 0 %, so that "lower rate" reads the same for the printer's name lock. */
export function vatRateRank(rate: VatRate): number {
  return rate === 'exempt' ? -1 : rate;
}

export function vatRateKey(rate: VatRate): string {
  return rate === 'exempt' ? 'exempt' : String(rate);
}

/** "23%", "5.5%", "exempt": for logs and error parameters, not for display. */
export function describeVatRate(rate: VatRate): string {
  if (rate === 'exempt') return 'exempt';
  const whole = Math.trunc(rate / 100);
  const fraction = rate % 100;
  return fraction === 0 ? `${whole}%` : `${whole}.${String(fraction).padStart(2, '0').replace(/0$/, '')}%`;
}
