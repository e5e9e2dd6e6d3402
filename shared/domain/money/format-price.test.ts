import { describe, expect, it } from 'vitest';
import { currencyDisplayOf } from './currencies';
import { formatPrice, formatPriceIn, POLISH_PRICE_NUMBER_FORMAT } from './format-price';

describe('formatPrice', () => {
  describe('amounts in cents, trailing .00 dropped by default', () => {
    it.each([
      [1000, '10'],
      [1050, '10.50'],
      [1005, '10.05'],
      [1, '0.01'],
      [99, '0.99'],
      [0, '0'],
      [100, '1'],
      [100000, '1,000'],
      [123456789, '1,234,567.89'],
      [123456700, '1,234,567'],
      [Number.MAX_SAFE_INTEGER, '90,071,992,547,409.91'],
    ])('%i → %s', (amount, expected) => {
      expect(formatPrice(amount, 'XXX')).toBe(`${expected} XXX`);
    });
  });

  describe('keepTrailingZeros', () => {
    it.each([
      [1000, '$10.00'],
      [0, '$0.00'],
      [1050, '$10.50'],
      [-500, '-$5.00'],
      [123456700, '$1,234,567.00'],
    ])('%i → %s', (amount, expected) => {
      expect(formatPrice(amount, 'USD', { keepTrailingZeros: true })).toBe(expected);
    });
  });

  describe('sign after the amount: NOK, HUF, PLN, SEK, DKK, HRK, CZK, CHF and unknown currencies', () => {
    it.each([
      ['NOK', '1,234.50 kr', '-5 kr'],
      ['HUF', '1,234.50 Ft', '-5 Ft'],
      ['PLN', '1,234.50 zł', '-5 zł'],
      ['SEK', '1,234.50 kr', '-5 kr'],
      ['DKK', '1,234.50 kr', '-5 kr'],
      ['HRK', '1,234.50 kn', '-5 kn'],
      ['CZK', '1,234.50 Kč', '-5 Kč'],
      ['CHF', '1,234.50 CHF', '-5 CHF'],
      ['JPY', '1,234.50 JPY', '-5 JPY'],
      ['XYZ', '1,234.50 XYZ', '-5 XYZ'],
    ])('%s', (currency, positive, negative) => {
      expect(formatPrice(123450, currency)).toBe(positive);
      expect(formatPrice(-500, currency)).toBe(negative);
    });
  });

  describe('sign before the amount: AED, GBP, AUD, USD, CAD, EUR, INR, SGD', () => {
    it.each([
      ['AED', 'د.إ1,234.50', '-د.إ5'],
      ['GBP', '£1,234.50', '-£5'],
      ['AUD', 'A$1,234.50', '-A$5'],
      ['USD', '$1,234.50', '-$5'],
      ['CAD', 'C$1,234.50', '-C$5'],
      ['EUR', '€1,234.50', '-€5'],
      ['INR', '₹1,234.50', '-₹5'],
      ['SGD', 'S$1,234.50', '-S$5'],
    ])('%s', (currency, positive, negative) => {
      expect(formatPrice(123450, currency)).toBe(positive);
      expect(formatPrice(-500, currency)).toBe(negative);
    });
  });

  describe('sign before the amount with a space: BAM, BRL, ZAR', () => {
    it.each([
      ['BAM', 'KM 1,234.50', '-KM 5'],
      ['BRL', 'R$ 1,234.50', '-R$ 5'],
      ['ZAR', 'R 1,234.50', '-R 5'],
    ])('%s', (currency, positive, negative) => {
      expect(formatPrice(123450, currency)).toBe(positive);
      expect(formatPrice(-500, currency)).toBe(negative);
    });
  });

  describe('negative amounts get a leading minus', () => {
    it.each([
      [-1, 'EUR', '-€0.01'],
      [-1050, 'EUR', '-€10.50'],
      [-123456789, 'PLN', '-1,234,567.89 zł'],
      [-0, 'USD', '$0'],
    ])('%i %s → %s', (amount, currency, expected) => {
      expect(formatPrice(amount, currency)).toBe(expected);
    });
  });

  describe('number format options', () => {
    it.each([
      [123456789, 'PLN', POLISH_PRICE_NUMBER_FORMAT, '1 234 567,89 zł'],
      [100000, 'PLN', POLISH_PRICE_NUMBER_FORMAT, '1 000 zł'],
      [123456789, 'EUR', { thousandsSeparator: '.', decimalSeparator: ',' }, '€1.234.567,89'],
      [123456789, 'USD', { thousandsSeparator: '' }, '$1234567.89'],
      [123456789, 'USD', { thousandsSeparator: undefined, decimalSeparator: undefined }, '$1,234,567.89'],
    ])('%i %s %o → %s', (amount, currency, options, expected) => {
      expect(formatPrice(amount, currency, options)).toBe(expected);
    });
  });

  it.each([['pln'], [' PLN ']])('reads currency code %j case- and space-insensitively', (currency) => {
    expect(formatPrice(1050, currency)).toBe('10.50 zł');
  });

  it('shows the bare number when there is no currency', () => {
    expect(formatPrice(1050, '')).toBe('10.50');
  });

  describe('refuses amounts that are not whole minor units', () => {
    it.each([[10.5], [0.1], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.MAX_SAFE_INTEGER + 1]])(
      '%s',
      (amount) => {
        expect(() => formatPrice(amount, 'USD')).toThrow(RangeError);
      },
    );
  });
});

describe('currencyDisplayOf', () => {
  it.each([
    ['PLN', { sign: 'zł', position: 'after' }],
    ['USD', { sign: '$', position: 'before' }],
    ['BRL', { sign: 'R$', position: 'beforeWithSpace' }],
    ['abc', { sign: 'ABC', position: 'after' }],
  ])('%s', (currency, expected) => {
    expect(currencyDisplayOf(currency)).toEqual(expected);
  });
});

describe('one price format per language (issue 26)', () => {
  it('Polish writes "10,50 zł" and "10 000 zł", English "10.50 zł" and "10,000 zł", wherever shown', () => {
    expect(formatPriceIn('pl', 1050, 'PLN')).toBe('10,50 zł');
    expect(formatPriceIn('pl-PL', 1_000_000, 'PLN')).toBe('10 000 zł');
    expect(formatPriceIn('en', 1050, 'PLN')).toBe('10.50 zł');
    expect(formatPriceIn('en', 1_000_000, 'PLN')).toBe('10,000 zł');
    expect(formatPriceIn('pl', 1000, 'PLN', { keepTrailingZeros: true })).toBe('10,00 zł');
  });
});
