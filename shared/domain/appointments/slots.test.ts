import { describe, expect, it } from 'vitest';
import { canApply, clientCancellation } from './appointment-status';
import {
  findSlots,
  isFreeSlot,
  latestBookableStart,
  slotsForAnyone,
  type Interval,
  type SlotQuery,
  type SlotService,
  type StaffAvailability,
} from './slots';

const TZ = 'Europe/Warsaw';
const at = (iso: string) => new Date(iso);
const iv = (a: string, b: string): Interval => ({ startsAt: at(a), endsAt: at(b) });
const hhmm = (d: Date) => d.toLocaleTimeString('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit' });

const service = (over: Partial<SlotService> = {}): SlotService => ({
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  slotStepMinutes: 60,
  locationId: null,
  ...over,
});

/** Works 9:00–13:00 every day of the week unless overridden. */
const anna = (over: Partial<StaffAvailability> = {}): StaffAvailability => ({
  memberId: 'anna',
  weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    startMinute: 540,
    endMinute: 780,
    locationId: 'L1',
  })),
  exceptions: [],
  busy: [],
  ...over,
});

const day = (date: string): SlotQuery => ({
  from: date,
  to: date,
  timeZone: TZ,
  earliest: at('2000-01-01T00:00:00Z'),
  latest: null,
});

describe('findSlots', () => {
  const cases: Array<{
    name: string;
    service?: Partial<SlotService>;
    staff?: Partial<StaffAvailability>;
    room?: Interval[];
    date?: string;
    query?: Partial<SlotQuery>;
    expected: string[];
  }> = [
    { name: 'plain hours, hourly grid', expected: ['09:00', '10:00', '11:00', '12:00'] },
    {
      name: '30-minute step',
      service: { slotStepMinutes: 30 },
      expected: ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00'],
    },
    {
      name: 'buffers keep the block inside the hours',
      service: { slotStepMinutes: 15, bufferBeforeMinutes: 15, bufferAfterMinutes: 15, durationMinutes: 90 },
      expected: ['09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '11:15'],
    },
    {
      name: 'an existing appointment block (10:00–11:15) with our 15-minute buffer after',
      service: { bufferAfterMinutes: 15, slotStepMinutes: 15 },
      staff: { busy: [iv('2026-06-03T08:00:00Z', '2026-06-03T09:15:00Z')] },
      expected: ['11:15', '11:30', '11:45'],
    },
    {
      name: 'a class the member teaches (11:00–12:00) blocks them',
      staff: { busy: [iv('2026-06-03T09:00:00Z', '2026-06-03T10:00:00Z')] },
      expected: ['09:00', '10:00', '12:00'],
    },
    {
      name: 'the room taken by a class 9:30–10:30',
      room: [iv('2026-06-03T07:30:00Z', '2026-06-03T08:30:00Z')],
      expected: ['11:00', '12:00'],
    },
    {
      name: 'a dated exception replaces the day: 15:00–17:00',
      staff: {
        exceptions: [
          { date: '2026-06-03', ranges: [{ startMinute: 900, endMinute: 1020, locationId: 'L1' }] },
        ],
      },
      expected: ['15:00', '16:00'],
    },
    {
      name: 'a dated exception with no ranges is a day off',
      staff: { exceptions: [{ date: '2026-06-03', ranges: [] }] },
      expected: [],
    },
    {
      name: 'hours at another location do not count',
      service: { locationId: 'L2' },
      expected: [],
    },
    {
      name: 'unavailability all day (holiday)',
      staff: { busy: [iv('2026-06-02T22:00:00Z', '2026-06-03T22:00:00Z')] },
      expected: [],
    },
    {
      name: 'nothing before "earliest" (now + close)',
      query: { earliest: at('2026-06-03T08:30:00Z') },
      expected: ['11:00', '12:00'],
    },
    {
      name: 'nothing after "latest" (the booking window)',
      query: { latest: at('2026-06-03T08:00:00Z') },
      expected: ['09:00', '10:00'],
    },
    {
      name: 'DST spring day (29 March 2026, 02:00 → 03:00): a night shift 00:00–06:00 is five real hours',
      date: '2026-03-29',
      staff: { weekly: [{ weekday: 0, startMinute: 0, endMinute: 360, locationId: null }] },
      expected: ['00:00', '01:00', '03:00', '04:00', '05:00'],
    },
    {
      name: 'DST autumn day (25 October 2026, 03:00 → 02:00): 00:00–06:00 is seven real hours',
      date: '2026-10-25',
      staff: { weekly: [{ weekday: 0, startMinute: 0, endMinute: 360, locationId: null }] },
      expected: ['00:00', '01:00', '02:00', '02:00', '03:00', '04:00', '05:00'],
    },
    {
      name: 'DST spring day, daytime hours stay 9:00–13:00 local',
      date: '2026-03-29',
      expected: ['09:00', '10:00', '11:00', '12:00'],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const date = c.date ?? '2026-06-03';
      const slots = findSlots(service(c.service), [anna(c.staff)], c.room ?? [], {
        ...day(date),
        ...c.query,
      });
      expect(slots.map((s) => hhmm(s.startsAt))).toEqual(c.expected);
      for (const s of slots)
        expect(s.endsAt.getTime() - s.startsAt.getTime()).toBe(service(c.service).durationMinutes * 60_000);
    });

  it('the autumn day offers both 02:00s as distinct instants', () => {
    const slots = findSlots(
      service(),
      [anna({ weekly: [{ weekday: 0, startMinute: 0, endMinute: 360, locationId: null }] })],
      [],
      day('2026-10-25'),
    );
    const twos = slots.filter((s) => hhmm(s.startsAt) === '02:00').map((s) => s.startsAt.toISOString());
    expect(twos).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z']);
  });

  it('anyone: starts merged with every free member, in order', () => {
    const ben: StaffAvailability = {
      ...anna(),
      memberId: 'ben',
      busy: [iv('2026-06-03T07:00:00Z', '2026-06-03T08:00:00Z')],
    };
    const slots = slotsForAnyone(findSlots(service(), [anna(), ben], [], day('2026-06-03')));
    expect(slots.map((s) => [hhmm(s.startsAt), s.memberIds])).toEqual([
      ['09:00', ['anna']],
      ['10:00', ['anna', 'ben']],
      ['11:00', ['anna', 'ben']],
      ['12:00', ['anna', 'ben']],
    ]);
  });

  it('isFreeSlot re-checks one start', () => {
    expect(isFreeSlot(service(), anna(), [], at('2026-06-03T08:00:00Z'), TZ)).toBe(true);
    expect(isFreeSlot(service(), anna(), [], at('2026-06-03T08:30:00Z'), TZ)).toBe(false); // off the grid
    expect(isFreeSlot(service(), anna(), [], at('2026-06-03T11:00:00Z'), TZ)).toBe(false); // after hours
  });
});

describe('booking window and statuses', () => {
  it('latest bookable start counts the wall clock across DST (168 h before 29 March)', () => {
    expect(latestBookableStart(at('2026-03-22T09:00:00Z'), 168, TZ)?.toISOString()).toBe(
      '2026-03-29T08:00:00.000Z',
    );
    expect(latestBookableStart(at('2026-03-22T09:00:00Z'), null, TZ)).toBeNull();
  });
  it.each([
    ['2026-06-03T07:00:00Z', 'cancelled'],
    ['2026-06-03T09:30:00Z', 'lateCancelled'],
    ['2026-06-03T10:00:00Z', null],
  ] as const)('client cancel at %s → %s (cut-off 60 min, start 10:00Z)', (now, expected) => {
    expect(clientCancellation(at('2026-06-03T10:00:00Z'), 60, at(now))).toBe(expected);
  });
  it('actions from statuses', () => {
    expect(canApply('confirm', 'pending')).toBe(true);
    expect(canApply('confirm', 'booked')).toBe(false);
    expect(canApply('callOff', 'booked')).toBe(true);
    expect(canApply('cancel', 'cancelled')).toBe(false);
  });
});
