import { describe, expect, it } from 'vitest';
import { computeInvoiceTotals } from '../../../../shared/domain/invoices';
import { orderInvoiceLines } from './invoice-orders.service';

const line = (name: string, quantity: number, unitPrice: number, vatRate = '2300', kind = 'pass') => ({
  kind,
  name,
  quantity,
  unitPrice,
  vatRate,
  total: quantity * unitPrice,
});

describe('orderInvoiceLines', () => {
  it('keeps a discounted line that no longer divides by its quantity as the units sold, not "1 × (3 szt.)"', () => {
    // 3 × 33.33 = 99.99 less a 1.00 voucher = 98.99: 98.99 / 3 is not whole grosze.
    const lines = orderInvoiceLines([line('Ręcznik', 3, 3333, '800', 'product')], 100);
    expect(lines.map((l) => l.description)).toEqual(['Ręcznik', 'Ręcznik']);
    expect(lines.map((l) => [l.quantity, l.unitPrice])).toEqual([
      ['1', 3299],
      ['2', 3300],
    ]);
    expect(lines.every((l) => !/szt\.\)/.test(l.description))).toBe(true);
    const totals = computeInvoiceTotals({ basis: 'gross', treatment: 'standard', lines });
    expect(totals.gross).toBe(9899);
    // The quantity on the invoice is what was sold.
    expect(totals.lines.reduce((a, l) => a + l.quantityThousandths, 0)).toBe(3000);
  });

  it('leaves a line that divides as one line', () => {
    const lines = orderInvoiceLines([line('Karnet', 2, 5000)], 1000);
    expect(lines).toEqual([
      { description: 'Karnet', quantity: '2', unit: 'usł.', unitPrice: 4500, vatRate: 2300 },
    ]);
  });

  it("takes a receipted sale's per-rate totals from the receipt", () => {
    // Two rates, a 1.00 voucher: the receipt spread 0.33/0.67 its own way; the invoice follows it.
    const order = [line('Karnet', 1, 10000), line('Woda', 1, 5000, '800', 'product')];
    const lines = orderInvoiceLines(order, 100, [
      { vatRate: 2300, total: 9934 },
      { vatRate: 800, total: 4966 },
    ]);
    const totals = computeInvoiceTotals({ basis: 'gross', treatment: 'standard', lines });
    expect(totals.rates.map((r) => [r.vatRate, r.gross])).toEqual([
      [2300, 9934],
      [800, 4966],
    ]);
  });
});
