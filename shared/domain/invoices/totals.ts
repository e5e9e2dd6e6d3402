import { parseQuantity, type Quantity } from '../receipts/quantity';
import { mulDivRoundHalfUp } from '../receipts/rounding';
import { vatFromGross } from '../receipts/receipt-totals';
import { compareVatRates, isVatRate, vatRateKey, type VatRate } from '../receipts/vat-rate';

/**
 * Net, VAT and gross of a Polish VAT invoice (ustawa o VAT art. 106e).
 *
 * A rate is basis points (2300 = 23 %), 'exempt' ("zw") or 'reverseCharge' ("oo": the buyer accounts
 * for the VAT, art. 106e ust. 1 pkt 18). Exempt and reverse-charge lines carry no VAT.
 *
 * Two bases, both allowed by the law:
 * - 'net' (the usual B2B invoice): unit prices are net; line net = round(unit price × quantity);
 *   per rate, net = Σ line nets, VAT = round(net × rate), gross = net + VAT.
 * - 'gross' (art. 106e ust. 7–8, the way a studio prices for consumers and how its fiscal receipts
 *   count): unit prices are gross; line gross = round(unit price × quantity); per rate, gross = Σ
 *   line grosses, VAT = round(gross × rate / (1 + rate)), net = gross − VAT. This equals what the
 *   fiscal printer stored for the same sale (`computeReceiptTotals`), so an invoice for a receipt
 *   matches it to the grosz.
 * The VAT of the invoice is computed per rate on the rate's sum, not summed from the lines: that is
 * the amount the law asks to show per rate (art. 106e ust. 1 pkt 14). Each line also shows its own
 * rounded net, VAT and gross for reading; those may differ from the per-rate figures by a grosz.
 * Rounding is half up to the grosz (art. 106e ust. 11: below half a grosz is dropped, half or more
 * rounds up). Money is integer minor units; products go through BigInt (see receipts/rounding).
 */
export type InvoiceVatRate = VatRate | 'reverseCharge';
export type PriceBasis = 'net' | 'gross';
export const PRICE_BASES = ['net', 'gross'] as const;

/**
 * How the invoice treats VAT: 'standard' (each line its own rate), 'reverseCharge' (every line "oo",
 * with the words "odwrotne obciążenie"), 'exempt' (a VAT-exempt seller, art. 113: every line "zw",
 * with the legal basis of the exemption).
 */
export const VAT_TREATMENTS = ['standard', 'reverseCharge', 'exempt'] as const;
export type VatTreatment = (typeof VAT_TREATMENTS)[number];

/** The largest unit price and quantity an invoice line takes: totals stay well inside int4. */
export const INVOICE_UNIT_PRICE_MAX = 100_000_000;
export const INVOICE_QUANTITY_MAX_THOUSANDTHS = 100_000_000;

export interface InvoiceLineInput {
  description: string;
  quantity: Quantity;
  unit: string;
  /** Net or gross (per the basis) unit price in minor units. */
  unitPrice: number;
  vatRate: InvoiceVatRate;
}

export interface InvoiceLineTotals {
  description: string;
  unit: string;
  quantityThousandths: number;
  unitPrice: number;
  vatRate: InvoiceVatRate;
  net: number;
  vat: number;
  gross: number;
}

export interface InvoiceRateTotals {
  vatRate: InvoiceVatRate;
  net: number;
  vat: number;
  gross: number;
}

export interface InvoiceTotals {
  basis: PriceBasis;
  lines: InvoiceLineTotals[];
  /** One entry per rate used, higher rate first, then 0 %, exempt, reverse charge. */
  rates: InvoiceRateTotals[];
  net: number;
  vat: number;
  gross: number;
}

export function isInvoiceVatRate(value: unknown): value is InvoiceVatRate {
  return value === 'reverseCharge' || isVatRate(value);
}

export function invoiceVatRateKey(rate: InvoiceVatRate): string {
  return rate === 'reverseCharge' ? 'reverseCharge' : vatRateKey(rate);
}

export function parseInvoiceVatRateKey(key: string): InvoiceVatRate {
  if (key === 'reverseCharge' || key === 'exempt') return key;
  const bp = Number(key);
  if (!isVatRate(bp)) throw new RangeError(`not a VAT rate: ${key}`);
  return bp;
}

/** Higher rate first, 0 % after the positive rates, then exempt, reverse charge last. */
export function compareInvoiceVatRates(a: InvoiceVatRate, b: InvoiceVatRate): number {
  if (a === 'reverseCharge' || b === 'reverseCharge')
    return (a === 'reverseCharge' ? 1 : 0) - (b === 'reverseCharge' ? 1 : 0);
  return compareVatRates(a, b);
}

/** The rate a line is invoiced at under the invoice's treatment. */
export function effectiveVatRate(treatment: VatTreatment, rate: InvoiceVatRate): InvoiceVatRate {
  if (treatment === 'reverseCharge') return 'reverseCharge';
  if (treatment === 'exempt') return 'exempt';
  return rate;
}

export type InvoiceLineProblemCode =
  | 'descriptionRequired'
  | 'unitPriceInvalid'
  | 'quantityInvalid'
  | 'quantityNotPositive'
  | 'vatRateInvalid'
  | 'reverseChargeNotAllowed';

export interface InvoiceLineProblem {
  path: string;
  code: InvoiceLineProblemCode;
}

export class InvoiceInputError extends RangeError {
  readonly problems: InvoiceLineProblem[];
  constructor(problems: InvoiceLineProblem[]) {
    super(`invalid invoice lines: ${problems.map((p) => `${p.path} ${p.code}`).join(', ')}`);
    this.name = 'InvoiceInputError';
    this.problems = problems;
  }
}

/**
 * Every problem of the lines. A corrective invoice's "after" lines may have quantity 0 (the line is
 * taken back whole); an invoice's may not.
 */
export function invoiceLineProblems(
  lines: readonly InvoiceLineInput[],
  options: { allowZeroQuantity?: boolean; treatment?: VatTreatment } = {},
): InvoiceLineProblem[] {
  const problems: InvoiceLineProblem[] = [];
  lines.forEach((line, i) => {
    const at = (field: string) => `lines.${i}.${field}`;
    if (line.description.trim() === '')
      problems.push({ path: at('description'), code: 'descriptionRequired' });
    if (
      !Number.isSafeInteger(line.unitPrice) ||
      line.unitPrice < 0 ||
      line.unitPrice > INVOICE_UNIT_PRICE_MAX
    )
      problems.push({ path: at('unitPrice'), code: 'unitPriceInvalid' });
    const quantity = parseQuantity(line.quantity);
    if (quantity === null || quantity < 0 || quantity > INVOICE_QUANTITY_MAX_THOUSANDTHS)
      problems.push({ path: at('quantity'), code: 'quantityInvalid' });
    else if (quantity === 0 && !options.allowZeroQuantity)
      problems.push({ path: at('quantity'), code: 'quantityNotPositive' });
    if (!isInvoiceVatRate(line.vatRate)) problems.push({ path: at('vatRate'), code: 'vatRateInvalid' });
    else if (line.vatRate === 'reverseCharge' && (options.treatment ?? 'standard') === 'standard')
      // A standard invoice cannot mix in "oo" lines: reverse charge is the whole invoice's treatment.
      problems.push({ path: at('vatRate'), code: 'reverseChargeNotAllowed' });
  });
  return problems;
}

function vatOfNet(net: number, rate: InvoiceVatRate): number {
  return typeof rate === 'number' && rate > 0 ? mulDivRoundHalfUp(net, rate, 10000) : 0;
}

function vatOfGross(gross: number, rate: InvoiceVatRate): number {
  return typeof rate === 'number' ? vatFromGross(gross, rate) : 0;
}

/**
 * Totals of an invoice's lines (see the module comment for the rules). Lines are taken at the rate
 * the treatment gives them. Throws InvoiceInputError listing every problem of the lines.
 */
export function computeInvoiceTotals(input: {
  basis: PriceBasis;
  lines: readonly InvoiceLineInput[];
  treatment?: VatTreatment;
  allowZeroQuantity?: boolean;
}): InvoiceTotals {
  const treatment = input.treatment ?? 'standard';
  const lines = input.lines.map((line) => ({ ...line, vatRate: effectiveVatRate(treatment, line.vatRate) }));
  const problems = invoiceLineProblems(lines, { allowZeroQuantity: input.allowZeroQuantity, treatment });
  if (problems.length > 0) throw new InvoiceInputError(problems);

  const lineTotals = lines.map((line): InvoiceLineTotals => {
    const quantityThousandths = parseQuantity(line.quantity) as number;
    const value = mulDivRoundHalfUp(line.unitPrice, quantityThousandths, 1000);
    const base = {
      description: line.description.trim(),
      unit: line.unit.trim(),
      quantityThousandths,
      unitPrice: line.unitPrice,
      vatRate: line.vatRate,
    };
    if (input.basis === 'net') {
      const vat = vatOfNet(value, line.vatRate);
      return { ...base, net: value, vat, gross: value + vat };
    }
    const vat = vatOfGross(value, line.vatRate);
    return { ...base, net: value - vat, vat, gross: value };
  });

  const byRate = new Map<string, { vatRate: InvoiceVatRate; sum: number }>();
  for (const line of lineTotals) {
    const key = invoiceVatRateKey(line.vatRate);
    const group = byRate.get(key) ?? { vatRate: line.vatRate, sum: 0 };
    group.sum += input.basis === 'net' ? line.net : line.gross;
    byRate.set(key, group);
  }
  const rates = [...byRate.values()]
    .sort((a, b) => compareInvoiceVatRates(a.vatRate, b.vatRate))
    .map(({ vatRate, sum }): InvoiceRateTotals => {
      if (input.basis === 'net') {
        const vat = vatOfNet(sum, vatRate);
        return { vatRate, net: sum, vat, gross: sum + vat };
      }
      const vat = vatOfGross(sum, vatRate);
      return { vatRate, net: sum - vat, vat, gross: sum };
    });

  return {
    basis: input.basis,
    lines: lineTotals,
    rates,
    net: rates.reduce((a, r) => a + r.net, 0),
    vat: rates.reduce((a, r) => a + r.vat, 0),
    gross: rates.reduce((a, r) => a + r.gross, 0),
  };
}
