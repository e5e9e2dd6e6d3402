import { describe, expect, it } from 'vitest';
import { amountText, parseAmount } from './pos.api';

describe('POS amount fields', () => {
  it.each([
    ['12,50', 1250],
    ['12.5', 1250],
    ['0.99', 99],
    [' 250 ', 25000],
    ['12,345', null],
    ['-5', null],
    ['abc', null],
    ['', null],
  ])('%s → %s', (text, minor) => {
    expect(parseAmount(text)).toBe(minor);
  });

  it('writes amounts back in the screen’s language', () => {
    expect(amountText(183_97, 'pl')).toBe('183,97');
    expect(amountText(500, 'en')).toBe('5.00');
  });
});
