import { describe, expect, it } from 'vitest';
import { basketTotals, type BasketLine, type VoucherScope } from './eligibility';

const water: BasketLine = { kind: 'product', id: 'water', categoryId: 'drinks', unitPrice: 500, quantity: 3 };
const mat: BasketLine = { kind: 'product', id: 'mat', categoryId: 'gear', unitPrice: 12000, quantity: 1 };
const loose: BasketLine = { kind: 'product', id: 'loose', categoryId: null, unitPrice: 100, quantity: 2 };
const pass: BasketLine = { kind: 'pricingOption', id: 'pass10', unitPrice: 25000, quantity: 1 };
const basket = [water, mat, loose, pass];

const scope = (over: Partial<VoucherScope> = {}): VoucherScope => ({
  appliesTo: 'selected',
  productCategoryIds: [],
  productIds: [],
  pricingOptionIds: [],
  ...over,
});

describe('basketTotals', () => {
  it.each([
    ['everything', scope({ appliesTo: 'all' }), 38700],
    ['a category', scope({ productCategoryIds: ['drinks'] }), 1500],
    ['a product', scope({ productIds: ['mat'] }), 12000],
    [
      'a product and its category count once',
      scope({ productIds: ['water'], productCategoryIds: ['drinks'] }),
      1500,
    ],
    ['a pricing option', scope({ pricingOptionIds: ['pass10'] }), 25000],
    ['a product id does not match a pass of that id', scope({ productIds: ['pass10'] }), 0],
    ['nothing in the basket', scope({ productCategoryIds: ['towels'] }), 0],
    ['uncategorized products only by id', scope({ productIds: ['loose'] }), 200],
  ])('%s → eligible %i', (_name, s, eligible) => {
    expect(basketTotals(s, basket)).toEqual({ basketTotal: 38700, eligibleTotal: eligible });
  });

  it('an empty basket totals 0', () => {
    expect(basketTotals(scope({ appliesTo: 'all' }), [])).toEqual({ basketTotal: 0, eligibleTotal: 0 });
  });
});
