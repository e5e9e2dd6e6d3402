/**
 * Every date and time a person reads — web apps, the desk, mails, PDFs — goes through these
 * functions (issue 26: one date and time format per language; there were four). The formats, decided
 * in web/README.md ("Dates and times"):
 *
 * | what            | English                    | Polish                       |
 * |-----------------|----------------------------|------------------------------|
 * | date            | 27 Nov 2026                | 27.11.2026                   |
 * | time            | 14:30                      | 14:30                        |
 * | date and time   | 27 Nov 2026, 14:30         | 27.11.2026, 14:30            |
 * | long date       | Friday, 27 November 2026   | piątek, 27 listopada 2026    |
 * | day (calendars) | Fri 27 Nov                 | pt., 27.11                   |
 * | weekday         | Fri / Friday               | pt. / piątek                 |
 * | range           | 23 Nov 2026 – 29 Nov 2026  | 23.11.2026 – 29.11.2026      |
 *
 * Times are on the 24-hour clock in both languages. A value is either a calendar day (`YYYY-MM-DD`:
 * birth dates, validity ends, a timetable day — shown as that day whatever the zone) or an instant
 * (an ISO timestamp or a Date — shown on the studio's clock, `timeZone`).
 *
 * Any other `Intl.DateTimeFormat` / `toLocale*String` for people is refused by
 * shared/i18n/dates-usage.test.ts.
 */

export type DateValue = string | Date;

const BARE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The regional convention of each interface language ("pl", "pl-PL" → Polish; anything else → English). */
export function dateLocaleOf(language: string): 'pl-PL' | 'en-GB' {
  return language.toLowerCase().startsWith('pl') ? 'pl-PL' : 'en-GB';
}

const isPolish = (language: string) => dateLocaleOf(language) === 'pl-PL';

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(
  language: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const locale = dateLocaleOf(language);
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    cache.set(key, found);
  }
  return found;
}

/** A calendar day is read at noon UTC (no zone can move it); an instant in the given zone. */
function resolve(value: DateValue, timeZone: string): { date: Date; zone: string } | null {
  if (typeof value === 'string' && BARE_DAY.test(value))
    return { date: new Date(`${value}T12:00:00Z`), zone: 'UTC' };
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  return { date, zone: timeZone };
}

function run(
  value: DateValue,
  language: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): string {
  const at = resolve(value, timeZone);
  if (!at) return typeof value === 'string' ? value : '';
  return formatter(language, at.zone, options).format(at.date);
}

const dateOptions = (language: string): Intl.DateTimeFormatOptions =>
  isPolish(language)
    ? { day: '2-digit', month: '2-digit', year: 'numeric' }
    : { day: 'numeric', month: 'short', year: 'numeric' };

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** "27 Nov 2026" / "27.11.2026". */
export function formatDate(value: DateValue, language: string, timeZone = 'UTC'): string {
  return run(value, language, timeZone, dateOptions(language));
}

/** "14:30" (with `seconds`: "14:30:05"). */
export function formatTime(
  value: DateValue,
  language: string,
  timeZone: string,
  options: { seconds?: boolean } = {},
): string {
  return run(value, language, timeZone, options.seconds ? { ...TIME, second: '2-digit' } : TIME);
}

/** "27 Nov 2026, 14:30" / "27.11.2026, 14:30". */
export function formatDateTime(value: DateValue, language: string, timeZone: string): string {
  return run(value, language, timeZone, { ...dateOptions(language), ...TIME });
}

/** "Friday, 27 November 2026" / "piątek, 27 listopada 2026" (mails, headings of one day). */
export function formatDateLong(value: DateValue, language: string, timeZone = 'UTC'): string {
  return run(value, language, timeZone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

/** "Friday, 27 November 2026, 14:30" / "piątek, 27 listopada 2026, 14:30" (mails). */
export function formatDateTimeLong(value: DateValue, language: string, timeZone: string): string {
  return run(value, language, timeZone, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...TIME,
  });
}

/** A day in a calendar's column or list heading: "Fri 27 Nov" / "pt., 27.11". */
export function formatDayLabel(value: DateValue, language: string, timeZone = 'UTC'): string {
  return run(
    value,
    language,
    timeZone,
    isPolish(language)
      ? { weekday: 'short', day: '2-digit', month: '2-digit' }
      : { weekday: 'short', day: 'numeric', month: 'short' },
  );
}

/** A day and time without the year, for lists of what is coming: "Fri 27 Nov, 14:30" / "pt., 27.11, 14:30". */
export function formatDayTime(value: DateValue, language: string, timeZone: string): string {
  return `${formatDayLabel(value, language, timeZone)}, ${formatTime(value, language, timeZone)}`;
}

/**
 * A weekday's name: `weekday` is ISO (1 = Monday … 7 = Sunday), or a date / calendar day.
 * "Mon" / "pon." (short), "Monday" / "poniedziałek" (long).
 */
export function formatWeekday(
  weekday: number | DateValue,
  language: string,
  style: 'short' | 'long' = 'short',
  timeZone = 'UTC',
): string {
  // 2024-01-01 was a Monday.
  const value =
    typeof weekday === 'number' ? new Date(Date.UTC(2024, 0, ((weekday - 1 + 7) % 7) + 1, 12)) : weekday;
  return run(value, language, typeof weekday === 'number' ? 'UTC' : timeZone, { weekday: style });
}

/** "23 Nov 2026 – 29 Nov 2026" / "23.11.2026 – 29.11.2026"; one day alone when both are the same. */
export function formatDateRange(
  first: DateValue,
  last: DateValue,
  language: string,
  timeZone = 'UTC',
): string {
  const a = formatDate(first, language, timeZone);
  const b = formatDate(last, language, timeZone);
  return a === b ? a : `${a} – ${b}`;
}

/** A month and year, for month pickers and reports: "November 2026" / "listopad 2026". */
export function formatMonth(value: DateValue, language: string, timeZone = 'UTC'): string {
  return run(value, language, timeZone, { month: 'long', year: 'numeric' });
}

/** A day and month without the year, where a sentence reads "from 26 November": "26 November" / "26 listopada". */
export function formatDayMonth(value: DateValue, language: string, timeZone = 'UTC'): string {
  return run(value, language, timeZone, { day: 'numeric', month: 'long' });
}

/** The device's own time zone, where a screen knows no studio's (a card saved on this device). */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
