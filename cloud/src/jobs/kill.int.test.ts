import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStudioScenario } from '../../../tests/support/factories';
import { isolatedDatabase } from '../../../tests/support/isolated-db';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import PgBoss from 'pg-boss';
import { bossConnection, JOB_SCHEMA } from './queue';

/**
 * Exactly once across a kill -9: a password-reset mail is committed as a job by the request; the
 * worker (a real child process) fetches it and is killed with SIGKILL just before sending; a new
 * worker started after it sends the mail, once. The old in-request `afterCommit` lost that mail. The
 * worker runs on this file's own PostgreSQL database (the embedded PGlite is one connection, held by
 * this process), so the test needs TEST_DATABASE_URL.
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');
if (!realPg) console.warn('jobs/kill.int.test.ts: skipped — set TEST_DATABASE_URL to run it');

let app: TestApp;
let drop: (() => Promise<void>) | undefined;
let databaseUrl: string;
let tmp: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  if (!realPg) return;
  const db = await isolatedDatabase();
  drop = db.drop;
  databaseUrl = db.url;
  app = await startTestApp({ databaseUrl });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-kill-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app?.close();
  await drop?.();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function workerChild(env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cloud/src/jobs/testing/worker-child.ts', databaseUrl, tmp],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_c, signal) => resolve(signal)),
  );
  return { child, exited, output: () => out };
}

const mailsTo = (to: string) => {
  const dir = path.join(tmp, 'mail');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith(`-${to}.eml`)) : [];
};

async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!realPg)('kill -9 of the worker between the commit and the delivery', () => {
  it('the mail is neither lost nor sent twice', async () => {
    // This database's mail queue: a dead worker's job expires after 2 s and is retried 1 s later
    // (production: 2 minutes, then 30 s doubling), so the test does not wait minutes.
    const boss = new PgBoss({ db: bossConnection(app.knex), schema: JOB_SCHEMA });
    await boss.updateQueue('mail.send', {
      name: 'mail.send',
      expireInSeconds: 2,
      retryDelay: 1,
      retryBackoff: false,
    });
    const { studio, client } = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    const asked = await anon.post(`/api/v4/${studio.id}/account/recovery`, { emailAddress: client.email });
    expect(asked.status).toBe(202);
    const jobs = async () =>
      (
        (await app.knex.raw(
          `select id, state from ${JOB_SCHEMA}.job where name = 'mail.send' and data->>'to' = ?`,
          [client.email],
        )) as { rows: Array<{ id: string; state: string }> }
      ).rows;
    // Committed with the request: the job waits for a worker, nothing is sent yet.
    expect((await jobs()).map((j) => j.state)).toEqual(['created']);

    // The worker takes the job and dies with it, before the send.
    const doomed = workerChild({ CRASH: 'before-send' });
    expect(await doomed.exited, doomed.output()).toBe('SIGKILL');
    expect((await jobs()).map((j) => j.state)).toEqual(['active']);
    expect(mailsTo(client.email)).toEqual([]);

    // A new worker: the dead one's job expires, is retried and sent.
    const next = workerChild();
    await until(() => mailsTo(client.email).length > 0);
    await until(async () => (await jobs())[0]?.state === 'completed');
    // Given time to send anything twice, it does not.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(mailsTo(client.email)).toHaveLength(1);
    const [job] = await jobs();
    expect(await app.knex('job_deliveries').where({ jobId: job!.id })).toHaveLength(1);
    const eml = fs.readFileSync(path.join(tmp, 'mail', mailsTo(client.email)[0]!), 'utf8');
    expect(eml).toContain(`Message-ID: <${job!.id}@jobs.studio.local>`);
    expect(eml).toMatch(/reset-password\?token=/);
    next.child.kill('SIGTERM');
    await next.exited;
  }, 120_000);
});
