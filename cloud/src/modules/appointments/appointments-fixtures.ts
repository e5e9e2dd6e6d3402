import { v7 as uuidv7 } from 'uuid';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';
import { sessionClient } from '../bookings/bookings-fixtures';

const text = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * An appointments studio (Europe/Warsaw): one location with a room, two therapists (Anna, Ben) who
 * work 9:00–17:00 every day there, a massage (60 min + 15 min after, 200 zł, automatic, either of
 * them) and a physiotherapy session (45 min, manual confirmation, Anna only, in the room), an
 * appointment pass of 5 entries, and the scenario's client holding one.
 */
export async function appointmentStudio(app: TestApp) {
  const knex = app.knex;
  const scenario = await createStudioScenario(knex);
  const s = scenario.studio.id;
  const locationId = uuidv7();
  const roomId = uuidv7();
  await knex('locations').insert({ id: locationId, studioId: s, name: 'Mokotów' });
  await knex('location_rooms').insert({
    id: roomId,
    studioId: s,
    locationId,
    name: 'Gabinet 1',
    capacity: 1,
  });
  const addStaff = async (firstName: string, role = 'instructor') => {
    const user = await createUser(knex, { firstName, lastName: 'Therapist' });
    await addMembership(knex, scenario.studio, user, { isMember: true, role });
    return user;
  };
  const anna = await addStaff('Anna');
  const ben = await addStaff('Ben');
  for (const member of [anna, ben])
    await knex('member_appointment_schedules').insert(
      [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
        id: uuidv7(),
        studioId: s,
        memberId: member.id,
        locationId,
        weekday,
        startMinute: 540,
        endMinute: 1020,
      })),
    );
  const massageId = uuidv7();
  const physioId = uuidv7();
  await knex('appointment_services').insert([
    {
      id: massageId,
      studioId: s,
      name: text('Massage', 'Masaż'),
      durationMinutes: 60,
      bufferAfterMinutes: 15,
      slotStepMinutes: 15,
      price: 20000,
      locationId,
      cancellationCutoffMinutes: 1440,
      position: 1,
    },
    {
      id: physioId,
      studioId: s,
      name: text('Physiotherapy', 'Fizjoterapia'),
      durationMinutes: 45,
      slotStepMinutes: 15,
      price: 15000,
      locationId,
      roomId,
      confirmation: 'manual',
      position: 2,
    },
  ]);
  await knex('appointment_service_members').insert([
    { studioId: s, serviceId: massageId, memberId: anna.id },
    { studioId: s, serviceId: massageId, memberId: ben.id },
    { studioId: s, serviceId: physioId, memberId: anna.id },
  ]);
  const optionId = uuidv7();
  await knex('pricing_options').insert({
    id: optionId,
    studioId: s,
    name: text('5 appointments', 'Karnet 5 wizyt'),
    price: 80000,
    entries: 5,
    serviceTypes: JSON.stringify(['appointmentPricingOption']),
  });
  const addPass = async (userId: string, entries = 5) => {
    const id = uuidv7();
    await knex('client_pricing_options').insert({
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
  const addClient = async (name = 'Client', withPass = true) => {
    const user = await createUser(knex, { firstName: name, lastName: `L${uuidv7().slice(-6)}` });
    await addMembership(knex, scenario.studio, user, { isClient: true });
    return { user, passId: withPass ? await addPass(user.id) : null };
  };
  const mainPass = await addPass(scenario.client.id);
  return {
    ...scenario,
    locationId,
    roomId,
    anna,
    ben,
    massageId,
    physioId,
    optionId,
    mainPass,
    addPass,
    addClient,
    addStaff,
    owner: await sessionClient(app, scenario.manager.id),
    me: await sessionClient(app, scenario.client.id),
  };
}
