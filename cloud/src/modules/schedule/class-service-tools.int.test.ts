import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { NOW, START, useBookingsApp, v4 } from '../bookings/bookings-app.test-support';
import { bookingStudio, sessionClient } from '../bookings/bookings-fixtures';

/**
 * Spec §7 v4 class-service tools (categorized, assigned-to-schedule, find-attendees, find-times,
 * manager, restriction/init) and the init calls of the event editor and the called-off classes.
 */
const { app, clock } = useBookingsApp(120_000);

/** Vinyasa (meta, a class on 3 June with Julia Abacka booked, one held on 25 May) and Pilates (no meta, in "Mat"). */
async function scene() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, { capacity: 4 });
  const owner = await sessionClient(app, st.manager.id);
  const me = await sessionClient(app, st.client.id);
  await app.knex('users').where({ id: st.client.id }).update({ firstName: 'Julia', lastName: 'Abacka' });
  const categoryId = uuidv7();
  await app.knex('class_service_categories').insert({
    id: categoryId,
    studioId: st.studio.id,
    name: JSON.stringify({ en: { value: 'Mat' } }),
    position: 1,
  });
  const pilatesId = uuidv7();
  await app.knex('class_services').insert({
    id: pilatesId,
    studioId: st.studio.id,
    name: JSON.stringify({ en: { value: 'Pilates' } }),
    durationMinutes: 50,
    categoryId,
  });
  const booked = await me.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId });
  expect(booked.status, booked.text).toBe(200);
  // A class held last week that Julia attended.
  const pastId = await st.addEvent(new Date('2026-05-25T16:00:00Z'));
  await app.knex('client_visits').insert({
    id: uuidv7(),
    studioId: st.studio.id,
    scheduleEventId: pastId,
    clientId: st.client.id,
    startsAt: new Date('2026-05-25T16:00:00Z'),
    status: 1,
    payment: 'free',
    bookedBy: 'staff',
    bookedAt: new Date('2026-05-20T10:00:00Z'),
  });
  return { ...st, owner, me, categoryId, pilatesId, pastId };
}

describe('class-service tools', () => {
  it('groups services by category and lists those on the schedule', async () => {
    const t = await scene();
    const res = await t.owner.get(v4(t.studio, 'class-service/categorized'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.categories).toHaveLength(1);
    expect(res.body.categories[0].services.map((s: { id: string }) => s.id)).toEqual([t.pilatesId]);
    expect(res.body.uncategorized.map((s: { id: string }) => s.id)).toEqual([t.serviceId]);
    const courses = await t.owner.get(v4(t.studio, 'class-service/categorized?serviceType=course'));
    expect(courses.body.categories[0].services).toEqual([]);

    const assigned = await t.owner.get(v4(t.studio, 'class-service/assigned-to-schedule'));
    expect(assigned.status).toBe(200);
    expect(assigned.body.items.map((s: { id: string }) => s.id)).toEqual([t.serviceId]);
    // A meta that ended yesterday no longer counts.
    await app.knex('schedule_metas').where({ id: t.metaId }).update({ lastDate: '2026-05-31' });
    expect((await t.owner.get(v4(t.studio, 'class-service/assigned-to-schedule'))).body.items).toEqual([]);
  });

  it('finds who attended, searchable, and the coming times with places taken', async () => {
    const t = await scene();
    const other = await t.addClient(true, 'Zenon');
    const res = await t.owner.get(v4(t.studio, `class-service/${t.serviceId}/find-attendees`));
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({ id: t.client.id, lastName: 'Abacka', visits: 2, attended: 1 }),
    ]);
    expect(res.body.items[0].lastVisitAt).toBe(START.toISOString());
    const none = await t.owner.get(v4(t.studio, `class-service/${t.serviceId}/find-attendees?search=zenon`));
    expect(none.body.items).toEqual([]);
    const found = await t.owner.get(
      v4(t.studio, `class-service/${t.serviceId}/find-attendees?search=julia%20ab`),
    );
    expect(found.body.items).toHaveLength(1);
    expect(other.user.id).not.toBe(t.client.id);
    // Nobody went to Pilates.
    expect(
      (await t.owner.get(v4(t.studio, `class-service/${t.pilatesId}/find-attendees`))).body.items,
    ).toEqual([]);

    const times = await t.owner.get(v4(t.studio, `class-service/${t.serviceId}/find-times`));
    expect(times.status, times.text).toBe(200);
    expect(times.body.items).toEqual([
      expect.objectContaining({
        scheduleEventId: t.eventId,
        startsAt: START.toISOString(),
        taken: 1,
        capacity: 4,
      }),
    ]);
    await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}/cancel`);
    expect((await t.owner.get(v4(t.studio, `class-service/${t.serviceId}/find-times`))).body.items).toEqual(
      [],
    );
    const withCancelled = await t.owner.get(
      v4(t.studio, `class-service/${t.serviceId}/find-times?includeCancelled=true`),
    );
    expect(withCancelled.body.items[0]).toMatchObject({ status: 'cancelled', taken: 0 });
  });

  it("gives the manager screen the service's metas, what is coming and the last 30 days", async () => {
    const t = await scene();
    const res = await t.owner.get(v4(t.studio, `class-service/${t.serviceId}/manager`));
    expect(res.status, res.text).toBe(200);
    expect(res.body.classService.id).toBe(t.serviceId);
    expect(res.body.metas.map((m: { id: string }) => m.id)).toEqual([t.metaId]);
    expect(res.body.upcoming).toEqual({ events: 1, nextStartsAt: START.toISOString() });
    expect(res.body.last30Days).toEqual({ events: 1, visits: 1, attended: 1, occupancy: 0.25 });
  });

  it('gives the restriction editor the accessibility choices, tags, levels and passes', async () => {
    const t = await scene();
    await app.knex('tags').insert({ id: uuidv7(), studioId: t.studio.id, name: 'VIP', type: 0 });
    const res = await t.owner.get(
      v4(t.studio, `class-service/restriction/init?classServiceId=${t.serviceId}`),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.classService.id).toBe(t.serviceId);
    expect(res.body.accessibility.map((a: { value: number }) => a.value)).toEqual([0, 1, 2, 3]);
    expect(res.body.accessibility.filter((a: { needsTags: boolean }) => a.needsTags)).toHaveLength(2);
    expect(res.body.pricingOptions.map((p: { id: string }) => p.id)).toEqual([t.optionId]);
    expect(res.body.limits.tags).toBeGreaterThan(0);
    const plain = await t.owner.get(v4(t.studio, 'class-service/restriction/init'));
    expect(plain.body.classService).toBeNull();
  });
});

describe('editor init calls', () => {
  it('schedule-event/init offers the pickers and only the actions the event accepts now', async () => {
    const t = await scene();
    const fresh = await t.owner.get(v4(t.studio, 'schedule-event/init'));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.event).toBeNull();
    expect(fresh.body.locations.map((l: { id: string }) => l.id)).toEqual([t.locationId]);
    expect(fresh.body.instructors.map((i: { id: string }) => i.id)).toContain(t.manager.id);

    const res = await t.owner.get(v4(t.studio, `schedule-event/init?scheduleEvent=${t.eventId}`));
    expect(res.body.event.id).toBe(t.eventId);
    // Scheduled, shown, bookable: hide, unbookable, cancel and remove change something.
    expect(res.body.actions.sort()).toEqual(['cancel', 'hide', 'remove', 'unbookable-online']);
    await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}/remove`);
    const removed = await t.owner.get(v4(t.studio, `schedule-event/init?scheduleEvent=${t.eventId}`));
    expect(removed.body.actions).toEqual(['restore']);
    expect(removed.body.editable).toBe(false);
    // The held class: nothing can be cancelled any more.
    const past = await t.owner.get(v4(t.studio, `schedule-event/init?scheduleEvent=${t.pastId}`));
    expect(past.body.actions).not.toContain('cancel');
  });

  it('schedule-call-off/init gives a default range the collection accepts, and its filters', async () => {
    const t = await scene();
    const init = await t.owner.get(v4(t.studio, 'schedule-call-off/init'));
    expect(init.status, init.text).toBe(200);
    expect(init.body).toMatchObject({
      today: '2026-06-01',
      from: '2026-05-25',
      to: '2026-06-08',
      maxDays: 42,
    });
    expect(init.body.classServices.map((s: { id: string }) => s.id).sort()).toEqual(
      [t.serviceId, t.pilatesId].sort(),
    );
    await t.owner.post(`/api/v2/${t.studio.id}/schedule-events/${t.eventId}/cancel`);
    const list = await t.owner.get(
      v4(t.studio, `schedule-call-off/collection?from=${init.body.from}&to=${init.body.to}`),
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([t.eventId]);
  });
});

describe('every route: 401, 400, 403, 404 and another studio', () => {
  it('answers as the standards say', async () => {
    const t = await scene();
    const anon = await HttpClient.anonymous(app.url);
    const accountant = await sessionClient(app, (await t.addStaff('accountant')).id);
    const s = t.serviceId;
    const routes: Array<{ path: string; bad?: { path: string; fields: string[] } }> = [
      {
        path: v4(t.studio, 'class-service/categorized'),
        bad: {
          path: v4(t.studio, 'class-service/categorized?serviceType=gym'),
          fields: ['query.serviceType'],
        },
      },
      { path: v4(t.studio, 'class-service/assigned-to-schedule') },
      {
        path: v4(t.studio, `class-service/${s}/find-attendees?search=Abacka`),
        bad: { path: v4(t.studio, `class-service/${s}/find-attendees?limit=500`), fields: ['query.limit'] },
      },
      {
        path: v4(t.studio, `class-service/${s}/find-times`),
        bad: {
          path: v4(t.studio, `class-service/${s}/find-times?scheduleMetaId=x&limit=0`),
          fields: ['query.limit', 'query.scheduleMetaId'],
        },
      },
      { path: v4(t.studio, `class-service/${s}/manager`) },
      {
        path: v4(t.studio, `class-service/restriction/init?classServiceId=${s}`),
        bad: {
          path: v4(t.studio, 'class-service/restriction/init?classServiceId=1'),
          fields: ['query.classServiceId'],
        },
      },
      {
        path: v4(t.studio, `schedule-event/init?scheduleEvent=${t.eventId}`),
        bad: {
          path: v4(t.studio, 'schedule-event/init?scheduleEvent=nope'),
          fields: ['query.scheduleEvent'],
        },
      },
      { path: v4(t.studio, 'schedule-call-off/init') },
    ];
    for (const r of routes) {
      expect((await anon.get(r.path)).status, `${r.path} anonymous`).toBe(401);
      if (r.bad) {
        const bad = await t.owner.get(r.bad.path);
        expect(bad.status, `${r.bad.path} bad input`).toBe(400);
        expect(Object.keys(bad.body.error.fields).sort()).toEqual(r.bad.fields);
      }
      for (const who of [accountant, t.me])
        expect((await who.get(r.path)).status, `${r.path} denied`).toBe(403);
      // Routes naming this studio's service or event show another studio nothing (404).
      await expectHiddenFromOtherStudio(app, { method: 'GET', path: r.path }, ['Abacka', 'Vinyasa']);
      expect((await t.owner.get(r.path)).status, `${r.path} owner`).toBe(200);
    }
    const unknown = '0190a000-0000-7000-8000-000000000000';
    for (const p of ['find-attendees', 'find-times', 'manager'])
      expect((await t.owner.get(v4(t.studio, `class-service/${unknown}/${p}`))).status, p).toBe(404);
    expect((await t.owner.get(v4(t.studio, `schedule-event/init?scheduleEvent=${unknown}`))).status).toBe(
      404,
    );
    expect(
      (await t.owner.get(v4(t.studio, `class-service/restriction/init?classServiceId=${unknown}`))).status,
    ).toBe(404);
  });
});
