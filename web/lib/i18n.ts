import i18next, {
  type BackendModule,
  type i18n as I18n,
  type Resource,
  type ResourceLanguage,
} from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES, isLocale, DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';
import { setPriceLanguage } from './money';

/**
 * One chunk per language (locale-bundles/<lang>.ts: every browser namespace of that language), so
 * a page downloads only its own language. The other one is loaded when the user switches — warmed
 * by pointing at the switch (`preloadLocale`), and a few kB from the same server otherwise.
 * Namespaces are whatever files exist, so a module adding locales/en/schedule.json needs no change
 * here.
 */
const LOCALE_BUNDLES: Record<Locale, () => Promise<{ default: ResourceLanguage }>> = {
  en: () => import('./locale-bundles/en'),
  pl: () => import('./locale-bundles/pl'),
};

const loading = new Map<Locale, Promise<ResourceLanguage>>();

/** The translations of one language, downloaded once per page. */
export function loadLocaleBundle(locale: Locale): Promise<ResourceLanguage> {
  let bundle = loading.get(locale);
  if (!bundle) {
    bundle = LOCALE_BUNDLES[locale]().then((module) => module.default);
    // A failed download (offline for a moment) may be retried by the next switch.
    bundle.catch(() => loading.delete(locale));
    loading.set(locale, bundle);
  }
  return bundle;
}

/** Starts downloading a language before it is needed (hover on the language switch). */
export function preloadLocale(locale: Locale): void {
  loadLocaleBundle(locale).catch(() => undefined);
}

/**
 * i18next backend over the bundles: any `changeLanguage` (the switch, a saved account setting)
 * loads the language first and switches once its strings are there — never a screen of keys.
 */
const bundleBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    if (!isLocale(language)) return callback(null, {});
    loadLocaleBundle(language).then(
      (bundle) => callback(null, bundle[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error.message : String(error), false),
    );
  },
};

/** Groups `import.meta.glob` results of `locales/<lang>/<namespace>.json` by language and namespace. */
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

export const DEFAULT_NAMESPACE = 'common';

/**
 * Creates the i18next instance of an app in the page context's language, once that language's
 * bundle has arrived (the app renders after this resolves).
 *
 * No fallback language: it would download English for every Polish page. Instead every namespace
 * has the same keys in en and pl (web/lib/i18n.test.ts checks all of them).
 */
export async function initI18n(locale: Locale, defaultNamespace = DEFAULT_NAMESPACE): Promise<I18n> {
  const bundle = await loadLocaleBundle(locale);
  const instance = i18next.createInstance();
  await instance
    .use(bundleBackend)
    .use(initReactI18next)
    .init({
      // The page language is handed over directly; the backend serves the other on a switch.
      resources: { [locale]: bundle },
      partialBundledLanguages: true,
      lng: locale,
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      ns: Object.keys(bundle).sort(),
      defaultNS: defaultNamespace,
      fallbackNS: DEFAULT_NAMESPACE,
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
    });
  syncDocumentLanguage(locale);
  setPriceLanguage(locale);
  instance.on('languageChanged', (language: string) => {
    if (isLocale(language)) syncDocumentLanguage(language);
    if (isLocale(language)) setPriceLanguage(language);
  });
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

/**
 * Switches the language (as soon as its bundle is there, usually already warmed by the switch)
 * and remembers it for the server.
 */
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
