import { describe, expect, it } from 'vitest';
import { birthdayRanges, localDate, monthDayOfDate, monthInTimeZone, parseMonthDay } from './birthday';

describe('parseMonthDay', () => {
  it.each([
    ['01-01', 101],
    ['12-31', 1231],
    ['02-29', 229],
    ['02-30', null],
    ['04-31', null],
    ['13-01', null],
    ['00-10', null],
    ['1-1', null],
    ['2024-01-01', null],
  ])('%s → %s', (value, md) => {
    expect(parseMonthDay(value)).toBe(md);
  });

  it('reads the month and day of a date', () => {
    expect(monthDayOfDate('1990-07-04')).toBe(704);
  });
});

describe('birthdayRanges', () => {
  it.each([
    ['this month in Warsaw', { kind: 'thisMonth' }, '2026-11-22T12:00:00Z', 'Europe/Warsaw', [[1101, 1131]]],
    // 23:30 UTC on 31 Dec is already January in Warsaw.
    [
      'this month across midnight',
      { kind: 'thisMonth' },
      '2026-12-31T23:30:00Z',
      'Europe/Warsaw',
      [[101, 131]],
    ],
    [
      'same instant in New York',
      { kind: 'thisMonth' },
      '2026-12-31T23:30:00Z',
      'America/New_York',
      [[1201, 1231]],
    ],
    ['a plain range', { kind: 'range', from: 310, to: 420 }, '2026-11-22T12:00:00Z', 'UTC', [[310, 420]]],
    ['one day', { kind: 'range', from: 229, to: 229 }, '2026-11-22T12:00:00Z', 'UTC', [[229, 229]]],
    [
      'over the new year',
      { kind: 'range', from: 1220, to: 110 },
      '2026-11-22T12:00:00Z',
      'UTC',
      [
        [1220, 1231],
        [101, 110],
      ],
    ],
  ] as const)('%s', (_name, filter, now, tz, expected) => {
    expect(birthdayRanges(filter, new Date(now), tz)).toEqual(expected.map(([from, to]) => ({ from, to })));
  });

  it('reads the month on the wall clock', () => {
    expect(monthInTimeZone(new Date('2026-03-01T00:30:00Z'), 'America/Los_Angeles')).toBe(2);
  });
});

describe('localDate', () => {
  it.each([
    ['2026-11-22T12:00:00Z', 'Europe/Warsaw', '2026-11-22'],
    ['2026-12-31T23:30:00Z', 'Europe/Warsaw', '2027-01-01'],
    ['2026-01-01T03:00:00Z', 'America/New_York', '2025-12-31'],
  ])('%s in %s is %s', (now, tz, day) => {
    expect(localDate(new Date(now), tz)).toBe(day);
  });
});
