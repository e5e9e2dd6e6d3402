import { describe, expect, it } from 'vitest';
import { canTakeCashOut, reconcileShift, shiftCashTotals, type ShiftCashFigures } from './index';

const base: ShiftCashFigures = { float: 20000, cashSales: 0, cashRefunds: 0, movements: [] };

describe('shift cash arithmetic', () => {
  it.each([
    ['only the float', base, 20000],
    ['float + cash sales', { ...base, cashSales: 4599 }, 24599],
    ['cash refunds come out of the drawer', { ...base, cashSales: 4599, cashRefunds: 1000 }, 23599],
    [
      'cash in and out',
      {
        ...base,
        cashSales: 5000,
        movements: [
          { kind: 'in' as const, amount: 10000 },
          { kind: 'out' as const, amount: 3000 },
          { kind: 'out' as const, amount: 2000 },
        ],
      },
      30000,
    ],
    ['a shift opened with no float', { ...base, float: 0, cashSales: 1 }, 1],
  ])('%s', (_name, figures, expected) => {
    expect(shiftCashTotals(figures).expected).toBe(expected);
  });

  it('sums cash in and cash out separately', () => {
    const totals = shiftCashTotals({
      ...base,
      movements: [
        { kind: 'in', amount: 500 },
        { kind: 'in', amount: 700 },
        { kind: 'out', amount: 300 },
      ],
    });
    expect(totals).toMatchObject({ cashIn: 1200, cashOut: 300, expected: 20900 });
  });

  it.each([
    ['exact', 24599, 0],
    ['money missing', 24000, -599],
    ['money over', 25000, 401],
  ])('closing count %s', (_name, counted, difference) => {
    const r = reconcileShift({ ...base, cashSales: 4599 }, counted);
    expect(r.expected).toBe(24599);
    expect(r.counted).toBe(counted);
    expect(r.difference).toBe(difference);
  });

  it.each([
    ['float', { ...base, float: -1 }],
    ['fraction', { ...base, cashSales: 10.5 }],
    ['negative movement', { ...base, movements: [{ kind: 'out' as const, amount: -5 }] }],
  ])('refuses a %s that is not whole minor units', (_name, figures) => {
    expect(() => shiftCashTotals(figures)).toThrow(RangeError);
  });

  it('refuses a negative count', () => {
    expect(() => reconcileShift(base, -1)).toThrow(RangeError);
  });

  it('cash out only up to what the drawer should hold', () => {
    expect(canTakeCashOut(base, 20000)).toBe(true);
    expect(canTakeCashOut(base, 20001)).toBe(false);
    expect(canTakeCashOut(base, 0)).toBe(false);
  });
});
