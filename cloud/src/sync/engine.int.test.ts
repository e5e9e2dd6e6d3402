import { spawn } from 'node:child_process';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  openLocalDatabase,
  LocalDatabaseTooNewError,
  type LocalDatabase,
} from '../../../desktop/main/db/database';
import { LOCAL_MIGRATIONS } from '../../../desktop/main/db/migrations';
import { SyncEngine, type SyncEngineOptions } from '../../../desktop/main/sync/engine';
import { createStudioScenario } from '../../../tests/support/factories';
import { newClientArgs, ownerCookie, studioWithStation, useSyncApp } from './sync.test-support';

const { app, dbFile } = useSyncApp('sync-engine-');

interface Desk {
  engine: SyncEngine;
  db: LocalDatabase;
  file: string;
  reopen(options?: SyncEngineOptions): Desk;
}

function openDesk(file: string, options: SyncEngineOptions = {}): Desk {
  const db = openLocalDatabase(file);
  const engine = new SyncEngine(db, options);
  return {
    engine,
    db,
    file,
    reopen(next = options) {
      db.close();
      return openDesk(file, next);
    },
  };
}

/** A studio, and a station registered into a fresh SQLite file (bootstrapped). */
async function deskForNewStudio(options: SyncEngineOptions = {}) {
  const scenario = await createStudioScenario(app.knex);
  const cookie = await ownerCookie(app, scenario.manager.email, scenario.manager.password);
  const desk = openDesk(dbFile(), options);
  await desk.engine.registerDevice(app.url, cookie, 'Recepcja');
  await desk.engine.syncOnce();
  return { ...scenario, desk, cookie };
}

async function secondDesk(cookie: string, options: SyncEngineOptions = {}): Promise<Desk> {
  const desk = openDesk(dbFile(), options);
  await desk.engine.registerDevice(app.url, cookie, 'Recepcja 2');
  await desk.engine.syncOnce();
  return desk;
}

const serverClients = async (studioId: string) => await app.knex('clients').where({ studioId }).orderBy('id');

describe('station engine basics', () => {
  it('registerDevice + bootstrap bring the studio clients; status() tells pending, online and last sync', async () => {
    const { desk, studio, client } = await deskForNewStudio();
    const status = desk.engine.status();
    expect(status).toMatchObject({ online: true, pending: 0, lastError: null });
    expect(status.lastSyncAt).not.toBeNull();
    expect(desk.engine.store.clientByUser(client.id)?.first_name).toBe('Kamil');
    expect(desk.engine.store.count('clients')).toBe((await serverClients(studio.id)).length);
    const statuses: unknown[] = [];
    desk.engine.on('status', (s) => statuses.push(s));
    desk.engine.mutate('createClient', 1, newClientArgs({ firstName: 'Ewa', lastName: 'Łącka' }));
    expect(desk.engine.status().pending).toBe(1);
    expect(desk.engine.store.searchClients('lac')[0]?.first_name).toBe('Ewa');
    await desk.engine.syncOnce();
    expect(desk.engine.status().pending).toBe(0);
    expect(statuses.length).toBeGreaterThan(0);
  });

  it('refuses invalid command arguments before anything is written', async () => {
    const { desk } = await deskForNewStudio();
    expect(() => desk.engine.mutate('createClient', 1, { firstName: '' })).toThrow();
    expect(desk.engine.outbox()).toEqual([]);
  });
});

describe('domain scenarios (what the tests must prove, 6)', () => {
  it('createClient offline: inserted by the ids the station chose, visible at once, applied once online', async () => {
    const { desk, studio } = await deskForNewStudio();
    const args = newClientArgs({ firstName: 'Offline', lastName: 'Walk-in', phone: '600 100 200' });
    desk.engine.mutate('createClient', 1, args);
    expect(desk.engine.store.clientByUser(args.userId as string)).toMatchObject({ first_name: 'Offline' });
    await desk.engine.syncOnce();
    const record = (await serverClients(studio.id)).find((c) => c.userId === args.userId);
    expect(record).toMatchObject({ id: args.clientId, firstName: 'Offline', phone: '600 100 200' });
    expect(desk.engine.outbox()[0]!.outcome).toMatchObject({ status: 'applied' });
  });

  it('createClient with an email another client has: a possible-duplicate flag, never a rejection', async () => {
    const { desk, studio } = await deskForNewStudio();
    // Unique per run: accounts are global, and a database reused across runs keeps earlier ones.
    const email = `same-${uuidv7().slice(-12)}@example.com`;
    desk.engine.mutate('createClient', 1, newClientArgs({ emailAddress: email }));
    const dup = newClientArgs({ emailAddress: email.toUpperCase(), firstName: 'Twin' });
    desk.engine.mutate('createClient', 1, dup);
    const outcomes: unknown[] = [];
    desk.engine.on('outcome', (o) => outcomes.push(o));
    await desk.engine.syncOnce();
    const second = desk.engine.outbox()[1]!.outcome!;
    expect(second.status).toBe('flagged');
    expect(second.flags).toContain('possibleDuplicate');
    const clients = (await serverClients(studio.id)).filter((c) => c.email === email);
    expect(clients).toHaveLength(2);
    const flags = await app.knex('sync_flags').where({ studioId: studio.id, kind: 'possibleDuplicate' });
    expect(flags).toHaveLength(1);
    expect(flags[0]!.subjectId).toBe(dup.clientId);
    expect(outcomes.length).toBeGreaterThan(0);
  });

  it('updateClient: last writer wins per field in server receipt order, with an audit row per field', async () => {
    const { desk: a, client, cookie, studio } = await deskForNewStudio();
    const b = await secondDesk(cookie);
    // Both stations offline: A changes the phone, B the first name, then both the last name.
    a.engine.mutate('updateClient', 1, { userId: client.id, fields: { phone: '511 222 333' } });
    b.engine.mutate('updateClient', 1, { userId: client.id, fields: { firstName: 'Kamila' } });
    a.engine.mutate('updateClient', 1, { userId: client.id, fields: { lastName: 'FromA' } });
    b.engine.mutate('updateClient', 1, { userId: client.id, fields: { lastName: 'FromB' } });
    await a.engine.syncOnce(); // received first
    await b.engine.syncOnce(); // received last: its last name wins
    await a.engine.syncOnce();
    const record = (await serverClients(studio.id)).find((c) => c.userId === client.id)!;
    expect(record).toMatchObject({ phone: '511 222 333', firstName: 'Kamila', lastName: 'FromB' });
    for (const desk of [a, b])
      expect(desk.engine.store.clientByUser(client.id)).toMatchObject({
        phone: '511 222 333',
        first_name: 'Kamila',
        last_name: 'FromB',
      });
    const audit = await app.knex('client_field_changes').where({ userId: client.id }).orderBy('createdAt');
    expect(audit.map((r) => [r.field, r.newValue])).toEqual([
      ['phone', '511 222 333'],
      ['lastName', 'FromA'],
      ['firstName', 'Kamila'],
      ['lastName', 'FromB'],
    ]);
  });

  it('updateClient of a client the server does not have: rejected, and the local effect is undone at the pull', async () => {
    const { desk, studio } = await deskForNewStudio();
    const ghost = newClientArgs();
    // The client exists locally only through a pending createClient that the server will refuse
    // (its person id is taken), so the later update is refused too.
    await app.knex('users').insert({
      id: String(ghost.userId),
      email: `taken-${uuidv7()}@example.com`,
      firstName: 'X',
      lastName: 'Y',
    });
    desk.engine.mutate('createClient', 1, ghost);
    desk.engine.mutate('updateClient', 1, { userId: ghost.userId, fields: { firstName: 'Nope' } });
    expect(desk.engine.store.clientByUser(ghost.userId as string)?.first_name).toBe('Nope');
    await desk.engine.syncOnce();
    const [created, updated] = desk.engine.outbox();
    expect(created!.outcome).toMatchObject({ status: 'rejected', key: 'resource.conflict' });
    expect(updated!.outcome).toMatchObject({ status: 'rejected', key: 'resource.notFound' });
    expect(desk.engine.store.clientByUser(ghost.userId as string)).toBeNull();
    expect((await serverClients(studio.id)).some((c) => c.userId === ghost.userId)).toBe(false);
  });

  it('updateClient to an email another client has: that field alone is refused (flagged), the rest applied', async () => {
    const { desk, client, studio, manager } = await deskForNewStudio();
    const owner = await app.signedIn(manager.email, manager.password);
    await owner.post(`/api/v4/${studio.id}/client`, {
      firstName: 'Has',
      lastName: 'Email',
      emailAddress: 'kept@example.com',
    });
    desk.engine.mutate('updateClient', 1, {
      userId: client.id,
      fields: { emailAddress: 'kept@example.com', firstName: 'Renamed' },
    });
    await desk.engine.syncOnce();
    const outcome = desk.engine.outbox()[0]!.outcome!;
    expect(outcome).toMatchObject({ status: 'flagged', flags: ['emailTaken'] });
    expect(outcome.fields?.emailAddress).toBeDefined();
    const record = (await serverClients(studio.id)).find((c) => c.userId === client.id)!;
    expect(record.firstName).toBe('Renamed');
    expect(record.email).not.toBe('kept@example.com');
    expect(desk.engine.store.clientByUser(client.id)?.email).toBe(record.email);
  });
});

describe('duplicate replays (what the tests must prove, 3)', () => {
  it('sequential: the same push twice gives one effect and the same stored outcome', async () => {
    const s = await studioWithStation(app);
    const args = newClientArgs();
    const body = { mutations: [s.mutation(1, 'createClient', args)] };
    const first = await s.call('POST', '/sync/push', body);
    const second = await s.call('POST', '/sync/push', body);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.results[0]).toMatchObject({ replayed: true, outcome: first.body.results[0].outcome });
    expect((await serverClients(s.studio.id)).filter((c) => c.userId === args.userId)).toHaveLength(1);
  });

  it('concurrent: eight identical pushes at once, all 200, one effect, one outcome', async () => {
    const s = await studioWithStation(app);
    const args = newClientArgs();
    const body = {
      mutations: [
        s.mutation(1, 'createClient', args),
        s.mutation(2, 'updateClient', { userId: args.userId, fields: { lastName: 'Once' } }),
      ],
    };
    const answers = await Promise.all(Array.from({ length: 8 }, () => s.call('POST', '/sync/push', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const outcomes = answers.map((a) => a.body.results.map((r: { outcome: unknown }) => r.outcome));
    for (const o of outcomes) expect(o).toEqual(outcomes[0]);
    expect(answers.filter((a) => a.body.results[0].replayed !== true)).toHaveLength(1);
    expect((await serverClients(s.studio.id)).filter((c) => c.userId === args.userId)).toHaveLength(1);
    expect(await app.knex('client_field_changes').where({ userId: args.userId as string })).toHaveLength(1);
    expect(await app.knex('sync_mutations').where({ deviceId: s.deviceId })).toHaveLength(2);
  });

  it('a seq reused by another mutation id (a copied station database) answers clientReset', async () => {
    const s = await studioWithStation(app);
    await s.call('POST', '/sync/push', { mutations: [s.mutation(1, 'createClient', newClientArgs())] });
    const copy = await s.call('POST', '/sync/push', {
      mutations: [s.mutation(1, 'createClient', newClientArgs())],
    });
    expect(copy.status).toBe(200);
    expect(copy.body.clientReset).toBe(true);
    expect(copy.body.results).toEqual([]);
  });
});

describe('clock skew (what the tests must prove, 5)', () => {
  for (const skew of [3_600_000, -3_600_000, 86_400_000, -86_400_000]) {
    it(`a station clock off by ${skew / 3_600_000} h: action times corrected by the measured offset, nothing flagged`, async () => {
      const clock = () => Date.now() + skew;
      const { desk, studio } = await deskForNewStudio({ clock });
      expect(Math.abs(desk.engine.serverNow() - Date.now())).toBeLessThan(2000);
      const args = newClientArgs();
      desk.engine.mutate('createClient', 1, args);
      await desk.engine.syncOnce();
      expect(desk.engine.outbox()[0]!.outcome!.status).toBe('applied');
      const stored = await app.knex('sync_mutations').where({ studioId: studio.id }).first();
      expect(Math.abs(new Date(stored!.occurredAt).getTime() - Date.now())).toBeLessThan(5000);
    });
  }

  it('an action time far in the future or beyond the offline window is clamped and flagged', async () => {
    const s = await studioWithStation(app);
    const ahead = s.mutation(1, 'createClient', newClientArgs(), {
      occurredAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const behind = s.mutation(2, 'createClient', newClientArgs(), {
      occurredAt: new Date(Date.now() - 90 * 86_400_000).toISOString(),
    });
    const res = await s.call('POST', '/sync/push', { mutations: [ahead, behind] });
    expect(res.body.results.map((r: { outcome: { flags: string[] } }) => r.outcome.flags)).toEqual([
      ['clockAhead'],
      ['clockBehind'],
    ]);
    const rows = await app.knex('sync_mutations').where({ deviceId: s.deviceId }).orderBy('seq');
    expect(Math.abs(new Date(rows[0]!.occurredAt).getTime() - Date.now())).toBeLessThan(5000);
  });

  it('a clock jumping back does not reorder: the outbox order (seq) is what the server applies', async () => {
    let now = Date.now();
    const { desk, client, studio } = await deskForNewStudio({ clock: () => now });
    desk.engine.mutate('updateClient', 1, { userId: client.id, fields: { lastName: 'First' } });
    now -= 2 * 3_600_000; // the clock jumps back two hours
    desk.engine.mutate('updateClient', 1, { userId: client.id, fields: { lastName: 'Second' } });
    await desk.engine.syncOnce();
    const record = (await serverClients(studio.id)).find((c) => c.userId === client.id)!;
    expect(record.lastName).toBe('Second');
  });
});

describe('upgrade with a non-empty outbox (what the tests must prove, 7)', () => {
  it('a newer build migrates the database, keeps the outbox and drains it; an older build refuses it', async () => {
    const { desk, studio } = await deskForNewStudio();
    const args = newClientArgs({ firstName: 'Queued' });
    desk.engine.mutate('createClient', 1, args);
    desk.db.close();
    const next = [
      ...LOCAL_MIGRATIONS,
      {
        id: Math.max(...LOCAL_MIGRATIONS.map((m) => m.id)) + 1,
        name: 'later',
        sql: 'create table later_feature (id text primary key)',
      },
    ];
    const upgraded = openLocalDatabase(desk.file, { migrations: next });
    const engine = new SyncEngine(upgraded);
    expect(engine.status().pending).toBe(1);
    await engine.syncOnce();
    expect(engine.status().pending).toBe(0);
    expect((await serverClients(studio.id)).some((c) => c.userId === args.userId)).toBe(true);
    upgraded.close();
    expect(() => openLocalDatabase(desk.file)).toThrow(LocalDatabaseTooNewError);
  });
});

describe('kill -9 at named points (what the tests must prove, 4)', () => {
  const child = (file: string, action: string, env: Record<string, string>, json?: unknown) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
      const p = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'desktop/main/sync/testing/crash-child.ts',
          file,
          action,
          ...(json ? [JSON.stringify(json)] : []),
        ],
        { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (out += d.toString()));
      p.on('exit', (code, signal) => resolve({ code, signal, out }));
    });

  it('after the local commit: the effect and its outbox row survive; pushed exactly once after restart', async () => {
    const { desk, studio } = await deskForNewStudio();
    desk.db.close();
    const args = newClientArgs({ firstName: 'Killed' });
    const run = await child(
      desk.file,
      'mutate',
      { CRASH_AT: 'afterLocalCommit' },
      { name: 'createClient', version: 1, args },
    );
    expect(run.signal).toBe('SIGKILL');
    const back = openDesk(desk.file);
    expect(back.engine.status().pending).toBe(1);
    expect(back.engine.store.clientByUser(args.userId as string)?.first_name).toBe('Killed');
    await back.engine.syncOnce();
    expect((await serverClients(studio.id)).filter((c) => c.userId === args.userId)).toHaveLength(1);
    back.db.close();
  });

  it('after the server commit, before the station read the answer: the replay gives the stored outcome, one effect', async () => {
    const { desk, studio } = await deskForNewStudio();
    const args = newClientArgs({ emailAddress: `k-${uuidv7().slice(-6)}@example.com` });
    desk.engine.mutate('createClient', 1, args);
    desk.db.close();
    const run = await child(desk.file, 'sync', { CRASH_AT: 'afterPushResponse' });
    expect(run.signal, run.out).toBe('SIGKILL');
    const back = openDesk(desk.file);
    expect(back.engine.outbox()[0]!.status).toBe('pending');
    await back.engine.syncOnce();
    expect(back.engine.outbox()[0]!.outcome).toMatchObject({ status: 'applied' });
    expect((await serverClients(studio.id)).filter((c) => c.userId === args.userId)).toHaveLength(1);
    back.db.close();
  });

  it('during a pull: the next pull resumes and the cache equals the server', async () => {
    const { desk, studio, manager } = await deskForNewStudio();
    const owner = await app.signedIn(manager.email, manager.password);
    for (let i = 0; i < 9; i++)
      await owner.post(`/api/v4/${studio.id}/client`, { firstName: `P${i}`, lastName: 'Pull' });
    desk.db.close();
    const run = await child(desk.file, 'pull', { CRASH_AT: 'duringPull:2', PAGE_SIZE: '3' });
    expect(run.signal, run.out).toBe('SIGKILL');
    const back = openDesk(desk.file);
    await back.engine.pull();
    const local = back.engine.store
      .list('clients')
      .map((r) => r.id)
      .sort();
    expect(local).toEqual((await serverClients(studio.id)).map((c) => c.id).sort());
    back.db.close();
  });

  it('during a bootstrap page (half way): the restart resumes from the page it reached', async () => {
    const scenario = await createStudioScenario(app.knex);
    const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
    for (let i = 0; i < 12; i++)
      await owner.post(`/api/v4/${scenario.studio.id}/client`, { firstName: `B${i}`, lastName: 'Boot' });
    const cookie = await ownerCookie(app, scenario.manager.email, scenario.manager.password);
    const desk = openDesk(dbFile());
    await desk.engine.registerDevice(app.url, cookie, 'Boot');
    desk.db.close();
    const run = await child(desk.file, 'bootstrap', { CRASH_AT: 'duringBootstrapPage:3', PAGE_SIZE: '4' });
    expect(run.signal, run.out).toBe('SIGKILL');
    const back = openDesk(desk.file);
    const progress = JSON.parse(back.engine.store.getMeta('bootstrap')!) as {
      tableIndex: number;
      after: string | null;
    };
    expect(progress.after ?? progress.tableIndex).toBeTruthy();
    const staged = (back.db.prepare('select count(*) as n from staging_rows').get() as { n: number }).n;
    expect(staged).toBe(12); // three pages of four clients were kept
    await back.engine.syncOnce();
    expect(back.engine.store.count('clients')).toBe((await serverClients(scenario.studio.id)).length);
    back.db.close();
  });
});
