import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import { createStudioScenario } from '../../../tests/support/factories';
import { isolatedDatabase } from '../../../tests/support/isolated-db';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { ManualClock } from '../clock';
import { startJobRunner, JOBS, SYNC_CHANGEFEED_PRUNE } from '../jobs/runner';
import { syncChangefeedPruneJob } from '../jobs/sync-prune.job';
import { createLogger } from '../logger';
import { CHANGEFEED_RETENTION_DAYS, readMeta } from './changefeed';
import { newClientArgs } from './sync.test-support';

/**
 * The nightly pruning job (docs/offline-sync.md: "A nightly job prunes the log (e.g. 45 days) and
 * raises a floor; a cursor below the floor gets reset"). Pruning raises the floor for every studio of
 * the database, so this file runs on a database of its own.
 */
let iso: Awaited<ReturnType<typeof isolatedDatabase>>;
let app: TestApp;
let tmp: string;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  iso = await isolatedDatabase();
  app = await startTestApp({ databaseUrl: iso.url, clock });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-prune-'));
});
afterAll(async () => {
  await app?.close();
  await iso?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function desk(email: string, password: string, name: string) {
  const owner = await app.signedIn(email, password);
  const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
  const db = openLocalDatabase(path.join(tmp, `${uuidv7()}.db`));
  const engine = new SyncEngine(db);
  await engine.registerDevice(app.url, cookie, name);
  await engine.syncOnce();
  const resets: unknown[] = [];
  engine.on('reset', (reason) => resets.push(reason));
  return { engine, db, resets };
}

const tagNames = (engine: SyncEngine) =>
  engine.store
    .list('tags')
    .map((t) => String(t.name))
    .sort();

describe('changefeed pruning job', () => {
  it('is registered with the job runner, nightly, and keeps changes for longer than the offline window', () => {
    expect(JOBS.map((j) => j.name)).toContain(SYNC_CHANGEFEED_PRUNE);
    expect(syncChangefeedPruneJob.cron).toBe('40 2 * * *');
    expect(CHANGEFEED_RETENTION_DAYS).toBeGreaterThan(30);
  });

  it('prunes old changes; a station behind the pruned horizon bootstraps again keeping its outbox, an up-to-date one goes on', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const behind = await desk(manager.email, manager.password, 'Behind');

    // A change the behind station has not pulled, made "long ago".
    const oldTag = `old-${uuidv7().slice(-8)}`;
    await app.knex('tags').insert({ id: uuidv7(), studioId: studio.id, name: oldTag, type: 0 });
    await app.knex.raw(`update sync_change set at = at - interval '60 days'`);
    // This station pulls after it: its cursor is above everything the job will remove.
    const current = await desk(manager.email, manager.password, 'Current');
    const recentTag = `new-${uuidv7().slice(-8)}`;
    await app.knex('tags').insert({ id: uuidv7(), studioId: studio.id, name: recentTag, type: 0 });

    // The behind station sells/registers offline meanwhile: its outbox must survive the reset.
    const walkIn = newClientArgs({ firstName: 'Kept', lastName: 'Through-reset' });
    behind.engine.mutate('createClient', 1, walkIn);

    const before = await readMeta(app.knex);
    const runner = await startJobRunner(
      { knex: app.knex, log: createLogger('silent', false), clock },
      { jobs: [syncChangefeedPruneJob], pollingIntervalSeconds: 0.5 },
    );
    try {
      await runner.trigger(SYNC_CHANGEFEED_PRUNE);
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && (await readMeta(app.knex)).floorXid === before.floorXid)
        await new Promise((r) => setTimeout(r, 250));
    } finally {
      await runner.stop();
    }
    const after = await readMeta(app.knex);
    expect(BigInt(after.floorXid)).toBeGreaterThan(BigInt(before.floorXid));
    const old = await app.knex.raw(
      `select count(*)::int as n from sync_change where at < now() - interval '${CHANGEFEED_RETENTION_DAYS} days'`,
    );
    expect(old.rows[0].n).toBe(0);
    // The recent change is kept (a station that pulls later still gets it).
    const kept = await app.knex.raw(
      `select count(*)::int as n from sync_change where studio_id = ? and table_name = 'tags'`,
      [studio.id],
    );
    expect(kept.rows[0].n).toBeGreaterThan(0);

    // The station behind the horizon is told to reset, bootstraps, and its walk-in still reaches the cloud once.
    await behind.engine.syncOnce();
    expect(behind.resets).toEqual(['pruned']);
    expect(tagNames(behind.engine)).toEqual(expect.arrayContaining([oldTag, recentTag]));
    expect(behind.engine.store.clientByUser(walkIn.userId as string)).toMatchObject({ first_name: 'Kept' });
    expect(behind.engine.status()).toMatchObject({ pending: 0, lastError: null });
    expect(
      await app.knex('clients').where({ studioId: studio.id, userId: walkIn.userId as string }),
    ).toHaveLength(1);

    // The up-to-date station continues its cursor: no reset, and it receives the recent change.
    await current.engine.syncOnce();
    expect(current.resets).toEqual([]);
    expect(tagNames(current.engine)).toEqual(tagNames(behind.engine));
    behind.db.close();
    current.db.close();
  }, 60_000);

  it('a second run with nothing old leaves the floor where it was (idle stations are not reset)', async () => {
    const { pruneChangefeed } = await import('./changefeed');
    await app.knex.raw(`update sync_change set at = now()`);
    const first = await pruneChangefeed(app.knex, CHANGEFEED_RETENTION_DAYS, new Date());
    const second = await pruneChangefeed(app.knex, CHANGEFEED_RETENTION_DAYS, new Date());
    expect(second).toEqual({ deleted: 0, floorXid: first.floorXid });
  });
});
