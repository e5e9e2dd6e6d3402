import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/domain/clients';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * Staff tools on a class's attendees (spec §7 v4 schedule): the list as a spreadsheet
 * (`enrollments/export`), a message to everyone on it (`enrollments/send-notification`), and the
 * cancelled bookings of a range of days (`schedule-event-cancellation/collection`).
 */
const { app, clock } = useBookingsApp();

/** A class with Julia (pass) booked, Bogna booked, Cezary waiting and Dorota who cancelled. */
async function fullClass() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, { capacity: 2, waitingListSize: 2 });
  const owner = await sessionClient(app, st.manager.id);
  const me = await sessionClient(app, st.client.id);
  await app.knex('users').where({ id: st.client.id }).update({ lastName: 'Abacka', locale: 'en' });
  const people = {
    bogna: await st.addClient(true, 'Bogna'),
    cezary: await st.addClient(true, 'Cezary'),
    dorota: await st.addClient(true, 'Dorota'),
  };
  const book = async (c: HttpClient) =>
    (await c.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId })).body;
  await book(me);
  const dorota = await sessionClient(app, people.dorota.user.id);
  const dv = await book(dorota);
  await book(await sessionClient(app, people.bogna.user.id));
  await dorota.post(v4(st.studio, 'booking/classroom/cancel'), { clientVisitId: dv.visit.id });
  await book(await sessionClient(app, people.bogna.user.id));
  const waiting = await book(await sessionClient(app, people.cezary.user.id));
  expect(waiting.outcome).toBe('waitingList');
  return { ...st, owner, me, people };
}

describe('attendee list export', () => {
  it('is a CSV in the studio’s language: attendees, then the waiting list, then cancellations', async () => {
    const t = await fullClass();
    const res = await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/enrollments/export`), {});
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="attendees-2026-06-03.csv"');
    // The factories' studios speak Polish: ';' and Polish headers and labels.
    const rows = parseCsv(res.text, ';');
    expect(rows[0]).toEqual([
      'Nazwisko',
      'Imię',
      'E-mail',
      'Status',
      'Miejsce na liście rezerwowej',
      'Płatność',
      'Zapis',
      'Data zapisu',
      'Data wejścia',
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[4], r[5]])).toEqual([
      [t.client.firstName, 'Zarezerwowany', '', 'Karnet 10'],
      ['Bogna', 'Zarezerwowany', '', 'Karnet 10'],
      // Waiting and cancelled bookings name the pass they are (were) on.
      ['Cezary', 'Lista rezerwowa', '1', 'Karnet 10'],
      ['Dorota', 'Wczesne odwołanie przez klienta', '', 'Karnet 10'],
    ]);
    const comma = await t.owner.post(v4(t.studio, `schedule-event/${t.eventId}/enrollments/export`), {
      delimiter: ',',
    });
    expect(parseCsv(comma.text, ',')[1]![0]).toBe('Abacka');
  });
});

describe('a message to everyone on a class', () => {
  it('tells the people with a place (and the waiting list when asked) by e-mail and in the app', async () => {
    const t = await fullClass();
    const path = v4(t.studio, `schedule-event/${t.eventId}/enrollments/send-notification`);
    const sent = await t.owner.post(path, { message: '  Room 2 today, the main room is being painted.  ' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ notified: 2 });
    await app.drainJobs();
    const mail = app.mail.filter((m) => m.to === t.client.email).at(-1)!;
    expect(mail.subject).toBe('Message about Vinyasa, Wednesday, 3 June 2026 18:00');
    expect(mail.text).toContain('\n\nRoom 2 today, the main room is being painted.\n');
    const inbox = await t.me.get(v4(t.studio, 'user-notification/all'));
    expect(inbox.body.items[0]).toMatchObject({
      titleKey: 'bookings:notifications.eventMessage',
      values: { className: 'Vinyasa', message: 'Room 2 today, the main room is being painted.' },
    });
    const toCezary = () =>
      app.mail.filter((m) => m.to === t.people.cezary.user.email && m.subject.startsWith('Wiadomość'));
    const toDorota = () => app.mail.filter((m) => m.to === t.people.dorota.user.email);
    expect(toCezary()).toEqual([]);
    const dorotaBefore = toDorota().length;
    const all = await t.owner.post(path, { message: 'See you!', includeWaitingList: true });
    expect(all.body).toEqual({ notified: 3 });
    await app.drainJobs();
    expect(toCezary()).toHaveLength(1);
    // Someone who cancelled is not told.
    expect(toDorota()).toHaveLength(dorotaBefore);
  });
});

describe('cancelled bookings of a range of days', () => {
  it('lists cancellations latest class first, page by page', async () => {
    const t = await fullClass();
    const later = await t.addEvent(new Date('2026-06-05T16:00:00Z'));
    const visit = await t.me.post(v4(t.studio, 'booking/classroom/book'), { scheduleEventId: later });
    await t.me.post(v4(t.studio, 'booking/classroom/cancel'), { clientVisitId: visit.body.visit.id });
    const path = v4(t.studio, 'schedule-event-cancellation/collection?from=2026-06-01&to=2026-06-07&limit=1');
    const first = await t.owner.get(path);
    expect(first.status, first.text).toBe(200);
    expect(
      first.body.items.map((v: { status: number; scheduleEventId: string }) => [v.scheduleEventId, v.status]),
    ).toEqual([[later, 4]]);
    const second = await t.owner.get(`${path}&cursor=${first.body.next}`);
    expect(second.body.items.map((v: { client: { firstName: string } }) => v.client.firstName)).toEqual([
      'Dorota',
    ]);
    expect(second.body.next).toBeNull();
    const outside = await t.owner.get(
      v4(t.studio, 'schedule-event-cancellation/collection?from=2026-06-04&to=2026-06-04'),
    );
    expect(outside.body.items).toEqual([]);
  });
});

describe('classes called off', () => {
  it('lists the classes the studio cancelled in a range of days, not the others', async () => {
    const t = await fullClass();
    const other = await t.addEvent(new Date('2026-06-04T16:00:00Z'));
    expect((await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}/cancel`)).status).toBe(
      200,
    );
    const path = v4(t.studio, 'schedule-call-off/collection?from=2026-06-01&to=2026-06-07');
    const res = await t.owner.get(path);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([
      [t.eventId, 'cancelled'],
    ]);
    expect(res.text).not.toContain(other);
    const filtered = await t.owner.get(`${path}&locationId=${t.locationId}`);
    expect(filtered.body.items).toHaveLength(1);
  });
});

describe('every route: 401, 400, 403, 404 and another studio', () => {
  it('answers as the standards say', async () => {
    const t = await fullClass();
    const anon = await HttpClient.anonymous(app.url);
    const accountant = await sessionClient(app, (await t.addStaff('accountant')).id);
    const instructor = await sessionClient(app, (await t.addStaff('instructor')).id);
    const e = t.eventId;
    const routes: Array<{
      method: 'GET' | 'POST';
      path: string;
      body?: unknown;
      bad: { path?: string; body?: unknown; fields: string[] };
      /** A role with the module's reading but not this route's ability. */
      denied?: HttpClient;
    }> = [
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/enrollments/export`),
        body: {},
        bad: { body: { delimiter: '|' }, fields: ['delimiter'] },
      },
      {
        method: 'POST',
        path: v4(t.studio, `schedule-event/${e}/enrollments/send-notification`),
        body: { message: 'Hello' },
        bad: {
          body: { message: '   ', includeWaitingList: 'yes' },
          fields: ['includeWaitingList', 'message'],
        },
        denied: instructor,
      },
      {
        method: 'GET',
        path: v4(t.studio, 'schedule-event-cancellation/collection?from=2026-06-01&to=2026-06-07'),
        bad: {
          path: v4(t.studio, 'schedule-event-cancellation/collection?from=2026-06-07&to=2026-06-01'),
          fields: ['query.to'],
        },
      },
      {
        method: 'GET',
        path: v4(t.studio, 'schedule-call-off/collection?from=2026-06-01&to=2026-06-07'),
        bad: {
          path: v4(t.studio, 'schedule-call-off/collection?from=June&to=2026-06-01&locationId=1'),
          fields: ['query.from', 'query.locationId'],
        },
      },
    ];
    for (const r of routes) {
      expect((await anon.request(r.method, r.path, r.body)).status, `${r.path} anonymous`).toBe(401);
      const bad = await t.owner.request(r.method, r.bad.path ?? r.path, r.bad.body);
      expect(bad.status, `${r.path} bad input`).toBe(400);
      expect(Object.keys(bad.body.error.fields).sort()).toEqual(r.bad.fields);
      for (const who of [accountant, t.me, ...(r.denied ? [r.denied] : [])])
        expect((await who.request(r.method, r.path, r.body)).status, `${r.path} denied`).toBe(403);
      await expectHiddenFromOtherStudio(app, { method: r.method, path: r.path, body: r.body }, ['Abacka']);
      expect((await t.owner.request(r.method, r.path, r.body)).status, `${r.path} owner`).toBe(200);
    }
    // An unknown class is 404 for the class routes.
    const unknown = '0190a000-0000-7000-8000-000000000000';
    expect(
      (await t.owner.post(v4(t.studio, `schedule-event/${unknown}/enrollments/export`), {})).status,
    ).toBe(404);
    expect(
      (
        await t.owner.post(v4(t.studio, `schedule-event/${unknown}/enrollments/send-notification`), {
          message: 'x',
        })
      ).status,
    ).toBe(404);
  });
});
