import { formatTime } from '../../../shared/i18n/dates';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';

/** A time of day in the studio's time zone, on the 24-hour clock (shared/i18n/dates.ts). */
export function timeOf(iso: string, language: string, timeZone: string): string {
  return formatTime(iso, language, timeZone);
}

export function nameOf(text: unknown, language: string, studioLocale: string): string {
  return resolveLocaleText(text as LocaleText, language, studioLocale);
}
