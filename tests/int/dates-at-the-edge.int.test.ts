import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_RANGE } from '../../shared/contracts/api/common';
import { bookingStudio } from '../../cloud/src/modules/bookings/bookings-fixtures';
import { ManualClock, startTestApp, type TestApp } from '../support/test-app';

/**
 * Dates are bounded in the shared schemas (DATE_RANGE, `calendarDate()` / `instant()` in
 * shared/contracts/api/common.ts): a timetable from 9999-12-31 answered 500 (a RangeError), and a
 * class could be moved to the year 10000 (`9999-12-31T23:00:00-05:00`), after which booking it
 * answered 500 and stations synced the timestamp.
 */
let app: TestApp;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(NOW) });
});
afterAll(async () => app?.close());

describe('dates at the edge of the range', () => {
  it('a timetable from 9999-12-31 is bad input (400 on from), not a 500', async () => {
    const t = await bookingStudio(app, new Date('2026-11-25T17:00:00Z'));
    const visitor = await app.anonymous();
    const res = await visitor.post(`/api/v4/${t.studio.id}/schedule`, {
      from: '9999-12-31',
      to: '9999-12-31',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.fields.from).toEqual([`a date from ${DATE_RANGE.min} to ${DATE_RANGE.max}`]);
    const ok = await visitor.post(`/api/v4/${t.studio.id}/schedule`, {
      from: '2026-11-25',
      to: '2026-11-25',
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a class cannot be moved past the range (the year 10000 by an offset), and stays where it was', async () => {
    const t = await bookingStudio(app, new Date('2026-11-25T17:00:00Z'));
    const manager = await app.signedIn(t.manager.email, t.manager.password);
    for (const startsAt of [
      '9999-12-31T23:00:00-05:00',
      '2199-12-31T23:30:00-01:00',
      '1899-12-31T10:00:00Z',
    ]) {
      const res = await manager.patch(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}`, { startsAt });
      expect(res.status, `${startsAt}: ${res.text}`).toBe(400);
      expect(res.body.error.fields.startsAt).toBeDefined();
    }
    const row = await app.knex('schedule_events').where({ id: t.eventId }).first('starts_at');
    expect(new Date(row.startsAt).toISOString()).toBe('2026-11-25T17:00:00.000Z');
  });
});
