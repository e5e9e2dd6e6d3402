import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { bookingStudio, entriesUsed, sessionClient } from './bookings-fixtures';

let app: TestApp;
const NOW = new Date('2026-06-01T10:00:00Z');
const START = new Date('2026-06-03T16:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(NOW) });
});
afterAll(async () => app?.close());

const book = (studioId: string) => `/api/v4/${studioId}/booking/classroom/book`;

describe('many clients booking the last places at once', () => {
  it('200 simultaneous bookings of a 20-place class with a 10-place waiting list: 20 booked, 10 waiting, 170 refused', async () => {
    const t = await bookingStudio(app, START, { capacity: 20, waitingListSize: 10 });
    const clients = [];
    for (let i = 0; i < 200; i++) clients.push(await t.addClient(true, `C${i}`));
    const http = await Promise.all(clients.map((c) => sessionClient(app, c.user.id)));

    const answers = await Promise.all(
      http.map((h) => h.post(book(t.studio.id), { scheduleEventId: t.eventId })),
    );

    const outcomes = answers.map((a) =>
      a.status === 200 ? a.body.outcome : `${a.status} ${a.body.error?.key}`,
    );
    const tally = outcomes.reduce<Record<string, number>>(
      (acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }),
      {},
    );
    expect(tally).toEqual({ booked: 20, waitingList: 10, '409 visit.classFull': 170 });

    const rows = (await app
      .knex('client_visits')
      .where({ scheduleEventId: t.eventId })
      .select('client_id', 'status', 'waiting_position', 'client_pricing_option_id')) as Array<{
      clientId: string;
      status: number;
      waitingPosition: number | null;
      clientPricingOptionId: string | null;
    }>;
    expect(rows.filter((r) => r.status === 0)).toHaveLength(20);
    const waiting = rows.filter((r) => r.status === 8);
    expect(waiting.map((r) => r.waitingPosition).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.clientId)).size).toBe(30);

    // Entries: each booked client's own pass used exactly once; nobody else's pass touched.
    const owner = await sessionClient(app, t.manager.id);
    const booked = new Set(rows.filter((r) => r.status === 0).map((r) => r.clientId));
    for (const c of clients) {
      const used = await entriesUsed(owner, t.studio.id, c.user.id, c.passId!);
      expect(used, c.user.firstName).toBe(booked.has(c.user.id) ? 1 : 0);
    }
    for (const r of rows.filter((x) => x.status === 0))
      expect(r.clientPricingOptionId).toBe(clients.find((c) => c.user.id === r.clientId)!.passId);

    // One mail each, saying what they got: the confirmation a booking queues before the class's lock
    // (when the class still looked open) is taken back when the place went to someone else.
    await app
      .knex('users')
      .whereIn(
        'id',
        clients.map((c) => c.user.id),
      )
      .update({ locale: 'en' });
    await app.drainJobs();
    const waitingIds = new Set(waiting.map((r) => r.clientId));
    for (const c of clients) {
      const subjects = app.mail.filter((m) => m.to === c.user.email).map((m) => m.subject.split(':')[0]);
      const expected = booked.has(c.user.id) ? ['Booked'] : waitingIds.has(c.user.id) ? ['Waiting list'] : [];
      expect(subjects, c.user.firstName).toEqual(expected);
    }

    // The timetable agrees.
    const list = await owner.get(`/api/v4/${t.studio.id}/schedule-event/${t.eventId}/enrollments/init`);
    expect(list.body).toMatchObject({ taken: 20, placesLeft: 0, waitingPlacesLeft: 0 });
    expect(list.body.waitingList.map((v: { waitingPosition: number }) => v.waitingPosition)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
  }, 180_000);

  it('one client firing the same booking five times gets one place; a last entry is spent once', async () => {
    const t = await bookingStudio(app, START, { capacity: 20, waitingListSize: 0 });
    const me = await sessionClient(app, t.client.id);
    const same = await Promise.all(
      Array.from({ length: 5 }, () => me.post(book(t.studio.id), { scheduleEventId: t.eventId })),
    );
    expect(same.filter((a) => a.status === 200)).toHaveLength(1);
    expect(
      same.filter((a) => a.status === 409).every((a) => a.body.error.key === 'visit.alreadyBooked'),
    ).toBe(true);

    // A pass with one entry left, two different classes booked at once: one gets it, one is refused.
    const { user } = await t.addClient(false, 'One');
    const pass = await t.addPass(user.id, 1);
    const other = await t.addEvent(new Date(START.getTime() + 2 * 3_600_000));
    const one = await sessionClient(app, user.id);
    const both = await Promise.all([
      one.post(book(t.studio.id), { scheduleEventId: t.eventId }),
      one.post(book(t.studio.id), { scheduleEventId: other }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(both.find((a) => a.status === 409)!.body.error.key).toBe('visit.noPass');
    const owner = await sessionClient(app, t.manager.id);
    expect(await entriesUsed(owner, t.studio.id, user.id, pass)).toBe(1);
  }, 60_000);
});
