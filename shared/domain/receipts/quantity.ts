/**
 * Quantities are held as integer thousandths (1.5 → 1500) so that price × quantity never goes
 * through floating point. Input is a decimal string ("2", "0,5", "1.250") or already thousandths.
 */
export type Quantity = string | { thousandths: number };

const QUANTITY_TEXT = /^(\d{1,9})(?:[.,](\d{1,3}))?$/;

/** Thousandths, or null when the text is not a plain decimal with at most three decimals. */
export function parseQuantity(quantity: Quantity): number | null {
  if (typeof quantity !== 'string') {
    return Number.isSafeInteger(quantity.thousandths) ? quantity.thousandths : null;
  }
  const match = QUANTITY_TEXT.exec(quantity.trim());
  if (!match) return null;
  const [, whole = '0', decimals = ''] = match;
  return Number(whole) * 1000 + Number(decimals.padEnd(3, '0'));
}

/** 1500 → "1.5", 2000 → "2", 333 → "0.333": the shortest exact decimal, with a dot. */
export function formatQuantity(thousandths: number): string {
  if (!Number.isSafeInteger(thousandths) || thousandths < 0) {
    throw new RangeError(`quantity must be a non-negative whole number of thousandths, got ${thousandths}`);
  }
  const whole = Math.trunc(thousandths / 1000);
  const fraction = String(thousandths % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}
