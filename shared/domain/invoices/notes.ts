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

/**
 * The legal bases a studio usually invoices exempt sales under (the settings editor offers them; any
 * other wording may be typed). Sport and physical education: art. 43 ust. 1 pkt 32; cultural services:
 * pkt 33; education and training: pkt 26 and 29; the small-seller exemption: art. 113 ust. 1 and 9.
 * A VAT payer's exempt line needs the basis saved in the settings (there is no default: "art. 113" on a
 * VAT payer's invoice is wrong); a seller exempt under art. 113 defaults to art. 113 ust. 1.
 */
export const EXEMPTION_BASIS_PRESETS = [
  'art. 43 ust. 1 pkt 32 ustawy o VAT',
  'art. 43 ust. 1 pkt 33 lit. b ustawy o VAT',
  'art. 43 ust. 1 pkt 29 lit. c ustawy o VAT',
  'art. 43 ust. 1 pkt 26 lit. a ustawy o VAT',
  'art. 113 ust. 1 ustawy o VAT',
  'art. 113 ust. 9 ustawy o VAT',
] as const;

export const EXEMPTION_BASIS_REQUIRED =
  'the legal basis of the VAT exemption is required: save it in the invoice settings';

/** The basis an exempt sale is invoiced under, or null when none is known (the invoice is refused). */
export function exemptionBasisOf(input: {
  given?: string | null;
  settingsBasis: string;
  sellerExempt: boolean;
}): string | null {
  return (
    input.given?.trim() || input.settingsBasis.trim() || (input.sellerExempt ? DEFAULT_EXEMPTION_BASIS : null)
  );
}

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
  if (exempt) notes.push({ kind: 'vatExempt', basis: input.exemptionBasis?.trim() ?? '' });
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
