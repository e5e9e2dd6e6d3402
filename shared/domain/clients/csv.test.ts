import { describe, expect, it } from 'vitest';
import { csvCell, csvDelimiterForLocale, csvLine, neutraliseFormula, parseCsv } from './csv';

describe('neutraliseFormula', () => {
  it.each([
    ['Anna', 'Anna'],
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['+cmd|calc', `'+cmd|calc`],
    ['-2+3+cmd', `'-2+3+cmd`],
    ['\tdata', `'\tdata`],
    ['+48 600 100 200', '+48 600 100 200'],
    ['-12', '-12'],
    ['(22) 123-45-67', '(22) 123-45-67'],
    ['', ''],
  ])('%j → %j', (value, safe) => {
    expect(neutraliseFormula(value)).toBe(safe);
  });
});

describe('csvCell and csvLine', () => {
  it.each([
    ['plain', ',', 'plain'],
    ['a,b', ',', '"a,b"'],
    ['a,b', ';', 'a,b'],
    ['a;b', ';', '"a;b"'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['two\nlines', ',', '"two\nlines"'],
    [null, ',', ''],
    [42, ',', '42'],
    [true, ',', 'true'],
  ] as const)('%j with %s', (value, delimiter, cell) => {
    expect(csvCell(value, delimiter)).toBe(cell);
  });

  it('ends lines with CRLF and parses back', () => {
    const line = csvLine(['Żółć', 'a;b', 'say "hi"', null, '=1+1'], ';');
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parseCsv(`\uFEFF${line}${line}`, ';')).toEqual([
      ['Żółć', 'a;b', 'say "hi"', '', `'=1+1`],
      ['Żółć', 'a;b', 'say "hi"', '', `'=1+1`],
    ]);
  });

  it.each([
    ['pl', ';'],
    ['pl-PL', ';'],
    ['de', ';'],
    ['en', ','],
    ['en-GB', ','],
  ] as const)('delimiter for %s is %s', (locale, delimiter) => {
    expect(csvDelimiterForLocale(locale)).toBe(delimiter);
  });
});
