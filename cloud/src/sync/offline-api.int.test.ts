import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { OfflineApi } from '../../../desktop/main/station/offline-api';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import {
  BookingResultSchema,
  ClientVisitListSchema,
  ClientVisitSchema,
  EventEnrollmentsSchema,
} from '../../../shared/contracts/api/bookings';
import {
  ClientCheckExistenceResultSchema,
  ClientCreateResultSchema,
  ClientDetailSchema,
  ClientEditInitSchema,
  ClientListSchema,
  ClientProfileSchema,
  ClientSearchResultSchema,
} from '../../../shared/contracts/api/clients';
import { SyncNotices } from '../../../desktop/main/sync/notices';
import { ScheduleEventListSchema } from '../../../shared/contracts/api/schedule';
import type { ApiRequestInput } from '../../../shared/contracts/ipc';
import { ClientVisitStatus } from '../../../shared/enums/visits';
import { AppError } from '../../../shared/errors';
import { useSyncApp } from './sync.test-support';
import { bookingStudio } from '../modules/bookings/bookings-fixtures';

/**
 * The station's offline API (desktop/main/station/offline-api.ts) against a studio bootstrapped from
 * the real cloud: its answers parse with the same schemas the screens use and say what the cloud
 * says; the desk's writes become engine commands that reach the cloud once.
 */
const { app, dbFile } = useSyncApp('offline-api-');

async function setup(capacity = 5) {
  const st = await bookingStudio(app, new Date(Date.now() + 3 * 3_600_000), { capacity });
  const owner = await app.signedIn(st.manager.email, st.manager.password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const walkIn = await st.addClient(false, 'Zielińska');
  const regular = await st.addClient(true, 'Żak');
  const db = openLocalDatabase(dbFile());
  const engine = new SyncEngine(db);
  await engine.registerDevice(app.url, cookie, 'Recepcja');
  await engine.syncOnce();
  const offline = new OfflineApi(engine);
  const studio = st.studio.id;
  const userId = owner.session!.userId;
  /** What the cloud answers, kept by the station as it would from a forwarded call. */
  const online = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
    const res = method === 'GET' ? await owner.get(`/api/${p}`) : await owner.post(`/api/${p}`, body);
    expect(res.status, res.text).toBe(200);
    offline.remember(
      userId,
      studio,
      { method, path: p },
      {
        status: 200,
        contentType: 'application/json',
        contentDisposition: null,
        encoding: 'utf8',
        body: res.text,
      },
    );
    return res.body;
  };
  const local = (method: ApiRequestInput['method'], p: string, body?: unknown) => {
    const request: ApiRequestInput = {
      method,
      path: p,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    expect(offline.handles(request, studio)).toBe(true);
    const answer = offline.answer(request, studio, userId);
    expect(answer?.status).toBe(200);
    return JSON.parse(answer!.body) as unknown;
  };
  return { ...st, engine, offline, studio, userId, walkIn, regular, online, local };
}

describe('offline API (answers from SQLite)', () => {
  it('answers the desk reads as the cloud does: search, list, profile with passes, timetable, attendees', async () => {
    const t = await setup();
    const v4 = (p: string) => `v4/${t.studio}/${p}`;
    // The cloud once (settings-like reads and the person's abilities are kept from it).
    const init = await t.online('GET', v4('schedule/init'));
    // The class's day in the studio's time zone (late in the UTC evening it is already tomorrow there).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: init.timeZone as string }).format(
      new Date(Date.now() + 3 * 3_600_000),
    );
    const find = { from: day, to: day };
    const cloudWeek = await t.online('POST', v4('schedule/find'), find);
    const cloudAttendees = await t.online('GET', v4(`schedule-event/${t.eventId}/enrollments/init`));
    const cloudProfile = await t.online('GET', v4(`client/${t.regular.user.id}/profile`));

    const search = ClientSearchResultSchema.parse(t.local('GET', v4('client/search?q=zie&limit=10')));
    expect(search.items.map((c) => c.id)).toEqual([t.walkIn.user.id]);
    const list = ClientListSchema.parse(t.local('GET', v4('client/collection?q=%C5%BCak&limit=50')));
    expect(list.items).toMatchObject([{ id: t.regular.user.id, firstName: 'Żak', hasValidPass: true }]);

    const profile = ClientProfileSchema.parse(t.local('GET', v4(`client/${t.regular.user.id}/profile`)));
    expect(profile.client).toMatchObject({ id: t.regular.user.id, firstName: 'Żak', status: 'active' });
    expect(profile.validPasses.map((p) => p.id)).toEqual(
      cloudProfile.validPasses.map((p: { id: string }) => p.id),
    );
    // Editing the record works offline (updateClient); deleting, exporting, messaging do not.
    expect(profile.abilities.canEdit).toBe(cloudProfile.abilities.canEdit);
    expect(profile.abilities).toMatchObject({ canDelete: false, canExport: false, canMessage: false });

    const week = ScheduleEventListSchema.parse(t.local('POST', v4('schedule/find'), find));
    expect(week.items.map((e) => e.id)).toEqual(cloudWeek.items.map((e: { id: string }) => e.id));
    expect(week.items[0]).toMatchObject({
      classService: cloudWeek.items[0].classService,
      locationName: cloudWeek.items[0].locationName,
      capacity: 5,
      startsAt: cloudWeek.items[0].startsAt,
    });
    expect(init.timeZone).toBeTruthy();

    const attendees = EventEnrollmentsSchema.parse(
      t.local('GET', v4(`schedule-event/${t.eventId}/enrollments/init`)),
    );
    expect(attendees).toMatchObject({
      capacity: cloudAttendees.capacity,
      taken: cloudAttendees.taken,
      placesLeft: cloudAttendees.placesLeft,
      can: { book: cloudAttendees.can.book, checkIn: cloudAttendees.can.checkIn, overrideRules: false },
    });
  });

  it("the desk's writes become commands: enrol, present, check-in, cancel — visible at once, in the cloud once", async () => {
    const t = await setup();
    const v4 = (p: string) => `v4/${t.studio}/${p}`;
    await t.online('GET', v4(`schedule-event/${t.eventId}/enrollments/init`));
    const booked = BookingResultSchema.parse(
      t.local('POST', v4(`schedule-event/${t.eventId}/enrollment/enroll`), { clientId: t.regular.user.id }),
    );
    expect(booked.outcome).toBe('booked');
    const present = ClientVisitListSchema.pick({ items: true }).parse(
      t.local('POST', v4('client-enrollment/status'), {
        clientVisitIds: [booked.visit.id],
        action: 'present',
      }),
    );
    expect(present.items[0]!.status).toBe(ClientVisitStatus.present);
    const walkIn = ClientVisitSchema.parse(
      t.local('POST', v4(`schedule-event/${t.eventId}/check-in`), { clientId: t.walkIn.user.id }),
    );
    expect(walkIn.status).toBe(ClientVisitStatus.present);
    // Already on the class: refused at the desk like the cloud would.
    expect(() =>
      t.offline.answer(
        {
          method: 'POST',
          path: v4(`schedule-event/${t.eventId}/enrollment/enroll`),
          body: JSON.stringify({ clientId: t.regular.user.id }),
        },
        t.studio,
        t.userId,
      ),
    ).toThrow(AppError);
    const attendees = EventEnrollmentsSchema.parse(
      t.local('GET', v4(`schedule-event/${t.eventId}/enrollments/init`)),
    );
    expect(attendees.attendees.map((a) => [a.client.id, a.status]).sort()).toEqual(
      [
        [t.regular.user.id, ClientVisitStatus.present],
        [t.walkIn.user.id, ClientVisitStatus.present],
      ].sort(),
    );
    expect(t.engine.outbox().map((m) => [m.name, m.actorId])).toEqual([
      ['bookClass', t.userId],
      ['checkIn', t.userId],
      ['checkIn', t.userId],
    ]);
    // Invalid input: 400 with the fields, nothing queued.
    expect(() =>
      t.offline.answer(
        {
          method: 'POST',
          path: v4('client-enrollment/status'),
          body: JSON.stringify({ clientVisitIds: [] }),
        },
        t.studio,
        t.userId,
      ),
    ).toThrow(expect.objectContaining({ status: 400 }));
    // Absent before the class has started: refused at the desk as the cloud would, nothing queued.
    expect(() =>
      t.local('POST', v4('client-enrollment/status'), {
        clientVisitIds: [booked.visit.id],
        action: 'absent',
      }),
    ).toThrow(
      expect.objectContaining({
        key: 'visit.tooEarly',
        fields: { 'clientVisitIds.0': ['the class has not started yet'] },
      }),
    );
    expect(t.engine.outbox()).toHaveLength(3);

    await t.engine.syncOnce();
    expect(t.engine.status().pending).toBe(0);
    const visits = await app
      .knex('client_visits')
      .where({ scheduleEventId: t.eventId })
      .whereIn('clientId', [t.regular.user.id, t.walkIn.user.id]);
    expect(visits.map((v) => v.status)).toEqual([ClientVisitStatus.present, ClientVisitStatus.present]);
  });

  it('clients added and edited at the desk: provisional until synced, booked, reset, in the cloud once', async () => {
    const t = await setup();
    const v4 = (p: string) => `v4/${t.studio}/${p}`;
    await t.online('GET', v4(`client/${t.regular.user.id}/profile`));
    await t.online('GET', v4(`client/${t.regular.user.id}/init`));
    await t.online('GET', v4(`schedule-event/${t.eventId}/enrollments/init`));
    const ask = (method: ApiRequestInput['method'], p: string, body?: unknown) =>
      t.offline.answer(
        { method, path: p, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
        t.studio,
        t.userId,
      );

    // Bad input: 400 with every field, nothing queued.
    expect(() => ask('POST', v4('client'), { firstName: '', emailAddress: 'nope' })).toThrow(
      expect.objectContaining({
        status: 400,
        fields: expect.objectContaining({
          firstName: expect.any(Array),
          lastName: expect.any(Array),
          emailAddress: expect.any(Array),
        }),
      }),
    );
    expect(t.engine.outbox()).toHaveLength(0);

    const answer = ask('POST', v4('client'), {
      firstName: 'Ola',
      lastName: 'Offline',
      emailAddress: 'ola.offline@example.com',
    });
    expect(answer?.status).toBe(201);
    const created = ClientCreateResultSchema.parse(JSON.parse(answer!.body));
    expect(created.client).toMatchObject({ firstName: 'Ola', lastName: 'Offline', provisional: true });
    const id = created.client.id;
    const list = ClientListSchema.parse(t.local('GET', v4('client/collection?q=offline')));
    expect(list.items.map((c) => [c.id, c.provisional])).toEqual([[id, true]]);
    expect(
      ClientCheckExistenceResultSchema.parse(
        t.local('GET', v4('client/check-existence?emailAddress=OLA.offline@example.com')),
      ).matches.map((m) => [m.id, m.matchedBy]),
    ).toEqual([[id, ['emailAddress']]]);

    // Edited offline: the edit form from the mirror, the fields sent become updateClient.
    const init = ClientEditInitSchema.parse(t.local('GET', v4(`client/${id}/init`)));
    expect(init.client.id).toBe(id);
    expect(init.sexOptions.length).toBeGreaterThan(0);
    const edited = ClientDetailSchema.parse(
      t.local('PATCH', v4(`client/${id}`), { phone: '+48 600 100 200' }),
    );
    expect(edited).toMatchObject({ phone: '+48 600 100 200', provisional: true });

    // Booked, checked in, reset to booked: each a command, each visible at once.
    const booked = BookingResultSchema.parse(
      t.local('POST', v4(`schedule-event/${t.eventId}/enrollment/enroll`), { clientId: id }),
    );
    t.local('POST', v4('client-enrollment/status'), { clientVisitIds: [booked.visit.id], action: 'present' });
    const reset = ClientVisitListSchema.pick({ items: true }).parse(
      t.local('POST', v4('client-enrollment/status'), { clientVisitIds: [booked.visit.id], action: 'reset' }),
    );
    expect(reset.items[0]).toMatchObject({
      status: ClientVisitStatus.booked,
      checkedInAt: null,
      provisional: true,
    });
    const visits = ClientVisitListSchema.parse(
      t.local('GET', v4(`client/${id}/client-visit/collection?when=upcoming`)),
    );
    expect(visits.items.map((v) => [v.id, v.status, v.provisional])).toEqual([
      [booked.visit.id, ClientVisitStatus.booked, true],
    ]);
    expect(
      ClientVisitListSchema.parse(t.local('GET', v4(`client/${id}/client-visit/collection?when=past`))).items,
    ).toEqual([]);
    expect(t.engine.outbox().map((m) => m.name)).toEqual([
      'createClient',
      'updateClient',
      'bookClass',
      'checkIn',
      'setAttendance',
    ]);

    await t.engine.syncOnce();
    expect(t.engine.status().pending).toBe(0);
    const inCloud = await app.knex('clients').where({ studioId: t.studio, lastName: 'Offline' });
    expect(inCloud.map((c) => [c.userId, c.phone])).toEqual([[id, '+48 600 100 200']]);
    const cloudVisits = await app.knex('client_visits').where({ scheduleEventId: t.eventId, clientId: id });
    // No pass: the cloud keeps the booking unpaid at the desk (the desk guessed booked).
    expect(cloudVisits.map((v) => [v.id, v.status])).toEqual([
      [booked.visit.id, ClientVisitStatus.unconfirmed],
    ]);
    // Confirmed: no longer provisional.
    const after = ClientListSchema.parse(t.local('GET', v4('client/collection?q=offline')));
    expect(after.items[0]!.provisional).toBeUndefined();
    // A check-in three hours before the class was kept, flagged: the desk is told.
    const notices = new SyncNotices(t.engine.db, t.engine.store);
    expect(notices.list()).toContainEqual(
      expect.objectContaining({
        command: 'checkIn',
        status: 'flagged',
        flags: expect.arrayContaining(['attendanceForced']),
        client: expect.objectContaining({ id, lastName: 'Offline' }),
        event: expect.objectContaining({ id: t.eventId }),
      }),
    );
    expect(notices.list().every((n) => n.status !== 'applied')).toBe(true);
    expect(
      notices.acknowledge(
        notices.list().map((n) => n.seq),
        t.userId,
      ),
    ).toEqual([]);
  });

  it('an offline booking the cloud waitlists: the desk shows the waiting list and a notice', async () => {
    const t = await setup(1);
    const v4 = (p: string) => `v4/${t.studio}/${p}`;
    const second = await t.addClient(true, 'Nowak');
    await t.engine.syncOnce();
    await t.online('GET', v4(`schedule-event/${t.eventId}/enrollments/init`));
    // Meanwhile, online elsewhere, the last place goes (the station has not pulled it).
    const elsewhere = await app.signedIn(t.manager.email, t.manager.password);
    const taken = await elsewhere.post(`/api/v4/${t.studio}/schedule-event/${t.eventId}/enrollment/enroll`, {
      clientId: t.regular.user.id,
    });
    expect(taken.status, taken.text).toBe(200);
    const guess = BookingResultSchema.parse(
      t.local('POST', v4(`schedule-event/${t.eventId}/enrollment/enroll`), { clientId: second.user.id }),
    );
    expect(guess.outcome).toBe('booked');
    await t.engine.syncOnce();
    const attendees = EventEnrollmentsSchema.parse(
      t.local('GET', v4(`schedule-event/${t.eventId}/enrollments/init`)),
    );
    expect(attendees.waitingList.map((v) => [v.client.id, v.provisional])).toEqual([
      [second.user.id, undefined],
    ]);
    const notices = new SyncNotices(t.engine.db, t.engine.store).list();
    expect(notices).toMatchObject([
      {
        command: 'bookClass',
        status: 'waitlisted',
        client: { id: second.user.id, firstName: 'Nowak' },
        event: { id: t.eventId },
      },
    ]);
  });

  it('answers nothing for other studios, unknown classes or calls it does not serve', async () => {
    const t = await setup();
    const other = uuidv7();
    const request: ApiRequestInput = { method: 'GET', path: `v4/${other}/client/search?q=za` };
    expect(t.offline.handles(request, t.studio)).toBe(false);
    expect(t.offline.answer(request, t.studio, t.userId)).toBeNull();
    expect(t.offline.answer({ method: 'GET', path: `v4/${t.studio}/orders` }, t.studio, t.userId)).toBeNull();
    // A person-bound settings read never seen online has no answer (the screen shows the cloud as
    // unreachable); the timetable's settings are the studio's: built from the mirror (issue 26).
    expect(
      t.offline.answer({ method: 'POST', path: `v4/${t.studio}/backoffice/init` }, t.studio, t.userId),
    ).toBeNull();
    const init = t.offline.answer(
      { method: 'GET', path: `v4/${t.studio}/schedule/init` },
      t.studio,
      t.userId,
    );
    expect(init?.status).toBe(200);
    expect(JSON.parse(init!.body)).toMatchObject({ instructors: [], locations: [expect.any(Object)] });
    expect(() =>
      t.offline.answer(
        { method: 'GET', path: `v4/${t.studio}/schedule-event/${other}/enrollments/init` },
        t.studio,
        t.userId,
      ),
    ).toThrow(expect.objectContaining({ status: 404 }));
    expect(() =>
      t.offline.answer({ method: 'GET', path: `v4/${t.studio}/client/${other}/profile` }, t.studio, t.userId),
    ).toThrow(expect.objectContaining({ status: 404 }));
  });
});
