import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuantity, parseQuantity } from './quantity';
import {
  computeReceiptTotals,
  ReceiptInputError,
  receiptProblems,
  spreadDiscount,
  vatFromGross,
  type ReceiptInput,
  type ReceiptLineInput,
} from './receipt-totals';
import { compareVatRates, describeVatRate, isVatRate, type VatRate } from './vat-rate';

const line = (unitPrice: number, quantity: string, vatRate: VatRate = 2300): ReceiptLineInput => ({
  name: 'Item',
  unitPrice,
  quantity,
  vatRate,
});

describe('parseQuantity / formatQuantity', () => {
  it.each([
    ['1', 1000],
    ['2', 2000],
    ['0,5', 500],
    ['1.25', 1250],
    ['1.250', 1250],
    [' 3 ', 3000],
    ['0.001', 1],
    ['0', 0],
  ])('%j → %i thousandths', (text, thousandths) => {
    expect(parseQuantity(text)).toBe(thousandths);
  });

  it.each(['', '1.2345', '-1', '1e3', '1,000.5', 'abc', '.5', '1.'])('%j is refused', (text) => {
    expect(parseQuantity(text)).toBeNull();
  });

  it('takes integer thousandths as they are', () => {
    expect(parseQuantity({ thousandths: 1500 })).toBe(1500);
    expect(parseQuantity({ thousandths: 1.5 })).toBeNull();
  });

  it.each([
    [1000, '1'],
    [1500, '1.5'],
    [333, '0.333'],
    [1010, '1.01'],
    [12000, '12'],
  ])('%i → %s', (thousandths, text) => {
    expect(formatQuantity(thousandths)).toBe(text);
  });
});

describe('line totals: round(price × quantity), half up, exactly as the printer checks them', () => {
  it.each([
    [1999, '1', 1999],
    [1999, '3', 5997],
    [333, '0.5', 167], // 166.5
    [1, '0.5', 1], // 0.5
    [1, '0.499', 0],
    [1999, '1,5', 2999], // 2998.5
    [10, '0.333', 3], // 3.33
    [1005, '0.1', 101], // 100.5
    [999, '0.005', 5], // 4.995
    [9_999_999_999, '1000', 9_999_999_999_000], // past 2^53 before the division
  ])('%i × %s = %i', (price, quantity, expected) => {
    expect(computeReceiptTotals({ lines: [line(price, quantity)] }).lines[0]!.gross).toBe(expected);
  });

  it('never goes through floats: 19.99 × 3 is 5997, not 5996.999…', () => {
    expect(19.99 * 100 * 3).not.toBe(5997);
    expect(computeReceiptTotals({ lines: [line(1999, '3')] }).total).toBe(5997);
  });

  it.each([
    [{ percent: 1000 }, 1999, 200, 1799], // 199.9 → 200
    [{ percent: 1250 }, 1000, 125, 875],
    [{ percent: 50 }, 100, 1, 99], // 0.5 → 1
    [{ amount: 500 }, 1999, 500, 1499],
  ])('line discount %j on %i → %i off, %i left', (discount, price, off, left) => {
    const totals = computeReceiptTotals({ lines: [{ ...line(price, '1'), discount }] });
    expect(totals.lines[0]).toMatchObject({ gross: price, discount: off, total: left });
  });
});

describe('VAT per group: gross × rate / (1 + rate), rounded to the grosz', () => {
  it.each([
    [12300, 2300, 2300],
    [100, 2300, 19], // 18.699…
    [1, 800, 0],
    [54, 800, 4],
    [10500, 500, 500],
    [3, 2000, 1], // 0.5 exactly → up
    [9, 2000, 2], // 1.5 → 2
    [12345, 0, 0],
    [12345, 'exempt', 0],
  ] as const)('%i at %s bp → %i', (gross, rate, vat) => {
    expect(vatFromGross(gross, rate)).toBe(vat);
  });
});

describe('spreadDiscount: integer largest remainder', () => {
  it.each([
    [100, [1000, 1000, 1000], [34, 33, 33]], // tie on remainder and base → earlier group
    [1, [1, 1], [1, 0]],
    [10, [2999, 1], [10, 0]],
    [3, [100, 200], [1, 2]],
    [5, [1, 2, 7], [0, 1, 4]], // 0.5 / 1 / 3.5: remainders tie → larger base
    [10, [6, 4], [6, 4]], // the whole amount
    [0, [5, 7], [0, 0]],
    [7, [0, 10], [0, 7]],
  ])('%i over %j → %j', (amount, bases, expected) => {
    expect(spreadDiscount(amount, bases)).toEqual(expected);
  });

  it('refuses a discount larger than the bases', () => {
    expect(() => spreadDiscount(11, [5, 5])).toThrow(RangeError);
  });
});

describe('computeReceiptTotals', () => {
  it('groups by rate, higher rate first and exempt last, and spreads the receipt discount', () => {
    const totals = computeReceiptTotals({
      lines: [
        { name: 'Yoga mat', unitPrice: 8999, vatRate: 2300 },
        { name: 'Water', unitPrice: 350, quantity: '2', vatRate: 800 },
        { name: 'Class', unitPrice: 4000, vatRate: 'exempt' },
        { name: 'Book', unitPrice: 2999, vatRate: 500, discount: { percent: 1000 } },
        { name: 'Towel', unitPrice: 2500, vatRate: 2300, discount: { amount: 500 } },
      ],
      discount: 1000,
    });
    expect(totals.vatGroups.map((g) => g.vatRate)).toEqual([2300, 800, 500, 'exempt']);
    expect(totals.lines.map((l) => l.total)).toEqual([8999, 700, 4000, 2699, 2000]);
    expect(totals.subtotal).toBe(18398);
    // 1000 × [10999, 700, 2699, 4000] / 18398 = [597.8, 38.0, 146.7, 217.4] → floors 597 38 146 217 = 998.
    expect(totals.vatGroups.map((g) => g.discount)).toEqual([598, 38, 147, 217]);
    expect(totals.vatGroups.map((g) => g.total)).toEqual([10401, 662, 2552, 3783]);
    expect(totals.vatGroups.map((g) => g.vat)).toEqual([1945, 49, 122, 0]);
    expect(totals).toMatchObject({ discount: 1000, total: 17398, vat: 2116 });
  });

  it('a line worth nothing (1 grosz × 0.001) makes no VAT group, as on a printout', () => {
    const totals = computeReceiptTotals({ lines: [line(1, '0.001', 2300), line(100, '1', 800)] });
    expect(totals.lines[0]!.total).toBe(0);
    expect(totals.vatGroups.map((g) => g.vatRate)).toEqual([800]);
  });

  it('an empty receipt totals zero (a printer refuses it; that check is the driver’s)', () => {
    expect(computeReceiptTotals({ lines: [] })).toMatchObject({ total: 0, vatGroups: [] });
  });

  it('reports every problem at once', () => {
    const input = {
      lines: [
        { name: 'a', unitPrice: 10.5, vatRate: 2300 },
        { name: 'b', unitPrice: 100, quantity: '0', vatRate: 2300 },
        { name: 'c', unitPrice: 100, quantity: '1.0005', vatRate: 23 as VatRate },
        { name: 'd', unitPrice: 100, vatRate: 12000 },
        { name: 'e', unitPrice: 100, vatRate: 800, discount: { amount: 100 } },
        { name: 'f', unitPrice: 100, vatRate: 800, discount: { percent: 0 } },
        { name: 'g', unitPrice: 1, vatRate: 800, discount: { percent: 9999 } },
      ],
      discount: -1,
    } satisfies ReceiptInput;
    expect(receiptProblems(input)).toEqual([
      { path: 'lines.0.unitPrice', code: 'unitPriceInvalid' },
      { path: 'lines.1.quantity', code: 'quantityNotPositive' },
      { path: 'lines.2.quantity', code: 'quantityInvalid' },
      { path: 'lines.3.vatRate', code: 'vatRateInvalid' },
      { path: 'lines.4.discount', code: 'discountTooLarge' },
      { path: 'lines.5.discount', code: 'discountInvalid' },
      { path: 'lines.6.discount', code: 'discountTooLarge' },
      { path: 'discount', code: 'discountInvalid' },
    ]);
    expect(() => computeReceiptTotals(input)).toThrow(ReceiptInputError);
  });

  it('refuses a receipt discount above the subtotal and accepts one equal to it', () => {
    expect(receiptProblems({ lines: [line(100, '1')], discount: 101 })).toEqual([
      { path: 'discount', code: 'discountTooLarge' },
    ]);
    expect(computeReceiptTotals({ lines: [line(100, '1')], discount: 100 }).total).toBe(0);
  });
});

describe('vat rates', () => {
  it('orders higher rates first, 0 % before exempt', () => {
    const rates: VatRate[] = ['exempt', 0, 800, 2300, 500];
    expect(rates.sort(compareVatRates)).toEqual([2300, 800, 500, 0, 'exempt']);
  });

  it('describes and validates rates', () => {
    expect([2300, 550, 5, 'exempt'].map((r) => describeVatRate(r as VatRate))).toEqual([
      '23%',
      '5.5%',
      '0.05%',
      'exempt',
    ]);
    expect([0, 9999, 'exempt'].every(isVatRate)).toBe(true);
    expect([-1, 10000, 1.5, 'zw', null].some(isVatRate)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const RATES: VatRate[] = [2300, 800, 500, 0, 'exempt', 2000, 700];

const lineArbitrary = fc.record({
  name: fc.constant('Item'),
  unitPrice: fc.integer({ min: 1, max: 2_000_000 }),
  quantity: fc.integer({ min: 1, max: 50_000 }).map((thousandths) => ({ thousandths })),
  vatRate: fc.constantFrom(...RATES),
  discount: fc.option(
    fc.oneof(
      fc.integer({ min: 1, max: 9999 }).map((percent) => ({ percent })),
      fc.integer({ min: 1, max: 5000 }).map((amount) => ({ amount })),
    ),
    { nil: undefined },
  ),
});

const receiptArbitrary = fc
  .array(lineArbitrary, { minLength: 1, maxLength: 12 })
  .filter((lines) => receiptProblems({ lines }).length === 0)
  .chain((lines) => {
    const subtotal = computeReceiptTotals({ lines }).subtotal;
    return fc.record({ lines: fc.constant(lines), discount: fc.integer({ min: 0, max: subtotal }) });
  });

describe('properties', () => {
  it('a spread discount sums exactly, and no share exceeds its base or is off by a grosz or more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 7 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (bases, fraction) => {
          const sum = bases.reduce((a, b) => a + b, 0);
          const amount = Math.floor(sum * fraction);
          const shares = spreadDiscount(amount, bases);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
          shares.forEach((share, i) => {
            const base = bases[i]!;
            expect(Number.isSafeInteger(share)).toBe(true);
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(base);
            // |share − amount × base / sum| < 1, checked in integers.
            if (sum > 0) expect(Math.abs(share * sum - amount * base)).toBeLessThan(sum);
          });
        },
      ),
    );
  });

  it('every total is a whole number of grosze and total = Σ groups = subtotal − discount', () => {
    fc.assert(
      fc.property(receiptArbitrary, (receipt) => {
        const totals = computeReceiptTotals(receipt);
        const numbers = [
          totals.subtotal,
          totals.total,
          totals.vat,
          totals.discount,
          ...totals.lines.flatMap((l) => [l.gross, l.discount, l.total]),
          ...totals.vatGroups.flatMap((g) => [g.gross, g.discount, g.total, g.vat]),
        ];
        expect(numbers.every((n) => Number.isSafeInteger(n) && n >= 0)).toBe(true);
        expect(totals.total).toBe(totals.vatGroups.reduce((a, g) => a + g.total, 0));
        expect(totals.total).toBe(totals.subtotal - totals.discount);
        expect(totals.vatGroups.reduce((a, g) => a + g.discount, 0)).toBe(totals.discount);
        expect(totals.vat).toBe(totals.vatGroups.reduce((a, g) => a + g.vat, 0));
        expect(totals.subtotal).toBe(totals.lines.reduce((a, l) => a + l.total, 0));
      }),
    );
  });

  it('a line total is the nearest grosz to price × quantity, halves up', () => {
    fc.assert(
      fc.property(lineArbitrary, (input) => {
        const [l] = computeReceiptTotals({ lines: [{ ...input, discount: undefined }] }).lines;
        const exact = input.unitPrice * input.quantity.thousandths; // × 1000, below 2^53 here
        expect(l!.gross * 1000 - exact).toBeLessThanOrEqual(500);
        expect(l!.gross * 1000 - exact).toBeGreaterThan(-500);
      }),
    );
  });

  it('VAT of a group never exceeds its total and is the nearest grosz', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 9999 }), (gross, rate) => {
        const vat = vatFromGross(gross, rate);
        expect(vat).toBeLessThanOrEqual(gross);
        const exact = (BigInt(gross) * BigInt(rate) * 2n) / BigInt(10000 + rate); // 2 × exact, floored
        expect(BigInt(vat) * 2n - exact).toBeLessThanOrEqual(1n);
        expect(BigInt(vat) * 2n - exact).toBeGreaterThanOrEqual(-1n);
      }),
    );
  });
});
