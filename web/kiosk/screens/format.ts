import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';

/** A time of day in the studio's time zone, on the 24-hour clock the studio's timetable uses. */
export function timeOf(iso: string, language: string, timeZone: string): string {
  return new Intl.DateTimeFormat(language, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(new Date(iso));
}

export function nameOf(text: unknown, language: string, studioLocale: string): string {
  return resolveLocaleText(text as LocaleText, language, studioLocale);
}
