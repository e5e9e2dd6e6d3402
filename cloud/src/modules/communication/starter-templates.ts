import type { LocaleContent } from '../../../../shared/contracts/api/communication';
import type { Locale } from '../../../../shared/i18n/locales';
import { serverI18n } from '../../i18n';

/** `marketing-template/load`: a starting text per kind and language (locales/<lng>/communication.json). */
export function starterTemplate(template: string, locale: Locale, studioName: string): LocaleContent {
  const t = serverI18n().instance.getFixedT(locale, 'communication');
  return {
    subject: t(`templates.${template}.subject`, { studio: studioName }),
    body: t(`templates.${template}.body`, { studio: studioName }),
  };
}
