import { describe, expect, it } from 'vitest';
import { checkBarcode, gs1CheckDigit, normalizeBarcode } from './barcode';
import { applyStockMovement } from './stock';

describe('gs1CheckDigit', () => {
  it.each([
    ['590123412345', 7], // EAN-13 5901234123457 (GS1 example)
    ['400638133393', 1], // EAN-13 4006381333931
    ['9638507', 4], // EAN-8 96385074
    ['03600029145', 2], // UPC-A 036000291452
    ['00000000000', 0],
  ])('%s → %i', (body, digit) => {
    expect(gs1CheckDigit(body)).toBe(digit);
  });

  it('refuses anything but digits', () => {
    expect(() => gs1CheckDigit('12a')).toThrow(RangeError);
  });
});

describe('checkBarcode', () => {
  it.each([
    ['5901234123457', 'ean13', '5901234123457'],
    ['4006381333931', 'ean13', '4006381333931'],
    ['96385074', 'ean8', '96385074'],
    ['036000291452', 'upcA', '036000291452'],
    [' 590-1234-12345-7 ', 'ean13', '5901234123457'],
    ['5901 2341 2345 7', 'ean13', '5901234123457'],
  ])('%j is a valid %s', (input, format, barcode) => {
    expect(checkBarcode(input)).toEqual({ valid: true, format, barcode });
  });

  it.each([
    ['5901234123458', 'checkDigit'],
    ['96385075', 'checkDigit'],
    ['036000291453', 'checkDigit'],
    ['123', 'format'],
    ['', 'format'],
    ['59012341234570', 'format'], // 14 digits (GTIN-14 is not sold at a desk)
    ['590123412345X', 'format'],
    ['5901234.123457', 'format'],
    ['１２３４５６７８', 'format'], // full-width digits are not digits here
  ])('%j is refused (%s)', (input, reason) => {
    expect(checkBarcode(input)).toEqual({ valid: false, reason });
  });

  it('normalizes to digits or null', () => {
    expect(normalizeBarcode('9638-5074')).toBe('96385074');
    expect(normalizeBarcode('96385075')).toBeNull();
  });
});

describe('applyStockMovement', () => {
  it.each([
    [{ trackStock: true, stock: 5 }, 3, { ok: true, stock: 8 }],
    [{ trackStock: true, stock: 5 }, -5, { ok: true, stock: 0 }],
    [{ trackStock: true, stock: 5 }, -6, { ok: false, reason: 'negative', stock: 5 }],
    [{ trackStock: true, stock: 0 }, -1, { ok: false, reason: 'negative', stock: 0 }],
    [{ trackStock: false, stock: 0 }, 3, { ok: false, reason: 'untracked', stock: null }],
  ])('%j %i → %j', (product, quantity, result) => {
    expect(applyStockMovement(product, quantity)).toEqual(result);
  });
});
