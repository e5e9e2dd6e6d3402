import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { insertClass, insertVisit } from './reports-fixtures';

/**
 * The rollups behind retention and the dashboard's charts (migration 0260) are kept by triggers on
 * every write of a visit or a class: after bookings, cancellations, attendance, a class moved in time
 * and to another location, and a visit deleted, they equal what the visits say, and the retention
 * report reads its months from them.
 */
const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
const app = useTestApp({ clock });
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const at = (iso: string) => new Date(iso);

async function fromVisits(studioId: string) {
  const months = await app.knex.raw(
    `select to_char(date_trunc('month', v.starts_at at time zone 'Europe/Warsaw'), 'YYYY-MM') as month,
            e.location_id as "locationId", v.client_id as "clientId", count(*)::int as visits
       from client_visits v join schedule_events e on e.id = v.schedule_event_id
      where v.studio_id = ? and v.status in (0, 1, 2, 9)
      group by 1, 2, 3 order by 1, 2, 3`,
    [studioId],
  );
  const hours = await app.knex.raw(
    `select (v.starts_at at time zone 'Europe/Warsaw')::date::text as day, e.location_id as "locationId",
            extract(hour from v.starts_at at time zone 'Europe/Warsaw')::int as hour, count(*)::int as visits
       from client_visits v join schedule_events e on e.id = v.schedule_event_id
      where v.studio_id = ? and v.status in (0, 1, 2, 9)
      group by 1, 2, 3 order by 1, 2, 3`,
    [studioId],
  );
  return { months: months.rows, hours: hours.rows };
}

async function rollups(studioId: string) {
  const months = await app.knex.raw(
    `select to_char(month, 'YYYY-MM') as month, location_id as "locationId", client_id as "clientId", visits
       from client_activity_months where studio_id = ? order by 1, 2, 3`,
    [studioId],
  );
  const hours = await app.knex.raw(
    `select day::text as day, location_id as "locationId", hour::int as hour, visits
       from studio_visit_hours where studio_id = ? order by 1, 2, 3`,
    [studioId],
  );
  return { months: months.rows, hours: hours.rows };
}

describe('report rollups', () => {
  it('follow every visit and class write; retention reads its months from them', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const s = studio.id;
    const a = await createUser(app.knex);
    const b = await createUser(app.knex);
    const c = await createUser(app.knex);
    const d = await createUser(app.knex);
    const sep = await insertClass(app.knex, s, {
      startsAt: at('2026-09-10T16:00:00Z'),
      instructorId: manager.id,
    });
    const place = {
      locationId: sep.locationId,
      classServiceId: sep.classServiceId,
      instructorId: manager.id,
    };
    const oct = await insertClass(app.knex, s, { ...place, startsAt: at('2026-10-12T16:00:00Z') });
    const nov = await insertClass(app.knex, s, { ...place, startsAt: at('2026-11-05T16:00:00Z') });
    // 1 November 00:30 in Warsaw (31 October in UTC), at a second location.
    const second = uuidv7();
    await app.knex('locations').insert({ id: second, studioId: s, name: 'Żoliborz' });
    const midnight = await insertClass(app.knex, s, {
      ...place,
      locationId: second,
      startsAt: at('2026-10-31T23:30:00Z'),
    });
    const spare = await insertClass(app.knex, s, { ...place, startsAt: at('2026-10-20T08:00:00Z') });

    // A: September, October, November. B: September, then November. C: first ever in November.
    // D: booked in October and cancelled late (takes no place).
    await insertVisit(app.knex, s, sep.eventId, a.id, at('2026-09-10T16:00:00Z'), V.present);
    await insertVisit(app.knex, s, oct.eventId, a.id, at('2026-10-12T16:00:00Z'), V.present);
    await insertVisit(app.knex, s, nov.eventId, a.id, at('2026-11-05T16:00:00Z'), V.booked);
    await insertVisit(app.knex, s, sep.eventId, b.id, at('2026-09-10T16:00:00Z'), V.absent);
    const bNov = await insertVisit(app.knex, s, nov.eventId, b.id, at('2026-11-05T16:00:00Z'), V.booked);
    await insertVisit(app.knex, s, midnight.eventId, c.id, at('2026-10-31T23:30:00Z'), V.booked);
    const dOct = await insertVisit(app.knex, s, oct.eventId, d.id, at('2026-10-12T16:00:00Z'), V.booked);
    const spareVisit = await insertVisit(
      app.knex,
      s,
      spare.eventId,
      d.id,
      at('2026-10-20T08:00:00Z'),
      V.booked,
    );

    // Attendance marked, a late cancellation, a class moved in time and to another place, a visit deleted.
    await app.knex('client_visits').where({ id: bNov }).update({ status: V.present });
    await app.knex('client_visits').where({ id: dOct }).update({ status: V.lateCancel });
    await app
      .knex('schedule_events')
      .where({ id: spare.eventId })
      .update({
        startsAt: at('2026-09-20T08:00:00Z'),
        endsAt: at('2026-09-20T09:00:00Z'),
      });
    await app
      .knex('schedule_events')
      .where({ id: spare.eventId })
      .update({ locationId: midnight.locationId });
    await app.knex('client_visits').where({ id: spareVisit }).delete();

    const truth = await fromVisits(s);
    expect(truth.months.length).toBeGreaterThan(4);
    expect(await rollups(s)).toEqual(truth);
    // Hours in the studio's time: the class at 00:30 on 1 November counts at hour 0 of that day.
    expect(truth.hours).toContainEqual({
      day: '2026-11-01',
      locationId: midnight.locationId,
      hour: 0,
      visits: 1,
    });

    const retention = await owner.get(api(studio, 'report/retention?from=2026-10-01&to=2026-11-30'));
    expect(retention.status, retention.text).toBe(200);
    expect(retention.body.rows).toEqual([
      { month: '2026-10', active: 1, new: 0, reactivated: 0, lapsed: 1, churnRate: 50 },
      { month: '2026-11', active: 3, new: 1, reactivated: 1, lapsed: 0, churnRate: 0 },
    ]);
    const there = await owner.get(
      api(studio, `report/retention?from=2026-11-01&to=2026-11-30&location=${second}`),
    );
    expect(there.body.rows).toEqual([
      { month: '2026-11', active: 1, new: 1, reactivated: 0, lapsed: 0, churnRate: null },
    ]);

    // The dashboard's attendance charts read the hourly rollup: 8 weeks before today (20 November).
    const dash = await owner.get(api(studio, 'backoffice/dashboard'));
    const visitsAt = (h: number) =>
      dash.body.attendanceByHour.find((x: { hour: number }) => x.hour === h)?.visits ?? 0;
    expect(visitsAt(17)).toBe(2); // 5 November (A, B) at 17:00 in Warsaw (CET)
    expect(visitsAt(18)).toBe(1); // 12 October (A; D cancelled) at 18:00 (CEST)
    expect(visitsAt(0)).toBe(1);
  });

  it('the dashboard opens on the member’s own locations; all or one on request; rights and other studios', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const s = studio.id;
    clock.set(new Date('2026-11-20T08:00:00Z'));
    const here = await insertClass(app.knex, s, {
      startsAt: at('2026-11-20T16:00:00Z'),
      instructorId: manager.id,
    });
    const there = uuidv7();
    await app.knex('locations').insert({ id: there, studioId: s, name: 'Żoliborz' });
    await insertClass(app.knex, s, {
      startsAt: at('2026-11-20T17:00:00Z'),
      instructorId: manager.id,
      locationId: there,
      classServiceId: here.classServiceId,
    });
    const classes = async (query = '') => {
      const res = await owner.get(api(studio, `backoffice/dashboard${query}`));
      expect(res.status, res.text).toBe(200);
      return res.body as {
        classes: Array<{ location: string }>;
        myLocations: string[];
        locations: string[] | null;
      };
    };
    // No own locations: every location.
    expect((await classes()).classes.map((c) => c.location)).toEqual(['Mokotów', 'Żoliborz']);

    const path = api(studio, 'backoffice/dashboard/locations');
    const set = await owner.request('PUT', path, { locations: [there] });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ locations: [there] });
    const mine = await classes();
    expect(mine).toMatchObject({ myLocations: [there], locations: [there] });
    expect(mine.classes.map((c) => c.location)).toEqual(['Żoliborz']);
    expect((await classes('?scope=all')).classes).toHaveLength(2);
    expect((await classes(`?location=${here.locationId}`)).classes.map((c) => c.location)).toEqual([
      'Mokotów',
    ]);

    // Another studio's location: 404, on the dashboard and when set; nothing changed.
    const other = await createStudioScenario(app.knex);
    const foreign = await insertClass(app.knex, other.studio.id, {
      startsAt: at('2026-11-20T16:00:00Z'),
      instructorId: other.manager.id,
    });
    expect((await owner.get(api(studio, `backoffice/dashboard?location=${foreign.locationId}`))).status).toBe(
      404,
    );
    expect(
      (await owner.request('PUT', path, { locations: [here.locationId, foreign.locationId] })).status,
    ).toBe(404);
    expect((await classes()).myLocations).toEqual([there]);
    const bad = await owner.request('PUT', path, { locations: ['x'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['locations.0']);
    expect((await (await app.anonymous()).request('PUT', path, { locations: [] })).status).toBe(401);
    const desk = await createUser(app.knex);
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const frontDesk = await app.signedIn(desk.email, desk.password);
    expect((await frontDesk.request('PUT', path, { locations: [] })).status).toBe(403);
    const stranger = await app.signedIn(other.manager.email, other.manager.password);
    expect((await stranger.request('PUT', path, { locations: [] })).status).toBe(404);
    // Emptied: every location again.
    expect((await owner.request('PUT', path, { locations: [] })).body).toEqual({ locations: [] });
    expect((await classes()).locations).toBeNull();
  });
});
