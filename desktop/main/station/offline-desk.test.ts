import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ScheduleInitSchema } from '../../../shared/contracts/api/schedule';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { SyncEngine } from '../sync/engine';
import { CloudClient } from './cloud-client';
import { OfflineApi } from './offline-api';
import { ReachabilityProbe } from './sync-port';

/**
 * Issue 26, the desk offline: a person who never opened the timetable online still gets it (the
 * station's copy, else the mirror), a search of several words matches as the cloud's does, and a
 * cloud that accepts connections but never answers is offline within 3 s.
 */
const NOW = new Date('2026-11-26T10:00:00Z');
let db: LocalDatabase | null = null;
const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  db?.close();
  db = null;
  for (const close of closers.splice(0)) await close();
});

function setup() {
  db = openLocalDatabase(':memory:');
  const studioId = uuidv7();
  const studioUuid = uuidv7();
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?)`).run(studioId, uuidv7());
  const engine = new SyncEngine(db, { clock: () => NOW.getTime() });
  const server = (table: string, row: Record<string, unknown>) =>
    db!.transaction(() =>
      engine.store.applyPatch([
        { op: 'put', table, id: String(row.id), row: { studio_id: studioId, ...row } },
      ]),
    )();
  const client = (first: string, last: string, phone = '') =>
    server('clients', {
      id: uuidv7(),
      user_id: uuidv7(),
      first_name: first,
      last_name: last,
      last_key: last.toLowerCase(),
      first_key: first.toLowerCase(),
      search_text: `${first} ${last}  ${phone}`.toLowerCase(),
      phone_key: phone || null,
    });
  const api = new OfflineApi(engine, () => NOW);
  const get = (path: string, userId = uuidv7()) =>
    api.answer({ method: 'GET', path: `v4/${studioUuid}/${path}` }, studioUuid, userId);
  return { db, engine, server, client, api, get, studioUuid };
}

describe('the desk offline (issue 26)', () => {
  it('finds "nowak julia" and "julia nowak" (every word, any order), not Julia Kowal', () => {
    const s = setup();
    s.client('Julia', 'Nowak', '601202303');
    s.client('Julia', 'Kowal');
    s.client('Jan', 'Nowak');
    const names = (q: string) =>
      (
        JSON.parse(s.get(`client/search?q=${encodeURIComponent(q)}&limit=10`)!.body) as {
          items: Array<{ firstName: string; lastName: string }>;
        }
      ).items.map((c) => `${c.firstName} ${c.lastName}`);
    expect(names('nowak julia')).toEqual(['Julia Nowak']);
    expect(names('Julia  NOWAK')).toEqual(['Julia Nowak']);
    expect(names('nowak')).toEqual(['Jan Nowak', 'Julia Nowak']);
    expect(names('202 303')).toEqual(['Julia Nowak']);
    expect(names('nowak kowal')).toEqual([]);
  });

  it("gives the timetable's settings to a person who never opened it online: the station's copy, else the mirror", () => {
    const s = setup();
    const locationId = uuidv7();
    s.server('locations', {
      id: locationId,
      name: 'Sala Słoneczna',
      address_line: 'Długa 1',
      city: 'Kraków',
    });
    s.server('location_rooms', { id: uuidv7(), location_id: locationId, name: 'Duża', capacity: 20 });
    s.server('class_services', {
      id: uuidv7(),
      name: { pl: { value: 'Joga' } },
      description: {},
      service_type: 'classroom',
      duration_minutes: 60,
      color: '#aabbcc',
    });
    // Nothing kept for anyone: built from the mirror, in the cloud's shape.
    const derived = s.get('schedule/init');
    expect(derived?.status).toBe(200);
    const init = ScheduleInitSchema.parse(JSON.parse(derived!.body));
    expect(init.locations.map((l) => [l.name, l.rooms.map((r) => r.name)])).toEqual([
      ['Sala Słoneczna', ['Duża']],
    ]);
    expect(init.classServices).toHaveLength(1);
    // The manager's copy, kept online, serves the front desk too (instructors' names included).
    const manager = uuidv7();
    const kept = {
      ...init,
      timeZone: 'Europe/Warsaw',
      instructors: [{ id: uuidv7(), firstName: 'Ola', lastName: 'K' }],
    };
    s.api.remember(
      manager,
      s.studioUuid,
      { method: 'GET', path: `v4/${s.studioUuid}/schedule/init` },
      {
        status: 200,
        contentType: 'application/json',
        contentDisposition: null,
        encoding: 'utf8',
        body: JSON.stringify(kept),
      },
    );
    expect(JSON.parse(s.get('schedule/init', uuidv7())!.body)).toEqual(kept);
    // Person-bound reads are not shared: another person's backoffice/init is not theirs.
    s.api.remember(
      manager,
      s.studioUuid,
      { method: 'POST', path: `v4/${s.studioUuid}/backoffice/init` },
      {
        status: 200,
        contentType: 'application/json',
        contentDisposition: null,
        encoding: 'utf8',
        body: '{"me":1}',
      },
    );
    expect(
      s.api.answer({ method: 'POST', path: `v4/${s.studioUuid}/backoffice/init` }, s.studioUuid, uuidv7()),
    ).toBeNull();
  });

  it('sees a cloud that accepts the connection and never answers as offline within 3 s', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      silent.closeAllConnections();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const port = (silent.address() as AddressInfo).port;
    let changedAt = 0;
    const probe = new ReachabilityProbe(undefined, (online) => {
      if (!online) changedAt = Date.now();
    });
    probe.report(true);
    changedAt = 0;
    const cloud = new CloudClient(`http://127.0.0.1:${port}`, {
      onReachability: (reachable, error) => probe.report(reachable, error),
    });
    probe.attach(cloud);
    const waiting = probe.nextOffline();
    const started = Date.now();
    probe.start();
    closers.push(() => probe.stop());
    await waiting.promise;
    expect(probe.isOnline).toBe(false);
    expect(changedAt - started).toBeLessThan(3_000);
  });
});
