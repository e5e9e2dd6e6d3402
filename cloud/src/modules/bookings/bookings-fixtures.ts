import { v7 as uuidv7 } from 'uuid';
import type { Knex } from 'knex';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import type { TestApp } from '../../../../tests/support/test-app';
import { openSession } from '../identity/sessions.service';
import { hashApiKey } from './bookings.routes';

/**
 * Test scenery for bookings (integration tests and the concurrency test): a studio with a location,
 * a class service, a meta with booking rules, one event, a pass option, and helpers to add clients
 * with passes and signed-in HTTP clients without going through the (deliberately slow) login.
 */
export interface ClassRules {
  capacity?: number;
  waitingListSize?: number;
  bookingOpensHours?: number | null;
  bookingClosesMinutes?: number;
  cancellationCutoffMinutes?: number;
  bookingAccessibility?: number;
  bookingTagIds?: string[];
  bookableOnline?: boolean;
  freeOfCharge?: boolean;
}

export async function sessionClient(app: TestApp, userId: string): Promise<HttpClient> {
  const { session, sessionId } = await openSession(app.knex, app.clock, userId, 24 * 365, {});
  const client = new HttpClient(app.url);
  client.token = session.csrfToken;
  client.session = { sessionId, userId, token: session.csrfToken, me: {} as never };
  return client;
}

export async function bookingStudio(app: TestApp, startsAt: Date, rules: ClassRules = {}) {
  const knex = app.knex;
  const scenario = await createStudioScenario(knex);
  const s = scenario.studio.id;
  const locationId = uuidv7();
  const serviceId = uuidv7();
  const metaId = uuidv7();
  const optionId = uuidv7();
  await knex('locations').insert({ id: locationId, studioId: s, name: 'Mokotów' });
  await knex('class_services').insert({
    id: serviceId,
    studioId: s,
    name: JSON.stringify({ en: { value: 'Vinyasa' }, pl: { value: 'Vinyasa' } }),
    durationMinutes: 60,
    freeOfCharge: rules.freeOfCharge ?? false,
  });
  await knex('schedule_metas').insert({
    id: metaId,
    studioId: s,
    classServiceId: serviceId,
    locationId,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '18:00',
    durationMinutes: 60,
    firstDate: '2026-01-01',
    capacity: rules.capacity ?? 2,
    waitingListSize: rules.waitingListSize ?? 1,
    bookingOpensHours: rules.bookingOpensHours ?? null,
    bookingClosesMinutes: rules.bookingClosesMinutes ?? 0,
    cancellationCutoffMinutes: rules.cancellationCutoffMinutes ?? 120,
    bookableOnline: rules.bookableOnline ?? true,
    bookingAccessibility: rules.bookingAccessibility ?? 1,
    bookingTagIds: rules.bookingTagIds ?? [],
  });
  await knex('pricing_options').insert({
    id: optionId,
    studioId: s,
    name: JSON.stringify({ en: { value: '10 classes' }, pl: { value: 'Karnet 10' } }),
    price: 30000,
    entries: 10,
  });
  const addEvent = async (at: Date, over: { capacity?: number; waitingListSize?: number } = {}) => {
    const id = uuidv7();
    await knex('schedule_events').insert({
      id,
      studioId: s,
      scheduleMetaId: metaId,
      classServiceId: serviceId,
      locationId,
      startsAt: at,
      endsAt: new Date(at.getTime() + 3_600_000),
      capacity: over.capacity ?? rules.capacity ?? 2,
      waitingListSize: over.waitingListSize ?? rules.waitingListSize ?? 1,
      bookableOnline: rules.bookableOnline ?? true,
    });
    return id;
  };
  const eventId = await addEvent(startsAt);
  const addPass = async (userId: string, entries: number | null = 10, db: Knex = knex) => {
    const id = uuidv7();
    await db('client_pricing_options').insert({
      id,
      studioId: s,
      clientId: userId,
      pricingOptionId: optionId,
      soldAt: new Date('2026-01-01T10:00:00Z'),
      entries,
      expirationType: 2,
    });
    return id;
  };
  const addClient = async (withPass = true, name = 'Client') => {
    const user = await createUser(knex, { firstName: name, lastName: `L${uuidv7().slice(-6)}` });
    await addMembership(knex, scenario.studio, user, { isClient: true });
    const passId = withPass ? await addPass(user.id) : null;
    return { user, passId };
  };
  const addStaff = async (role: string) => {
    const user = await createUser(knex, { firstName: 'Staff', lastName: role });
    await addMembership(knex, scenario.studio, user, { isMember: true, role });
    return user;
  };
  const addApiKey = async () => {
    const key = `sk_test_${uuidv7().replace(/-/g, '')}`;
    await knex('studio_apis').insert({
      id: uuidv7(),
      studioId: s,
      name: 'Partner',
      keyHash: hashApiKey(key),
    });
    return key;
  };
  const mainPass = await addPass(scenario.client.id);
  return {
    ...scenario,
    locationId,
    serviceId,
    metaId,
    optionId,
    eventId,
    mainPass,
    addEvent,
    addPass,
    addClient,
    addStaff,
    addApiKey,
  };
}

/** Entries a pass has used, by the catalog's own reading of visit facts. */
export async function entriesUsed(manager: HttpClient, studioId: string, userId: string, passId: string) {
  const res = await manager.get(`/api/v4/${studioId}/client/${userId}/client-pricing-option/all`);
  const pass = (res.body.items as Array<{ id: string; entriesUsed: number }>).find((p) => p.id === passId);
  return pass?.entriesUsed;
}

/**
 * A 3-class course at the studio's location (Wednesdays 10, 17 and 24 June 2026 at 18:00 Warsaw,
 * 90 minutes, 4 places, no waiting list), the studio's pass covering classes and courses alike;
 * `priceByPass` also prices the course by that pass.
 */
export async function addJuneCourse(
  app: TestApp,
  st: { studio: { id: string }; locationId: string; optionId: string },
  course: { name: unknown; bookableOnline: boolean; priceByPass?: boolean },
) {
  const courseServiceId = uuidv7();
  const courseMetaId = uuidv7();
  await app.knex('class_services').insert({
    id: courseServiceId,
    studioId: st.studio.id,
    name: JSON.stringify(course.name),
    serviceType: 'course',
    durationMinutes: 90,
  });
  await app.knex('schedule_metas').insert({
    id: courseMetaId,
    studioId: st.studio.id,
    classServiceId: courseServiceId,
    locationId: st.locationId,
    daysOfWeek: [3],
    startTime: '18:00',
    durationMinutes: 90,
    firstDate: '2026-06-10',
    lastDate: '2026-06-24',
    capacity: 4,
    waitingListSize: 0,
    cancellationCutoffMinutes: 24 * 60,
    bookableOnline: course.bookableOnline,
  });
  // A course needs a course pass (spec §3).
  await app
    .knex('pricing_options')
    .where({ id: st.optionId })
    .update({ serviceTypes: JSON.stringify(['classroomPricingOption', 'coursePricingOption']) });
  if (course.priceByPass)
    await app.knex('schedule_meta_pricing_options').insert({
      id: uuidv7(),
      studioId: st.studio.id,
      scheduleMetaId: courseMetaId,
      pricingOptionId: st.optionId,
    });
  const courseEvents: string[] = [];
  for (const day of [10, 17, 24]) {
    const id = uuidv7();
    const at = new Date(`2026-06-${day}T16:00:00Z`);
    await app.knex('schedule_events').insert({
      id,
      studioId: st.studio.id,
      scheduleMetaId: courseMetaId,
      classServiceId: courseServiceId,
      locationId: st.locationId,
      startsAt: at,
      endsAt: new Date(at.getTime() + 90 * 60_000),
      capacity: 4,
      waitingListSize: 0,
      bookableOnline: course.bookableOnline,
    });
    courseEvents.push(id);
  }
  return { courseServiceId, courseMetaId, courseEvents };
}
