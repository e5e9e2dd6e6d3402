import { describe, expect, it } from 'vitest';
import {
  attendanceRefusal,
  bookingClosesAt,
  bookingOpensAt,
  bookingWindowState,
  canPromoteAt,
  cancellationCutoffAt,
  isLateCancel,
  lateCancelNow,
  overlaps,
  type BookingRules,
} from './timing';

const WAW = 'Europe/Warsaw';
const at = (iso: string) => new Date(iso);
const rules = (startsAt: string, over: Partial<BookingRules> = {}): BookingRules => ({
  startsAt: at(startsAt),
  endsAt: new Date(at(startsAt).getTime() + 3_600_000),
  bookingOpensHours: null,
  bookingClosesMinutes: 0,
  cancellationCutoffMinutes: 0,
  ...over,
});

describe('booking window opening on the studio wall clock (Warsaw, DST 2026-03-29 and 2026-10-25)', () => {
  it.each([
    // [what, class start (UTC), hours before, opens at (UTC), real hours between]
    [
      'a week before an 18:00 class after spring-forward',
      '2026-03-30T16:00:00Z',
      168,
      '2026-03-23T17:00:00Z',
      167,
    ],
    [
      'a week before an 18:00 class after fall-back',
      '2026-10-26T17:00:00Z',
      168,
      '2026-10-19T16:00:00Z',
      169,
    ],
    [
      'a day before a 10:00 class on the spring-forward Sunday',
      '2026-03-29T08:00:00Z',
      24,
      '2026-03-28T09:00:00Z',
      23,
    ],
    [
      'a day before a 10:00 class on the fall-back Sunday',
      '2026-10-25T09:00:00Z',
      24,
      '2026-10-24T08:00:00Z',
      25,
    ],
    [
      'two hours before 03:30 on the spring-forward night',
      '2026-03-29T01:30:00Z',
      2,
      '2026-03-29T00:30:00Z',
      1,
    ],
    ['a week before in winter: plain hours', '2026-01-12T17:00:00Z', 168, '2026-01-05T17:00:00Z', 168],
    ['a week before in summer: plain hours', '2026-07-13T16:00:00Z', 168, '2026-07-06T16:00:00Z', 168],
  ] as const)('%s', (_what, start, hours, opens, realHours) => {
    const r = rules(start, { bookingOpensHours: hours });
    const result = bookingOpensAt(r, WAW)!;
    expect(result.toISOString()).toBe(at(opens).toISOString());
    expect((r.startsAt.getTime() - result.getTime()) / 3_600_000).toBe(realHours);
  });

  it('null hours: always open', () => {
    expect(bookingOpensAt(rules('2026-03-30T16:00:00Z'), WAW)).toBeNull();
  });
});

describe('booking window state', () => {
  const r = rules('2026-03-30T16:00:00Z', { bookingOpensHours: 168, bookingClosesMinutes: 30 });
  it.each([
    ['before opening', '2026-03-23T16:59:59Z', 'notOpen'],
    ['at opening', '2026-03-23T17:00:00Z', 'open'],
    ['in between', '2026-03-28T12:00:00Z', 'open'],
    ['just before closing', '2026-03-30T15:29:59Z', 'open'],
    ['at closing (30 min before)', '2026-03-30T15:30:00Z', 'closed'],
    ['after the start', '2026-03-30T16:10:00Z', 'closed'],
  ] as const)('%s → %s', (_what, now, state) => {
    expect(bookingWindowState(r, at(now), WAW)).toBe(state);
  });
  it('closing counts elapsed minutes', () => {
    expect(bookingClosesAt(r).toISOString()).toBe('2026-03-30T15:30:00.000Z');
  });
});

describe('early and late cancellation cut-off', () => {
  // 10:00 CEST on the spring-forward Sunday; a 12-hour cut-off counts real hours: 20:00Z on Saturday
  // (21:00 CET), thirteen hours earlier on the wall clock.
  const dst = rules('2026-03-29T08:00:00Z', { cancellationCutoffMinutes: 720 });
  const plain = rules('2026-06-10T16:00:00Z', { cancellationCutoffMinutes: 120 });
  const none = rules('2026-06-10T16:00:00Z');
  it.each([
    ['DST night: a second before the cut-off is early', dst, '2026-03-28T19:59:59Z', false],
    ['DST night: at the cut-off is late', dst, '2026-03-28T20:00:00Z', true],
    ['two hours: 2h01 before is early', plain, '2026-06-10T13:59:00Z', false],
    ['two hours: exactly 2h before is late', plain, '2026-06-10T14:00:00Z', true],
    ['two hours: after the start is late', plain, '2026-06-10T16:30:00Z', true],
    ['no cut-off: a minute before the start is early', none, '2026-06-10T15:59:00Z', false],
    ['no cut-off: at the start is late', none, '2026-06-10T16:00:00Z', true],
  ] as const)('%s', (_what, r, now, late) => {
    expect(isLateCancel(r, at(now))).toBe(late);
  });
  it('the cut-off instant', () => {
    expect(cancellationCutoffAt(dst).toISOString()).toBe('2026-03-28T20:00:00.000Z');
  });
  it('the drawer says "cancelling now is late" from the cut-off until the class ends, never after (issue 26)', () => {
    expect(lateCancelNow(plain, at('2026-06-10T13:59:00Z'))).toBe(false);
    expect(lateCancelNow(plain, at('2026-06-10T16:30:00Z'))).toBe(true);
    expect(lateCancelNow(plain, at('2026-06-10T17:00:00Z'))).toBe(false);
    expect(lateCancelNow(plain, at('2026-06-11T09:00:00Z'))).toBe(false);
  });
});

describe('promotion cut-off', () => {
  const start = at('2026-06-10T16:00:00Z');
  it.each([
    [60, '2026-06-10T14:59:59Z', true],
    [60, '2026-06-10T15:00:00Z', false],
    [0, '2026-06-10T15:59:59Z', true],
    [0, '2026-06-10T16:00:00Z', false],
  ] as const)('cut-off %i min, now %s → may promote %s', (minutes, now, ok) => {
    expect(canPromoteAt(start, minutes, at(now))).toBe(ok);
  });
});

describe('attendance timing', () => {
  const start = at('2026-06-10T16:00:00Z');
  it.each([
    ['present', '2026-06-10T14:59:59Z', 'tooEarly'],
    ['present', '2026-06-10T15:00:00Z', null],
    ['present', '2026-06-10T18:00:00Z', null],
    ['absent', '2026-06-10T15:59:59Z', 'tooEarly'],
    ['absent', '2026-06-10T16:00:00Z', null],
  ] as const)('%s at %s → %s', (action, now, refusal) => {
    expect(attendanceRefusal(action, start, at(now))).toBe(refusal);
  });
});

describe('conflicts (half-open intervals)', () => {
  const a = { startsAt: at('2026-06-10T16:00:00Z'), endsAt: at('2026-06-10T17:00:00Z') };
  it.each([
    ['same time', '2026-06-10T16:00:00Z', '2026-06-10T17:00:00Z', true],
    ['starts inside', '2026-06-10T16:30:00Z', '2026-06-10T17:30:00Z', true],
    ['contains', '2026-06-10T15:00:00Z', '2026-06-10T18:00:00Z', true],
    ['back to back after', '2026-06-10T17:00:00Z', '2026-06-10T18:00:00Z', false],
    ['back to back before', '2026-06-10T15:00:00Z', '2026-06-10T16:00:00Z', false],
  ] as const)('%s → %s', (_what, s, e, expected) => {
    expect(overlaps(a, { startsAt: at(s), endsAt: at(e) })).toBe(expected);
  });
});
