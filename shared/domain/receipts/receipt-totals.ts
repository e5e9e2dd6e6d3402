import { parseQuantity, type Quantity } from './quantity';
import { divideRoundHalfUp, mulDivRoundHalfUp, toSafeNumber } from './rounding';
import { compareVatRates, isVatRate, vatRateKey, type VatRate } from './vat-rate';

/** A line discount: a percentage given as percent × 100 (1000 = 10 %), or an amount in grosze. */
export type LineDiscount = { percent: number } | { amount: number };

export interface ReceiptLineInput {
  name: string;
  /** Gross unit price in minor units (grosze). */
  unitPrice: number;
  /** Defaults to 1. */
  quantity?: Quantity;
  vatRate: VatRate;
  discount?: LineDiscount;
}

export interface ReceiptInput {
  lines: readonly ReceiptLineInput[];
  /** Receipt-level discount in minor units, spread over the VAT groups. */
  discount?: number;
}

export interface ReceiptLineTotals {
  name: string;
  vatRate: VatRate;
  unitPrice: number;
  quantityThousandths: number;
  /** round(unitPrice × quantity): the value the printer checks a line against (its rule 2802). */
  gross: number;
  discount: number;
  /** gross − discount. */
  total: number;
}

export interface VatGroupTotals {
  vatRate: VatRate;
  /** Σ line totals of the rate, before the receipt-level discount. */
  gross: number;
  /** This group's share of the receipt-level discount. */
  discount: number;
  /** gross − discount: the taxable amount the printer stores for the rate. */
  total: number;
  /** total × rate / (1 + rate), rounded to the grosz; 0 for exempt. */
  vat: number;
}

export interface ReceiptTotals {
  lines: ReceiptLineTotals[];
  /** One entry per rate with a non-zero amount, higher rate first, exempt last. */
  vatGroups: VatGroupTotals[];
  /** Σ line totals. */
  subtotal: number;
  discount: number;
  /** Σ vatGroups.total = subtotal − discount. */
  total: number;
  /** Σ vatGroups.vat. */
  vat: number;
}

export type ReceiptProblemCode =
  | 'unitPriceInvalid'
  | 'quantityInvalid'
  | 'quantityNotPositive'
  | 'vatRateInvalid'
  | 'discountInvalid'
  | 'discountTooLarge';

export interface ReceiptProblem {
  /** Where: "lines.2.unitPrice", "discount". */
  path: string;
  code: ReceiptProblemCode;
}

export class ReceiptInputError extends RangeError {
  readonly problems: ReceiptProblem[];

  constructor(problems: ReceiptProblem[]) {
    super(`invalid receipt: ${problems.map((p) => `${p.path} ${p.code}`).join(', ')}`);
    this.name = 'ReceiptInputError';
    this.problems = problems;
  }
}

function isMoney(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** round(gross × rate / (10000 + rate)): the VAT contained in a gross amount, as the printer takes it. */
export function vatFromGross(gross: number, rate: VatRate): number {
  if (!isMoney(gross)) throw new RangeError(`gross must be whole minor units >= 0, got ${gross}`);
  if (rate === 'exempt' || rate === 0) return 0;
  return mulDivRoundHalfUp(gross, rate, 10000 + rate);
}

/**
 * Splits `amount` over `bases` in proportion, in whole grosze, so the shares add up to `amount`
 * exactly (largest remainder): every base gets floor(amount × base / Σ bases), and the grosze left
 * over go one each to the largest remainders; a tie goes to the larger base, then to the earlier
 * entry. A share never exceeds its base. Bases are given in receipt order (higher rate first).
 */
export function spreadDiscount(amount: number, bases: readonly number[]): number[] {
  if (!isMoney(amount)) throw new RangeError(`discount must be whole minor units >= 0, got ${amount}`);
  if (!bases.every(isMoney)) throw new RangeError('bases must be whole minor units >= 0');
  const sum = bases.reduce((a, b) => a + BigInt(b), 0n);
  if (BigInt(amount) > sum) throw new RangeError(`discount ${amount} exceeds the amount ${sum}`);
  if (amount === 0) return bases.map(() => 0);

  const total = BigInt(amount);
  const parts = bases.map((base, index) => {
    const product = total * BigInt(base);
    return { index, base, share: product / sum, remainder: product % sum };
  });
  let left = total - parts.reduce((a, p) => a + p.share, 0n);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder !== b.remainder ? (b.remainder > a.remainder ? 1 : -1) : b.base - a.base || a.index - b.index,
  );
  for (const part of byRemainder) {
    if (left === 0n) break;
    part.share += 1n;
    left -= 1n;
  }
  return parts.map((p) => toSafeNumber(p.share, 'discount share'));
}

function lineDiscountProblem(discount: LineDiscount, gross: number): ReceiptProblemCode | null {
  if ('percent' in discount) {
    const valid = Number.isSafeInteger(discount.percent) && discount.percent > 0 && discount.percent < 10000;
    return valid ? null : 'discountInvalid';
  }
  if (!isMoney(discount.amount) || discount.amount === 0) return 'discountInvalid';
  return discount.amount >= gross ? 'discountTooLarge' : null;
}

function lineDiscountAmount(discount: LineDiscount | undefined, gross: number): number {
  if (!discount) return 0;
  if ('percent' in discount) return mulDivRoundHalfUp(gross, discount.percent, 10000);
  return discount.amount;
}

/** Every problem of the input, not only the first; an empty list means computeReceiptTotals accepts it. */
export function receiptProblems(input: ReceiptInput): ReceiptProblem[] {
  const problems: ReceiptProblem[] = [];
  let subtotal = 0n;
  let valid = true;
  input.lines.forEach((line, i) => {
    const at = (field: string) => `lines.${i}.${field}`;
    if (!isMoney(line.unitPrice)) problems.push({ path: at('unitPrice'), code: 'unitPriceInvalid' });
    const quantity = parseQuantity(line.quantity ?? '1');
    if (quantity === null || quantity < 0) problems.push({ path: at('quantity'), code: 'quantityInvalid' });
    else if (quantity === 0) problems.push({ path: at('quantity'), code: 'quantityNotPositive' });
    if (!isVatRate(line.vatRate)) problems.push({ path: at('vatRate'), code: 'vatRateInvalid' });
    if (!isMoney(line.unitPrice) || quantity === null || quantity <= 0) {
      valid = false;
      return;
    }
    const gross = divideRoundHalfUp(BigInt(line.unitPrice) * BigInt(quantity), 1000n);
    if (line.discount) {
      const problem = lineDiscountProblem(line.discount, Number(gross));
      if (problem) {
        problems.push({ path: at('discount'), code: problem });
        valid = false;
        return;
      }
    }
    const discount = line.discount ? BigInt(lineDiscountAmount(line.discount, Number(gross))) : 0n;
    if (discount >= gross && line.discount) problems.push({ path: at('discount'), code: 'discountTooLarge' });
    subtotal += gross - discount;
  });
  if (input.discount !== undefined) {
    if (!isMoney(input.discount)) problems.push({ path: 'discount', code: 'discountInvalid' });
    else if (valid && BigInt(input.discount) > subtotal)
      problems.push({ path: 'discount', code: 'discountTooLarge' });
  }
  return problems;
}

/**
 * The one receipt-totals function, shared by the cloud, the desktop and the fiscal driver. It
 * computes what a fiscal printer computes, so that what we store equals what was printed:
 * - line total = round(unit price × quantity) (half up), minus its discount (percent discounts are
 *   round(line × percent / 10000));
 * - gross per VAT rate = Σ its line totals;
 * - the receipt-level discount is spread over the rates by `spreadDiscount`;
 * - VAT per rate = round(taxable × rate / (1 + rate)), on the amount after the discount.
 * Throws ReceiptInputError listing every problem when the input is not a valid receipt.
 */
export function computeReceiptTotals(input: ReceiptInput): ReceiptTotals {
  const problems = receiptProblems(input);
  if (problems.length > 0) throw new ReceiptInputError(problems);

  const lines = input.lines.map((line): ReceiptLineTotals => {
    const quantityThousandths = parseQuantity(line.quantity ?? '1') as number;
    const gross = mulDivRoundHalfUp(line.unitPrice, quantityThousandths, 1000);
    const discount = lineDiscountAmount(line.discount, gross);
    return {
      name: line.name,
      vatRate: line.vatRate,
      unitPrice: line.unitPrice,
      quantityThousandths,
      gross,
      discount,
      total: gross - discount,
    };
  });

  const grossByRate = new Map<string, { vatRate: VatRate; gross: number }>();
  for (const line of lines) {
    const key = vatRateKey(line.vatRate);
    const group = grossByRate.get(key) ?? { vatRate: line.vatRate, gross: 0 };
    group.gross = toSafeNumber(BigInt(group.gross) + BigInt(line.total), 'VAT group total');
    grossByRate.set(key, group);
  }
  // A rate whose lines add up to nothing is not a VAT group: a printer reports only rates with sales.
  const groups = [...grossByRate.values()]
    .filter((g) => g.gross > 0)
    .sort((a, b) => compareVatRates(a.vatRate, b.vatRate));
  const discount = input.discount ?? 0;
  const shares = spreadDiscount(
    discount,
    groups.map((g) => g.gross),
  );
  const vatGroups = groups.map((group, i): VatGroupTotals => {
    const share = shares[i] ?? 0;
    const total = group.gross - share;
    return {
      vatRate: group.vatRate,
      gross: group.gross,
      discount: share,
      total,
      vat: vatFromGross(total, group.vatRate),
    };
  });

  const subtotal = groups.reduce((a, g) => a + g.gross, 0);
  const total = vatGroups.reduce((a, g) => a + g.total, 0);
  const vat = vatGroups.reduce((a, g) => a + g.vat, 0);
  return { lines, vatGroups, subtotal, discount, total, vat };
}
