import fs from 'node:fs';
import path from 'node:path';
import i18next, { type i18n, type TFunction } from 'i18next';
import { LOCALES, type Locale } from '../../shared/i18n/locales';
import { LOCALES_DIR } from './paths';

export type Catalog = Record<Locale, Record<string, Record<string, unknown>>>;

/** Reads every namespace of locales/<lng>/*.json once; the same files the web apps bundle. */
export function loadCatalog(dir = LOCALES_DIR): Catalog {
  const catalog = {} as Catalog;
  for (const locale of LOCALES) {
    catalog[locale] = {};
    const localeDir = path.join(dir, locale);
    for (const file of fs.existsSync(localeDir) ? fs.readdirSync(localeDir) : []) {
      if (!file.endsWith('.json')) continue;
      catalog[locale][file.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(localeDir, file), 'utf8'));
    }
  }
  return catalog;
}

let shared: { instance: i18n; catalog: Catalog } | undefined;

/** Server-side translations for emails and server pages. */
export function serverI18n(): { instance: i18n; catalog: Catalog } {
  if (!shared) {
    const catalog = loadCatalog();
    const instance = i18next.createInstance();
    void instance.init({
      resources: catalog,
      lng: 'en',
      fallbackLng: 'en',
      ns: Object.keys(catalog.en),
      defaultNS: 'mail',
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    shared = { instance, catalog };
  }
  return shared;
}

export function tFor(locale: Locale): TFunction {
  return serverI18n().instance.getFixedT(locale);
}
