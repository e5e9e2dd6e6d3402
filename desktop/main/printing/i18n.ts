import i18next from 'i18next';
import en from '../../../locales/en/printing.json';
import pl from '../../../locales/pl/printing.json';
import type { Locale } from '../../../shared/i18n/locales';

/** A translate function over the "printing" namespace: t('tickets.checkIn.title'). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** Translations for what main prints itself (tickets). Cashier messages are keys the renderer shows. */
export function printingTranslator(locale: Locale): Translate {
  const instance = i18next.createInstance();
  void instance.init({
    resources: { en: { printing: en }, pl: { printing: pl } },
    lng: locale,
    fallbackLng: 'en',
    ns: ['printing'],
    defaultNS: 'printing',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (key, values) => instance.t(key, values ?? {});
}
