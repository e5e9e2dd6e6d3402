/**
 * Bank account numbers (IBAN, ISO 13616) printed on invoices for bank transfers. A Polish account is
 * 26 digits (NRB); written without the country code it is taken as "PL" + the digits, which is how
 * Polish invoices usually print it.
 */
export type IbanCheck = { valid: true; iban: string } | { valid: false; reason: 'format' | 'checksum' };

/** The remainder of a long decimal string (as digits) modulo 97, piece by piece. */
function mod97(digits: string): number {
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  return rest;
}

export function checkIban(input: string): IbanCheck {
  let iban = input.replace(/[\s\-\u00a0]/g, '').toUpperCase();
  if (/^\d{26}$/.test(iban)) iban = `PL${iban}`;
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return { valid: false, reason: 'format' };
  if (iban.startsWith('PL') && iban.length !== 28) return { valid: false, reason: 'format' };
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`;
  const digits = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return mod97(digits) === 1 ? { valid: true, iban } : { valid: false, reason: 'checksum' };
}

/** "PL61109010140000071219812874" → "PL61 1090 1014 0000 0712 1981 2874". */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
