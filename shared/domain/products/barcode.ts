/**
 * Retail barcodes a studio scans at the desk: EAN-8, UPC-A (12 digits) and EAN-13. All three end in
 * a GS1 check digit: from the right, excluding the check digit, digits are weighted 3, 1, 3, 1, ...;
 * the check digit brings the weighted sum up to a multiple of ten.
 */
export type BarcodeFormat = 'ean8' | 'upcA' | 'ean13';

export const BARCODE_FORMATS: readonly BarcodeFormat[] = ['ean8', 'upcA', 'ean13'];

const LENGTH_FORMAT: Record<number, BarcodeFormat> = { 8: 'ean8', 12: 'upcA', 13: 'ean13' };

/** The GS1 check digit for the digits before it (a string of digits, any length). */
export function gs1CheckDigit(body: string): number {
  if (!/^\d+$/.test(body)) throw new RangeError('gs1CheckDigit takes digits only');
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export type BarcodeCheck =
  { valid: true; format: BarcodeFormat; barcode: string } | { valid: false; reason: 'format' | 'checkDigit' };

/**
 * Checks a barcode as typed or scanned: spaces and hyphens are ignored (printed labels group the
 * digits), then it must be 8, 12 or 13 digits with a correct check digit. The normalized barcode is
 * the digits alone.
 */
export function checkBarcode(input: string): BarcodeCheck {
  const digits = input.replace(/[\s-]/g, '');
  const format = /^\d+$/.test(digits) ? LENGTH_FORMAT[digits.length] : undefined;
  if (!format) return { valid: false, reason: 'format' };
  const expected = gs1CheckDigit(digits.slice(0, -1));
  if (expected !== Number(digits.at(-1))) return { valid: false, reason: 'checkDigit' };
  return { valid: true, format, barcode: digits };
}

export function normalizeBarcode(input: string): string | null {
  const check = checkBarcode(input);
  return check.valid ? check.barcode : null;
}
