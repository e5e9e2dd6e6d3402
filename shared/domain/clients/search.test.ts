import { describe, expect, it } from 'vitest';
import { escapeLike, FOLD_FROM, FOLD_TO, foldSearchText, parseClientSearch } from './search';

describe('foldSearchText', () => {
  it.each([
    ['Łukasz', 'lukasz'],
    ['ŻÓŁĆ', 'zolc'],
    ['Gęślą Jaźń', 'gesla jazn'],
    ['Müller-Lüdenscheidt', 'muller-ludenscheidt'],
    ['François Çelik', 'francois celik'],
    ['Dvořák Šťastný', 'dvorak stastny'],
    ['ANNA@Example.COM', 'anna@example.com'],
    ['Анна', 'анна'],
    ['', ''],
  ])('%s → %s', (value, folded) => {
    expect(foldSearchText(value)).toBe(folded);
  });

  it('maps one character to one (the database uses translate())', () => {
    expect([...FOLD_FROM].length).toBe([...FOLD_TO].length);
    expect(new Set([...FOLD_FROM]).size).toBe([...FOLD_FROM].length);
  });
});

describe('escapeLike', () => {
  it.each([
    ['anna', 'anna'],
    ['50%', '50\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
  ])('%s → %s', (value, escaped) => {
    expect(escapeLike(value)).toBe(escaped);
  });
});

describe('parseClientSearch', () => {
  it.each([
    ['', { kind: 'empty' }],
    ['   ', { kind: 'empty' }],
    ['Anna', { kind: 'text', tokens: ['anna'] }],
    ['  Anna   Kowalska ', { kind: 'text', tokens: ['anna', 'kowalska'] }],
    ['Łucja łucja', { kind: 'text', tokens: ['lucja'] }],
    ['anna@example.com', { kind: 'text', tokens: ['anna@example.com'] }],
    ['a b c d e f g', { kind: 'text', tokens: ['a', 'b', 'c', 'd', 'e'] }],
    ['anna 600', { kind: 'text', tokens: ['anna', '600'] }],
    ['600 100', { kind: 'phone', prefixes: ['600100'], infix: '600100' }],
    ['+48 600', { kind: 'phone', prefixes: ['48600'], infix: '48600' }],
    ['0048 600', { kind: 'phone', prefixes: ['0048600', '48600'], infix: '48600' }],
    ['0 600 1', { kind: 'phone', prefixes: ['06001', '6001'], infix: '6001' }],
    ['60', { kind: 'text', tokens: ['60'] }],
  ] as const)('%j', (query, parsed) => {
    expect(parseClientSearch(query)).toEqual(parsed);
  });

  it('bounds a token', () => {
    const parsed = parseClientSearch('x'.repeat(500));
    expect(parsed.kind === 'text' && parsed.tokens[0]!.length).toBe(64);
  });
});
