import { z } from 'zod';

/** Text inputs trim whitespace (spec §5); bounded so huge strings are refused as bad input. */
// PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
const noNul = (s: string) => !s.includes('\u0000');
export const text = (max = 255) => z.string().trim().max(max).refine(noNul, 'invalid character');
export const requiredText = (max = 255) =>
  z.string().trim().min(1, 'required').max(max).refine(noNul, 'invalid character');
export const email = () => z.string().trim().toLowerCase().max(254).pipe(z.email('invalid email address'));
export const uuid = () => z.uuid('invalid id');
export const password = () => z.string().min(8, 'at least 8 characters').max(200);

/**
 * The one range of dates every schema accepts (a birth date to a far booking horizon). Outside it,
 * date arithmetic leaves what Date, PostgreSQL and the stations agree on (a timetable from
 * 9999-12-31 threw a RangeError; a class moved to the year 10000 could not be booked or synced).
 */
export const DATE_RANGE = { min: '1900-01-01', max: '2199-12-31' } as const;
const DATE_RANGE_MESSAGE = `a date from ${DATE_RANGE.min} to ${DATE_RANGE.max}`;
const MIN_MS = Date.parse(`${DATE_RANGE.min}T00:00:00Z`);
const MAX_MS = Date.parse(`${DATE_RANGE.max}T23:59:59.999Z`);
/** A calendar day `YYYY-MM-DD` within DATE_RANGE. */
export const calendarDate = (message = 'invalid date (YYYY-MM-DD)') =>
  z.iso.date(message).refine((day) => day >= DATE_RANGE.min && day <= DATE_RANGE.max, {
    message: DATE_RANGE_MESSAGE,
    when: (payload) => payload.issues.length === 0,
  });
/** An ISO 8601 instant with an offset (`…Z` or `…+01:00`) within DATE_RANGE. */
export const instant = (message = 'invalid date and time') =>
  z.iso.datetime({ offset: true, error: message }).refine(
    (value) => {
      const ms = Date.parse(value);
      return ms >= MIN_MS && ms <= MAX_MS;
    },
    { message: DATE_RANGE_MESSAGE, when: (payload) => payload.issues.length === 0 },
  );

export type ListResponse<T> = { items: T[]; next: string | null };
