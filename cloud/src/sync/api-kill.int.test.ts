import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openLocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine } from '../../../desktop/main/sync/engine';
import { createStudioScenario } from '../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { newClientArgs } from './sync.test-support';
import { freePort } from '../../../tests/support/free-port';

/**
 * What the tests must prove, 4 (last item): the API process is killed (SIGKILL) in the middle of a
 * push — some mutations of the batch committed, no answer sent — and restarted; the station's next
 * sync gives exactly-once effects. The cloud runs as a real child process on the test database, so
 * this needs a PostgreSQL server (the embedded PGlite takes one connection, held by this process).
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');
if (!realPg) console.warn('api-kill.int.test.ts: skipped — set TEST_DATABASE_URL to run it');

let app: TestApp;
let tmp: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  if (!realPg) return;
  app = await startTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-api-kill-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the cloud in a child process; resolves with it once it listens. */
function cloudChild(port: number, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cloud/src/sync/testing/cloud-child.ts', inject('databaseUrl'), String(port)],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_c, signal) => resolve(signal)),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then(() => reject(new Error(`cloud child ended before listening: ${out}`)));
  });
  return { child, ready, exited };
}

describe.skipIf(!realPg)('kill -9 of the API during a push', () => {
  it('three of five mutations committed when the API died: after its restart each mutation has exactly one effect', async () => {
    const scenario = await createStudioScenario(app.knex);
    const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
    const cookie = encodeURIComponent(`${owner.session!.userId}:${owner.session!.sessionId}`);
    const port = await freePort();

    const first = cloudChild(port, { CRASH_AFTER_COMMITS: '3' });
    const url = await first.ready;
    const engine = new SyncEngine(openLocalDatabase(path.join(tmp, `${uuidv7()}.db`)));
    await engine.registerDevice(url, cookie, 'Recepcja');
    await engine.syncOnce();
    const people = Array.from({ length: 5 }, (_, i) => newClientArgs({ firstName: `Api${i}` }));
    for (const args of people) engine.mutate('createClient', 1, args);

    await expect(engine.syncOnce()).rejects.toThrow();
    expect(await first.exited).toBe('SIGKILL');
    expect(engine.status()).toMatchObject({ pending: 5, online: false });
    const onServer = async (userId: string) =>
      (await app.knex('clients').where({ studioId: scenario.studio.id, userId })).length;
    // The first three committed with their outcomes; the rest never ran.
    expect(await Promise.all(people.map((p) => onServer(p.userId as string)))).toEqual([1, 1, 1, 0, 0]);
    expect(await app.knex('sync_mutations').where({ deviceId: engine.deviceId! })).toHaveLength(3);

    const second = cloudChild(port);
    await second.ready;
    await engine.syncOnce();
    expect(engine.status()).toMatchObject({ pending: 0, online: true });
    expect(await Promise.all(people.map((p) => onServer(p.userId as string)))).toEqual([1, 1, 1, 1, 1]);
    const stored = await app.knex('sync_mutations').where({ deviceId: engine.deviceId! }).orderBy('seq');
    expect(stored.map((m) => Number(m.seq))).toEqual([1, 2, 3, 4, 5]);
    expect(engine.outbox().map((m) => m.outcome!.status)).toEqual(Array(5).fill('applied'));
    second.child.kill('SIGTERM');
    await second.exited;
    engine.db.close();
  }, 120_000);
});
