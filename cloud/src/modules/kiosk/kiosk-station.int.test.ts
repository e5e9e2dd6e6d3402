import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_SESSION_HEADER } from '../../../../shared/contracts/api/kiosk';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { studioWithStation } from '../../sync/sync.test-support';
import { bookingStudio, type ClassRules } from '../bookings/bookings-fixtures';

/**
 * The desktop kiosk station's side of the cloud (issue 10): the door's relay for the station of the
 * kiosk (`GET kiosk/door`: kiosk session AND device token), the `kioskEntry@1` fact and a kiosk's
 * offline booking ahead (`bookClass@1` with `selfBooking`). desktop/README.md "Kiosk mode".
 */
let app: TestApp;
const NOW = new Date('2026-11-23T16:30:00Z'); // Monday 17:30 in Warsaw
const clock = new ManualClock(NOW);
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const v4 = (studioId: string, path: string) => `/api/v4/${studioId}/${path}`;

async function kioskStation(startsAt = new Date('2026-11-23T20:00:00Z'), rules: ClassRules = {}) {
  const s = await bookingStudio(app, startsAt, { capacity: 5, ...rules });
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  const anon = await app.anonymous();
  const auth = await anon.post('/api/v4/auth/kiosk', { uuid: s.studio.id, kioskKey: s.studio.kioskKey });
  const kioskId = auth.body.studioKiosk.guid as string;
  const session = await anon.post(v4(s.studio.id, 'kiosk/session'), { kioskId, kioskKey: s.studio.kioskKey });
  expect(session.status, session.text).toBe(200);
  const token = session.body.token as string;
  const station = await studioWithStation(app, s.studio);
  const door = (headers: Record<string, string>) =>
    anon.request('GET', v4(s.studio.id, 'kiosk/door'), undefined, { headers });
  let seq = 0;
  const push = async (name: string, args: Record<string, unknown>, id = uuidv7(), at = NOW) => {
    const mutation = { ...station.mutation(++seq, name, args), id, occurredAt: at.toISOString() };
    const res = await station.call('POST', '/sync/push', { mutations: [mutation] });
    expect(res.status, res.text).toBe(200);
    return { id, result: res.body.results[0] as { outcome: Record<string, unknown> } };
  };
  return { ...s, owner, anon, kioskId, token, station, door, push };
}

describe('GET kiosk/door: the relay only for the kiosk’s own desk station', () => {
  it('answers the lock with its secret to the kiosk session plus a device token of the studio, nothing else', async () => {
    const k = await kioskStation();
    const lock = await k.owner.post(v4(k.studio.id, 'studio-smart-lock'), {
      name: 'Front door',
      driver: 'httpRelay',
      config: { url: 'http://10.0.0.9/relay', method: 'GET', secret: 'relay-secret', openSeconds: 3 },
    });
    expect(lock.status, lock.text).toBe(201);
    const session = { [KIOSK_SESSION_HEADER]: k.token };
    const device = { authorization: `Bearer ${k.station.token}` };

    // No lock yet: nothing to give.
    expect((await k.door({ ...session, ...device })).body).toEqual({ lock: null });
    await k.owner.patch(v4(k.studio.id, `studio-kiosk/${k.kioskId}`), { smartLockId: lock.body.id });
    const ok = await k.door({ ...session, ...device });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.body).toEqual({
      lock: {
        id: lock.body.id,
        driver: 'httpRelay',
        config: { url: 'http://10.0.0.9/relay', method: 'GET', secret: 'relay-secret', openSeconds: 3 },
      },
    });

    // A kiosk session alone (a web kiosk in a browser): refused. A device token alone: no kiosk.
    const webKiosk = await k.door(session);
    expect(webKiosk.status).toBe(403);
    expect(webKiosk.body.error).toMatchObject({ key: 'kiosk.stationOnly', code: 2423 });
    expect((await k.door({ ...session, authorization: 'Bearer sdt.nope.nope' })).status).toBe(403);
    expect((await k.door(device)).status).toBe(401);
    // Another studio's station with this kiosk's session: refused, nothing leaks.
    const other = await kioskStation();
    const foreign = await k.door({ ...session, authorization: `Bearer ${other.station.token}` });
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('relay-secret');
    // A revoked station: refused.
    await k.station.call('DELETE', `/sync/devices/${k.station.deviceId}`);
    expect((await k.door({ ...session, ...device })).status).toBe(403);
  });
});

describe('kioskEntry@1 (fact): entry at the door while the kiosk was offline', () => {
  async function withEntryPass(k: Awaited<ReturnType<typeof kioskStation>>, entries: number | null) {
    const option = uuidv7();
    await app.knex('pricing_options').insert({
      id: option,
      studioId: k.studio.id,
      name: JSON.stringify({ en: { value: 'Open gym' } }),
      price: 15000,
      entries,
      serviceTypes: JSON.stringify(['entryPricingOption']),
    });
    const { user } = await k.addClient(false, 'Gym');
    const passId = uuidv7();
    await app.knex('client_pricing_options').insert({
      id: passId,
      studioId: k.studio.id,
      clientId: user.id,
      pricingOptionId: option,
      soldAt: new Date('2026-11-01T10:00:00Z'),
      entries,
      expirationType: 2,
    });
    return { userId: user.id, passId };
  }

  it('records one entry row with the pass at the entry’s time, once, even when pushed twice', async () => {
    const k = await kioskStation();
    const { userId, passId } = await withEntryPass(k, null);
    const entryId = uuidv7();
    const at = new Date('2026-11-23T16:10:00Z');
    const args = { entryId, kioskId: k.kioskId, userId, lock: 'station' };
    const first = await k.push('kioskEntry', args, undefined, at);
    expect(first.result.outcome).toMatchObject({
      status: 'applied',
      data: { entryId, clientPricingOptionId: passId },
    });
    // The same mutation again (a lost answer) and the same entry in a new mutation: still one row.
    const replay = await k.station.call('POST', '/sync/push', {
      mutations: [
        { ...k.station.mutation(1, 'kioskEntry', args), id: first.id, occurredAt: at.toISOString() },
      ],
    });
    expect(replay.body.results[0].outcome).toEqual(first.result.outcome);
    await k.push('kioskEntry', args);
    const rows = await app.knex('kiosk_check_ins').where({ studioId: k.studio.id, clientId: userId });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: entryId,
      kind: 'entry',
      kioskId: k.kioskId,
      clientPricingOptionId: passId,
      lockResult: 'station',
      clientVisitId: null,
    });
    expect(new Date(rows[0]!.createdAt).toISOString()).toBe(at.toISOString());
  });

  it('never rejects: no pass that covers it (a counted pass) is recorded and flagged uncovered; an unknown kiosk falls back to the default one', async () => {
    const k = await kioskStation();
    const { userId } = await withEntryPass(k, 8);
    const entryId = uuidv7();
    const { result } = await k.push('kioskEntry', { entryId, kioskId: uuidv7(), userId });
    expect(result.outcome).toMatchObject({ status: 'flagged', flags: ['uncovered'] });
    const row = await app.knex('kiosk_check_ins').where({ id: entryId }).first();
    expect(row).toMatchObject({ kioskId: k.kioskId, clientPricingOptionId: null, lockResult: 'none' });
    const flags = await app.knex('sync_flags').where({ studioId: k.studio.id, kind: 'uncovered' });
    expect(flags).toEqual([
      expect.objectContaining({
        subjectTable: 'kiosk_check_ins',
        subjectId: entryId,
        details: { userId, reason: 'countedEntryPass' },
      }),
    ]);
  });

  it('a malformed fact is kept in quarantine for review (facts are never dropped), and writes nothing', async () => {
    const k = await kioskStation();
    const { result } = await k.push('kioskEntry', { entryId: 'x', kioskId: k.kioskId, lock: 'open' });
    expect(result.outcome).toMatchObject({ status: 'quarantined', key: 'request.invalid' });
    expect(await app.knex('kiosk_check_ins').where({ studioId: k.studio.id })).toEqual([]);
  });
});

describe('bookClass@1 with selfBooking: a kiosk’s booking ahead made offline', () => {
  it('books a free place, waitlists when the class filled up, and keeps the online rules (not bookable online: rejected)', async () => {
    const k = await kioskStation(new Date('2026-11-23T20:00:00Z'), { capacity: 1, waitingListSize: 3 });
    const [a, b] = [await k.addClient(), await k.addClient()];
    const book = (userId: string) =>
      k.push('bookClass', {
        visitId: uuidv7(),
        userId,
        scheduleEventId: k.eventId,
        waitingList: true,
        clientPresent: false,
        selfBooking: true,
      });
    const first = await book(a.user.id);
    expect(first.result.outcome).toMatchObject({ status: 'applied', data: { visitStatus: V.booked } });
    const second = await book(b.user.id);
    expect(second.result.outcome).toMatchObject({ status: 'waitlisted' });
    const row = await app
      .knex('client_visits')
      .where({ scheduleEventId: k.eventId, clientId: a.user.id })
      .first('booked_by', 'booked_by_user_id');
    expect(row).toMatchObject({ bookedBy: 'self', bookedByUserId: null });

    const closed = await kioskStation(new Date('2026-11-23T20:00:00Z'), { bookableOnline: false });
    const c = await closed.addClient();
    const refused = await closed.push('bookClass', {
      visitId: uuidv7(),
      userId: c.user.id,
      scheduleEventId: closed.eventId,
      selfBooking: true,
    });
    expect(refused.result.outcome).toMatchObject({ status: 'rejected', key: 'visit.notBookableOnline' });
    // The desk's own booking (no selfBooking) is staff's and may book it.
    const staff = await closed.push('bookClass', {
      visitId: uuidv7(),
      userId: c.user.id,
      scheduleEventId: closed.eventId,
    });
    expect(staff.result.outcome).toMatchObject({ status: 'applied' });
  });
});
