/**
 * Invoice numbers: one gapless series per studio, kind and calendar year of the date of issue,
 * `FV/2026/000123` for invoices and `FK/2026/000007` for corrective invoices. Polish VAT law asks for
 * "a consecutive number, in one or more series, that identifies the invoice uniquely" (art. 106e
 * ust. 1 pkt 2); a yearly series restarting at 1 meets it because the year is part of the number.
 * The sequence is padded to six digits and simply grows wider past 999999.
 */
export const INVOICE_KINDS = ['invoice', 'corrective'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_SERIES_PREFIX: Record<InvoiceKind, string> = { invoice: 'FV', corrective: 'FK' };

export interface InvoiceNumberParts {
  kind: InvoiceKind;
  year: number;
  sequence: number;
}

export function formatInvoiceNumber({ kind, year, sequence }: InvoiceNumberParts): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`sequence must be >= 1, got ${sequence}`);
  if (!Number.isInteger(year) || year < 2000 || year > 9999)
    throw new RangeError(`year out of range: ${year}`);
  return `${INVOICE_SERIES_PREFIX[kind]}/${year}/${String(sequence).padStart(6, '0')}`;
}

const NUMBER_RE = /^(FV|FK)\/(\d{4})\/(\d{6,})$/;

/** The parts of a number we issued, or null for anything else. */
export function parseInvoiceNumber(value: string): InvoiceNumberParts | null {
  const match = NUMBER_RE.exec(value.trim().toUpperCase());
  if (!match) return null;
  const sequence = Number(match[3]);
  if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
  return { kind: match[1] === 'FV' ? 'invoice' : 'corrective', year: Number(match[2]), sequence };
}

/** The series year of a date of issue ('YYYY-MM-DD', the studio's calendar day). */
export function invoiceSeriesYear(issueDate: string): number {
  const year = Number(issueDate.slice(0, 4));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(issueDate)) throw new RangeError(`not a calendar date: ${issueDate}`);
  return year;
}
