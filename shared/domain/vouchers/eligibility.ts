/**
 * What part of a basket a voucher applies to. A voucher applies to everything, or to the selected
 * product categories, products and pricing options (a product counts when it or its category is
 * selected). Lines carry their catalog price; the total is in minor units.
 */
export type BasketLine =
  | { kind: 'product'; id: string; categoryId: string | null; unitPrice: number; quantity: number }
  | { kind: 'pricingOption'; id: string; unitPrice: number; quantity: number };

export interface VoucherScope {
  appliesTo: 'all' | 'selected';
  productCategoryIds: readonly string[];
  productIds: readonly string[];
  pricingOptionIds: readonly string[];
}

export function lineTotal(line: BasketLine): number {
  const total = line.unitPrice * line.quantity;
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('line total out of range');
  return total;
}

export function voucherCovers(scope: VoucherScope, line: BasketLine): boolean {
  if (scope.appliesTo === 'all') return true;
  if (line.kind === 'pricingOption') return scope.pricingOptionIds.includes(line.id);
  return (
    scope.productIds.includes(line.id) ||
    (line.categoryId !== null && scope.productCategoryIds.includes(line.categoryId))
  );
}

/** The basket total and the total of the lines the voucher covers. */
export function basketTotals(
  scope: VoucherScope,
  lines: readonly BasketLine[],
): { basketTotal: number; eligibleTotal: number } {
  let basketTotal = 0;
  let eligibleTotal = 0;
  for (const line of lines) {
    const total = lineTotal(line);
    basketTotal += total;
    if (voucherCovers(scope, line)) eligibleTotal += total;
  }
  if (!Number.isSafeInteger(basketTotal)) throw new RangeError('basket total out of range');
  return { basketTotal, eligibleTotal };
}
