import { describe, expect, it } from 'vitest';
import { BookingAccessibility as A } from '../../enums/visits';
import {
  decideBooking,
  decideCancel,
  isAccessible,
  type BookingAttempt,
  type EventForBooking,
} from './booking-decision';

const WAW = 'Europe/Warsaw';
const START = new Date('2026-06-10T16:00:00Z');
const event = (over: Partial<EventForBooking> = {}): EventForBooking => ({
  startsAt: START,
  endsAt: new Date(START.getTime() + 3_600_000),
  bookingOpensHours: 168,
  bookingClosesMinutes: 30,
  cancellationCutoffMinutes: 120,
  status: 'scheduled',
  bookableOnline: true,
  capacity: 10,
  waitingListSize: 2,
  bookingAccessibility: A.enabledForAll,
  bookingTagIds: [],
  ...over,
});
const attempt = (over: Partial<BookingAttempt> = {}): BookingAttempt => ({
  event: event(),
  actor: 'self',
  override: false,
  now: new Date('2026-06-09T12:00:00Z'),
  timeZone: WAW,
  clientTagIds: [],
  alreadyOnClass: false,
  hasConflict: false,
  payment: 'pass',
  taken: 0,
  waiting: 0,
  waitingListWanted: true,
  ...over,
});

describe('isAccessible', () => {
  it.each([
    [A.disabledForAll, [], [], false],
    [A.enabledForAll, [], [], true],
    [A.disabledForTags, ['t1'], ['t1'], false],
    [A.disabledForTags, ['t1'], ['t2'], true],
    [A.enabledForTags, ['t1', 't3'], ['t3'], true],
    [A.enabledForTags, ['t1'], [], false],
  ] as const)('accessibility %i, tags %j, client %j → %s', (acc, tags, client, ok) => {
    expect(isAccessible(acc, tags, client)).toBe(ok);
  });
});

describe('decideBooking', () => {
  const ended = new Date('2026-06-10T17:00:00Z');
  it.each([
    ['a place with a pass', {}, { ok: true, outcome: 'booked' }],
    ['a free class', { payment: 'free' }, { ok: true, outcome: 'booked' }],
    ['pay at the desk: unconfirmed', { payment: 'desk' }, { ok: true, outcome: 'unconfirmed' }],
    ['no pass', { payment: 'none' }, { ok: false, refusal: 'noPass' }],
    ['last place', { taken: 9 }, { ok: true, outcome: 'booked' }],
    ['full: waiting list', { taken: 10 }, { ok: true, outcome: 'waitingList' }],
    [
      'full: waiting list not wanted',
      { taken: 10, waitingListWanted: false },
      { ok: false, refusal: 'classFull' },
    ],
    ['full: waiting list full', { taken: 10, waiting: 2 }, { ok: false, refusal: 'classFull' }],
    [
      'full, no waiting list',
      { taken: 10, event: event({ waitingListSize: 0 }) },
      { ok: false, refusal: 'classFull' },
    ],
    ['cancelled class', { event: event({ status: 'cancelled' }) }, { ok: false, refusal: 'classCancelled' }],
    ['removed class', { event: event({ status: 'removed' }) }, { ok: false, refusal: 'classCancelled' }],
    ['client after the start', { now: START }, { ok: false, refusal: 'classStarted' }],
    [
      'not bookable online',
      { event: event({ bookableOnline: false }) },
      { ok: false, refusal: 'notBookableOnline' },
    ],
    [
      'disabled for all',
      { event: event({ bookingAccessibility: A.disabledForAll }) },
      { ok: false, refusal: 'notAccessible' },
    ],
    [
      'enabled for tags, client tagged',
      {
        event: event({ bookingAccessibility: A.enabledForTags, bookingTagIds: ['vip'] }),
        clientTagIds: ['vip'],
      },
      { ok: true, outcome: 'booked' },
    ],
    [
      'enabled for tags, client untagged',
      { event: event({ bookingAccessibility: A.enabledForTags, bookingTagIds: ['vip'] }) },
      { ok: false, refusal: 'notAccessible' },
    ],
    [
      'window not open yet',
      { now: new Date('2026-06-03T15:59:59Z') },
      { ok: false, refusal: 'bookingNotOpen' },
    ],
    ['window just opened', { now: new Date('2026-06-03T16:00:00Z') }, { ok: true, outcome: 'booked' }],
    ['window closed', { now: new Date('2026-06-10T15:30:00Z') }, { ok: false, refusal: 'bookingClosed' }],
    ['already booked', { alreadyOnClass: true }, { ok: false, refusal: 'alreadyBooked' }],
    ['conflict', { hasConflict: true }, { ok: false, refusal: 'conflict' }],
    [
      'client override has no effect',
      { hasConflict: true, override: true },
      { ok: false, refusal: 'conflict' },
    ],
    [
      'api acts as a client',
      { actor: 'api', event: event({ bookableOnline: false }) },
      { ok: false, refusal: 'notBookableOnline' },
    ],
    // Staff at the desk: online rules do not apply.
    [
      'staff: not bookable online',
      { actor: 'staff', event: event({ bookableOnline: false }) },
      { ok: true, outcome: 'booked' },
    ],
    [
      'staff: window closed',
      { actor: 'staff', now: new Date('2026-06-10T15:50:00Z') },
      { ok: true, outcome: 'booked' },
    ],
    [
      'staff: disabled for all',
      { actor: 'staff', event: event({ bookingAccessibility: A.disabledForAll }) },
      { ok: true, outcome: 'booked' },
    ],
    [
      'staff: during the class',
      { actor: 'staff', now: new Date('2026-06-10T16:30:00Z') },
      { ok: true, outcome: 'booked' },
    ],
    ['staff: after the end', { actor: 'staff', now: ended }, { ok: false, refusal: 'classStarted' }],
    [
      'staff override: after the end',
      { actor: 'staff', now: ended, override: true },
      { ok: true, outcome: 'booked' },
    ],
    ['staff: conflict', { actor: 'staff', hasConflict: true }, { ok: false, refusal: 'conflict' }],
    [
      'staff override: conflict',
      { actor: 'staff', hasConflict: true, override: true },
      { ok: true, outcome: 'booked' },
    ],
    ['staff: full → waiting list', { actor: 'staff', taken: 10 }, { ok: true, outcome: 'waitingList' }],
    [
      'staff override: over capacity',
      { actor: 'staff', taken: 10, override: true },
      { ok: true, outcome: 'booked' },
    ],
    [
      'staff override: still one visit per client',
      { actor: 'staff', alreadyOnClass: true, override: true },
      { ok: false, refusal: 'alreadyBooked' },
    ],
    [
      'staff override: cancelled class stays closed',
      { actor: 'staff', override: true, event: event({ status: 'cancelled' }) },
      { ok: false, refusal: 'classCancelled' },
    ],
    ['staff: no pass', { actor: 'staff', payment: 'none' }, { ok: false, refusal: 'noPass' }],
  ] as Array<[string, Partial<BookingAttempt>, unknown]>)('%s', (_what, over, expected) => {
    expect(decideBooking(attempt(over))).toEqual(expected);
  });
});

describe('decideCancel', () => {
  const e = event();
  const early = new Date('2026-06-10T13:59:00Z');
  const late = new Date('2026-06-10T14:00:00Z');
  const during = new Date('2026-06-10T16:10:00Z');
  const after = new Date('2026-06-10T17:00:00Z');
  it.each([
    ['self, booked, before the cut-off', 0, 'self', early, { ok: true, kind: 'earlyCancel' }],
    ['self, booked, at the cut-off', 0, 'self', late, { ok: true, kind: 'lateCancel' }],
    ['self, unconfirmed, late', 9, 'self', late, { ok: true, kind: 'lateCancel' }],
    ['self, during the class', 0, 'self', during, { ok: false, refusal: 'classStarted' }],
    ['staff, booked, early', 0, 'staff', early, { ok: true, kind: 'earlyCancel' }],
    ['staff, during the class: late', 0, 'staff', during, { ok: true, kind: 'lateCancel' }],
    ['staff, after the end', 0, 'staff', after, { ok: false, refusal: 'classStarted' }],
    ['waiting: leave any time before the end', 8, 'self', during, { ok: true, kind: 'leaveWaitingList' }],
    ['waiting: after the end', 8, 'self', after, { ok: false, refusal: 'classStarted' }],
    ['present', 1, 'staff', during, { ok: false, refusal: 'notCancellable' }],
    ['absent', 2, 'staff', during, { ok: false, refusal: 'notCancellable' }],
    ['already cancelled', 4, 'self', early, { ok: false, refusal: 'notCancellable' }],
    ['class cancelled', 7, 'self', early, { ok: false, refusal: 'classCancelled' }],
  ] as const)('%s', (_what, status, actor, now, expected) => {
    const ev = status === 7 ? { ...e, status: 'cancelled' as const } : e;
    expect(decideCancel(status, ev, actor, now)).toEqual(expected);
  });
});
