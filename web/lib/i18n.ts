import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '../../shared/i18n/locales';

/**
 * Every locales/<lang>/<namespace>.json is bundled (they are small, and a language switch must be
 * instant, without a round trip). Namespaces are whatever files exist, so a module adding
 * locales/en/schedule.json needs no change here — except the server-only namespaces (e-mails,
 * server messages), which the browser never needs.
 */
const modules = import.meta.glob<Record<string, unknown>>(
  ['../../locales/*/*.json', '!../../locales/*/mail.json', '!../../locales/*/server.json'],
  { eager: true, import: 'default' },
);

export function resourcesFromModules(files: Record<string, Record<string, unknown>>): Resource {
  const resources: Resource = {};
  for (const [path, content] of Object.entries(files)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lang, namespace] = match as unknown as [string, string, string];
    (resources[lang] ??= {})[namespace] = content;
  }
  return resources;
}

export const resources = resourcesFromModules(modules);
export const NAMESPACES = [...new Set(Object.values(resources).flatMap((byNs) => Object.keys(byNs)))].sort();
export const DEFAULT_NAMESPACE = 'common';

/**
 * Creates the i18next instance of an app, synchronously (resources are bundled), in the page
 * context's language with English as fallback.
 */
export function initI18n(locale: Locale, defaultNamespace = DEFAULT_NAMESPACE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: NAMESPACES,
    defaultNS: defaultNamespace,
    fallbackNS: DEFAULT_NAMESPACE,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    initAsync: false,
  });
  syncDocumentLanguage(locale);
  return instance;
}

export const LOCALE_COOKIE = 'locale';
const ONE_YEAR_S = 31_536_000;

/**
 * The server picks the page locale from this cookie first, so the choice survives reloads and
 * applies to the next page the server renders.
 */
export function writeLocaleCookie(locale: Locale, doc: Pick<Document, 'cookie'> = document): void {
  doc.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
}

/** Switches the language at once and remembers it for the server. */
export async function changeLocale(instance: I18n, locale: Locale): Promise<void> {
  writeLocaleCookie(locale);
  await instance.changeLanguage(locale);
  syncDocumentLanguage(locale);
}

export function currentLocale(instance: I18n): Locale {
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

function syncDocumentLanguage(locale: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}
