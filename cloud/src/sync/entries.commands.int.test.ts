import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import { bookingStudio } from '../modules/bookings/bookings-fixtures';
import { useSyncApp } from './sync.test-support';

/**
 * Entry services offline (issue 22), through a real station (SQLite + engine) and the real /sync
 * endpoints: the services and today's entries reach the mirror; an entry the desktop kiosk admitted
 * offline (`kioskEntry@2`) becomes one `client_entries` row with the pass the cloud picks, however
 * often the station sends it; what the cloud's rule would refuse is kept and flagged.
 */
const { app, dbFile } = useSyncApp('sync-entries-');

async function setup() {
  const st = await bookingStudio(app, new Date(Date.now() + 24 * 3_600_000));
  const owner = await app.signedIn(st.manager.email, st.manager.password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const kioskId = uuidv7();
  await app
    .knex('studio_kiosks')
    .insert({ id: kioskId, studioId: st.studio.id, name: 'Entrance', isDefault: true });
  const serviceId = uuidv7();
  await app.knex('entry_services').insert({
    id: serviceId,
    studioId: st.studio.id,
    name: JSON.stringify({ pl: { value: 'Sauna' } }),
    maxEntriesPerDay: 1,
    capacity: 5,
    stayMinutes: 90,
  });
  const optionId = uuidv7();
  await app.knex('pricing_options').insert({
    id: optionId,
    studioId: st.studio.id,
    name: JSON.stringify({ pl: { value: 'Sauna x5' } }),
    price: 5000,
    entries: 5,
    serviceTypes: JSON.stringify(['entryPricingOption']),
  });
  const { user } = await st.addClient(false, 'Sauna');
  const passId = uuidv7();
  await app.knex('client_pricing_options').insert({
    id: passId,
    studioId: st.studio.id,
    clientId: user.id,
    pricingOptionId: optionId,
    soldAt: new Date(Date.now() - 86_400_000),
    entries: 5,
    expirationType: 2,
  });
  const db = openLocalDatabase(dbFile());
  const desk = new SyncEngine(db);
  await desk.registerDevice(app.url, cookie, 'Kiosk');
  await desk.syncOnce();
  return { ...st, kioskId, serviceId, userId: user.id, passId, desk };
}

describe('kioskEntry@2 (fact: an entry into an entry service at the desktop kiosk while offline)', () => {
  it('mirrors the services, records the entry once with the pass, and flags a second one over the daily limit', async () => {
    const t = await setup();
    expect(t.desk.store.get('entry_services', t.serviceId)).toMatchObject({
      max_entries_per_day: 1,
      capacity: 5,
      stay_minutes: 90,
    });
    const entryId = uuidv7();
    const args = {
      entryId,
      kioskId: t.kioskId,
      userId: t.userId,
      entryServiceId: t.serviceId,
      lock: 'station',
    };
    t.desk.mutate('kioskEntry', 2, args);
    expect(t.desk.store.get('client_entries', entryId)).toMatchObject({ client_pricing_option_id: null });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[0]!.outcome).toMatchObject({
      status: 'applied',
      data: { entryId, clientPricingOptionId: t.passId },
    });
    const rows = await app.knex('client_entries').where({ studioId: t.studio.id, clientId: t.userId });
    expect(rows).toEqual([
      expect.objectContaining({
        id: entryId,
        clientPricingOptionId: t.passId,
        source: 'kiosk',
        kioskId: t.kioskId,
      }),
    ]);
    expect(rows[0]!.leavesAt.getTime() - rows[0]!.enteredAt.getTime()).toBe(90 * 60_000);
    // The pull brought the cloud's row back with its pass: the mirror is the cloud's again.
    expect(t.desk.store.get('client_entries', entryId)).toMatchObject({ client_pricing_option_id: t.passId });

    // The same entry sent again under a new mutation (a station restored from a backup resends its
    // outbox): the handler finds the entry by its id, nothing is recorded twice.
    t.desk.mutate('kioskEntry', 2, args);
    await t.desk.syncOnce();
    expect(t.desk.outbox()[1]!.outcome).toMatchObject({ status: 'applied', data: { entryId } });
    expect(
      await app.knex('client_entries').where({ studioId: t.studio.id, clientId: t.userId }),
    ).toHaveLength(1);
    expect(await app.knex('kiosk_check_ins').where({ id: entryId })).toHaveLength(1);

    // Another kiosk station let the client in again the same day (its mirror was behind): a fact,
    // kept, flagged for the desk as against the rules.
    const second = uuidv7();
    t.desk.mutate('kioskEntry', 2, { ...args, entryId: second, lock: 'none' });
    await t.desk.syncOnce();
    expect(t.desk.outbox()[2]!.outcome).toMatchObject({ status: 'flagged', flags: ['attendanceForced'] });
    expect(await app.knex('client_entries').where({ id: second }).first()).toBeTruthy();
    expect(await app.knex('sync_flags').where({ studioId: t.studio.id, kind: 'attendanceForced' })).toEqual([
      expect.objectContaining({ subjectTable: 'client_entries', subjectId: second }),
    ]);
  });
});
