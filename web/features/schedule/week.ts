import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { addLocalDays, mondayOf, type LocalDate } from '../../../shared/domain/schedule/occurrences';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import {
  formatDateLong,
  formatDateRange,
  formatDayLabel,
  formatTime as formatClock,
  formatWeekday,
} from '../../../shared/i18n/dates';

/** Calendar helpers for the timetable screens: days are the studio's, times shown on its clock. */

export const todayIn = (timeZone: string, now = new Date()): LocalDate => localDateOf(now, timeZone);

/** The days a view shows: Monday to Sunday of the anchor's week, or the anchor day alone. */
export function visibleDays(anchor: LocalDate, view: 'week' | 'day'): LocalDate[] {
  if (view === 'day') return [anchor];
  const monday = mondayOf(anchor);
  return Array.from({ length: 7 }, (_, i) => addLocalDays(monday, i));
}

export function shiftAnchor(anchor: LocalDate, view: 'week' | 'day', direction: 1 | -1): LocalDate {
  return addLocalDays(anchor, direction * (view === 'week' ? 7 : 1));
}

/** Events grouped by the studio day they start on, every visible day present (maybe empty). */
export function groupByDay<T extends { startsAt: string }>(
  events: readonly T[],
  days: readonly LocalDate[],
  timeZone: string,
): Map<LocalDate, T[]> {
  const groups = new Map<LocalDate, T[]>(days.map((d) => [d, []]));
  for (const event of events) groups.get(localDateOf(new Date(event.startsAt), timeZone))?.push(event);
  return groups;
}

/** "18:00": a time on the studio's clock (shared/i18n/dates.ts). */
export function formatTime(instant: string, locale: string, timeZone: string): string {
  return formatClock(instant, locale, timeZone);
}

/** "Mon 23 Mar" / "pon., 23.03": a calendar day (long: "Monday, 23 March 2026" / "poniedziałek, 23 marca 2026"). */
export function formatDay(date: LocalDate, locale: string, style: 'short' | 'long' = 'short'): string {
  return style === 'long' ? formatDateLong(date, locale) : formatDayLabel(date, locale);
}

export function formatRange(days: readonly LocalDate[], locale: string): string {
  const first = days[0]!;
  const last = days[days.length - 1]!;
  return first === last ? formatDay(first, locale, 'long') : formatDateRange(first, last, locale);
}

export function serviceName(name: LocaleText, locale: string, studioLocale: string | null): string {
  return resolveLocaleText(name, locale, studioLocale) || '—';
}

/** A weekday label for ISO weekday 1–7 in the user's language. */
export function weekdayLabel(isoWeekday: number, locale: string): string {
  return formatWeekday(isoWeekday, locale);
}
