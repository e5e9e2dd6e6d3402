import { mulDivRoundHalfUp } from '../receipts/rounding';
import type { InvoiceRateTotals, VatTreatment } from './totals';

/**
 * The notes an invoice must carry (ustawa o VAT art. 106e):
 * - reverse charge: the words "odwrotne obciążenie" (ust. 1 pkt 18);
 * - an exempt sale: the legal basis of the exemption (ust. 1 pkt 19), e.g. "art. 113 ust. 1" for a
 *   small seller exempt as a taxpayer, or "art. 43 ust. 1 pkt …" for an exempt service;
 * - an invoice in a foreign currency: the VAT in złoty at the National Bank of Poland's average rate
 *   of the last working day before the tax point, with the table number (ust. 11, art. 31a).
 * Texts are translated where they are printed (locales/*\/invoices.json `pdf.notes.*`); the legal
 * basis is the seller's own words, printed as given.
 */
export const DEFAULT_EXEMPTION_BASIS =
  'art. 113 ust. 1 ustawy z dnia 11 marca 2004 r. o podatku od towarów i usług';

/** An exchange rate as the NBP publishes it: złoty per unit with four decimals, as an integer (4.2512 → 42512). */
export interface ExchangeRate {
  currency: string;
  rateTenThousandths: number;
  table: string;
  date: string;
}

export type InvoiceNote =
  | { kind: 'reverseCharge' }
  | { kind: 'vatExempt'; basis: string }
  | { kind: 'receipt'; number: number; date: string; printer: string | null }
  | { kind: 'exchangeRate'; currency: string; rate: string; table: string; date: string; vatPln: number };

/** "4.2512" / "4,2512" / "4.25" → 42512 / 42500; null when it is not a positive rate with ≤ 4 decimals. */
export function parseExchangeRate(text: string): number | null {
  const match = /^(\d{1,4})(?:[.,](\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]) * 10000 + Number((match[2] ?? '').padEnd(4, '0'));
  return value > 0 ? value : null;
}

export function formatExchangeRate(rateTenThousandths: number): string {
  return `${Math.trunc(rateTenThousandths / 10000)}.${String(rateTenThousandths % 10000).padStart(4, '0')}`;
}

/** VAT in grosze of an amount in another currency's minor units, half up (art. 106e ust. 11). */
export function vatInPln(vatMinor: number, rateTenThousandths: number): number {
  const sign = vatMinor < 0 ? -1 : 1;
  return sign * mulDivRoundHalfUp(Math.abs(vatMinor), rateTenThousandths, 10000);
}

export function invoiceNotes(input: {
  treatment: VatTreatment;
  rates: readonly Pick<InvoiceRateTotals, 'vatRate'>[];
  exemptionBasis?: string | null;
  currency: string;
  vat: number;
  exchangeRate?: ExchangeRate | null;
  /** The fiscal receipt an invoice for a receipted sale was issued for (art. 106h). */
  receipt?: { number: number; date: string; printerName: string | null; stationSlug: string | null } | null;
}): InvoiceNote[] {
  const notes: InvoiceNote[] = [];
  if (input.receipt)
    notes.push({
      kind: 'receipt',
      number: input.receipt.number,
      date: input.receipt.date,
      printer: input.receipt.printerName ?? input.receipt.stationSlug,
    });
  if (input.treatment === 'reverseCharge') notes.push({ kind: 'reverseCharge' });
  const exempt = input.treatment === 'exempt' || input.rates.some((r) => r.vatRate === 'exempt');
  if (exempt)
    notes.push({ kind: 'vatExempt', basis: input.exemptionBasis?.trim() || DEFAULT_EXEMPTION_BASIS });
  if (input.currency !== 'PLN' && input.exchangeRate) {
    notes.push({
      kind: 'exchangeRate',
      currency: input.currency,
      rate: formatExchangeRate(input.exchangeRate.rateTenThousandths),
      table: input.exchangeRate.table,
      date: input.exchangeRate.date,
      vatPln: vatInPln(input.vat, input.exchangeRate.rateTenThousandths),
    });
  }
  return notes;
}
