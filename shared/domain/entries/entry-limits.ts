import { localClockOf } from '../entitlements/local-dates';
import type { PassTimeWindow } from '../entitlements/pass-choice';

/** The limits of an entry service (issue 22): opening hours, entries per client per day, capacity at once. */
export interface EntryLimits {
  /** Pass-style time windows in the studio's week; empty: always open. */
  openingHours: readonly PassTimeWindow[];
  maxEntriesPerDay: number | null;
  capacity: number | null;
}

export const ENTRY_REFUSALS = ['closed', 'dailyLimitReached', 'full'] as const;
export type EntryRefusal = (typeof ENTRY_REFUSALS)[number];

export function isOpenAt(openingHours: readonly PassTimeWindow[], at: Date, timeZone: string): boolean {
  if (openingHours.length === 0) return true;
  const { weekday, minutes } = localClockOf(at, timeZone);
  return openingHours.some(
    (w) => w.weekdays.includes(weekday) && w.fromMinutes <= minutes && minutes < w.toMinutes,
  );
}

/**
 * Why a client may not enter now, or null. Checked in this order: the place is closed, the client
 * used up today's entries (counted in the studio's calendar day), the place is full (entries whose
 * stay has not ended).
 */
export function entryRefusal(
  limits: EntryLimits,
  state: { clientEntriesToday: number; insideNow: number },
  at: Date,
  timeZone: string,
): EntryRefusal | null {
  if (!isOpenAt(limits.openingHours, at, timeZone)) return 'closed';
  if (limits.maxEntriesPerDay !== null && state.clientEntriesToday >= limits.maxEntriesPerDay)
    return 'dailyLimitReached';
  if (limits.capacity !== null && state.insideNow >= limits.capacity) return 'full';
  return null;
}
