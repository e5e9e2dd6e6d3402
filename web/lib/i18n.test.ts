import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initI18n, loadLocaleBundle, resourcesFromModules } from './i18n';

const LOCALES_DIR = join(import.meta.dirname, '../../locales');
/** The namespaces the web apps own (others are checked by their owners). */
const WEB_NAMESPACES = ['common', 'backoffice', 'frontoffice', 'kiosk', 'donation'];

/** A key without its plural suffix: Polish has few/many forms English does not. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKeys = (ks: string[]) => [...new Set(ks.map((k) => k.replace(PLURAL, '')))].sort();

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('locales', () => {
  it.each(WEB_NAMESPACES)('%s has the same keys in en and pl, none empty', (ns) => {
    const en = JSON.parse(readFileSync(join(LOCALES_DIR, 'en', `${ns}.json`), 'utf8')) as unknown;
    const pl = JSON.parse(readFileSync(join(LOCALES_DIR, 'pl', `${ns}.json`), 'utf8')) as unknown;
    expect(baseKeys(keys(pl))).toEqual(baseKeys(keys(en)));
    for (const file of [en, pl]) {
      for (const key of keys(file)) {
        const text = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], file);
        expect(typeof text === 'string' && text.trim().length > 0, `${ns}:${key}`).toBe(true);
      }
    }
  });

  it('bundles every web namespace and no server-only one, per language', async () => {
    for (const lang of ['en', 'pl'] as const) {
      const namespaces = Object.keys(await loadLocaleBundle(lang));
      for (const ns of WEB_NAMESPACES) expect(namespaces).toContain(ns);
      expect(namespaces).not.toContain('mail');
      expect(namespaces).not.toContain('server');
    }
    expect(readdirSync(join(LOCALES_DIR, 'pl')).length).toBeGreaterThan(0);
  });

  // The browser loads one language and has no fallback language (it would download English for
  // every Polish page): every bundled namespace needs the same keys in both.
  it('every bundled namespace has the same keys in en and pl', async () => {
    const [en, pl] = await Promise.all([loadLocaleBundle('en'), loadLocaleBundle('pl')]);
    expect(Object.keys(pl).sort()).toEqual(Object.keys(en).sort());
    for (const ns of Object.keys(en)) expect(baseKeys(keys(pl[ns])), ns).toEqual(baseKeys(keys(en[ns])));
  });

  it('groups glob modules by language and namespace', () => {
    expect(
      resourcesFromModules({
        '../../locales/pl/common.json': { a: 'b' },
        '../../locales/en/kiosk.json': { c: 'd' },
      }),
    ).toEqual({
      pl: { common: { a: 'b' } },
      en: { kiosk: { c: 'd' } },
    });
  });

  it('translates in the page language, with common as the fallback namespace', async () => {
    const i18n = await initI18n('pl', 'backoffice');
    expect(i18n.hasResourceBundle('en', 'backoffice')).toBe(false); // only the page language
    expect(i18n.t('nav.dashboard')).toBe('Pulpit');
    expect(i18n.t('common:errors.noPermission')).toBe('Nie masz uprawnień do wykonania tej czynności.');
    expect(i18n.t('footer.copyright', { year: 2031 })).toContain('2031');
    // Any changeLanguage (not only the switch) loads the language before switching to it.
    await i18n.changeLanguage('en');
    expect(i18n.language).toBe('en');
    expect(i18n.t('nav.dashboard')).toBe('Dashboard');
    expect(i18n.t('common:language.names.pl')).toBe('Polish');
  });
});
