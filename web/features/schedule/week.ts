import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { addLocalDays, mondayOf, type LocalDate } from '../../../shared/domain/schedule/occurrences';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';

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

export function formatTime(instant: string, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone,
  }).format(new Date(instant));
}

/** "Mon 23 Mar" / "pon. 23 mar": a calendar day, read at noon UTC so no zone can move it. */
export function formatDay(date: LocalDate, locale: string, style: 'short' | 'long' = 'short'): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: style,
    day: 'numeric',
    month: style === 'long' ? 'long' : 'short',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

export function formatRange(days: readonly LocalDate[], locale: string): string {
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const fmt = (d: LocalDate) =>
    new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${d}T12:00:00Z`));
  return first === last ? formatDay(first, locale, 'long') : `${fmt(first)} – ${fmt(last)}`;
}

export function serviceName(name: LocaleText, locale: string, studioLocale: string | null): string {
  return resolveLocaleText(name, locale, studioLocale) || '—';
}

/** A weekday label for ISO weekday 1–7 in the user's language. */
export function weekdayLabel(isoWeekday: number, locale: string): string {
  // 2024-01-01 was a Monday.
  return new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, isoWeekday)),
  );
}
