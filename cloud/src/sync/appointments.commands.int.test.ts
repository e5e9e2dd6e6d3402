import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import { appointmentStudio } from '../modules/appointments/appointments-fixtures';
import { ownerCookie, useSyncApp } from './sync.test-support';

/**
 * The desk's appointments offline (issue 21), through a real station (SQLite + engine) and the real
 * /sync endpoints: the services and today's appointments reach the mirror; a check-in made at the
 * desk (`appointmentCheckIn@1`) marks the appointment present once, however often it is sent; one
 * called off meanwhile stays called off and is flagged for the desk.
 */
const { app, dbFile } = useSyncApp('sync-appointments-');

async function setup() {
  const st = await appointmentStudio(app);
  const add = async (startsAt: Date, status = 'booked') => {
    const id = uuidv7();
    const endsAt = new Date(startsAt.getTime() + 3_600_000);
    await app.knex('client_appointments').insert({
      id,
      studioId: st.studio.id,
      serviceId: st.massageId,
      memberId: st.anna.id,
      clientId: st.client.id,
      locationId: st.locationId,
      startsAt,
      endsAt,
      blockedFrom: startsAt,
      blockedUntil: endsAt,
      status,
      payment: 'pass',
      clientPricingOptionId: st.mainPass,
      bookedBy: 'staff',
    });
    return id;
  };
  const hour = 3_600_000;
  const soon = await add(new Date(Date.now() + hour));
  const later = await add(new Date(Date.now() + 3 * hour));
  const old = await add(new Date(Date.now() - 10 * 24 * hour), 'present');
  const db = openLocalDatabase(dbFile());
  const desk = new SyncEngine(db);
  await desk.registerDevice(app.url, await ownerCookie(app, st.manager.email, st.manager.password), 'Desk');
  await desk.syncOnce();
  return { ...st, soon, later, old, desk };
}

describe('appointmentCheckIn@1 (fact: a client checked in for an appointment at the desk, maybe offline)', () => {
  it('mirrors services and upcoming appointments, checks in once however often sent, flags a called-off one', async () => {
    const t = await setup();
    expect(t.desk.store.get('appointment_services', t.massageId)).toMatchObject({
      name: { en: { value: 'Massage' } },
      duration_minutes: 60,
    });
    expect(t.desk.store.get('client_appointments', t.soon)).toMatchObject({
      status: 'booked',
      member_id: t.anna.id,
      client_id: t.client.id,
    });
    // Outside the window (ten days back): not sent.
    expect(t.desk.store.get('client_appointments', t.old)).toBeNull();

    t.desk.mutate('appointmentCheckIn', 1, { clientAppointmentId: t.soon });
    expect(t.desk.store.get('client_appointments', t.soon)).toMatchObject({ status: 'present' });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[0]!.outcome).toMatchObject({
      status: 'applied',
      data: { clientAppointmentId: t.soon, appointmentStatus: 'present' },
    });
    const row = (await app.knex('client_appointments').where({ id: t.soon }).first())!;
    expect(row).toMatchObject({ status: 'present' });
    expect(row.checkedInAt).toBeInstanceOf(Date);
    expect(t.desk.store.get('client_appointments', t.soon)).toMatchObject({ status: 'present' });

    // Sent again under a new mutation (a restored station resends its outbox): nothing changes.
    t.desk.mutate('appointmentCheckIn', 1, { clientAppointmentId: t.soon });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[1]!.outcome).toMatchObject({
      status: 'applied',
      data: { appointmentStatus: 'present', alreadyPresent: true },
    });
    const again = (await app.knex('client_appointments').where({ id: t.soon }).first())!;
    expect(again.checkedInAt?.getTime()).toBe(row.checkedInAt?.getTime());

    // Called off in the back office while the desk was offline: the desk's check-in is kept as a flag
    // for review, the appointment is not revived.
    await app
      .knex('client_appointments')
      .where({ id: t.later })
      .update({ status: 'calledOff', cancelledAt: new Date() });
    t.desk.mutate('appointmentCheckIn', 1, { clientAppointmentId: t.later });
    expect(t.desk.store.get('client_appointments', t.later)).toMatchObject({ status: 'present' });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[2]!.outcome).toMatchObject({
      status: 'flagged',
      flags: ['appointmentNotHeld'],
      data: { appointmentStatus: 'calledOff' },
    });
    expect(await app.knex('client_appointments').where({ id: t.later }).first()).toMatchObject({
      status: 'calledOff',
      checkedInAt: null,
    });
    expect(await app.knex('sync_flags').where({ studioId: t.studio.id, kind: 'appointmentNotHeld' })).toEqual(
      [expect.objectContaining({ subjectTable: 'client_appointments', subjectId: t.later })],
    );
    // The pull brought the cloud's status back: the desk shows it called off.
    expect(t.desk.store.get('client_appointments', t.later)).toMatchObject({ status: 'calledOff' });
  });

  it("rejects a check-in of another studio's appointment and leaves it alone", async () => {
    const t = await setup();
    const other = await appointmentStudio(app);
    const theirs = uuidv7();
    const startsAt = new Date(Date.now() + 3_600_000);
    const endsAt = new Date(startsAt.getTime() + 3_600_000);
    await app.knex('client_appointments').insert({
      id: theirs,
      studioId: other.studio.id,
      serviceId: other.massageId,
      memberId: other.anna.id,
      clientId: other.client.id,
      startsAt,
      endsAt,
      blockedFrom: startsAt,
      blockedUntil: endsAt,
      status: 'booked',
      payment: 'desk',
      bookedBy: 'staff',
    });
    expect(t.desk.store.get('client_appointments', theirs)).toBeNull();
    t.desk.mutate('appointmentCheckIn', 1, { clientAppointmentId: theirs });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[0]!.outcome).toMatchObject({ status: 'rejected' });
    expect(await app.knex('client_appointments').where({ id: theirs }).first()).toMatchObject({
      status: 'booked',
      checkedInAt: null,
    });
  });
});
