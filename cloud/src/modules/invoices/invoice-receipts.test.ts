import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import type { Studio } from '../identity/rows';
import { comparableTaxId, receiptBlock, receiptForInvoice, type OrderReceipt } from './invoice-receipts';

const studio = { timeZone: 'Europe/Warsaw' } as Studio;
const receipt = (over: Partial<OrderReceipt> = {}): OrderReceipt => ({
  id: 'r1',
  status: 'printed',
  printRequests: 1,
  orders: 1,
  buyerNip: null,
  totals: { lines: [], vatGroups: [], subtotal: 0, discount: 0, total: 0, vat: 0 },
  receiptNumber: 12,
  printedAt: new Date('2026-11-20T23:30:00Z'),
  printerName: 'POSNET',
  stationSlug: 'front-1',
  ...over,
});
const keyOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.key : String(err);
  }
};

describe('invoice for a receipt: the rules', () => {
  it('compares tax ids whatever their spelling', () => {
    expect(comparableTaxId('PL 774-000-14-54')).toBe('7740001454');
    expect(comparableTaxId('de123456789')).toBe('DE123456789');
    expect(comparableTaxId('')).toBeNull();
  });

  it('blocks while the outcome is unknown and when the receipt covers other orders', () => {
    expect(receiptBlock(null)).toBeNull();
    expect(receiptBlock(receipt({ status: 'needsAttention' }))).toBe('receiptUnresolved');
    expect(receiptBlock(receipt({ status: 'toPrint', printRequests: 1 }))).toBe('receiptUnresolved');
    expect(receiptBlock(receipt({ status: 'toPrint', printRequests: 0 }))).toBeNull();
    expect(receiptBlock(receipt({ orders: 2 }))).toBe('receiptCoversOtherOrders');
    // An unprinted receipt of several orders is simply never printed once one is invoiced.
    expect(receiptBlock(receipt({ status: 'notPrinted', orders: 2 }))).toBeNull();
    expect(keyOf(() => receiptForInvoice(studio, receipt({ orders: 2 }), null))).toBe(
      'invoice.receiptCoversOtherOrders',
    );
  });

  it('a printed receipt: the buyer tax id must be the NIP on it; the reference takes the studio day', () => {
    expect(keyOf(() => receiptForInvoice(studio, receipt(), '7740001454'))).toBe(
      'invoice.receiptBuyerNipMismatch',
    );
    expect(keyOf(() => receiptForInvoice(studio, receipt({ buyerNip: '7740001454' }), null))).toBe(
      'invoice.receiptBuyerNipMismatch',
    );
    expect(receiptForInvoice(studio, receipt({ buyerNip: 'PL7740001454' }), '7740001454')).toEqual({
      receiptId: 'r1',
      number: 12,
      date: '2026-11-21', // 00:30 in Warsaw
      printerName: 'POSNET',
      stationSlug: 'front-1',
    });
    expect(receiptForInvoice(studio, receipt({ status: 'notPrinted' }), '7740001454')).toBeNull();
  });
});
