import { TZDate } from '@date-fns/tz';

/**
 * Calendar days of a studio, as 'YYYY-MM-DD' strings, and the instants they start at in the studio's
 * IANA time zone. Pass validity is counted in the studio's calendar days, so a day across a DST change
 * (23 or 25 hours) is still one day.
 */
export type LocalDate = string;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

export function parseLocalDate(date: LocalDate): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`not a calendar date: ${date}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    throw new RangeError(`not a calendar date: ${date}`);
  return { year, month, day };
}

export function formatLocalDate(year: number, month: number, day: number): LocalDate {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function isLocalDate(value: string): boolean {
  try {
    parseLocalDate(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Days recently answered per time zone, as the instants they span: a day holds from its local
 * midnight to the next one, whatever DST does in between, so an instant inside a remembered span is
 * on that day without asking the time zone again (`TZDate` costs tens of microseconds; a booking
 * asks for a few days of the same week). A few spans per zone, the newest first.
 */
const knownDays = new Map<string, Array<{ from: number; to: number; date: LocalDate }>>();
const DAYS_KEPT = 8;

/** The studio's calendar day an instant falls on. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const at = instant.getTime();
  let spans = knownDays.get(timeZone);
  const hit = spans?.find((d) => d.from <= at && at < d.to);
  if (hit) return hit.date;
  const local = new TZDate(at, timeZone);
  const date = formatLocalDate(local.getFullYear(), local.getMonth() + 1, local.getDate());
  if (!Number.isFinite(at)) return date;
  if (!spans) {
    if (knownDays.size >= 64) knownDays.clear();
    knownDays.set(timeZone, (spans = []));
  }
  spans.unshift({
    from: startOfLocalDate(date, timeZone).getTime(),
    to: startOfLocalDate(addLocalDays(date, 1), timeZone).getTime(),
    date,
  });
  if (spans.length > DAYS_KEPT) spans.pop();
  return date;
}

/** Weekday (0 Sunday … 6 Saturday) and minutes since local midnight of an instant in the studio. */
export function localClockOf(instant: Date, timeZone: string): { weekday: number; minutes: number } {
  const local = new TZDate(instant.getTime(), timeZone);
  return { weekday: local.getDay(), minutes: local.getHours() * 60 + local.getMinutes() };
}

/** The instant a studio's calendar day starts (its local midnight, or the first instant after a gap). */
export function startOfLocalDate(date: LocalDate, timeZone: string): Date {
  const { year, month, day } = parseLocalDate(date);
  return new Date(new TZDate(year, month - 1, day, 0, 0, 0, timeZone).getTime());
}

export function addLocalDays(date: LocalDate, days: number): LocalDate {
  const { year, month, day } = parseLocalDate(date);
  const utc = new Date(Date.UTC(year, month - 1, day + days));
  return formatLocalDate(utc.getUTCFullYear(), utc.getUTCMonth() + 1, utc.getUTCDate());
}

/** Whole calendar days from `a` to `b` (negative when b is earlier). */
export function localDaysBetween(a: LocalDate, b: LocalDate): number {
  const pa = parseLocalDate(a);
  const pb = parseLocalDate(b);
  return Math.round(
    (Date.UTC(pb.year, pb.month - 1, pb.day) - Date.UTC(pa.year, pa.month - 1, pa.day)) / 86_400_000,
  );
}

/**
 * The first day AFTER a validity of `months` calendar months that starts on `date`: the same day of
 * the month `months` later, or — when that month is shorter (31 January + 1 month) — the first day of
 * the month after it, so the pass is valid through the target month's last day.
 */
export function endOfMonthsExclusive(date: LocalDate, months: number): LocalDate {
  const { year, month, day } = parseLocalDate(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  if (day <= daysInMonth(targetYear, targetMonth)) return formatLocalDate(targetYear, targetMonth, day);
  const next = index + 1;
  return formatLocalDate(Math.floor(next / 12), (next % 12) + 1, 1);
}

/** The first day of the month `months` after the month of `date` (1 = the next month). */
export function firstOfMonthAfter(date: LocalDate, months: number): LocalDate {
  const { year, month } = parseLocalDate(date);
  const index = year * 12 + (month - 1) + months;
  return formatLocalDate(Math.floor(index / 12), (index % 12) + 1, 1);
}
