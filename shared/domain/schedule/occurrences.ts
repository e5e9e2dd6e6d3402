import { tzOffset } from '@date-fns/tz';
import {
  addLocalDays,
  formatLocalDate,
  localDaysBetween,
  parseLocalDate,
  type LocalDate,
} from '../entitlements/local-dates';

/**
 * Occurrences of a schedule meta: the studio's wall-clock start time on every chosen weekday between
 * the first and the last date, turned into instants in the studio's IANA time zone. A class at 18:00
 * stays at 18:00 on the studio's clock across DST changes (its UTC instant moves by an hour).
 */

/** ISO weekdays: 1 Monday … 7 Sunday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type IsoWeekday = (typeof ISO_WEEKDAYS)[number];

export const START_TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

export interface MetaRecurrence {
  daysOfWeek: readonly number[];
  /** Local wall-clock start, 'HH:MM' (24 h). */
  startTime: string;
  durationMinutes: number;
  firstDate: LocalDate;
  /** Inclusive; null = open-ended (generation stops at the window's end). */
  lastDate: LocalDate | null;
}

export interface Occurrence {
  /** The studio's calendar day of the occurrence: the identity of an event within its meta. */
  date: LocalDate;
  startsAt: Date;
  endsAt: Date;
}

export function isoWeekdayOf(date: LocalDate): IsoWeekday {
  const { year, month, day } = parseLocalDate(date);
  const sundayZero = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return (sundayZero === 0 ? 7 : sundayZero) as IsoWeekday;
}

/**
 * The instant a local wall-clock time names in a time zone, resolved like Temporal's "compatible"
 * disambiguation:
 * - a time skipped by a spring-forward gap (02:30 on the last Sunday of March in Warsaw) is shifted
 *   forward by the length of the gap (→ 03:30 summer time), so the class still happens that day;
 * - a time that occurs twice in an autumn fall-back (02:30 on the last Sunday of October) is the
 *   first of the two (summer time), the earlier instant.
 */
export function instantOfLocalTime(date: LocalDate, minutesOfDay: number, timeZone: string): Date {
  const { year, month, day } = parseLocalDate(date);
  const wall = Date.UTC(year, month - 1, day) + minutesOfDay * 60_000;
  // The offsets in force a day before and a day after bracket any single transition.
  const before = tzOffset(timeZone, new Date(wall - 86_400_000));
  const after = tzOffset(timeZone, new Date(wall + 86_400_000));
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wall - tzOffset(timeZone, new Date(instant)) * 60_000 === instant)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]!);
  // In a gap: read the wall time with the offset before the gap, which lands after it.
  return new Date(wall - before * 60_000);
}

export function minutesOfStartTime(startTime: string): number {
  const match = START_TIME_RE.exec(startTime);
  if (!match) throw new RangeError(`not a start time: ${startTime}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The most days one generation may cover (a year), so a request cannot ask for a million rows. */
export const GENERATION_MAX_DAYS = 366;

/**
 * Occurrences of a meta on the days `from`…`to` (inclusive, studio calendar days), clipped to the
 * meta's own first and last date. Sorted by start.
 */
export function occurrencesOf(
  meta: MetaRecurrence,
  window: { from: LocalDate; to: LocalDate },
  timeZone: string,
): Occurrence[] {
  const start = localDaysBetween(window.from, meta.firstDate) > 0 ? meta.firstDate : window.from;
  const end = meta.lastDate && localDaysBetween(meta.lastDate, window.to) > 0 ? meta.lastDate : window.to;
  const span = localDaysBetween(start, end);
  if (span < 0) return [];
  if (span >= GENERATION_MAX_DAYS) throw new RangeError('generation window longer than a year');
  const days = new Set(meta.daysOfWeek);
  const minutes = minutesOfStartTime(meta.startTime);
  const result: Occurrence[] = [];
  for (let i = 0; i <= span; i++) {
    const date = addLocalDays(start, i);
    if (!days.has(isoWeekdayOf(date))) continue;
    const startsAt = instantOfLocalTime(date, minutes, timeZone);
    result.push({ date, startsAt, endsAt: new Date(startsAt.getTime() + meta.durationMinutes * 60_000) });
  }
  return result;
}

/** Monday of the ISO week a calendar day belongs to. */
export function mondayOf(date: LocalDate): LocalDate {
  return addLocalDays(date, 1 - isoWeekdayOf(date));
}

export { addLocalDays, formatLocalDate, localDaysBetween, parseLocalDate, type LocalDate };
