/**
 * Polish tax identification numbers (NIP) and the buyer tax ids printed on invoices.
 *
 * A NIP is ten digits; the last is a check digit: Σ digit[i] × weight[i] for the first nine digits
 * with weights 6 5 7 2 3 4 5 6 7, modulo 11. A remainder of 10 is never issued, so such a number is
 * invalid. People write NIPs as "526-025-02-74", "526 02 50 274" or with the EU VAT prefix
 * "PL5260250274"; all of them normalise to the ten digits.
 */
const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const;

export type NipCheck = { valid: true; nip: string } | { valid: false; reason: 'format' | 'checksum' };

/** Ten digits, or null: drops spaces, hyphens, dots and a leading "PL" (any case). */
export function normalizeNip(input: string): string | null {
  const compact = input.replace(/[\s.\-\u00a0]/g, '').toUpperCase();
  const digits = compact.startsWith('PL') ? compact.slice(2) : compact;
  return /^\d{10}$/.test(digits) ? digits : null;
}

/** The check digit of the first nine digits, or null when the weighted sum leaves 10 (never issued). */
export function nipCheckDigit(firstNine: string): number | null {
  if (!/^\d{9}$/.test(firstNine)) throw new RangeError('nipCheckDigit takes nine digits');
  const sum = NIP_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(firstNine[i]), 0);
  const digit = sum % 11;
  return digit === 10 ? null : digit;
}

export function checkNip(input: string): NipCheck {
  const nip = normalizeNip(input);
  // All zeros passes the arithmetic but names no tax office.
  if (nip === null || nip === '0000000000') return { valid: false, reason: 'format' };
  const digit = nipCheckDigit(nip.slice(0, 9));
  return digit !== null && digit === Number(nip[9])
    ? { valid: true, nip }
    : { valid: false, reason: 'checksum' };
}

/** "5260250274" → "526-025-02-74", the way Polish documents usually print a NIP. */
export function formatNip(nip: string): string {
  if (!/^\d{10}$/.test(nip)) return nip;
  return `${nip.slice(0, 3)}-${nip.slice(3, 6)}-${nip.slice(6, 8)}-${nip.slice(8)}`;
}

export type BuyerTaxIdCheck =
  { valid: true; taxId: string } | { valid: false; reason: 'format' | 'checksum' };

/**
 * A buyer's tax id as stored on an invoice: for a Polish buyer (country "PL") the NIP, checksum and
 * all; for a foreign buyer the EU VAT number or the local tax id as written, upper-cased without
 * spaces (2 to 20 letters and digits; we cannot check every country's rules).
 */
export function checkBuyerTaxId(input: string, country: string): BuyerTaxIdCheck {
  if (country.toUpperCase() === 'PL') {
    const check = checkNip(input);
    return check.valid ? { valid: true, taxId: check.nip } : check;
  }
  const compact = input.replace(/[\s.\-\u00a0]/g, '').toUpperCase();
  return /^[A-Z0-9]{2,20}$/.test(compact)
    ? { valid: true, taxId: compact }
    : { valid: false, reason: 'format' };
}
