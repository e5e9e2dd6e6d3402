import './int-setup';
import { fileStorage } from '../../cloud/src/storage/index';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../cloud/src/app';
import { ManualClock, systemClock, type Clock } from '../../cloud/src/clock';
import { loadConfig } from '../../cloud/src/config';
import type { Deps } from '../../cloud/src/http/context';
import { builtWebAssets, type WebAssets } from '../../cloud/src/http/pages';
import { RateLimits, type RateLimitName, type RateLimitRule } from '../../cloud/src/http/rate-limit';
import { createKnex, type Knex } from '../../cloud/src/db/knex';
import { performJob } from '../../cloud/src/jobs/perform';
import { bossConnection, queueTestHooks, statements, type JobName } from '../../cloud/src/jobs/queue';
import { createLogger } from '../../cloud/src/logger';
import type { Mailer, MailMessage } from '../../cloud/src/mail/mailer';
import { WEB_DIST_DIR } from '../../cloud/src/paths';
import { HttpClient } from './http-client';

export interface TestApp {
  url: string;
  knex: Knex;
  deps: Deps;
  clock: Clock;
  mail: MailMessage[];
  /**
   * Performs the side-effect jobs this process enqueued and nobody performed yet (the mails of the
   * requests made so far), as the runner's worker would: a test app runs no worker, so a test's
   * jobs are never taken by another test file's app on the shared database. A job whose handler
   * fails stays for the next call (its retry). Returns how many were performed.
   */
  drainJobs(): Promise<number>;
  anonymous(): Promise<HttpClient>;
  signedIn(email: string, password: string, studioUuid?: string): Promise<HttpClient>;
  close(): Promise<void>;
}

/** Records mail instead of sending it. */
export function recordingMailer(): Mailer {
  const recent: MailMessage[] = [];
  return { recent, send: async (m) => void recent.push(m) };
}

/**
 * Registers the test file's app: started before its tests (beforeAll, with an optional timeout) and
 * closed after them. The handle it returns stands for that app once it has started, so tests and
 * helpers read it as they would the app itself (never at module load, before it starts).
 */
export function useTestApp(options?: Parameters<typeof startTestApp>[0], timeout?: number): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(options);
  }, timeout);
  afterAll(async () => started?.close());
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!started) throw new Error('the test app starts in beforeAll');
      return Reflect.get(started, key);
    },
  });
}

/**
 * The real Koa app over the test database, listening on a free port. Rate limits are generous unless a
 * test narrows them; the clock is the system's unless a ManualClock is given.
 */
export async function startTestApp(
  options: {
    clock?: Clock;
    rateLimits?: Partial<Record<RateLimitName, RateLimitRule>>;
    web?: WebAssets;
    /** Reuse another test app's connection (the embedded database has only one). */
    shareDatabaseWith?: TestApp;
    /** Another database than the run's shared one (see isolatedDatabase). */
    databaseUrl?: string;
    /**
     * Rate-limit budgets: apps given the same namespace share them on PostgreSQL, as instances of one
     * deployment do; by default each app has its own (test files run side by side on one database).
     */
    rateLimitNamespace?: string;
    /** Another mailer than the recording one (a real SMTP transport to a test server). */
    mailer?: Mailer;
    /** More configuration (a file storage driver, another DATA_DIR): an instance set up otherwise. */
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? inject('databaseUrl');
  const knex =
    options.shareDatabaseWith?.knex ??
    createKnex(databaseUrl, { singleConnection: inject('embeddedDatabase') });
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: path.join(os.tmpdir(), 'studio-test'),
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const mailer = options.mailer ?? recordingMailer();
  const generous = { points: 10_000, durationSeconds: 60 };
  // PostgreSQL: the store production uses (a pool of its own); the embedded database: memory.
  const rateLimitPool = inject('embeddedDatabase')
    ? null
    : new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // As the server's (server.ts): an idle client the database ends (a test dropping its own database
  // `with (force)`, a restart) is an 'error' on the pool, which without a listener ends the process.
  rateLimitPool?.on('error', () => {});
  const rateLimitStore = {
    pool: rateLimitPool ?? undefined,
    namespace: options.rateLimitNamespace ?? `${randomUUID()}:`,
  };
  const rateLimits = new RateLimits(
    {
      lookupPerIp: generous,
      lookupPerEmail: generous,
      loginPerIp: generous,
      loginPerEmail: generous,
      loginPerEmailAndIp: generous,
      signupPerIp: generous,
      logPerIp: generous,
      kioskPerIp: generous,
      kioskIdentifyPerSession: generous,
      kioskIdentifyPerStudio: generous,
      searchPerIp: generous,
      recoveryPerEmail: generous,
      ...options.rateLimits,
    },
    rateLimitStore,
  );
  const clock = options.clock ?? systemClock;
  const deps: Deps = {
    config,
    knex,
    log: createLogger('silent', false),
    mailer,
    clock,
    rateLimits,
    web: options.web ?? builtWebAssets(WEB_DIST_DIR),
  };
  const app = createApp(deps);
  const enqueued: Array<{ name: JobName; id: string }> = [];
  const previousHook = queueTestHooks.enqueued;
  queueTestHooks.enqueued = (name, id) => {
    previousHook?.(name, id);
    enqueued.push({ name, id });
  };
  const drainJobs = async () => {
    let performed = 0;
    for (const { name, id } of enqueued.splice(0)) {
      const job = await statements.getJobById(name, id, { db: bossConnection(knex), includeArchive: false });
      // Rolled back with its transaction, or performed already.
      if (!job || (job.state !== 'created' && job.state !== 'retry')) continue;
      try {
        await performJob(
          {
            knex,
            log: deps.log,
            clock,
            mailer,
            publicUrl: () => config.publicUrl,
            storage: fileStorage(config),
          },
          job,
          (trx) => statements.deleteJob(name, id, { db: bossConnection(trx) }),
        );
        performed += 1;
      } catch {
        enqueued.push({ name, id });
      }
    }
    return performed;
  };
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  config.publicUrl = url;
  return {
    url,
    knex,
    deps,
    clock,
    mail: mailer.recent,
    drainJobs,
    anonymous: () => HttpClient.anonymous(url),
    signedIn: (email, password, studioUuid) => HttpClient.signedIn(url, email, password, studioUuid),
    async close() {
      queueTestHooks.enqueued = previousHook;
      // Jobs nobody drained leave with the app: the shared database keeps no backlog for a worker.
      for (const name of new Set(enqueued.map((j) => j.name))) {
        const ids = enqueued.filter((j) => j.name === name).map((j) => j.id);
        await statements.deleteJob(name, ids, { db: bossConnection(knex) }).catch(() => undefined);
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.shareDatabaseWith) await knex.destroy();
      await rateLimitPool?.end();
    },
  };
}

export { ManualClock };
