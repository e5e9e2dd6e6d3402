import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors/app-error';
import { CloudClient } from './cloud-client';
import { verifyPin } from './pin';
import { assertStudioPath, StationService } from './station.service';
import { StationStore, STATION_FILE_NAME } from './station-store';
import { ReachabilityProbe } from './sync-port';

const STUDIO = '01a207d1-9654-7149-a49d-23786bf13921';
const OTHER_STUDIO = '01a207d1-9654-7149-a49d-000000000002';
const ANNA = '01a207d1-965c-77dc-93d3-e4a662568ce3';
const TOMASZ = '01a207d1-965c-77dc-93d3-e4a662568ce4';

interface FakeUser {
  id: string;
  email: string;
  firstName: string;
  memberships: { studioUuid: string; studioName: string; isMember: boolean }[];
}
const USERS: FakeUser[] = [
  {
    id: ANNA,
    email: 'anna@demo.studio',
    firstName: 'Anna',
    memberships: [{ studioUuid: STUDIO, studioName: 'Harmonia', isMember: true }],
  },
  {
    id: TOMASZ,
    email: 'tomasz@demo.studio',
    firstName: 'Tomasz',
    memberships: [{ studioUuid: STUDIO, studioName: 'Harmonia', isMember: true }],
  },
  {
    id: '01a207d1-965c-77dc-93d3-e4a662568ce5',
    email: 'multi@demo.studio',
    firstName: 'Multi',
    memberships: [
      { studioUuid: STUDIO, studioName: 'Harmonia', isMember: true },
      { studioUuid: OTHER_STUDIO, studioName: 'Other', isMember: true },
    ],
  },
  {
    id: '01a207d1-965c-77dc-93d3-e4a662568ce6',
    email: 'client@demo.studio',
    firstName: 'Client',
    memberships: [{ studioUuid: STUDIO, studioName: 'Harmonia', isMember: false }],
  },
];

/** A cloud in a fetch function: login, logout, forwarded calls, /sync/devices, /health. */
class FakeCloud {
  up = true;
  syncDevices = true;
  sessions = new Map<string, string>(); // sessionId → userId
  loggedOut: string[] = [];
  forwarded: { url: string; headers: Record<string, string> }[] = [];
  registrations: unknown[] = [];
  private next = 0;

  fetch: typeof fetch = async (input, init) => {
    if (!this.up) throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', ...extra },
      });
    const who = () => {
      const [userId, sessionId] = (headers['x-auth-token'] ?? '').split(':');
      return sessionId && this.sessions.get(sessionId) === userId ? userId : null;
    };
    if (url.pathname === '/health') return json(200, { status: 'ok' });
    if (url.pathname === '/api/v4/auth/csrf')
      return json(200, { token: 'anon' }, { 'set-cookie': 'sp_csrf=anon; path=/' });
    if (url.pathname === '/api/v4/auth/login') {
      expect(headers['x-csrf-token']).toBe('anon');
      expect(headers.cookie).toBe('sp_csrf=anon');
      const body = JSON.parse(String(init?.body)) as {
        emailAddress: string;
        password: string;
        studioUuid?: string;
      };
      const user = USERS.find((u) => u.email === body.emailAddress);
      if (
        !user ||
        body.password !== 'demo1234' ||
        (body.studioUuid && !user.memberships.some((m) => m.studioUuid === body.studioUuid))
      )
        return json(401, {
          error: { code: 1101, key: 'auth.invalidCredentials', message: 'wrong email address or password' },
        });
      const sessionId = `session-${++this.next}`;
      this.sessions.set(sessionId, user.id);
      return json(200, {
        sessionId,
        userId: user.id,
        token: `csrf-${sessionId}`,
        me: {
          id: user.id,
          emailAddress: user.email,
          firstName: user.firstName,
          lastName: 'Test',
          locale: null,
          memberships: user.memberships.map((m) => ({ ...m, isClient: !m.isMember, role: null })),
        },
      });
    }
    if (url.pathname === '/api/v4/auth/logout') {
      const sessionId = (headers['x-auth-token'] ?? '').split(':')[1] ?? '';
      this.loggedOut.push(sessionId);
      this.sessions.delete(sessionId);
      return json(204, undefined);
    }
    if (url.pathname === '/sync/devices') {
      if (!this.syncDevices)
        return json(404, { error: { code: 1200, key: 'resource.notFound', message: 'not found' } });
      expect(headers['x-requested-with']).toBe('XMLHttpRequest');
      if (!who()) return json(401, { error: { code: 1100, key: 'auth.required', message: 'sign in' } });
      const body = JSON.parse(String(init?.body)) as { deviceId: string; studioUuid: string };
      this.registrations.push(body);
      return json(201, {
        deviceToken: `sdt.${body.deviceId}.secret-token-value`,
        deviceId: body.deviceId,
        studioId: body.studioUuid,
        studioUuid: body.studioUuid,
        scope: { tables: [] },
      });
    }
    this.forwarded.push({ url: url.pathname + url.search, headers });
    if (!who())
      return json(401, { error: { code: 1104, key: 'auth.sessionExpired', message: 'session expired' } });
    if (url.pathname.endsWith('/export')) {
      return new Response(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff]), {
        status: 200,
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': 'attachment; filename="c.xlsx"',
        },
      });
    }
    return json(200, { items: [], next: null });
  };
}

let dir: string;
let cloud: FakeCloud;
let probe: ReachabilityProbe;

function station(options: { maxPinAttempts?: number } = {}) {
  probe = new ReachabilityProbe(60_000);
  const client = new CloudClient('http://cloud.test/', {
    fetch: cloud.fetch,
    onReachability: (r, e) => probe.report(r, e),
  });
  return new StationService({ store: new StationStore(dir), cloud: client, probe, ...options });
}

async function expectAppError(promise: Promise<unknown>, key: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).key).toBe(key);
  return error as AppError;
}

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'station-test-')), 'station');
  cloud = new FakeCloud();
});
afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

describe('station sign-in and registration', () => {
  it('registers the device once with the staff session and keeps every secret in main’s file only', async () => {
    const s = station();
    const result = await s.signIn({
      emailAddress: 'anna@demo.studio',
      password: 'demo1234',
      stationName: 'Desk 1',
    });
    expect(result.outcome).toBe('signedIn');
    const state = s.state();
    expect(state.device).toMatchObject({ name: 'Desk 1', studioUuid: STUDIO, studioName: 'Harmonia' });
    expect(state.staff).toMatchObject({ userId: ANNA, hasPin: false });
    expect(cloud.registrations).toEqual([
      { deviceId: state.device!.deviceId, name: 'Desk 1', studioUuid: STUDIO },
    ]);
    // Nothing secret in what the renderer gets…
    expect(JSON.stringify(state)).not.toMatch(/session-|csrf-|sdt\./);
    // …and the file holding them is the owner's only.
    const file = path.join(dir, STATION_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain('sdt.');

    // A second person does not register the station again.
    await s.signIn({ emailAddress: 'tomasz@demo.studio', password: 'demo1234' });
    expect(cloud.registrations).toHaveLength(1);
    expect(s.state().staff?.userId).toBe(TOMASZ);
    // And the station survives a restart.
    expect(station().state()).toEqual(s.state());
  });

  it('passes the cloud’s wrong-password answer on and changes nothing', async () => {
    const s = station();
    await expect(s.signIn({ emailAddress: 'anna@demo.studio', password: 'nope' })).rejects.toMatchObject({
      status: 401,
      envelope: { error: { key: 'auth.invalidCredentials' } },
    });
    expect(s.state()).toMatchObject({ registered: false, staff: null });
  });

  it('asks staff of several studios to choose, then registers for the chosen one', async () => {
    const s = station();
    const first = await s.signIn({ emailAddress: 'multi@demo.studio', password: 'demo1234' });
    expect(first).toEqual({
      outcome: 'chooseStudio',
      studios: [
        { studioUuid: STUDIO, studioName: 'Harmonia' },
        { studioUuid: OTHER_STUDIO, studioName: 'Other' },
      ],
    });
    expect(cloud.sessions.size).toBe(0); // the probe session was ended
    await s.signIn({ emailAddress: 'multi@demo.studio', password: 'demo1234', studioUuid: OTHER_STUDIO });
    expect(s.state().device?.studioUuid).toBe(OTHER_STUDIO);
  });

  it('refuses a person who is not staff of the station’s studio and ends their session', async () => {
    const s = station();
    await expectAppError(
      s.signIn({ emailAddress: 'client@demo.studio', password: 'demo1234' }),
      'station.notStaffHere',
    );
    expect(cloud.sessions.size).toBe(0);
    expect(s.state().registered).toBe(false);
  });

  it('works before the cloud has /sync/devices, and registers at the next sign-in once it has', async () => {
    cloud.syncDevices = false;
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234', stationName: 'Desk 1' });
    const deviceId = s.state().device!.deviceId;
    expect(s.state().registered).toBe(true);
    expect(readFileSync(path.join(dir, STATION_FILE_NAME), 'utf8')).toContain('"deviceToken":null');
    cloud.syncDevices = true;
    await s.signIn({ emailAddress: 'tomasz@demo.studio', password: 'demo1234' });
    expect(cloud.registrations).toEqual([{ deviceId, name: 'Desk 1', studioUuid: STUDIO }]);
  });
});

describe('PIN switch', () => {
  it('stores only a scrypt hash and switches between people who set a PIN, offline too', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    await s.setPin('2468');
    await s.signIn({ emailAddress: 'tomasz@demo.studio', password: 'demo1234' });
    const text = readFileSync(path.join(dir, STATION_FILE_NAME), 'utf8');
    expect(text).not.toContain('2468');
    const hash = (JSON.parse(text) as { staff: { userId: string; pinHash: string }[] }).staff.find(
      (x) => x.userId === ANNA,
    )!.pinHash;
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPin('2468', hash)).toBe(true);
    expect(s.state().switchable.map((x) => x.userId)).toEqual([ANNA]);

    cloud.up = false;
    const state = await s.switchStaff(ANNA, '2468');
    expect(state.staff?.userId).toBe(ANNA);
  });

  it('refuses a wrong PIN and drops the PIN after five wrong tries in a row', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    await s.setPin('2468');
    await s.lock();
    const wrong = await expectAppError(s.switchStaff(ANNA, '1111'), 'station.wrongPin');
    expect(wrong.fields).toEqual({ pin: ['wrong pin'] });
    await s.switchStaff(ANNA, '2468'); // a right PIN resets the count
    for (let i = 0; i < 4; i++) await expectAppError(s.switchStaff(ANNA, '0000'), 'station.wrongPin');
    await expectAppError(s.switchStaff(ANNA, '0000'), 'station.pinLocked');
    expect(s.state().switchable).toEqual([]);
    expect(s.state().staff).toBeNull();
    await expectAppError(s.switchStaff(ANNA, '2468'), 'station.unknownStaff');
  });

  it('answers concurrent wrong tries one at a time (no lost failure count)', async () => {
    const s = station({ maxPinAttempts: 3 });
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    await s.setPin('2468');
    const results = await Promise.allSettled([1, 2, 3].map(() => s.switchStaff(ANNA, '0000')));
    const keys = results.map((r) => (r.status === 'rejected' ? (r.reason as AppError).key : 'ok'));
    expect(keys).toEqual(['station.wrongPin', 'station.wrongPin', 'station.pinLocked']);
  });

  it('needs someone signed in to set a PIN', async () => {
    await expectAppError(station().setPin('1234'), 'station.notSignedIn');
  });
});

describe('forwarded API calls', () => {
  it('adds the staff credentials, keeps binary answers intact, and stays inside the studio', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    const answer = await s.forwardApi({ method: 'GET', path: `v4/${STUDIO}/client/list?limit=5` });
    expect(answer).toMatchObject({ status: 200, encoding: 'utf8' });
    const last = cloud.forwarded.at(-1)!;
    expect(last.url).toBe(`/api/v4/${STUDIO}/client/list?limit=5`);
    expect(last.headers['x-auth-token']).toMatch(new RegExp(`^${ANNA}:session-`));
    expect(last.headers['x-csrf-token']).toMatch(/^csrf-session-/);

    const file = await s.forwardApi({ method: 'POST', path: `v4/${STUDIO}/client/export`, body: '{}' });
    expect(file).toMatchObject({ encoding: 'base64', contentDisposition: 'attachment; filename="c.xlsx"' });
    expect([...Buffer.from(file.body, 'base64')]).toEqual([0x50, 0x4b, 0x03, 0x04, 0xff]);

    const before = cloud.forwarded.length;
    for (const p of [
      `v4/${OTHER_STUDIO}/client/list`,
      `v4/${STUDIO}/../${OTHER_STUDIO}/client/list`,
      `v4/${STUDIO}/%2e%2e/x`,
      `v4/${STUDIO}`,
      'v4/auth/login',
      'v4/studio/list',
    ])
      await expectAppError(s.forwardApi({ method: 'GET', path: p }), 'station.pathNotAllowed');
    expect(cloud.forwarded.length).toBe(before);
  });

  it('treats the back office’s sign-out as the station’s: session ended, person forgotten', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    await s.setPin('2468');
    const answer = await s.forwardApi({ method: 'POST', path: 'v4/auth/logout' });
    expect(answer.status).toBe(204);
    expect(cloud.loggedOut).toHaveLength(1);
    expect(s.state()).toMatchObject({ staff: null, switchable: [] });
  });

  it('forgets a session the cloud no longer knows', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    cloud.sessions.clear();
    const answer = await s.forwardApi({ method: 'GET', path: `v4/${STUDIO}/client/list` });
    expect(answer.status).toBe(401);
    expect(s.state().staff).toBeNull();
  });

  it('reports the cloud as unreachable and the station as offline', async () => {
    const s = station();
    await s.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    expect((await s.syncStatus()).online).toBe(true);
    cloud.up = false;
    await expectAppError(
      s.forwardApi({ method: 'GET', path: `v4/${STUDIO}/client/list` }),
      'station.cloudUnreachable',
    );
    expect(await s.syncStatus()).toMatchObject({ online: false, pending: null, lastError: 'ECONNREFUSED' });
    await expectAppError(s.forwardApi({ method: 'GET', path: `v4/${STUDIO}/x` }), 'station.cloudUnreachable');
    cloud.up = true;
    await s.forwardApi({ method: 'GET', path: `v4/${STUDIO}/x` });
    expect((await s.syncStatus()).online).toBe(true);
  });

  it('asks the sync engine for waiting changes and last sync, and the probe whether the cloud answers', async () => {
    probe = new ReachabilityProbe(60_000);
    const client = new CloudClient('http://cloud.test', { fetch: cloud.fetch });
    const s = new StationService({
      store: new StationStore(dir),
      cloud: client,
      probe,
      sync: {
        status: () => ({
          online: true,
          pending: 3,
          lastSyncAt: new Date('2026-11-23T10:00:00Z'),
          lastError: null,
        }),
        registerDevice: async () => ({ deviceToken: 't', deviceId: 'd', studioUuid: STUDIO }),
      },
    });
    probe.report(true);
    expect(await s.syncStatus()).toEqual({
      online: true,
      pending: 3,
      lastSyncAt: '2026-11-23T10:00:00.000Z',
      lastError: null,
    });
    // The engine has not noticed yet (its next round is later); the probe's answer shows at once.
    probe.report(false, new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }));
    expect(await s.syncStatus()).toEqual({
      online: false,
      pending: 3,
      lastSyncAt: '2026-11-23T10:00:00.000Z',
      lastError: 'ECONNREFUSED',
    });
  });
});

describe('assertStudioPath', () => {
  it('allows the studio’s own calls and auth/me only', () => {
    expect(() => assertStudioPath(`v4/${STUDIO}/backoffice/init`, STUDIO)).not.toThrow();
    expect(() => assertStudioPath(`v2/${STUDIO}/schedule/event`, STUDIO)).not.toThrow();
    expect(() => assertStudioPath('v4/auth/me', STUDIO)).not.toThrow();
    for (const p of [
      'v4/auth/logout',
      `v4/${STUDIO}//x`,
      `v4/${STUDIO}/a%2Fb`,
      `v4/${STUDIO}/a\\b`,
      `v4/${STUDIO}/./x`,
    ])
      expect(() => assertStudioPath(p, STUDIO), p).toThrow(AppError);
  });
});
