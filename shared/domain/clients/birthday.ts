/**
 * Birthday filters compare month and day only, as one number MMDD (e.g. 1224 for 24 December):
 * the `birth_md` generated column of `clients` holds the same value for an index.
 */
export type MonthDay = number;

const MONTH_DAY = /^(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** "MM-DD" → MMDD, or null when it is not a day of some year (02-29 is one). */
export function parseMonthDay(value: string): MonthDay | null {
  const m = MONTH_DAY.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) return null;
  return month * 100 + day;
}

/** "YYYY-MM-DD" → MMDD. */
export function monthDayOfDate(isoDate: string): MonthDay | null {
  return parseMonthDay(isoDate.slice(5, 10));
}

/** The month (1–12) of an instant on the studio's wall clock. */
export function monthInTimeZone(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, month: 'numeric' }).format(now));
}

export type BirthdayFilter = { kind: 'thisMonth' } | { kind: 'range'; from: MonthDay; to: MonthDay };

/**
 * The inclusive MMDD ranges a birthday filter covers. A range that runs over the new year
 * (12-20 → 01-10) is two ranges. "This month" is the studio's current month.
 */
export function birthdayRanges(
  filter: BirthdayFilter,
  now: Date,
  timeZone: string,
): Array<{ from: MonthDay; to: MonthDay }> {
  if (filter.kind === 'thisMonth') {
    const month = monthInTimeZone(now, timeZone);
    return [{ from: month * 100 + 1, to: month * 100 + 31 }];
  }
  if (filter.from <= filter.to) return [{ from: filter.from, to: filter.to }];
  return [
    { from: filter.from, to: 1231 },
    { from: 101, to: filter.to },
  ];
}

/** The calendar day (YYYY-MM-DD) of an instant on the studio's wall clock. */
export function localDate(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
