import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { addJuneCourse, bookingStudio, entriesUsed, sessionClient } from './bookings-fixtures';

/**
 * Courses booked as a whole (front office `courses`, `booking/course/book|cancel`, v4
 * `schedule-meta/{…}/schedule-events` and `enrollments/init`) and client enrollments: reconcile,
 * make unpaid, the client's enrollments, unlock (livestream link) and waiting time.
 */
const { app, clock } = useBookingsApp(120_000);
const DAY = 24 * 3_600_000;

/** A studio with a 3-class course "Beginners' course" (10, 17, 24 June, 4 places) beside the Vinyasa class. */
async function courseStudio() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, { capacity: 2, waitingListSize: 2 });
  const owner = await sessionClient(app, st.manager.id);
  const me = await sessionClient(app, st.client.id);
  await app.knex('users').where({ id: st.client.id }).update({ lastName: 'Abacka' });
  const course = await addJuneCourse(app, st, {
    name: { en: { value: "Beginners' course" } },
    bookableOnline: true,
  });
  return { ...st, owner, me, ...course };
}

describe('courses', () => {
  it('a client books a whole course (an entry per class), sees it, and cancels it', async () => {
    const t = await courseStudio();
    const list = await t.me.post(v4(t.studio, 'courses'), {});
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        scheduleMetaId: t.courseMetaId,
        sessions: 3,
        placesLeft: 4,
        enrolled: false,
        canBook: true,
      }),
    ]);
    expect((await t.me.post(v4(t.studio, 'courses'), { scope: 'mine' })).body.items).toEqual([]);
    // One class of a course alone: refused to the client (and the public API), allowed to staff.
    const single = await t.me.post(v4(t.studio, 'booking/classroom/book'), {
      scheduleEventId: t.courseEvents[0],
    });
    expect(single.status).toBe(409);
    expect(single.body.error).toMatchObject({ key: 'course.bookAsWhole', code: 2110 });

    const book = await t.me.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: t.courseMetaId });
    expect(book.status, book.text).toBe(200);
    expect(book.body.outcome).toBe('booked');
    expect(book.body.visits.map((v: { event: { id: string } }) => v.event.id)).toEqual(t.courseEvents);
    expect(book.body.course).toMatchObject({ enrolled: true, myVisits: 3, placesLeft: 3, canBook: false });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(3);
    // Booking twice is refused.
    const again = await t.me.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: t.courseMetaId });
    expect(again.status).toBe(409);
    expect(again.body.error.fields.scheduleMetaId[0]).toContain('already booked');

    // Staff see the course attendance.
    const att = await t.owner.get(v4(t.studio, `schedule-meta/${t.courseMetaId}/enrollments/init`));
    expect(att.status, att.text).toBe(200);
    expect(att.body.events.map((e: { taken: number }) => e.taken)).toEqual([1, 1, 1]);
    expect(att.body.clients).toEqual([expect.objectContaining({ id: t.client.id, booked: 3, cancelled: 0 })]);
    const evs = await t.owner.get(v4(t.studio, `schedule-meta/${t.courseMetaId}/schedule-events`));
    expect(evs.body.items.map((e: { id: string }) => e.id)).toEqual(t.courseEvents);

    // Cancelling on 10 June at noon: the first class is within its 24-hour cut-off (late), the others early.
    clock.set(new Date('2026-06-10T10:00:00Z'));
    const cancel = await t.me.post(v4(t.studio, 'booking/course/cancel'), { scheduleMetaId: t.courseMetaId });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body).toMatchObject({ outcome: 'cancelled', late: 1 });
    expect(cancel.body.visits.map((v: { status: number }) => v.status)).toEqual([6, 4, 4]);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);
    const none = await t.me.post(v4(t.studio, 'booking/course/cancel'), { scheduleMetaId: t.courseMetaId });
    expect(none.status).toBe(409);
  });

  it('is all or nothing: a pass with too few entries books no class; a started course is closed', async () => {
    const t = await courseStudio();
    const poor = await t.addClient(false, 'Poor');
    await t.addPass(poor.user.id, 2);
    const client = await sessionClient(app, poor.user.id);
    const res = await client.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: t.courseMetaId });
    expect(res.status).toBe(409);
    expect(res.body.error.key).toBe('visit.noPass');
    expect(res.body.error.fields.scheduleMetaId[0]).toContain('2026-06-24');
    expect(await app.knex('client_visits').where({ clientId: poor.user.id })).toHaveLength(0);

    // A classroom meta is not a course.
    const notCourse = await t.me.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: t.metaId });
    expect(notCourse.status).toBe(400);
    expect(notCourse.body.error.fields.scheduleMetaId).toBeDefined();

    clock.set(new Date(new Date('2026-06-10T16:30:00Z')));
    const late = await t.me.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: t.courseMetaId });
    expect(late.status).toBe(409);
    expect(late.body.error.key).toBe('course.notStartable');
    const list = await t.me.post(v4(t.studio, 'courses'), {});
    expect(list.body.items[0]).toMatchObject({ sessions: 2, canBook: false });
  });
});

describe('client enrollments', () => {
  it('make unpaid gives the entry back; reconcile pays with a pass bought later', async () => {
    const t = await courseStudio();
    const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const visitId = book.body.visit.id as string;
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);

    const unpaid = await t.owner.post(v4(t.studio, 'client-enrollment/make-unpaid'), {
      clientVisitIds: [visitId],
    });
    expect(unpaid.status, unpaid.text).toBe(200);
    expect(unpaid.body.items[0]).toMatchObject({ id: visitId, status: 9, payment: 'desk', pass: null });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(0);
    // Twice: nothing paid it any more.
    const twice = await t.owner.post(v4(t.studio, 'client-enrollment/make-unpaid'), {
      clientVisitIds: [visitId],
    });
    expect(twice.status).toBe(409);
    expect(Object.keys(twice.body.error.fields)).toEqual(['clientVisitIds.0']);

    // The client lists it as unpaid, and reconciles it with the pass they still hold.
    const mine = await t.me.post(v4(t.studio, 'enrollments'), { filter: 'unpaid' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.items.map((v: { id: string }) => v.id)).toEqual([visitId]);
    const rec = await t.me.post(v4(t.studio, 'enrollments/reconcile'), {});
    expect(rec.status, rec.text).toBe(200);
    expect(rec.body.reconciled).toEqual([
      expect.objectContaining({ id: visitId, status: 0, payment: 'pass' }),
    ]);
    expect(rec.body.unpaid).toEqual([]);
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(1);
    expect((await t.me.post(v4(t.studio, 'enrollments'), { filter: 'unpaid' })).body.items).toEqual([]);
    expect(
      (await t.me.post(v4(t.studio, 'enrollments'), {})).body.items.map((v: { id: string }) => v.id),
    ).toEqual([visitId]);

    // Staff reconcile: a client with no pass stays unpaid until one is sold.
    const bare = await t.addClient(false, 'Bare');
    const enrol = await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/enrollment/enroll`), {
      clientId: bare.user.id,
      payAtDesk: true,
    });
    expect(enrol.body.visit.status).toBe(9);
    const path = v4(t.studio, `client/${bare.user.id}/client-enrollment/reconcile`);
    const still = await t.owner.post(path, {});
    expect(still.status, still.text).toBe(200);
    expect(still.body).toMatchObject({ reconciled: [], unpaid: [expect.objectContaining({ status: 9 })] });
    const pass = await t.addPass(bare.user.id, 5);
    const paid = await t.owner.post(path, { clientVisitIds: [enrol.body.visit.id] });
    expect(paid.body.reconciled).toEqual([
      expect.objectContaining({ status: 0, pass: expect.objectContaining({ id: pass }) }),
    ]);
    expect(await entriesUsed(t.owner, t.studio.id, bare.user.id, pass)).toBe(1);
    // Another client's visit is not this client's to reconcile.
    expect((await t.owner.post(path, { clientVisitIds: [visitId] })).status).toBe(404);
  });

  it('unlock gives a paid attendee the livestream link from 15 minutes before the class', async () => {
    const t = await courseStudio();
    const book = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId });
    const visitId = book.body.visit.id as string;
    const unlock = () => t.me.post(v4(t.studio, 'enrollments/unlock'), { clientVisitId: visitId });
    expect((await unlock()).body.error.key).toBe('visit.noLivestream');
    await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}/livestream`, {
      url: 'https://meet.example.com/vinyasa',
    });
    const early = await unlock();
    expect(early.status).toBe(409);
    expect(early.body.error.key).toBe('visit.tooEarly');
    clock.set(new Date(START.getTime() - 10 * 60_000));
    const open = await unlock();
    expect(open.status, open.text).toBe(200);
    expect(open.body).toMatchObject({
      clientVisitId: visitId,
      livestreamUrl: 'https://meet.example.com/vinyasa',
    });
    // Unpaid: pay first.
    await t.owner.post(v4(t.studio, 'client-enrollment/make-unpaid'), { clientVisitIds: [visitId] });
    expect((await unlock()).body.error.fields.clientVisitId[0]).toContain('pay');
    // Someone else's visit is not found.
    const other = await sessionClient(app, (await t.addClient(true, 'Other')).user.id);
    expect((await other.post(v4(t.studio, 'enrollments/unlock'), { clientVisitId: visitId })).status).toBe(
      404,
    );
  });

  it("waiting-time says the client's place, who is ahead and when promotion stops", async () => {
    const t = await courseStudio();
    const a = await sessionClient(app, (await t.addClient(true, 'Ala')).user.id);
    const b = await sessionClient(app, (await t.addClient(true, 'Bea')).user.id);
    const c = await sessionClient(app, (await t.addClient(true, 'Cyd')).user.id);
    for (const who of [t.me, a, b, c])
      expect(
        (await who.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: t.eventId })).status,
      ).toBe(200);
    const res = await c.post(v4(t.studio, 'waiting-time'), {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        position: 2,
        ahead: 1,
        capacity: 2,
        taken: 2,
        promotionClosesAt: new Date(START.getTime() - 60 * 60_000).toISOString(),
        typicalFreedPlaces: null,
        chance: 'unknown',
      }),
    ]);
    expect(res.body.items[0].event.id).toBe(t.eventId);
    // A past class of the series where two people cancelled: two freed places is "good" for one ahead.
    const past = await t.addEvent(new Date(NOW.getTime() - 2 * DAY));
    for (const status of [4, 6])
      await app.knex('client_visits').insert({
        id: uuidv7(),
        studioId: t.studio.id,
        scheduleEventId: past,
        clientId: (await t.addClient(false, 'Gone')).user.id,
        startsAt: new Date(NOW.getTime() - 2 * DAY),
        status,
        payment: 'free',
        bookedBy: 'self',
        bookedAt: new Date(NOW.getTime() - 3 * DAY),
        cancelledAt: new Date(NOW.getTime() - 3 * DAY),
      });
    const again = await c.post(v4(t.studio, 'waiting-time'), { scheduleEventId: t.eventId });
    expect(again.body.items[0]).toMatchObject({ typicalFreedPlaces: 2, chance: 'good' });
    expect((await t.me.post(v4(t.studio, 'waiting-time'), {})).body.items).toEqual([]);
  });
});

describe('every route: 401, 400, 403, 404 and another studio', () => {
  it('answers as the standards say', async () => {
    const t = await courseStudio();
    const anon = await HttpClient.anonymous(app.url);
    const accountant = await sessionClient(app, (await t.addStaff('accountant')).id);
    const staff: Array<{
      method: 'GET' | 'POST';
      path: string;
      body?: unknown;
      bad?: { body: unknown; fields: string[] };
    }> = [
      { method: 'GET', path: v4(t.studio, `schedule-meta/${t.courseMetaId}/schedule-events`) },
      { method: 'GET', path: v4(t.studio, `schedule-meta/${t.courseMetaId}/enrollments/init`) },
      {
        method: 'POST',
        path: v4(t.studio, `client/${t.client.id}/client-enrollment/reconcile`),
        body: {},
        bad: { body: { clientVisitIds: ['x'] }, fields: ['clientVisitIds.0'] },
      },
      {
        method: 'POST',
        path: v4(t.studio, 'client-enrollment/make-unpaid'),
        body: { clientVisitIds: [uuidv7()] },
        bad: { body: { clientVisitIds: [] }, fields: ['clientVisitIds'] },
      },
    ];
    for (const r of staff) {
      expect((await anon.request(r.method, r.path, r.body)).status, `${r.path} anonymous`).toBe(401);
      if (r.bad) {
        const bad = await t.owner.request(r.method, r.path, r.bad.body);
        expect(bad.status, `${r.path} bad`).toBe(400);
        expect(Object.keys(bad.body.error.fields).sort()).toEqual(r.bad.fields);
      }
      for (const who of [accountant, t.me])
        expect((await who.request(r.method, r.path, r.body)).status, r.path).toBe(403);
      await expectHiddenFromOtherStudio(app, { method: r.method, path: r.path, body: r.body }, ['Abacka']);
    }
    // make-unpaid of an unknown visit: 404.
    expect((await t.owner.post(staff[3]!.path, staff[3]!.body)).status).toBe(404);
    const unknown = '0190a000-0000-7000-8000-000000000000';
    expect((await t.owner.get(v4(t.studio, `schedule-meta/${unknown}/enrollments/init`))).status).toBe(404);
    expect(
      (await t.owner.post(v4(t.studio, `client/${unknown}/client-enrollment/reconcile`), {})).status,
    ).toBe(404);

    const client: Array<{ path: string; body: unknown; bad: { body: unknown; fields: string[] } }> = [
      { path: 'courses', body: {}, bad: { body: { scope: 'all' }, fields: ['scope'] } },
      {
        path: 'booking/course/book',
        body: { scheduleMetaId: unknown },
        bad: { body: {}, fields: ['scheduleMetaId'] },
      },
      {
        path: 'booking/course/cancel',
        body: { scheduleMetaId: unknown },
        bad: { body: { scheduleMetaId: 1 }, fields: ['scheduleMetaId'] },
      },
      { path: 'enrollments', body: {}, bad: { body: { filter: 'x' }, fields: ['filter'] } },
      {
        path: 'enrollments/reconcile',
        body: {},
        bad: { body: { clientVisitIds: 'x' }, fields: ['clientVisitIds'] },
      },
      {
        path: 'enrollments/unlock',
        body: { clientVisitId: unknown },
        bad: { body: {}, fields: ['clientVisitId'] },
      },
      {
        path: 'waiting-time',
        body: {},
        bad: { body: { scheduleEventId: 'x' }, fields: ['scheduleEventId'] },
      },
    ];
    for (const r of client) {
      const path = v4(t.studio, r.path);
      expect((await anon.post(path, r.body)).status, `${r.path} anonymous`).toBe(401);
      const bad = await t.me.post(path, r.bad.body);
      expect(bad.status, `${r.path} bad`).toBe(400);
      expect(Object.keys(bad.body.error.fields).sort()).toEqual(r.bad.fields);
      // Another studio's client (or staff) gets nothing of this studio.
      await expectHiddenFromOtherStudio(app, { method: 'POST', path, body: r.body }, ['Abacka', 'Beginners']);
    }
    // Unknown course / visit: 404 for the client.
    expect((await t.me.post(v4(t.studio, 'booking/course/book'), { scheduleMetaId: unknown })).status).toBe(
      404,
    );
    expect((await t.me.post(v4(t.studio, 'enrollments/unlock'), { clientVisitId: unknown })).status).toBe(
      404,
    );
    expect((await t.me.post(v4(t.studio, 'waiting-time'), { scheduleEventId: unknown })).status).toBe(404);
  });
});
