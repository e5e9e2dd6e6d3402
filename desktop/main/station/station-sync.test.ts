import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mutation } from '../../../shared/contracts/sync';
import { createDispatcher, createIpcHandlers } from '../ipc/handlers';
import { createMainServices, type MainServices } from './services';
import { STATION_DB_FILE, type StationSync } from './station-sync';

const STUDIO = '01a207d1-9654-7149-a49d-23786bf13921';
const ANNA = '01a207d1-965c-77dc-93d3-e4a662568ce3';

/**
 * A cloud with the station's endpoints and the sync protocol's (devices, bootstrap, pull, push):
 * it applies each mutation id once, as the real push service does.
 */
class FakeSyncCloud {
  up = true;
  applied = new Map<string, Mutation>();
  registrations: Array<{ cookie: string | undefined; body: unknown }> = [];

  fetch: typeof fetch = async (input, init) => {
    if (!this.up) throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const now = new Date().toISOString();
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', ...extra },
      });
    const device = () => headers.get('authorization') === 'Bearer sdt.desk.secret';
    const lastSeq = () => Math.max(0, ...[...this.applied.values()].map((m) => m.seq));
    switch (url.pathname) {
      case '/health':
        return json(200, { status: 'ok' });
      case '/api/v4/auth/csrf':
        return json(200, { token: 'anon' }, { 'set-cookie': 'sp_csrf=anon; path=/' });
      case '/api/v4/auth/login':
        return json(200, {
          sessionId: 'session-1',
          userId: ANNA,
          token: 'csrf-1',
          me: {
            id: ANNA,
            emailAddress: 'anna@demo.studio',
            firstName: 'Anna',
            lastName: 'Kowalska',
            locale: null,
            memberships: [
              { studioUuid: STUDIO, studioName: 'Harmonia', isMember: true, isClient: false, role: null },
            ],
          },
        });
      case '/sync/devices': {
        const body = JSON.parse(String(init?.body)) as { deviceId: string };
        this.registrations.push({ cookie: headers.get('cookie') ?? undefined, body });
        return json(201, {
          deviceToken: 'sdt.desk.secret',
          deviceId: body.deviceId,
          studioId: STUDIO,
          studioUuid: STUDIO,
          scope: { tables: ['clients'], commands: ['createClient@1'], visitsWindowDays: 30 },
          serverTime: now,
        });
      }
      case '/sync/events':
        return json(404, null);
      case '/sync/bootstrap':
        if (!device()) return json(401, null);
        return json(200, {
          cursor: '10:10:',
          epoch: 'e1',
          tables: [],
          lastMutationSeq: lastSeq(),
          serverTime: now,
          studio: { id: STUDIO, name: 'Harmonia', timeZone: 'Europe/Warsaw', currency: 'PLN' },
        });
      case '/sync/pull':
        if (!device()) return json(401, null);
        return json(200, {
          patch: [],
          lastMutationSeq: lastSeq(),
          outcomes: [],
          cursor: '11:11:',
          epoch: 'e1',
          serverTime: now,
          hasMore: false,
          resume: null,
        });
      case '/sync/push': {
        if (!device()) return json(401, null);
        const { mutations } = JSON.parse(String(init?.body)) as { mutations: Mutation[] };
        const results = mutations.map((m) => {
          const replayed = this.applied.has(m.id);
          if (!replayed) this.applied.set(m.id, m);
          return { id: m.id, seq: m.seq, outcome: { status: 'applied' }, replayed };
        });
        return json(200, { results, lastMutationSeq: lastSeq(), serverTime: now });
      }
      default:
        return json(404, { error: { code: 1200, key: 'resource.notFound', message: 'not found' } });
    }
  };
}

let dir: string;
let cloud: FakeSyncCloud;
const running: MainServices[] = [];

function start(): MainServices {
  const services = createMainServices({
    dataDir: dir,
    cloudUrl: 'http://cloud.test',
    runtime: 'host',
    version: '0.1.0',
    sync: 'local',
    fetch: cloud.fetch,
    probeIntervalMs: 40,
  });
  running.push(services);
  return services;
}

const status = async (services: MainServices) => {
  const dispatch = createDispatcher(createIpcHandlers(services));
  const result = await dispatch('syncStatus', {});
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value as { online: boolean; pending: number | null; lastSyncAt: string | null };
};

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'station-sync-')), 'station');
  cloud = new FakeSyncCloud();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('the station with the sync engine', () => {
  it('registers through the engine with the staff session, then syncs: nothing waiting, a real last sync', async () => {
    const services = start();
    expect(await status(services)).toMatchObject({ pending: 0, lastSyncAt: null });
    await services.station.signIn({
      emailAddress: 'anna@demo.studio',
      password: 'demo1234',
      stationName: 'Front desk 1',
    });
    expect(cloud.registrations).toHaveLength(1);
    expect(cloud.registrations[0]!.cookie).toBe(`sp_session=${encodeURIComponent(`${ANNA}:session-1`)}`);
    expect(services.station.state().device).toMatchObject({ studioUuid: STUDIO, name: 'Front desk 1' });
    await vi.waitFor(async () => expect((await status(services)).lastSyncAt).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(await status(services)).toMatchObject({ online: true, pending: 0 });
    // The database sits in main's own folder, next to station.json.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, STATION_DB_FILE)).isFile()).toBe(true);
  });

  it('counts changes made offline, keeps them across a restart and delivers each once when back', async () => {
    const first = start();
    await first.station.signIn({ emailAddress: 'anna@demo.studio', password: 'demo1234' });
    await vi.waitFor(async () => expect((await status(first)).lastSyncAt).not.toBeNull(), { timeout: 5_000 });
    const syncedAt = (await status(first)).lastSyncAt;

    cloud.up = false;
    await vi.waitFor(async () => expect((await status(first)).online).toBe(false), { timeout: 5_000 });
    const engine = (first.sync as StationSync).engine;
    const made = [
      engine.mutate('createClient', 1, {
        userId: uuidv7(),
        clientId: uuidv7(),
        firstName: 'Ewa',
        lastName: 'Łącka',
      }),
      engine.mutate('createClient', 1, {
        userId: uuidv7(),
        clientId: uuidv7(),
        firstName: 'Jan',
        lastName: 'Nowak',
      }),
    ];
    expect(await status(first)).toMatchObject({ online: false, pending: 2, lastSyncAt: syncedAt });

    // The desktop process restarts while the cloud is still away: the outbox is on disk.
    await first.stop();
    const second = start();
    expect(await status(second)).toMatchObject({ pending: 2, lastSyncAt: syncedAt });
    expect(second.station.state().staff?.userId).toBe(ANNA);

    cloud.up = true;
    await vi.waitFor(async () => expect(await status(second)).toMatchObject({ online: true, pending: 0 }), {
      timeout: 5_000,
    });
    expect([...cloud.applied.keys()].sort()).toEqual(made.map((m) => m.mutationId).sort());
    expect((await status(second)).lastSyncAt! > syncedAt!).toBe(true);
  });
});
