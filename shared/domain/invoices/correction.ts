import {
  compareInvoiceVatRates,
  computeInvoiceTotals,
  invoiceVatRateKey,
  type InvoiceLineInput,
  type InvoiceLineTotals,
  type InvoiceVatRate,
  type InvoiceTotals,
  type PriceBasis,
  type VatTreatment,
} from './totals';

/**
 * A corrective invoice (faktura korygująca, art. 106j) shows, for what it changes, the content before
 * and after the correction and the difference. Here both sides are whole invoices: `before` is the
 * invoice as it stands (the original, or the result of its last correction), `after` what it should
 * have been. Lines are matched by position: after[i] corrects before[i]; after lines past the end are
 * added; an after line with quantity 0 takes the line back whole. Differences are after − before,
 * per line and per rate; per-rate figures come from each side's own per-rate totals (the VAT of a
 * rate is computed on the rate's sum, as on the invoices themselves).
 */
export interface AmountTriple {
  net: number;
  vat: number;
  gross: number;
}

export interface CorrectionLine {
  position: number;
  before: InvoiceLineTotals | null;
  after: InvoiceLineTotals;
  difference: AmountTriple & { quantityThousandths: number };
  changed: boolean;
}

export interface CorrectionRate {
  vatRate: InvoiceVatRate;
  before: AmountTriple;
  after: AmountTriple;
  difference: AmountTriple;
}

export interface CorrectionTotals {
  before: InvoiceTotals;
  after: InvoiceTotals;
  lines: CorrectionLine[];
  rates: CorrectionRate[];
  difference: AmountTriple;
  /** False when every line and amount is the same on both sides. */
  changed: boolean;
}

export type CorrectionProblem = { path: string; code: 'linesMissing' };

const ZERO: AmountTriple = { net: 0, vat: 0, gross: 0 };
const minus = (a: AmountTriple, b: AmountTriple): AmountTriple => ({
  net: a.net - b.net,
  vat: a.vat - b.vat,
  gross: a.gross - b.gross,
});
const triple = (t: AmountTriple): AmountTriple => ({ net: t.net, vat: t.vat, gross: t.gross });

function sameLine(a: InvoiceLineTotals, b: InvoiceLineTotals): boolean {
  return (
    a.description === b.description &&
    a.unit === b.unit &&
    a.quantityThousandths === b.quantityThousandths &&
    a.unitPrice === b.unitPrice &&
    invoiceVatRateKey(a.vatRate) === invoiceVatRateKey(b.vatRate)
  );
}

/** Problems of the shape of a correction: every line of `before` needs its counterpart in `after`. */
export function correctionProblems(
  beforeCount: number,
  after: readonly InvoiceLineInput[],
): CorrectionProblem[] {
  return after.length < beforeCount ? [{ path: 'lines', code: 'linesMissing' }] : [];
}

export function computeCorrection(input: {
  basis: PriceBasis;
  treatment: VatTreatment;
  before: readonly InvoiceLineInput[];
  after: readonly InvoiceLineInput[];
}): CorrectionTotals {
  if (input.after.length < input.before.length)
    throw new RangeError('a correction lists every line of the corrected invoice (quantity 0 removes one)');
  const before = computeInvoiceTotals({
    basis: input.basis,
    treatment: input.treatment,
    lines: input.before,
    allowZeroQuantity: true,
  });
  const after = computeInvoiceTotals({
    basis: input.basis,
    treatment: input.treatment,
    lines: input.after,
    allowZeroQuantity: true,
  });

  const lines = after.lines.map((line, index): CorrectionLine => {
    const old = before.lines[index] ?? null;
    const base = old ?? { ...ZERO, quantityThousandths: 0 };
    return {
      position: index + 1,
      before: old,
      after: line,
      difference: {
        ...minus(line, base),
        quantityThousandths: line.quantityThousandths - base.quantityThousandths,
      },
      changed: old === null ? line.quantityThousandths > 0 : !sameLine(old, line),
    };
  });

  const keys = new Map<string, InvoiceVatRate>();
  for (const r of [...before.rates, ...after.rates]) keys.set(invoiceVatRateKey(r.vatRate), r.vatRate);
  const rates = [...keys.values()].sort(compareInvoiceVatRates).map((vatRate): CorrectionRate => {
    const key = invoiceVatRateKey(vatRate);
    const b = triple(before.rates.find((r) => invoiceVatRateKey(r.vatRate) === key) ?? ZERO);
    const a = triple(after.rates.find((r) => invoiceVatRateKey(r.vatRate) === key) ?? ZERO);
    return { vatRate, before: b, after: a, difference: minus(a, b) };
  });

  const difference = minus(after, before);
  return {
    before,
    after,
    lines,
    rates,
    difference,
    changed: lines.some((l) => l.changed),
  };
}
