import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { addJuneCourse, bookingStudio, entriesUsed, sessionClient } from './bookings-fixtures';

/**
 * The back office's course pages: the course list (`course/course/init`), staff signing a client up
 * for a whole course (`course/{meta}/signup/preview` and `/confirm`), the course attendance list's
 * order (`schedule-meta/{meta}/enrollments/init?field&method`), and §2's `integration` action.
 */
const { app, clock } = useBookingsApp(120_000);

/** A studio with a 3-class course (10, 17, 24 June, 4 places) priced by a course pass, beside a Vinyasa class. */
async function courseStudio() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, { capacity: 2, waitingListSize: 2 });
  const owner = await sessionClient(app, st.manager.id);
  const course = await addJuneCourse(app, st, {
    name: { en: { value: 'Pottery course' }, pl: { value: 'Kurs ceramiki' } },
    bookableOnline: false,
    priceByPass: true,
  });
  return { ...st, owner, ...course };
}

/** The booking mails a client got once the worker performed the jobs enqueued so far. */
const mails = async (email: string) => {
  await app.drainJobs();
  return app.mail.filter((m) => m.to === email);
};

describe('course signup by staff', () => {
  it('previews class by class (nothing kept), then books the whole course in one go', async () => {
    const t = await courseStudio();
    const { user } = await t.addClient(false, 'Ola');
    const pass = await t.addPass(user.id, 2);
    const signup = (step: 'preview' | 'confirm', body: unknown) =>
      t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/${step}`), body);

    // Auto: the pass's two entries pay the first two classes, the third is owed at the desk.
    const preview = await signup('preview', { clientId: user.id });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.client).toMatchObject({ id: user.id, firstName: 'Ola' });
    expect(preview.body.course).toMatchObject({ scheduleMetaId: t.courseMetaId, sessions: 3, enrolled: 0 });
    expect(preview.body.prices).toEqual([
      expect.objectContaining({ pricingOptionId: t.optionId, price: 30000, currency: 'PLN' }),
    ]);
    expect(preview.body.canConfirm).toBe(true);
    type Row = {
      scheduleEventId: string;
      visit: { payment: string; status: number; pass: { id: string } | null };
    };
    expect(preview.body.classes.map((c: Row) => c.scheduleEventId)).toEqual(t.courseEvents);
    expect(
      preview.body.classes.map((c: Row) => [c.visit.payment, c.visit.status, c.visit.pass?.id ?? null]),
    ).toEqual([
      ['pass', 0, pass],
      ['pass', 0, pass],
      ['desk', 9, null],
    ]);
    // A preview keeps nothing: no visit, no entry spent, no mail.
    expect(await app.knex('client_visits').where({ clientId: user.id })).toHaveLength(0);
    expect(await entriesUsed(t.owner, t.studio.id, user.id, pass)).toBe(0);
    expect(await mails(user.email)).toHaveLength(0);

    // Only that pass: the third class refuses, so the course cannot be confirmed that way.
    const onlyPass = await signup('preview', {
      clientId: user.id,
      payment: 'pass',
      clientPricingOptionId: pass,
    });
    expect(onlyPass.status, onlyPass.text).toBe(200);
    expect(onlyPass.body.canConfirm).toBe(false);
    expect(onlyPass.body.classes[2]).toMatchObject({ visit: null, refusal: { key: 'visit.noPass' } });
    const refused = await signup('confirm', {
      clientId: user.id,
      payment: 'pass',
      clientPricingOptionId: pass,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('visit.noPass');
    expect(refused.body.error.fields.scheduleMetaId[0]).toContain('2026-06-24');
    expect(await app.knex('client_visits').where({ clientId: user.id })).toHaveLength(0);

    // Desk: every class owed.
    const desk = await signup('preview', { clientId: user.id, payment: 'desk' });
    expect(desk.body.classes.map((c: Row) => c.visit.payment)).toEqual(['desk', 'desk', 'desk']);

    // Confirm (auto): three visits, booked by staff, two entries used, one mail per class.
    const done = await signup('confirm', { clientId: user.id });
    expect(done.status, done.text).toBe(200);
    expect(done.body.outcome).toBe('unconfirmed');
    expect(done.body.visits.map((v: { status: number; bookedBy: string }) => [v.status, v.bookedBy])).toEqual(
      [
        [0, 'staff'],
        [0, 'staff'],
        [9, 'staff'],
      ],
    );
    expect(await entriesUsed(t.owner, t.studio.id, user.id, pass)).toBe(2);
    expect(await mails(user.email)).toHaveLength(3);
    const list = await t.owner.get(v4(t.studio, 'course/course/init'));
    expect(list.body.items).toEqual([
      expect.objectContaining({ scheduleMetaId: t.courseMetaId, enrolled: 1, placesLeft: 3, started: false }),
    ]);
    // Twice: refused as already booked, on the course's field.
    const again = await signup('confirm', { clientId: user.id });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('visit.alreadyBooked');
    expect(Object.keys(again.body.error.fields)).toEqual(['scheduleMetaId']);
  });

  it('staff may sign up for what is left of a started course; a full class refuses it all', async () => {
    const t = await courseStudio();
    clock.set(new Date('2026-06-12T10:00:00Z'));
    const { user } = await t.addClient(true, 'Late');
    const preview = await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/preview`), {
      clientId: user.id,
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.course).toMatchObject({ started: true, sessions: 2 });
    expect(preview.body.classes.map((c: { scheduleEventId: string }) => c.scheduleEventId)).toEqual(
      t.courseEvents.slice(1),
    );
    await app.knex('schedule_events').where({ id: t.courseEvents[2] }).update({ capacity: 0 });
    const full = await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/preview`), {
      clientId: user.id,
    });
    expect(full.body.canConfirm).toBe(false);
    expect(full.body.classes[1].refusal.key).toBe('visit.classFull');
    const confirm = await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/confirm`), {
      clientId: user.id,
    });
    expect(confirm.status).toBe(409);
    expect(confirm.body.error.key).toBe('visit.classFull');
    expect(await app.knex('client_visits').where({ clientId: user.id })).toHaveLength(0);
  });

  it('the course list: upcoming courses, or all of them', async () => {
    const t = await courseStudio();
    const upcoming = await t.owner.get(v4(t.studio, 'course/course/init'));
    expect(upcoming.status, upcoming.text).toBe(200);
    expect(upcoming.body.items).toEqual([
      expect.objectContaining({
        scheduleMetaId: t.courseMetaId,
        sessions: 3,
        classesTotal: 3,
        placesLeft: 4,
        enrolled: 0,
        started: false,
        firstDate: '2026-06-10',
        lastDate: '2026-06-24',
      }),
    ]);
    clock.set(new Date('2026-07-01T10:00:00Z'));
    expect((await t.owner.get(v4(t.studio, 'course/course/init'))).body.items).toEqual([]);
    const all = await t.owner.get(v4(t.studio, 'course/course/init?scope=all'));
    expect(all.body.items).toEqual([
      expect.objectContaining({ scheduleMetaId: t.courseMetaId, sessions: 0 }),
    ]);
  });
});

describe('course attendance list', () => {
  it('sorts by field (default firstName) and method (default ASC), with each client’s visits', async () => {
    const t = await courseStudio();
    const zofia = await t.addClient(true, 'Zofia');
    const anna = await t.addClient(true, 'Anna');
    // The studio's record of each client (the list reads it); Ż sorts as Z, after A.
    await app.knex('clients').where({ userId: zofia.user.id }).update({ lastName: 'Adamska' });
    await app.knex('clients').where({ userId: anna.user.id }).update({ lastName: 'Żelazna' });
    for (const c of [zofia, anna])
      expect(
        (await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/confirm`), { clientId: c.user.id }))
          .status,
      ).toBe(200);
    const base = v4(t.studio, `schedule-meta/${t.courseMetaId}/enrollments/init`);
    const names = async (query: string) => {
      const res = await t.owner.get(`${base}${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body.clients.map((c: { firstName: string }) => c.firstName);
    };
    expect(await names('')).toEqual(['Anna', 'Zofia']);
    expect(await names('?method=DESC')).toEqual(['Zofia', 'Anna']);
    expect(await names('?field=lastName')).toEqual(['Zofia', 'Anna']);
    expect(await names('?field=lastName&method=desc')).toEqual(['Anna', 'Zofia']);
    const res = await t.owner.get(base);
    expect(res.body.clients[0].visits).toEqual(
      t.courseEvents.map((id) => ({ scheduleEventId: id, status: 0 })),
    );
    const bad = await t.owner.get(`${base}?field=shoeSize&method=UP`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['query.field', 'query.method']);
  });
});

describe('every new route: 401, 400, 403, 404 and another studio', () => {
  it('answers as the standards say', async () => {
    const t = await courseStudio();
    const anon = await HttpClient.anonymous(app.url);
    const instructor = await sessionClient(app, (await t.addStaff('instructor')).id);
    const accountant = await sessionClient(app, (await t.addStaff('accountant')).id);
    const me = await sessionClient(app, t.client.id);
    const routes: Array<{
      method: 'GET' | 'POST';
      path: string;
      body?: unknown;
      bad: unknown;
      /** a role that lacks the ability */
      denied: HttpClient;
    }> = [
      { method: 'GET', path: v4(t.studio, 'course/course/init'), bad: 'scope=soon', denied: accountant },
      {
        method: 'POST',
        path: v4(t.studio, `course/${t.courseMetaId}/signup/preview`),
        body: { clientId: t.client.id },
        bad: { clientId: 'x', payment: 'pass' },
        denied: instructor,
      },
      {
        method: 'POST',
        path: v4(t.studio, `course/${t.courseMetaId}/signup/confirm`),
        body: { clientId: t.client.id },
        bad: { clientId: t.client.id, payment: 'pass' },
        denied: instructor,
      },
      {
        method: 'GET',
        path: v4(t.studio, `schedule-meta/${t.courseMetaId}/enrollments/init`),
        bad: 'field=x',
        denied: accountant,
      },
      {
        method: 'POST',
        path: `/api/v2/${t.studio.id}/schedule-events/${t.courseEvents[0]}/integration`,
        body: { url: 'https://meet.example.com/pottery' },
        bad: { url: 'not a link' },
        denied: instructor,
      },
    ];
    for (const r of routes) {
      expect((await anon.request(r.method, r.path, r.body)).status, `${r.path} anonymous`).toBe(401);
      const bad =
        r.method === 'GET'
          ? await t.owner.get(`${r.path}?${r.bad as string}`)
          : await t.owner.post(r.path, r.bad);
      expect(bad.status, `${r.path} bad input`).toBe(400);
      expect(Object.keys(bad.body.error.fields ?? {}).length, `${r.path} field errors`).toBeGreaterThan(0);
      expect((await r.denied.request(r.method, r.path, r.body)).status, `${r.path} without the ability`).toBe(
        403,
      );
      expect((await me.request(r.method, r.path, r.body)).status, `${r.path} client`).toBe(403);
      await expectHiddenFromOtherStudio(app, { method: r.method, path: r.path, body: r.body }, [
        t.courseMetaId,
      ]);
    }
    // The pass picked must be the client's; a pass mode without a pass is a field error.
    const bad = await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/preview`), {
      clientId: t.client.id,
      payment: 'pass',
    });
    expect(bad.body.error.fields.clientPricingOptionId).toBeDefined();
    const notMine = await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/preview`), {
      clientId: t.client.id,
      payment: 'pass',
      clientPricingOptionId: uuidv7(),
    });
    expect(notMine.status).toBe(400);
    expect(notMine.body.error.fields.clientPricingOptionId).toBeDefined();
    // Unknown course, a classroom meta, another studio's client.
    const unknown = await t.owner.post(v4(t.studio, `course/${uuidv7()}/signup/preview`), {
      clientId: t.client.id,
    });
    expect(unknown.status).toBe(404);
    const classroom = await t.owner.post(v4(t.studio, `course/${t.metaId}/signup/confirm`), {
      clientId: t.client.id,
    });
    expect(classroom.status).toBe(400);
    expect(classroom.body.error.fields.scheduleMetaId).toBeDefined();
    const other = await courseStudio();
    for (const step of ['preview', 'confirm'])
      expect(
        (
          await t.owner.post(v4(t.studio, `course/${t.courseMetaId}/signup/${step}`), {
            clientId: other.client.id,
          })
        ).status,
      ).toBe(404);
    // Another studio's course through this studio's path.
    expect(
      (
        await t.owner.post(v4(t.studio, `course/${other.courseMetaId}/signup/preview`), {
          clientId: t.client.id,
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.owner.get(v4(t.studio, `schedule-meta/${other.courseMetaId}/enrollments/init`))).status,
    ).toBe(404);
    expect(await app.knex('client_visits').where({ clientId: t.client.id })).toHaveLength(0);

    // integration: sets the class's online room link (the livestream link clients unlock).
    const linked = await t.owner.post(
      `/api/v2/${t.studio.id}/schedule-events/${t.courseEvents[0]}/integration`,
      {
        url: 'https://meet.example.com/pottery',
      },
    );
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body).toMatchObject({
      id: t.courseEvents[0],
      livestreamUrl: 'https://meet.example.com/pottery',
    });
    const unlinked = await t.owner.post(
      `/api/v2/${t.studio.id}/schedule-events/${t.courseEvents[0]}/integration`,
      {
        url: null,
      },
    );
    expect(unlinked.body.livestreamUrl).toBeNull();
    expect(
      (
        await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${other.courseEvents[0]}/integration`, {
          url: null,
        })
      ).status,
    ).toBe(404);
  });
});
