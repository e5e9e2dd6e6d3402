import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudio, createUser } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { instructorsById } from './places-and-services.service';
import { selectEvents } from './schedule-events.service';
import { presentEvent, presentPublicEvent, type ScheduleEventRow } from './schedule.presenter';
import { V } from '../../../../shared/domain/bookings';
import { publicTimetable, staffTimetable, visitCounts } from './timetable-json';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const FROM = new Date('2026-03-02T00:00:00Z');
const TO = new Date('2026-03-09T00:00:00Z');

/** A week with every shape the presenters handle: rooms or none, 0–2 instructors, states, flags. */
async function week() {
  const knex = app.knex;
  const studio = await createStudio(knex);
  const [ada, bo] = [
    await createUser(knex, { firstName: 'Ada', lastName: 'Zielińska' }),
    await createUser(knex, { firstName: 'Bo', lastName: 'Adamska' }),
  ];
  const location = uuidv7();
  const room = uuidv7();
  const service = uuidv7();
  const meta = uuidv7();
  await knex('locations').insert({ id: location, studioId: studio.id, name: 'Mokotów' });
  await knex('location_rooms').insert({
    id: room,
    studioId: studio.id,
    locationId: location,
    name: 'Sala A',
    capacity: 20,
  });
  await knex('class_services').insert({
    id: service,
    studioId: studio.id,
    name: JSON.stringify({ en: { value: 'Yoga' }, pl: { value: 'Joga' } }),
    color: '#aa3300',
    durationMinutes: 60,
  });
  await knex('schedule_metas').insert({
    id: meta,
    studioId: studio.id,
    classServiceId: service,
    locationId: location,
    daysOfWeek: [1],
    startTime: '18:00',
    durationMinutes: 60,
    firstDate: '2026-01-01',
    capacity: 10,
  });
  const event = (i: number, over: Record<string, unknown>) => {
    const startsAt = new Date(FROM.getTime() + i * 7 * 3_600_000 + 123);
    return {
      id: uuidv7(),
      studioId: studio.id,
      classServiceId: service,
      locationId: location,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      capacity: 10 + i,
      waitingListSize: i,
      ...over,
    };
  };
  const rows = [
    event(0, {
      roomId: room,
      instructorIds: [bo!.id, ada!.id],
      scheduleMetaId: meta,
      occurrenceDate: '2026-03-02',
    }),
    event(1, { instructorIds: [ada!.id], notes: 'bring a mat', livestreamUrl: 'https://live.example/1' }),
    event(2, { status: 'cancelled', bookableOnline: false, editedAt: new Date() }),
    event(3, { isHidden: true, roomId: room }),
    event(4, { status: 'removed' }),
    event(5, { instructorIds: [uuidv7()] }), // someone no longer a user: dropped
    // Same start as the first: ordered by id.
    { ...event(0, {}), startsAt: new Date(FROM.getTime() + 123) },
  ];
  await knex('schedule_events').insert(rows);
  // Outside the week: never answered.
  await knex('schedule_events').insert(event(40, {}));
  // The first class: two places taken (booked, present), one waiting, one cancelled (not counted).
  const visit = (status: number) => ({
    id: uuidv7(),
    studioId: studio.id,
    scheduleEventId: rows[0]!.id,
    startsAt: rows[0]!.startsAt,
    status,
    payment: 'pass',
    bookedBy: 'staff',
    bookedAt: new Date(),
  });
  for (const [i, status] of [V.booked, V.present, V.waitingList, V.earlyCancel].entries()) {
    const client = await createUser(knex, { firstName: `Client${i}`, lastName: 'Nowak' });
    await knex('client_visits').insert({
      ...visit(status),
      clientId: client!.id,
      waitingPosition: status === V.waitingList ? i : null,
    });
  }
  return { studio, rows };
}

async function presentedByJs(studioId: string, filter: (r: ScheduleEventRow) => boolean) {
  const rows = (
    (await selectEvents(app.knex, studioId)
      .where('e.starts_at', '>=', FROM)
      .where('e.starts_at', '<', TO)
      .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])) as ScheduleEventRow[]
  ).filter(filter);
  const people = await instructorsById(
    app.knex,
    studioId,
    rows.flatMap((r) => r.instructorIds),
  );
  const counts = await visitCounts(
    app.knex,
    studioId,
    rows.map((r) => r.id),
  );
  return { rows, people, counts };
}

describe('timetable presented by PostgreSQL', () => {
  it('answers exactly what the staff presenter answers, in start order', async () => {
    const { studio, rows } = await week();
    const js = await presentedByJs(studio.id, (r) => r.status !== 'removed');
    const sql = await staffTimetable(app.knex, studio.id, { from: FROM, to: TO });
    expect(sql).toEqual(js.rows.map((r) => presentEvent(r, js.people, js.counts)));
    expect(sql).toHaveLength(6);
    // Booked/capacity and the waiting list at a glance (issue 26), counted once for the range.
    const first = sql.find((e) => e.id === rows[0]!.id)!;
    expect([first.taken, first.waiting]).toEqual([2, 1]);
    expect(sql.filter((e) => e.id !== rows[0]!.id).every((e) => e.taken === 0 && e.waiting === 0)).toBe(true);
    expect(sql[0]!.instructors.map((i) => i.firstName)).toEqual(['Bo', 'Ada']);

    const all = await staffTimetable(app.knex, studio.id, { from: FROM, to: TO, includeRemoved: true });
    const jsAll = await presentedByJs(studio.id, () => true);
    expect(all).toEqual(jsAll.rows.map((r) => presentEvent(r, jsAll.people, jsAll.counts)));
  });

  it('answers exactly what the public presenter answers: nothing hidden or removed', async () => {
    const { studio } = await week();
    const js = await presentedByJs(studio.id, (r) => r.status !== 'removed' && !r.isHidden);
    const { items: sql } = await publicTimetable(app.knex, studio.id, { from: FROM, to: TO });
    expect(sql).toEqual(js.rows.map((r) => presentPublicEvent(r, js.people)));
    expect(sql.map((e) => e.cancelled)).toContain(true);
  });

  it('applies the filters', async () => {
    const { studio, rows } = await week();
    const ada = (await staffTimetable(app.knex, studio.id, { from: FROM, to: TO })).find(
      (e) => e.instructors.length === 1 && e.instructors[0]!.firstName === 'Ada',
    )!.instructors[0]!.id;
    const byTeacher = await staffTimetable(app.knex, studio.id, { from: FROM, to: TO, instructorId: ada });
    expect(byTeacher.map((e) => e.id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
    const byRoom = await staffTimetable(app.knex, studio.id, {
      from: FROM,
      to: TO,
      roomId: (rows[0] as unknown as { roomId: string }).roomId,
    });
    expect(byRoom.map((e) => e.id).sort()).toEqual([rows[0]!.id, rows[3]!.id].sort());
    expect(await staffTimetable(app.knex, studio.id, { from: FROM, to: TO, locationId: uuidv7() })).toEqual(
      [],
    );
  });
});
