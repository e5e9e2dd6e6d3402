import { electronicFormatIBAN, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/**
 * Bank account numbers (IBAN, ISO 13616) printed on invoices for bank transfers. A Polish account is
 * 26 digits (NRB); written without the country code it is taken as "PL" + the digits, which is how
 * Polish invoices usually print it.
 */
export type IbanCheck = { valid: true; iban: string } | { valid: false; reason: 'format' | 'checksum' };

/**
 * Checked by ibantools (issue 25): each country's length and BBAN pattern as well as the ISO 7064
 * check digits, so a German number one digit short is refused even when its checksum happens to fit.
 */
export function checkIban(input: string): IbanCheck {
  let iban = electronicFormatIBAN(input.replace(/[\s\-\u00a0]/g, '')) ?? '';
  if (/^\d{26}$/.test(iban)) iban = `PL${iban}`;
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return { valid: false, reason: 'format' };
  const result = validateIBAN(iban);
  if (result.valid) return { valid: true, iban };
  const checksumOnly = result.errorCodes.every(
    (code) =>
      code === ValidationErrorsIBAN.WrongIBANChecksum ||
      code === ValidationErrorsIBAN.WrongAccountBankBranchChecksum,
  );
  return { valid: false, reason: checksumOnly ? 'checksum' : 'format' };
}

/** "PL61109010140000071219812874" → "PL61 1090 1014 0000 0712 1981 2874". */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
