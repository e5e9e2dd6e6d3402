import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_LIMITS } from '../../../../shared/contracts/api/schedule';
import { ClientVisitStatus } from '../../../../shared/enums/visits';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { bookingStudio, sessionClient } from './bookings-fixtures';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const HOUR = 3_600_000;

/**
 * My visits "upcoming" is bounded by time in the visits index (issue 27: it read the client's whole
 * history): a class is upcoming until it ends, however long it is (up to the schedule's longest), and
 * a long history before it changes nothing.
 */
describe('my visits: upcoming and past around now', () => {
  it('a class of the longest length begun almost that long ago is upcoming; one ended is past', async () => {
    const now = app.clock.now();
    const s = await bookingStudio(app, new Date(now.getTime() + 48 * HOUR));
    const longest = SCHEDULE_LIMITS.durationMinutes[1] * 60_000;
    const visit = async (startsAt: Date, endsAt: Date) => {
      const eventId = await s.addEvent(startsAt);
      await app.knex('schedule_events').where({ id: eventId }).update({ endsAt });
      const id = uuidv7();
      await app.knex('client_visits').insert({
        id,
        studioId: s.studio.id,
        scheduleEventId: eventId,
        clientId: s.client.id,
        startsAt,
        status: startsAt < now ? ClientVisitStatus.present : ClientVisitStatus.booked,
        payment: 'desk',
        bookedBy: 'staff',
        bookedAt: new Date(startsAt.getTime() - HOUR),
      });
      return id;
    };
    // A long history: a class a day for the past 60 days.
    const history: string[] = [];
    for (let d = 60; d >= 2; d--) {
      const at = new Date(now.getTime() - d * 24 * HOUR);
      history.push(await visit(at, new Date(at.getTime() + HOUR)));
    }
    const longOn = await visit(
      new Date(now.getTime() - longest + 5 * 60_000),
      new Date(now.getTime() + 5 * 60_000),
    );
    const endedNow = await visit(new Date(now.getTime() - HOUR), new Date(now.getTime() - 60_000));
    const later = await visit(new Date(now.getTime() + 24 * HOUR), new Date(now.getTime() + 25 * HOUR));

    const client = await sessionClient(app, s.client.id);
    const list = async (when: 'upcoming' | 'past', limit = 50) => {
      const res = await client.post(`/api/v4/${s.studio.id}/client-visits/init`, { when, limit });
      expect(res.status, res.text).toBe(200);
      return res.body.items.map((v: { id: string }) => v.id) as string[];
    };
    expect(await list('upcoming')).toEqual([longOn, later]);
    expect(await list('past', 3)).toEqual([
      endedNow,
      history[history.length - 1],
      history[history.length - 2],
    ]);
  });
});
