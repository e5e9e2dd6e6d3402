import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRINTING_MESSAGE_KEYS } from '../../../shared/domain/receipts';
import { printingTranslator } from './i18n';

const LOCALES_DIR = join(import.meta.dirname, '../../../locales');
const read = (locale: string) =>
  JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'printing.json'), 'utf8')) as Record<string, unknown>;

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.entries(value as Record<string, unknown>).reduce(
    (all, [k, v]) => ({ ...all, ...flatten(v, prefix ? `${prefix}.${k}` : k) }),
    {},
  );
}

const en = flatten(read('en'));
const pl = flatten(read('pl'));
const variables = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe('locales/{en,pl}/printing.json', () => {
  it('has the same keys in both languages, none empty, with the same {{variables}}', () => {
    expect(Object.keys(pl).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      expect(text.trim(), `en ${key}`).not.toBe('');
      expect(pl[key]!.trim(), `pl ${key}`).not.toBe('');
      expect(variables(pl[key]!), key).toEqual(variables(text));
    }
  });

  it('has a message for every key a printer outcome can carry', () => {
    for (const key of PRINTING_MESSAGE_KEYS) {
      const path = key.replace(/^printing:/, '');
      expect(en[path], key).toBeDefined();
      expect(pl[path], key).toBeDefined();
    }
  });

  it('translates with values through i18next', () => {
    expect(printingTranslator('pl')('cashier.vatRateNotOnPrinter', { rates: '7%' })).toContain(
      'stawki VAT 7%',
    );
    expect(printingTranslator('en')('cashier.printerRejected', { code: 2802 })).toContain('error 2802');
  });
});
