import { describe, expect, it } from 'vitest';
import type { InvoiceView } from '../../../../shared/contracts/api/invoices';
import { amountBox, pdfRate } from './invoice-pdf';

const withTotals = (totals: Partial<InvoiceView['totals']>) =>
  ({ totals: { net: 0, vat: 0, gross: 29897, paid: 0, due: 29897, ...totals } }) as InvoiceView;

describe('the boxed amount of the invoice PDF', () => {
  it('a paid invoice shows its total in figures and words, not "to pay 0,00 — zero złotych"', () => {
    expect(amountBox(withTotals({ paid: 29897, due: 0 }))).toEqual({ label: 'total', amount: 29897 });
  });
  it('an unpaid or part-paid invoice shows what is still to pay', () => {
    expect(amountBox(withTotals({}))).toEqual({ label: 'toPay', amount: 29897 });
    expect(amountBox(withTotals({ paid: 9897, due: 20000 }))).toEqual({ label: 'toPay', amount: 20000 });
  });
  it('a correction that lowers the total shows the amount to refund', () => {
    expect(amountBox(withTotals({ gross: -10000, due: 0 }))).toEqual({ label: 'toRefund', amount: 10000 });
  });
});

describe('the rate column', () => {
  it('reverse charge (services to a business abroad, art. 28b) is "np", not the domestic "oo"', () => {
    expect(pdfRate('reverseCharge')).toBe('np');
    expect([pdfRate(2300), pdfRate('exempt'), pdfRate(550)]).toEqual(['23%', 'zw', '5,5%']);
  });
});
