import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';

let app: TestApp;
const clock = new ManualClock(new Date('2026-03-20T10:00:00Z'));
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const url = (studioId: string, eventId: string) => `/api/v4/${studioId}/schedule-event/${eventId}/details`;

/** A studio with one class service (description, level) and three of its classes: shown, hidden, removed. */
async function studioWithClasses() {
  const { studio } = await createStudioScenario(app.knex);
  const [locationId, roomId, serviceId, levelId] = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
  await app.knex('locations').insert({ id: locationId, studioId: studio.id, name: 'Mokotów' });
  await app.knex('location_rooms').insert({
    id: roomId,
    studioId: studio.id,
    locationId,
    name: 'Sala Słoneczna',
    capacity: 20,
  });
  await app.knex('experience_levels').insert({
    id: levelId,
    studioId: studio.id,
    serviceType: 'classroom',
    name: 'Beginners',
  });
  await app.knex('class_services').insert({
    id: serviceId,
    studioId: studio.id,
    name: JSON.stringify({ en: { value: 'Vinyasa' }, pl: { value: 'Joga Vinyasa' } }),
    description: JSON.stringify({ en: { value: 'Flowing yoga.' }, pl: { value: 'Joga w ruchu.' } }),
    durationMinutes: 60,
    experienceLevelId: levelId,
  });
  const instructor = await createUser(app.knex, { firstName: 'Ola', lastName: 'Teacher' });
  await addMembership(app.knex, studio, instructor, { isMember: true, role: 'instructor' });
  const event = (over: Record<string, unknown>) => ({
    id: uuidv7(),
    studioId: studio.id,
    classServiceId: serviceId,
    locationId,
    roomId,
    instructorIds: [instructor.id],
    startsAt: '2026-03-21T09:00:00Z',
    endsAt: '2026-03-21T10:00:00Z',
    capacity: 12,
    ...over,
  });
  const [shown, hidden, removed] = [event({}), event({ isHidden: true }), event({ status: 'removed' })];
  await app.knex('schedule_events').insert([shown, hidden, removed]);
  return { studio, shown, hidden, removed, instructor };
}

describe('class details of the public timetable', () => {
  it("anyone reads description, level, instructor and room; hidden, removed, unknown, malformed and other studios' ids are 404", async () => {
    const { studio, shown, hidden, removed, instructor } = await studioWithClasses();
    const other = await studioWithClasses();
    const anonymous = await app.anonymous();

    const res = await anonymous.get(url(studio.id, shown.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: shown.id,
      classService: { name: { en: { value: 'Vinyasa' } } },
      description: { en: { value: 'Flowing yoga.' }, pl: { value: 'Joga w ruchu.' } },
      level: 'Beginners',
      durationMinutes: 60,
      location: { name: 'Mokotów' },
      room: { name: 'Sala Słoneczna' },
      instructors: [{ id: instructor.id, firstName: 'Ola', lastName: 'Teacher' }],
      startsAt: '2026-03-21T09:00:00.000Z',
      capacity: 12,
      cancelled: false,
    });

    for (const id of [hidden.id, removed.id, uuidv7(), other.shown.id])
      expect((await anonymous.get(url(studio.id, id))).status, id).toBe(404);
    expect((await anonymous.get(url(uuidv7(), shown.id))).status).toBe(404);
    // A malformed id in the path is an unknown one, as on every route.
    expect((await anonymous.get(url(studio.id, 'not-an-id'))).status).toBe(404);
  });
});
