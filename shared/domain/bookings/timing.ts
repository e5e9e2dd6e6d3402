import { localClockOf, localDateOf, addLocalDays } from '../entitlements/local-dates';
import { instantOfLocalTime } from '../schedule/occurrences';

/**
 * The booking rules of one event: its times and the rules of its schedule meta (an event whose meta
 * was deleted keeps the defaults: always open, no cut-offs, open to all).
 */
export interface BookingRules {
  startsAt: Date;
  endsAt: Date;
  /** Online booking opens this many hours before the start (studio wall clock); null = always open. */
  bookingOpensHours: number | null;
  /** Online booking closes this many minutes before the start. */
  bookingClosesMinutes: number;
  /** Cancelling later than this many minutes before the start is a late cancel. */
  cancellationCutoffMinutes: number;
}

const MINUTE = 60_000;

/**
 * When online booking opens. Counted on the studio's wall clock, so "168 hours before an 18:00 class"
 * opens at 18:00 a week earlier even when a DST change lies between (167 or 169 real hours).
 */
export function bookingOpensAt(rules: BookingRules, timeZone: string): Date | null {
  if (rules.bookingOpensHours === null) return null;
  const date = localDateOf(rules.startsAt, timeZone);
  const { minutes } = localClockOf(rules.startsAt, timeZone);
  const total = minutes - rules.bookingOpensHours * 60;
  const days = Math.floor(total / 1440);
  return instantOfLocalTime(addLocalDays(date, days), total - days * 1440, timeZone);
}

/** When online booking closes: elapsed minutes before the start. */
export function bookingClosesAt(rules: BookingRules): Date {
  return new Date(rules.startsAt.getTime() - rules.bookingClosesMinutes * MINUTE);
}

export type WindowState = 'notOpen' | 'open' | 'closed';

/** Where `now` falls in the online booking window [opens, closes). */
export function bookingWindowState(rules: BookingRules, now: Date, timeZone: string): WindowState {
  const opens = bookingOpensAt(rules, timeZone);
  if (opens && now < opens) return 'notOpen';
  if (now >= bookingClosesAt(rules)) return 'closed';
  return 'open';
}

/** The last instant of early cancellation (exclusive): elapsed minutes before the start. */
export function cancellationCutoffAt(rules: BookingRules): Date {
  return new Date(rules.startsAt.getTime() - rules.cancellationCutoffMinutes * MINUTE);
}

/** A cancel at `now` is late (the entry is kept, a fee may apply). */
export function isLateCancel(rules: BookingRules, now: Date): boolean {
  return now >= cancellationCutoffAt(rules);
}

/**
 * What the class's drawer says about cancelling now: late from the cut-off until the class ends. A
 * finished class is not "cancelling now is late" — there is nothing left to cancel (issue 26).
 */
export function lateCancelNow(rules: BookingRules, now: Date): boolean {
  return isLateCancel(rules, now) && now < rules.endsAt;
}

/** Freed places go to the waiting list only until this many minutes before the start. */
export function canPromoteAt(startsAt: Date, promotionCutoffMinutes: number, now: Date): boolean {
  return now.getTime() < startsAt.getTime() - promotionCutoffMinutes * MINUTE;
}

/** Staff may mark people present from this many minutes before the start (the door opens); the
 * studio's `checkInOpensMinutes` setting, this by default. */
export const CHECK_IN_OPENS_MINUTES = 60;

export type AttendanceRefusal = 'tooEarly';

/** When check-in (present) opens: the studio's minutes before the start (issue 26). */
export function checkInOpensAt(startsAt: Date, opensMinutes: number = CHECK_IN_OPENS_MINUTES): Date {
  return new Date(startsAt.getTime() - opensMinutes * MINUTE);
}

/**
 * Until when staff may add someone to a class at the desk (a walk-in): the studio's minutes after the
 * start, never past the end; null minutes = until the class ends.
 */
export function walkInUntil(
  rules: Pick<BookingRules, 'startsAt' | 'endsAt'>,
  walkInMinutes: number | null,
): Date {
  if (walkInMinutes === null) return rules.endsAt;
  return new Date(Math.min(rules.endsAt.getTime(), rules.startsAt.getTime() + walkInMinutes * MINUTE));
}

/** Present from the studio's check-in opening (an hour before by default); absent only once the class has started. */
export function attendanceRefusal(
  action: 'present' | 'absent',
  startsAt: Date,
  now: Date,
  opensMinutes: number = CHECK_IN_OPENS_MINUTES,
): AttendanceRefusal | null {
  const opens = action === 'present' ? checkInOpensAt(startsAt, opensMinutes).getTime() : startsAt.getTime();
  return now.getTime() < opens ? 'tooEarly' : null;
}

/** Half-open intervals [start, end) overlap. */
export function overlaps(a: { startsAt: Date; endsAt: Date }, b: { startsAt: Date; endsAt: Date }): boolean {
  return a.startsAt < b.endsAt && b.startsAt < a.endsAt;
}
