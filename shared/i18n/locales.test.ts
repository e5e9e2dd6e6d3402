import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './locales';

describe('negotiateLocale', () => {
  it.each([
    ['pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7', 'pl'],
    ['en-GB,en;q=0.9', 'en'],
    ['de-DE,de;q=0.9,pl;q=0.5', 'pl'],
    ['de-DE,fr', undefined],
    ['en;q=0.2, pl;q=0.8', 'pl'],
    ['pl;q=0', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});
