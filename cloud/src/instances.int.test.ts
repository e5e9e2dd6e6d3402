import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStudioScenario } from '../../tests/support/factories';
import { HttpClient } from '../../tests/support/http-client';
import { isolatedDatabase } from '../../tests/support/isolated-db';
import { createKnex, type Knex } from './db/knex';
import { JOBS } from './jobs/runner';
import { JOB_SCHEMA } from './jobs/queue';
import { startLocalS3, type LocalS3 } from './storage/testing/s3-server';
import { freePort } from '../../tests/support/free-port';

/**
 * Several instances behind a load balancer (issue 27): two real cloud processes (`server.ts` in
 * production mode, from its sources under tsx: `npm start` runs the same code bundled, and this test
 * is about the instances, not the build) on one PostgreSQL database and one S3-compatible store,
 * each with a DATA_DIR of its own. A session made on one works on the other, a rate limit holds
 * across both, a file uploaded through one downloads through the other, a change through one pokes
 * a station connected to the other, and each periodic job runs once — its start-up catch-up and a
 * cron tick alike. PostgreSQL only (the embedded PGlite lives inside one process).
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');
if (!realPg) console.warn('instances.int.test.ts: skipped — set TEST_DATABASE_URL to run it');

let db: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
let knex: Knex;
let s3: LocalS3 | undefined;
let tmp: string;
const children: ChildProcess[] = [];

interface Instance {
  url: string;
  output(): string;
}

/** `server.ts` in a child process, as one instance of a deployment; resolves once it listens. */
async function instance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = path.join(tmp, name);
  const child = spawn(process.execPath, ['--import', 'tsx', 'cloud/src/server.ts'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(`${name} ended before listening:\n${out}`)));
  });
  return { url, output: () => out };
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The same signed-in browser, its requests sent to another instance. */
function sameSessionOn(client: HttpClient, url: string): HttpClient {
  const other = new HttpClient(url);
  other.token = client.token;
  other.session = client.session;
  return other;
}

let a: Instance;
let b: Instance;
beforeAll(async () => {
  if (!realPg) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'instances-'));
  db = await isolatedDatabase();
  knex = createKnex(db.url);
  s3 = await startLocalS3();
  const env = {
    ...s3.env,
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    FIELD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DEMO_SEED: 'false',
    LOG_LEVEL: 'info',
    JOBS_POLL_SECONDS: '0.5',
    WEB_CONCURRENCY: '1',
  };
  // Started together, as a deployment starts them.
  [a, b] = await Promise.all([instance('a', env), instance('b', env)]);
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await knex?.destroy();
  await s3?.stop();
  await db?.drop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!realPg)('two cloud instances on one database', () => {
  it('share sessions, rate limits, files and station pokes', async () => {
    const { studio, manager, client } = await createStudioScenario(knex);
    const api = (p: string) => `/api/v4/${studio.id}/${p}`;

    // A session made on A works on B, for reads and for writes (its CSRF token lives in the session).
    const onA = await HttpClient.signedIn(a.url, manager.email, manager.password);
    const onB = sameSessionOn(onA, b.url);
    expect((await onB.get(api('client/collection'))).status).toBe(200);
    const created = await onB.post(api('client'), { firstName: 'Made', lastName: 'OnB' });
    expect(created.status, created.text).toBe(201);

    // Sign-in guesses: one budget of 8 per address and IP for both instances, not 8 each.
    const guesser = { a: await HttpClient.anonymous(a.url), b: await HttpClient.anonymous(b.url) };
    for (let i = 0; i < 8; i++) {
      const res = await (i % 2 ? guesser.b : guesser.a).signIn(client.email, `wrong ${i}`);
      expect(res.status, `guess ${i + 1}`).toBe(401);
    }
    expect((await guesser.a.signIn(client.email, 'wrong 9')).status).toBe(429);
    expect((await guesser.b.signIn(client.email, client.password)).status).toBe(429);

    // A file uploaded through A downloads through B (each has a DATA_DIR of its own).
    const bytes = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'note.pdf');
    const up = await fetch(`${a.url}${api(`client/${client.id}/client-document/upload`)}`, {
      method: 'POST',
      headers: onA.headers(),
      body: form,
    });
    const doc = (await up.json()) as { downloadPath: string };
    expect(up.status).toBe(201);
    const down = await fetch(`${b.url}/api/v4/${studio.id}/${doc.downloadPath}`, { headers: onB.headers() });
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);

    // A station listening on B is poked by a change made through A.
    const registered = await onA.post('/sync/devices', { deviceId: uuidv7(), name: 'Front desk' });
    expect(registered.status, registered.text).toBe(201);
    const abort = new AbortController();
    const events = await fetch(`${b.url}/sync/events`, {
      headers: { authorization: `Bearer ${registered.body.deviceToken as string}` },
      signal: abort.signal,
    });
    expect(events.status).toBe(200);
    let stream = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        const reader = events.body!.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) stream += decoder.decode(r.value);
      } catch {
        // Aborted at the end of the test.
      }
    })();
    await until(() => stream.includes('event: hello'), 15_000, 'hello from B');
    expect(stream).not.toContain('event: poke');
    const change = await onA.post(api('client'), { firstName: 'Made', lastName: 'OnA' });
    expect(change.status).toBe(201);
    await until(() => stream.includes('event: poke'), 15_000, 'a poke on B for the change through A');
    abort.abort();
    await reading;
  }, 120_000);

  it('run each periodic job once: the start-up catch-up and a cron tick', async () => {
    const jobsOf = async (name: string) =>
      (
        (await knex.raw(`select data, state from ${JOB_SCHEMA}.job where name = ? order by created_on`, [
          name,
        ])) as { rows: Array<{ data: { startUp?: boolean } | null; state: string }> }
      ).rows;
    // Start-up: one catch-up run per job for the deployment, performed once.
    for (const job of JOBS.filter((j) => j.runOnStart)) {
      await until(
        async () => (await jobsOf(job.name)).some((j) => j.state === 'completed'),
        30_000,
        `${job.name} ran`,
      );
      expect(await jobsOf(job.name), job.name).toHaveLength(1);
      const done = (a.output() + b.output()).match(new RegExp(`"job":"${job.name}"[^\\n]*"job done"`, 'g'));
      expect(done, job.name).toHaveLength(1);
    }

    // Ticks: the job's cron made every minute (pg-boss holds schedules in the database) while both
    // instances watch the clock, until a tick ran, then taken away. pg-boss queues a tick as one
    // "send-it" job per minute mark; each mark must have run the job once, not once per instance.
    const [job] = JOBS.filter((j) => j.runOnStart);
    const ticks = async () => (await jobsOf(job!.name)).filter((j) => !j.data?.startUp);
    await knex.raw(`update ${JOB_SCHEMA}.schedule set cron = '* * * * *' where name = ?`, [job!.name]);
    await until(async () => (await ticks()).some((j) => j.state === 'completed'), 150_000, 'a cron tick ran');
    // Both instances evaluate the schedules, one at a time, at least every 30 s: give the other its turn.
    await new Promise((r) => setTimeout(r, 35_000));
    await knex.raw(`delete from ${JOB_SCHEMA}.schedule where name = ?`, [job!.name]);
    // A tick already queued is still performed.
    await new Promise((r) => setTimeout(r, 8_000));
    const marks = (
      (await knex.raw(
        `select distinct singleton_on from ${JOB_SCHEMA}.job where name = '__pgboss__send-it' and data->>'name' = ?`,
        [job!.name],
      )) as { rows: unknown[] }
    ).rows;
    await until(async () => (await ticks()).every((j) => j.state === 'completed'), 30_000, 'the ticks ran');
    expect(marks.length).toBeGreaterThanOrEqual(1);
    expect(await ticks()).toHaveLength(marks.length);
  }, 240_000);
});
