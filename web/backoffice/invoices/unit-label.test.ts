import { describe, expect, it } from 'vitest';
import { createInstance, type TFunction } from 'i18next';
import en from '../../../locales/en/invoices.json';
import pl from '../../../locales/pl/invoices.json';
import { unitLabel } from './unit-label';

const tIn = (lng: 'en' | 'pl'): TFunction => {
  const i18n = createInstance();
  void i18n.init({ lng, resources: { en: { invoices: en }, pl: { invoices: pl } }, initAsync: false });
  return i18n.t;
};

describe('unitLabel', () => {
  it('names the units of a Polish invoice in the viewer language', () => {
    expect(unitLabel('usł.', tIn('en'))).toBe('service');
    expect(unitLabel('szt.', tIn('en'))).toBe('pcs');
    expect(unitLabel('szt./pcs', tIn('pl'))).toBe('szt.');
    expect(unitLabel('usł.', tIn('pl'))).toBe('usł.');
    expect(unitLabel('h', tIn('en'))).toBe('h');
  });
});
