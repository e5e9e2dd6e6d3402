import { describe, expect, it } from 'vitest';
import type { ScheduleEventView } from '../../../shared/contracts/api/schedule';
import { calendarEvents, columnChange, hourRange, lanesOf, NONE } from './calendar-model';

const event = (over: Partial<ScheduleEventView>): ScheduleEventView => ({
  id: 'e1',
  scheduleMetaId: null,
  occurrenceDate: null,
  classService: { id: 's', name: { en: { value: 'Yoga' } }, color: '#333', serviceType: 'classroom' },
  locationId: 'l1',
  locationName: 'Mokotów',
  roomId: 'r1',
  roomName: 'Sala Słoneczna',
  instructors: [
    { id: 'p1', firstName: 'Ola', lastName: 'K' },
    { id: 'p2', firstName: 'Bo', lastName: 'A' },
  ],
  startsAt: '2026-03-02T17:00:00.000Z',
  endsAt: '2026-03-02T18:00:00.000Z',
  capacity: 12,
  waitingListSize: 2,
  taken: 3,
  waiting: 0,
  status: 'scheduled',
  hidden: false,
  bookableOnline: true,
  livestreamUrl: null,
  notes: '',
  edited: false,
  ...over,
});

describe('schedule calendar model', () => {
  it('puts a class on the studio clock, once per instructor column', () => {
    const [tile] = calendarEvents([event({})], 'Europe/Warsaw', null);
    expect([tile!.start.getHours(), tile!.end.getHours()]).toEqual([18, 19]);
    expect(calendarEvents([event({})], 'Europe/Warsaw', 'instructors').map((e) => e.resourceId)).toEqual([
      'p1',
      'p2',
    ]);
    expect(calendarEvents([event({ roomId: null })], 'Europe/Warsaw', 'rooms')[0]!.resourceId).toBe(NONE);
  });

  it('counts side-by-side classes per column and widens the hours to every class', () => {
    const tiles = calendarEvents(
      [
        event({ id: 'a' }),
        event({ id: 'b', startsAt: '2026-03-02T17:30:00.000Z', endsAt: '2026-03-02T18:30:00.000Z' }),
        // Back to back with the first: no third lane.
        event({ id: 'c', startsAt: '2026-03-02T18:00:00.000Z', endsAt: '2026-03-02T22:15:00.000Z' }),
      ],
      'Europe/Warsaw',
      null,
    );
    expect(lanesOf(tiles)).toBe(2);
    expect(hourRange(tiles)).toEqual({ min: 6, max: 24 });
  });

  it('a class past midnight ends its tile at the end of its first day (not the hidden all-day row)', () => {
    const [tile] = calendarEvents(
      [event({ startsAt: '2026-03-02T22:40:00.000Z', endsAt: '2026-03-02T23:25:00.000Z' })],
      'Europe/Warsaw',
      null,
    );
    expect([tile!.start.getDate(), tile!.start.getHours(), tile!.start.getMinutes()]).toEqual([2, 23, 40]);
    expect([tile!.end.getDate(), tile!.end.getHours(), tile!.end.getMinutes()]).toEqual([2, 23, 59]);
    expect(tile!.event.endsAt).toBe('2026-03-02T23:25:00.000Z');
    expect(hourRange([tile!])).toEqual({ min: 6, max: 24 });
    // Its lower edge is not the class's end: resizing it would shorten the class to 23:59.
    expect(tile!.clipped).toBe(true);
    const [sameDay] = calendarEvents([event({})], 'Europe/Warsaw', null);
    expect(sameDay!.clipped).toBe(false);
  });

  it('a drop into another column changes the room (and location) or swaps the instructor', () => {
    const rooms = [{ id: 'r2', title: 'Sala Główna', locationId: 'l2' }];
    expect(columnChange(event({}), 'rooms', 'r1', 'r2', rooms)).toEqual({ locationId: 'l2', roomId: 'r2' });
    expect(columnChange(event({}), 'rooms', 'r1', NONE, rooms)).toEqual({ roomId: null });
    expect(columnChange(event({}), 'instructors', 'p1', 'p3', [])).toEqual({ instructorIds: ['p3', 'p2'] });
    expect(columnChange(event({}), 'rooms', 'r1', 'r1', rooms)).toEqual({});
  });
});
