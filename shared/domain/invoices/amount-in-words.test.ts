import { describe, expect, it } from 'vitest';
import { amountInPolishWords, polishNumberInWords, polishPluralForm } from './amount-in-words';

describe('amount in Polish words', () => {
  it.each([
    [0, 'zero'],
    [1, 'jeden'],
    [12, 'dwanaście'],
    [21, 'dwadzieścia jeden'],
    [100, 'sto'],
    [215, 'dwieście piętnaście'],
    [1000, 'tysiąc'],
    [1001, 'tysiąc jeden'],
    [2000, 'dwa tysiące'],
    [5000, 'pięć tysięcy'],
    [12_000, 'dwanaście tysięcy'],
    [22_000, 'dwadzieścia dwa tysiące'],
    [101_000, 'sto jeden tysięcy'],
    [1_250_300, 'milion dwieście pięćdziesiąt tysięcy trzysta'],
    [3_000_000, 'trzy miliony'],
  ])('%i → %s', (n, words) => expect(polishNumberInWords(n)).toBe(words));

  it('picks the plural form of złoty and keeps grosze as a fraction', () => {
    expect(amountInPolishWords(100, 'PLN')).toBe('jeden złoty 00/100');
    expect(amountInPolishWords(12345, 'PLN')).toBe('sto dwadzieścia trzy złote 45/100');
    expect(amountInPolishWords(1305, 'PLN')).toBe('trzynaście złotych 05/100');
    expect(amountInPolishWords(-50000, 'PLN')).toBe('pięćset złotych 00/100');
    // "euro", not "EUR" (issue 19); euro does not decline.
    expect(amountInPolishWords(9999, 'EUR')).toBe('dziewięćdziesiąt dziewięć euro 99/100');
    expect(amountInPolishWords(100, 'EUR')).toBe('jedno euro 00/100');
    expect(amountInPolishWords(200, 'USD')).toBe('dwa dolary amerykańskie 00/100');
    expect(amountInPolishWords(500, 'GBP')).toBe('pięć funtów szterlingów 00/100');
    expect(amountInPolishWords(500, 'JPY')).toBe('pięć JPY 00/100');
    expect([1, 2, 5, 12, 22, 112, 124].map(polishPluralForm)).toEqual([0, 1, 2, 2, 1, 2, 1]);
  });
});
