import { createServer, type IncomingMessage, type Server } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { KIOSK_SESSION_HEADER } from '../../../../shared/contracts/api/kiosk';
import { bookingStudio } from '../bookings/bookings-fixtures';
import { FakeSmartLockDriver, useSmartLockDriver, type SmartLockDriver } from './smart-lock-driver';

let app: TestApp;
// Monday 17:30 in Warsaw: the 18:00 class is open for check-in, the 21:00 one is not yet.
const NOW = new Date('2026-11-23T16:30:00Z');
const SOON = new Date('2026-11-23T17:00:00Z');
const LATER = new Date('2026-11-23T20:00:00Z');
const clock = new ManualClock(NOW);

beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const v4 = (studioId: string, path: string) => `/api/v4/${studioId}/${path}`;

type Scenery = Awaited<ReturnType<typeof bookingStudio>>;

/** A booking studio, its owner signed in, and its default kiosk signed in with the studio key. */
async function kioskStudio(on: TestApp = app) {
  const s = await bookingStudio(on, SOON, { capacity: 5 });
  const owner = await on.signedIn(s.manager.email, s.manager.password);
  const anon = await on.anonymous();
  const auth = await anon.post('/api/v4/auth/kiosk', { uuid: s.studio.id, kioskKey: s.studio.kioskKey });
  expect(auth.status, auth.text).toBe(200);
  const kioskId = auth.body.studioKiosk.guid as string;
  const session = await anon.post(v4(s.studio.id, 'kiosk/session'), { kioskId, kioskKey: s.studio.kioskKey });
  expect(session.status, session.text).toBe(200);
  const token = session.body.token as string;
  const kiosk = (method: string, path: string, body?: unknown, t = token) =>
    anon.request(method, v4(s.studio.id, `kiosk/${path}`), body, { headers: { [KIOSK_SESSION_HEADER]: t } });
  return { ...s, owner, anon, kioskId, token, kiosk };
}

async function addCard(s: Scenery, userId: string, number: string) {
  await app.knex('client_identities').insert({
    id: uuidv7(),
    studioId: s.studio.id,
    userId,
    kind: 'card',
    value: number,
    valueKey: number.replace(/[\s-]/g, '').toLowerCase(),
  });
}

async function visitStatus(eventId: string, clientId: string) {
  const row = await app.knex('client_visits').where({ scheduleEventId: eventId, clientId }).first('status');
  return row?.status as number | undefined;
}

let fake: FakeSmartLockDriver;
let realDriver: SmartLockDriver | null = null;
function fakeLocks() {
  fake = new FakeSmartLockDriver();
  realDriver = useSmartLockDriver(fake);
}
afterEach(() => {
  if (realDriver) useSmartLockDriver(realDriver);
  realDriver = null;
});

async function lockFor(owner: HttpClient, studioId: string, url = 'http://127.0.0.1:9/relay') {
  const res = await owner.post(v4(studioId, 'studio-smart-lock'), {
    name: 'Front door',
    driver: 'httpRelay',
    config: { url, method: 'POST', secret: 's3cret-relay', openSeconds: 4 },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

// ---------------------------------------------------------------------------------- back office

describe('studio-kiosk (back office)', () => {
  it('lists the default kiosk with its key, adds, edits and removes kiosks', async () => {
    const s = await kioskStudio();
    const list = await s.owner.get(v4(s.studio.id, 'studio-kiosk/collection'));
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        id: s.kioskId,
        isDefault: true,
        kioskKey: s.studio.kioskKey,
        kioskUrl: `${app.url}/${s.studio.id}/kiosk/${s.kioskId}`,
        settings: { checkInMethods: ['card', 'qr', 'name'], printTicket: true, idleSeconds: 45 },
      }),
    ]);

    const init = await s.owner.get(v4(s.studio.id, 'studio-kiosk/init'));
    expect(init.status).toBe(200);
    expect(init.body.locations).toEqual([{ id: s.locationId, name: 'Mokotów' }]);

    const made = await s.owner.post(v4(s.studio.id, 'studio-kiosk'), {
      name: '  Reception tablet ',
      locationId: s.locationId,
      settings: { checkInMethods: ['card'], printTicket: false, idleSeconds: 30 },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ name: 'Reception tablet', isDefault: false, locationId: s.locationId });
    expect(made.body.kioskKey).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(made.body.kioskKey).not.toBe(s.studio.kioskKey);

    const patched = await s.owner.patch(v4(s.studio.id, `studio-kiosk/${made.body.id}`), {
      name: 'Tablet 2',
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.name).toBe('Tablet 2');

    const removeDefault = await s.owner.delete(v4(s.studio.id, `studio-kiosk/${s.kioskId}`));
    expect(removeDefault.status).toBe(409);
    expect(removeDefault.body.error).toMatchObject({ code: 2403, key: 'kiosk.defaultKioskLocked' });
    expect((await s.owner.delete(v4(s.studio.id, `studio-kiosk/${made.body.id}`))).status).toBe(204);
    expect((await s.owner.get(v4(s.studio.id, 'studio-kiosk/collection'))).body.items).toHaveLength(1);
  });

  it('reports every invalid field and refuses another studio’s location', async () => {
    const s = await kioskStudio();
    const other = await bookingStudio(app, SOON);
    const res = await s.owner.post(v4(s.studio.id, 'studio-kiosk'), {
      name: ' ',
      locationId: other.locationId,
      settings: { checkInMethods: [], printTicket: 'yes', idleSeconds: 2 },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual([
      'name',
      'settings.checkInMethods',
      'settings.idleSeconds',
      'settings.printTicket',
    ]);
    const foreign = await s.owner.post(v4(s.studio.id, 'studio-kiosk'), {
      name: 'X',
      locationId: other.locationId,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields).toEqual({ locationId: ['unknown location'] });
  });

  it('gives a QR code that carries the kiosk address and its key', async () => {
    const s = await kioskStudio();
    const res = await s.owner.get(v4(s.studio.id, `studio-kiosk/${s.kioskId}/qr-code`));
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(
      `${app.url}/${s.studio.id}/kiosk/${s.kioskId}#key=${encodeURIComponent(s.studio.kioskKey)}`,
    );
    expect(res.body.svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('needs a signed-in member of staff with the settings abilities', async () => {
    const s = await kioskStudio();
    expect((await s.anon.get(v4(s.studio.id, 'studio-kiosk/collection'))).status).toBe(401);
    const desk = await createUser(app.knex, { firstName: 'Desk', lastName: 'Person' });
    await addMembership(app.knex, s.studio, desk, { isMember: true, role: 'front_desk' });
    const deskClient = await app.signedIn(desk.email, desk.password);
    expect((await deskClient.get(v4(s.studio.id, 'studio-kiosk/collection'))).status).toBe(403);
    expect((await deskClient.post(v4(s.studio.id, 'studio-kiosk'), { name: 'X' })).status).toBe(403);
    const client = await app.signedIn(s.client.email, s.client.password);
    expect((await client.get(v4(s.studio.id, 'studio-smart-lock/collection'))).status).toBe(403);
  });

  it('hides every back-office route from another studio', async () => {
    const s = await kioskStudio();
    const lockId = await lockFor(s.owner, s.studio.id);
    const routes = [
      { method: 'GET' as const, path: v4(s.studio.id, 'studio-kiosk/collection') },
      { method: 'GET' as const, path: v4(s.studio.id, 'studio-kiosk/init') },
      { method: 'POST' as const, path: v4(s.studio.id, 'studio-kiosk'), body: { name: 'X' } },
      { method: 'PATCH' as const, path: v4(s.studio.id, `studio-kiosk/${s.kioskId}`), body: { name: 'X' } },
      { method: 'DELETE' as const, path: v4(s.studio.id, `studio-kiosk/${s.kioskId}`) },
      { method: 'GET' as const, path: v4(s.studio.id, `studio-kiosk/${s.kioskId}/qr-code`) },
      { method: 'GET' as const, path: v4(s.studio.id, 'studio-smart-lock/collection') },
      {
        method: 'POST' as const,
        path: v4(s.studio.id, 'studio-smart-lock'),
        body: { name: 'X', driver: 'httpRelay', config: { url: 'http://127.0.0.1:9/' } },
      },
      { method: 'PATCH' as const, path: v4(s.studio.id, `studio-smart-lock/${lockId}`), body: { name: 'Y' } },
      { method: 'DELETE' as const, path: v4(s.studio.id, `studio-smart-lock/${lockId}`) },
      {
        method: 'POST' as const,
        path: v4(s.studio.id, 'studio-smart-lock/test-connection'),
        body: { smartLockId: lockId },
      },
    ];
    // The shared helper for the first route; one other studio's manager for the rest (each helper
    // call makes a studio and signs in: too slow for eleven routes on a loaded machine).
    await expectHiddenFromOtherStudio(app, routes[0]!, [s.studio.kioskKey, 's3cret-relay']);
    const other = await kioskStudio();
    for (const route of routes) {
      const res = await other.owner.request(route.method, route.path, route.body);
      expect(res.status, `${route.method} ${route.path} as another studio`).toBe(404);
      expect(res.body.error?.key).toBe('resource.notFound');
      expect(res.text).not.toContain(s.studio.kioskKey);
      expect(res.text).not.toContain('s3cret-relay');
    }
    // Their own studio's path with this studio's ids: still nothing.
    const res = await other.owner.get(v4(other.studio.id, `studio-kiosk/${s.kioskId}/qr-code`));
    expect(res.status).toBe(404);
    const test = await other.owner.post(v4(other.studio.id, 'studio-smart-lock/test-connection'), {
      smartLockId: lockId,
    });
    expect(test.status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------- smart locks

describe('studio-smart-lock', () => {
  let relay: Server;
  let relayUrl: string;
  const calls: Array<{ method: string; url: string; auth: string | undefined; body: string }> = [];
  beforeAll(async () => {
    relay = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
        res.statusCode = req.url?.startsWith('/broken') ? 500 : 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', () => resolve()));
    const address = relay.address();
    relayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));

  it('keeps the secret to itself and tests the HTTP relay for real', async () => {
    const s = await kioskStudio();
    const lockId = await lockFor(s.owner, s.studio.id, `${relayUrl}/relay/0`);
    const list = await s.owner.get(v4(s.studio.id, 'studio-smart-lock/collection'));
    expect(list.body.items).toEqual([
      {
        id: lockId,
        name: 'Front door',
        driver: 'httpRelay',
        config: { url: `${relayUrl}/relay/0`, method: 'POST', openSeconds: 4, hasSecret: true },
        lastTest: null,
        kioskIds: [],
      },
    ]);
    expect(list.text).not.toContain('s3cret-relay');

    const test = await s.owner.post(v4(s.studio.id, 'studio-smart-lock/test-connection'), {
      smartLockId: lockId,
    });
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ ok: true, reason: 'ok', httpStatus: 200, message: 'HTTP 200' });
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      url: '/relay/0',
      auth: 'Bearer s3cret-relay',
      body: JSON.stringify({ action: 'test' }),
    });
    const after = await s.owner.get(v4(s.studio.id, 'studio-smart-lock/collection'));
    expect(after.body.items[0].lastTest).toMatchObject({
      ok: true,
      reason: 'ok',
      httpStatus: 200,
      message: 'HTTP 200',
    });

    // A relay that answers 500, and one that is not there.
    await s.owner.patch(v4(s.studio.id, `studio-smart-lock/${lockId}`), {
      config: { url: `${relayUrl}/broken`, method: 'GET', openSeconds: 3 },
    });
    const broken = await s.owner.post(v4(s.studio.id, 'studio-smart-lock/test-connection'), {
      smartLockId: lockId,
    });
    expect(broken.body).toMatchObject({
      ok: false,
      reason: 'httpStatus',
      httpStatus: 500,
      message: 'the relay answered HTTP 500',
    });
    // The list keeps the last test's reason, which the back office translates.
    const reset = await s.owner.get(v4(s.studio.id, 'studio-smart-lock/collection'));
    expect(reset.body.items[0].lastTest).toMatchObject({ reason: 'httpStatus', httpStatus: 500 });
    expect(calls.at(-1)).toMatchObject({
      method: 'GET',
      url: '/broken?action=test',
      auth: 'Bearer s3cret-relay',
    });
    const gone = await lockFor(s.owner, s.studio.id, 'http://127.0.0.1:9/nothing-here');
    const down = await s.owner.post(v4(s.studio.id, 'studio-smart-lock/test-connection'), {
      smartLockId: gone,
    });
    expect(down.body).toMatchObject({ ok: false, reason: 'unreachable', httpStatus: null });
    expect(down.body.message).toMatch(/could not reach the relay/);
  });

  it('refuses addresses that are not http(s) and unknown drivers', async () => {
    const s = await kioskStudio();
    const res = await s.owner.post(v4(s.studio.id, 'studio-smart-lock'), {
      name: 'Door',
      driver: 'zigbee',
      config: { url: 'file:///etc/passwd', openSeconds: 99 },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['config.openSeconds', 'config.url', 'driver']);
  });

  it('opens the kiosk’s lock through the relay after a check-in', async () => {
    const s = await kioskStudio();
    const lockId = await lockFor(s.owner, s.studio.id, `${relayUrl}/door`);
    await s.owner.patch(v4(s.studio.id, `studio-kiosk/${s.kioskId}`), { smartLockId: lockId });
    const res = await s.kiosk('POST', 'check-in', { clientId: s.client.id, scheduleEventId: s.eventId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.lock).toBe('opened');
    expect(calls.at(-1)).toMatchObject({
      url: '/door',
      body: JSON.stringify({ action: 'open', seconds: 4, reason: 'checkIn' }),
    });
  });
});

// ---------------------------------------------------------------------------------- kiosk session

describe('kiosk session', () => {
  it('signs in with the kiosk key only, and a kiosk may make kiosk calls only', async () => {
    const s = await kioskStudio();
    const me = await s.kiosk('GET', 'me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: s.kioskId, studio: { uuid: s.studio.id }, hasLock: false });

    for (const kioskKey of ['wrong', `${s.studio.kioskKey}x`]) {
      const res = await s.anon.post(v4(s.studio.id, 'kiosk/session'), { kioskId: s.kioskId, kioskKey });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        key: 'auth.kioskInvalid',
        fields: { kioskKey: ['invalid uuid or kiosk key'] },
      });
    }
    // A second kiosk's key does not open the first, nor the other way round.
    const second = await s.owner.post(v4(s.studio.id, 'studio-kiosk'), { name: 'Second' });
    const crossed = await s.anon.post(v4(s.studio.id, 'kiosk/session'), {
      kioskId: s.kioskId,
      kioskKey: second.body.kioskKey,
    });
    expect(crossed.status).toBe(403);
    const own = await s.anon.post(v4(s.studio.id, 'kiosk/session'), {
      kioskId: second.body.id,
      kioskKey: second.body.kioskKey,
    });
    expect(own.status).toBe(200);
    expect((await s.anon.post(v4(s.studio.id, 'kiosk/session'), {})).body.error.fields).toHaveProperty(
      'kioskId',
    );

    // The kiosk session on anything that is not a kiosk call: 403, whatever else the request holds.
    for (const [method, path] of [
      ['GET', v4(s.studio.id, 'studio-kiosk/collection')],
      ['GET', v4(s.studio.id, 'client/collection')],
      ['GET', '/api/v4/auth/me'],
      ['POST', v4(s.studio.id, `schedule-event/${s.eventId}/check-in`)],
    ] as const) {
      const res = await s.owner.request(
        method,
        path,
        method === 'POST' ? { clientId: s.client.id } : undefined,
        {
          headers: { [KIOSK_SESSION_HEADER]: s.token },
        },
      );
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 2404, key: 'kiosk.sessionOnly' });
    }
    expect(await visitStatus(s.eventId, s.client.id)).toBeUndefined();
  });

  it('limits identification per kiosk session and per studio (card-number guessing), with Retry-After', async () => {
    const limited = await startTestApp({
      clock,
      shareDatabaseWith: app,
      rateLimits: {
        kioskIdentifyPerSession: { points: 3, durationSeconds: 60 },
        kioskIdentifyPerStudio: { points: 5, durationSeconds: 60 },
      },
    });
    try {
      const s = await kioskStudio(limited);
      const guess = async (token: string, n: number) => {
        const statuses: number[] = [];
        for (let i = 0; i < n; i++)
          statuses.push(
            (await s.kiosk('POST', 'identify', { method: 'code', code: `GUESS-${i}` }, token)).status,
          );
        return statuses;
      };
      expect(await guess(s.token, 4)).toEqual([404, 404, 404, 429]);
      const locked = await s.kiosk('POST', 'identify', { method: 'code', code: 'GUESS-X' });
      expect(locked.body.error.key).toBe('rateLimit.exceeded');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      // A new session of the same studio's kiosk does not start over: the studio's budget runs out.
      const second = await s.anon.post(v4(s.studio.id, 'kiosk/session'), {
        kioskId: s.kioskId,
        kioskKey: s.studio.kioskKey,
      });
      expect(await guess(second.body.token as string, 3)).toEqual([404, 404, 429]);
      // Another studio's kiosk is not affected.
      const other = await kioskStudio(limited);
      expect((await other.kiosk('POST', 'identify', { method: 'code', code: 'GUESS-0' })).status).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('refuses kiosk calls without a session, with a dead one, and for another studio', async () => {
    const s = await kioskStudio();
    const other = await kioskStudio();
    const none = await s.anon.post(v4(s.studio.id, 'kiosk/identify'), { method: 'code', code: 'AB1234' });
    expect(none.status).toBe(401);
    // A staff session is no kiosk session.
    expect((await s.owner.get(v4(s.studio.id, 'kiosk/me'))).status).toBe(401);
    const dead = await s.kiosk('GET', 'me', undefined, 'not-a-token');
    expect(dead.status).toBe(401);
    expect(dead.body.error.key).toBe('auth.sessionExpired');
    // Kiosk of another studio on this studio's kiosk paths: nothing.
    for (const [method, path, body] of [
      ['GET', 'me', undefined],
      ['POST', 'identify', { method: 'code', code: 'AB1234' }],
      ['POST', 'check-in', { clientId: s.client.id, scheduleEventId: s.eventId }],
      ['POST', 'entry', { clientId: s.client.id }],
      ['DELETE', 'session', undefined],
    ] as const) {
      const res = await s.anon.request(method, v4(s.studio.id, `kiosk/${path}`), body, {
        headers: { [KIOSK_SESSION_HEADER]: other.token },
      });
      expect(res.status, path).toBe(404);
    }
    // Its own studio's paths with this studio's client and class: nothing either.
    const foreign = await other.kiosk('POST', 'check-in', {
      clientId: s.client.id,
      scheduleEventId: s.eventId,
    });
    expect(foreign.status).toBe(404);
    const foreignEntry = await other.kiosk('POST', 'entry', { clientId: s.client.id });
    expect(foreignEntry.status).toBe(404);
    expect(await visitStatus(s.eventId, s.client.id)).toBeUndefined();
  });

  it('signs the device out when the key changes or it signs out', async () => {
    const s = await kioskStudio();
    const regen = await s.owner.patch(v4(s.studio.id, `studio-kiosk/${s.kioskId}`), { regenerateKey: true });
    expect(regen.status).toBe(200);
    expect(regen.body.kioskKey).not.toBe(s.studio.kioskKey);
    expect((await s.kiosk('GET', 'me')).status).toBe(401);
    // The default kiosk's key is the studio's: the entry app's /kiosk takes the new one.
    const auth = await s.anon.post('/api/v4/auth/kiosk', {
      uuid: s.studio.id,
      kioskKey: regen.body.kioskKey,
    });
    expect(auth.status).toBe(200);
    const again = await s.anon.post(v4(s.studio.id, 'kiosk/session'), {
      kioskId: s.kioskId,
      kioskKey: regen.body.kioskKey,
    });
    const token = again.body.token as string;
    expect((await s.kiosk('DELETE', 'session', undefined, token)).status).toBe(204);
    expect((await s.kiosk('GET', 'me', undefined, token)).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------- check-in

describe('kiosk check-in', () => {
  it('finds a client by card and checks them in, booking the class first, and opens the lock', async () => {
    fakeLocks();
    const s = await kioskStudio();
    const lockId = await lockFor(s.owner, s.studio.id);
    await s.owner.patch(v4(s.studio.id, `studio-kiosk/${s.kioskId}`), { smartLockId: lockId });
    await addCard(s, s.client.id, 'AB-1234');
    const later = await s.addEvent(LATER);

    const found = await s.kiosk('POST', 'identify', { method: 'code', code: ' ab 1234 ' });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({
      client: { id: s.client.id, firstName: 'Kamil' },
      identifiedBy: 'card',
      bookings: [],
      entry: { available: false, reason: 'serviceNotCovered' },
    });
    expect(found.body.classes).toEqual([
      expect.objectContaining({ scheduleEventId: s.eventId, canBook: true, reason: null, placesLeft: 5 }),
      expect.objectContaining({ scheduleEventId: later, canBook: true }),
    ]);

    const res = await s.kiosk('POST', 'check-in', { clientId: s.client.id, scheduleEventId: s.eventId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'checkedIn',
      lock: 'opened',
      ticket: {
        kind: 'checkIn',
        clientName: 'Kamil Client',
        className: 'Vinyasa',
        studioName: s.studio.name,
      },
    });
    expect(await visitStatus(s.eventId, s.client.id)).toBe(1);
    expect(fake.opened).toEqual([{ lockId, reason: 'checkIn', clientId: s.client.id }]);
    const log = await app.knex('kiosk_check_ins').where({ kioskId: s.kioskId });
    expect(log).toEqual([
      expect.objectContaining({ kind: 'visit', lockResult: 'opened', clientId: s.client.id }),
    ]);

    // The later class: booked now, check-in waits; the door stays shut.
    const booked = await s.kiosk('POST', 'check-in', { clientId: s.client.id, scheduleEventId: later });
    expect(booked.body).toMatchObject({ outcome: 'booked', lock: 'none', ticket: null });
    expect(await visitStatus(later, s.client.id)).toBe(0);
    expect(fake.opened).toHaveLength(1);
    const tooEarly = await s.kiosk('POST', 'check-in', { clientId: s.client.id, scheduleEventId: later });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error.key).toBe('visit.tooEarly');

    const again = await s.kiosk('POST', 'identify', { method: 'code', code: 'AB1234' });
    expect(again.body.bookings).toEqual([
      expect.objectContaining({ scheduleEventId: s.eventId, state: 'present', canCheckIn: false }),
      expect.objectContaining({ scheduleEventId: later, state: 'booked', canCheckIn: false }),
    ]);
    expect(again.body.classes).toEqual([]);
  });

  it('finds a booked client by name and birth date, ignoring case and Polish letters', async () => {
    const s = await kioskStudio();
    const { user } = await s.addClient(true, 'Łucja');
    await app
      .knex('clients')
      .where({ studioId: s.studio.id, userId: user.id })
      .update({ birthDate: '1990-05-17' });
    const book = await s.kiosk('POST', 'check-in', { clientId: user.id, scheduleEventId: s.eventId });
    expect(book.body.outcome).toBe('checkedIn');
    await app.knex('client_visits').where({ clientId: user.id }).update({ status: 0, checkedInAt: null });

    const found = await s.kiosk('POST', 'identify', {
      method: 'name',
      firstName: 'lucja',
      lastName: user.lastName.toUpperCase(),
      birthDate: '1990-05-17',
    });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({ identifiedBy: 'name', client: { id: user.id } });
    expect(found.body.bookings).toEqual([
      expect.objectContaining({ scheduleEventId: s.eventId, state: 'booked', canCheckIn: true }),
    ]);
    const wrongDay = await s.kiosk('POST', 'identify', {
      method: 'name',
      firstName: 'Łucja',
      lastName: user.lastName,
      birthDate: '1990-05-18',
    });
    expect(wrongDay.status).toBe(404);
    expect(wrongDay.body.error).toMatchObject({ code: 2400, key: 'kiosk.clientNotFound' });
    const bad = await s.kiosk('POST', 'identify', { method: 'name', firstName: '', birthDate: '17.05.1990' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['birthDate', 'firstName', 'lastName']);
  });

  it('says which pass rule refused, and books nothing without a pass', async () => {
    const s = await kioskStudio();
    const { user } = await s.addClient(false, 'Nopass');
    await addCard(s, user.id, 'NP-0001');
    const found = await s.kiosk('POST', 'identify', { method: 'code', code: 'NP-0001' });
    expect(found.body.classes[0]).toMatchObject({ canBook: false, reason: 'noPasses' });
    expect(found.body.entry).toEqual({ available: false, reason: 'noPasses' });
    const res = await s.kiosk('POST', 'check-in', { clientId: user.id, scheduleEventId: s.eventId });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 2402,
      key: 'kiosk.noPassCovers',
      fields: { scheduleEventId: ['noPasses'] },
    });
    expect(await visitStatus(s.eventId, user.id)).toBeUndefined();

    // A pass with no entries left: the rule's own reason, at identify and at check-in.
    await s.addPass(user.id, 0);
    const spent = await s.kiosk('POST', 'identify', { method: 'code', code: 'NP-0001' });
    expect(spent.body.classes[0]).toMatchObject({ canBook: false, reason: 'noEntriesLeft' });
    const refused = await s.kiosk('POST', 'check-in', { clientId: user.id, scheduleEventId: s.eventId });
    expect(refused.body.error.fields).toEqual({ scheduleEventId: ['noEntriesLeft'] });
  });

  it('lets a client in with an entry pass, and not with a counted one', async () => {
    fakeLocks();
    const s = await kioskStudio();
    const lockId = await lockFor(s.owner, s.studio.id);
    await s.owner.patch(v4(s.studio.id, `studio-kiosk/${s.kioskId}`), { smartLockId: lockId });
    const entryOption = uuidv7();
    await app.knex('pricing_options').insert({
      id: entryOption,
      studioId: s.studio.id,
      name: JSON.stringify({ en: { value: 'Open gym month' }, pl: { value: 'Siłownia miesiąc' } }),
      price: 15000,
      entries: null,
      serviceTypes: JSON.stringify(['entryPricingOption']),
    });
    const { user } = await s.addClient(false, 'Gym');
    const passId = uuidv7();
    await app.knex('client_pricing_options').insert({
      id: passId,
      studioId: s.studio.id,
      clientId: user.id,
      pricingOptionId: entryOption,
      soldAt: new Date('2026-11-01T10:00:00Z'),
      entries: null,
      expirationType: 2,
    });
    await addCard(s, user.id, 'GYM-7');
    const found = await s.kiosk('POST', 'identify', { method: 'code', code: 'GYM-7' });
    expect(found.body.entry).toEqual({ available: true, reason: null });
    const res = await s.kiosk('POST', 'entry', { clientId: user.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      outcome: 'entered',
      lock: 'opened',
      ticket: { clientName: expect.stringContaining('Gym') },
    });
    expect(fake.opened).toEqual([{ lockId, reason: 'entry', clientId: user.id }]);

    await app.knex('client_pricing_options').where({ id: passId }).update({ entries: 8 });
    const counted = await s.kiosk('POST', 'entry', { clientId: user.id });
    expect(counted.status).toBe(409);
    expect(counted.body.error.fields).toEqual({ clientId: ['countedEntryPass'] });
  });

  it('keeps to the check-in ways the kiosk allows', async () => {
    const s = await kioskStudio();
    await addCard(s, s.client.id, 'ONLY-CARD');
    await s.owner.patch(v4(s.studio.id, `studio-kiosk/${s.kioskId}`), {
      settings: { checkInMethods: ['qr'], printTicket: false, idleSeconds: 20 },
    });
    const res = await s.kiosk('POST', 'identify', { method: 'code', code: 'ONLY-CARD' });
    expect(res.status).toBe(403);
    expect(res.body.error.key).toBe('kiosk.methodDisabled');
    const me = await s.kiosk('GET', 'me');
    expect(me.body.settings).toEqual({ checkInMethods: ['qr'], printTicket: false, idleSeconds: 20 });
  });
});
