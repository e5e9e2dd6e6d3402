import PgBoss from 'pg-boss';
import type { Clock } from '../clock';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { BOOKING_MAILS_DELIVER, bookingMailsDeliverJob } from './booking-mails.job';
import { CONTRACT_INSTALMENTS_DUE, contractInstalmentsDueJob } from './contract-instalments.job';
import { SYNC_CHANGEFEED_PRUNE, syncChangefeedPruneJob } from './sync-prune.job';
import { scheduledOrdersChargeJob } from './scheduled-orders.job';

/** One background job: a queue, how often it runs (cron, UTC) and what it does. */
export interface JobDefinition {
  name: string;
  cron: string;
  /** Also run once when the runner starts (catch up after downtime). */
  runOnStart: boolean;
  run(deps: JobDeps): Promise<unknown>;
}

export interface JobDeps {
  knex: Knex;
  log: Logger;
  clock: Clock;
  /**
   * The app's mailer (SMTP or .eml files): jobs that send mail use the one requests use. The server
   * always gives it; runners started without it (tests of other jobs) skip the mail jobs' work.
   */
  mailer?: Mailer;
  /** The public base URL for links in mails (read late: a test server learns its port after start). */
  publicUrl?: () => string;
}

export interface JobRunner {
  /** Queues a job to run now (tests, the start-up catch-up). */
  trigger(name: string): Promise<void>;
  /** Stops fetching, waits for running jobs (graceful shutdown), leaves the database to its owner. */
  stop(): Promise<void>;
}

export const JOBS: readonly JobDefinition[] = [
  contractInstalmentsDueJob,
  syncChangefeedPruneJob,
  bookingMailsDeliverJob,
  scheduledOrdersChargeJob,
];

/**
 * pg-boss talks to the database through knex's own pool: one query at a time on a borrowed
 * connection. The embedded PGlite is a single connection (knex's pool of one), so pg-boss could not
 * open connections of its own there; through the pool it shares that one, and on PostgreSQL it shares
 * the pool's ten. pg-boss's results must stay raw (snake_case): the pg connection is used directly,
 * not knex's query builder with its camelCase mappers.
 */
function knexAdapter(knex: Knex): PgBoss.Db {
  const client = knex.client as {
    acquireConnection(): Promise<{ query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  return {
    async executeSql(text, values) {
      const connection = await client.acquireConnection();
      try {
        return await connection.query(text, values);
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}

export async function startJobRunner(
  deps: JobDeps,
  options: { jobs?: readonly JobDefinition[]; pollingIntervalSeconds?: number } = {},
): Promise<JobRunner> {
  const jobs = options.jobs ?? JOBS;
  const boss = new PgBoss({
    db: knexAdapter(deps.knex),
    schema: 'pgboss',
    // Quiet on the shared connection: no state monitoring (left unset), maintenance every 10 minutes.
    maintenanceIntervalSeconds: 600,
  });
  boss.on('error', (err) => deps.log.error({ err }, 'job queue error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, policy: 'singleton', retryLimit: 3, retryDelay: 60 });
    await boss.schedule(job.name, job.cron);
    await boss.work(job.name, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5 }, async () => {
      const started = Date.now();
      const result = await job.run(deps);
      deps.log.info({ job: job.name, ms: Date.now() - started, result }, 'job done');
    });
    if (job.runOnStart) await boss.send(job.name, {});
  }
  deps.log.info({ jobs: jobs.map((j) => j.name) }, 'job runner started');
  let stopping: Promise<void> | undefined;
  return {
    async trigger(name) {
      await boss.send(name, {});
    },
    // Graceful: no new fetches, running jobs get up to 20 s, then their jobs are marked failed (retried).
    stop: () => (stopping ??= boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 })),
  };
}

export { BOOKING_MAILS_DELIVER, CONTRACT_INSTALMENTS_DUE, SYNC_CHANGEFEED_PRUNE };
