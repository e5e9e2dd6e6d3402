import { describe, expect, it } from 'vitest';
import { entryRefusal, isOpenAt, type EntryLimits } from './entry-limits';

const TZ = 'Europe/Warsaw';
// Monday 2026-11-23; Warsaw is UTC+1 in November.
const at = (local: string) => new Date(`${local}+01:00`);
const WEEKDAYS_6_TO_22 = [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 6 * 60, toMinutes: 22 * 60 }];
const none: EntryLimits = { openingHours: [], maxEntriesPerDay: null, capacity: null };

describe('entry limits', () => {
  it.each([
    ['2026-11-23T05:59:00', false],
    ['2026-11-23T06:00:00', true],
    ['2026-11-23T21:59:00', true],
    ['2026-11-23T22:00:00', false],
    ['2026-11-28T10:00:00', false], // Saturday
  ])('weekday hours 6–22: open at %s is %s', (local, open) => {
    expect(isOpenAt(WEEKDAYS_6_TO_22, at(local), TZ)).toBe(open);
  });

  it('no hours means always open', () => {
    expect(isOpenAt([], at('2026-11-29T03:00:00'), TZ)).toBe(true);
  });

  it.each([
    [none, 99, 99, null],
    [{ ...none, openingHours: WEEKDAYS_6_TO_22 }, 0, 0, 'closed'],
    [{ ...none, maxEntriesPerDay: 1 }, 1, 0, 'dailyLimitReached'],
    [{ ...none, maxEntriesPerDay: 2 }, 1, 0, null],
    [{ ...none, capacity: 3 }, 0, 3, 'full'],
    [{ ...none, capacity: 3 }, 0, 2, null],
    [{ ...none, maxEntriesPerDay: 1, capacity: 1 }, 1, 1, 'dailyLimitReached'],
  ] as const)('%o with %i today and %i inside: %s', (limits, today, inside, refusal) => {
    expect(
      entryRefusal(limits, { clientEntriesToday: today, insideNow: inside }, at('2026-11-28T23:00:00'), TZ),
    ).toBe(refusal);
  });
});
