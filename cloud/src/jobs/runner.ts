import type { FileStorage } from '../storage/index';
import PgBoss from 'pg-boss';
import type { Clock } from '../clock';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { CONTRACT_INSTALMENTS_DUE, contractInstalmentsDueJob } from './contract-instalments.job';
import { HANDLERS, performJob, type JobContext } from './perform';
import { bossConnection, JOB_SCHEMA, type JobName } from './queue';
import { SYNC_CHANGEFEED_PRUNE, syncChangefeedPruneJob } from './sync-prune.job';
import { scheduledOrdersChargeJob } from './scheduled-orders.job';
import { ksefSweepJob } from './ksef-sweep.job';
import { automationsSweepJob } from './automations-sweep.job';
import { studioExportsExpiryJob } from './studio-exports-expiry.job';
import { videoUploadsSweepJob } from './video-uploads-sweep.job';

/** One periodic job: a queue, how often it runs (cron, UTC) and what it does. */
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
   * The app's mailer (SMTP or .eml files): the side-effect queues send through the one requests
   * would. The server always gives it; runners started without it (tests of the periodic jobs) work
   * no side-effect queue.
   */
  mailer?: Mailer;
  /** The app's file storage, for jobs that make files (video transcodes). */
  storage?: FileStorage;
  /** The public base URL for links in mails (read late: a test server learns its port after start). */
  publicUrl?: () => string;
}

export interface JobRunner {
  /** Queues a periodic job to run now (tests, the start-up catch-up). */
  trigger(name: string): Promise<void>;
  /** Stops fetching, waits for running jobs (graceful shutdown), leaves the database to its owner. */
  stop(): Promise<void>;
}

export interface RunnerOptions {
  /** The periodic jobs to schedule (default: all of `JOBS`). */
  jobs?: readonly JobDefinition[];
  /** The side-effect queues to work (default: all, when a mailer is given). */
  queues?: readonly JobName[];
  /** How often an idle worker looks for jobs (pg-boss's minimum is 0.5 s; config `JOBS_POLL_SECONDS`). */
  pollingIntervalSeconds?: number;
  /** How often pg-boss expires jobs of dead workers and retries them (config `JOBS_MAINTENANCE_SECONDS`). */
  maintenanceIntervalSeconds?: number;
}

export const JOBS: readonly JobDefinition[] = [
  contractInstalmentsDueJob,
  syncChangefeedPruneJob,
  scheduledOrdersChargeJob,
  ksefSweepJob,
  automationsSweepJob,
  studioExportsExpiryJob,
  videoUploadsSweepJob,
];

/**
 * A start-up run is a catch-up after downtime: one per deployment start, not one per instance. An
 * instance skips it when a run of the job was queued within this many seconds (another instance's
 * start-up run, or a cron tick).
 */
export const START_UP_RUN_WINDOW_SECONDS = 600;

/**
 * Queues a periodic job's start-up run unless one (or a cron tick) was queued within the window.
 * The server starts the runner under the start-up lock (`withStartupLock`), so instances starting
 * together check one after the other; the singleton key on a window slot also stops a second send of
 * the same slot at the database should two runners start without the lock.
 */
async function queueStartUpRun(boss: PgBoss, knex: Knex, name: string): Promise<void> {
  const recent = (await knex.raw(
    `select 1 from ${JOB_SCHEMA}.job
      where name = ? and created_on > now() - make_interval(secs => ?) limit 1`,
    [name, START_UP_RUN_WINDOW_SECONDS],
  )) as { rows: unknown[] };
  if (recent.rows.length > 0) return;
  await boss.send(
    name,
    { startUp: true },
    { singletonKey: 'start-up', singletonSeconds: START_UP_RUN_WINDOW_SECONDS },
  );
}

/** Jobs fetched per poll of a side-effect queue. */
const BATCH = 10;

/**
 * Starts pg-boss over knex's pool (see `bossConnection`): the periodic jobs on their crons, and a
 * worker per side-effect queue that performs each job once (`performJob`), pg-boss retrying a failed
 * one with exponential backoff (the queue's `retryDelay`, doubled per attempt).
 */
export async function startJobRunner(deps: JobDeps, options: RunnerOptions = {}): Promise<JobRunner> {
  const crons = options.jobs ?? JOBS;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const boss = new PgBoss({
    db: bossConnection(deps.knex),
    schema: JOB_SCHEMA,
    // Quiet on the shared connection: no state monitoring (left unset).
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 120,
  });
  boss.on('error', (err) => deps.log.error({ err }, 'job queue error'));
  await boss.start();
  for (const job of crons) {
    await boss.createQueue(job.name, { name: job.name, policy: 'singleton', retryLimit: 3, retryDelay: 60 });
    await boss.schedule(job.name, job.cron);
    await boss.work(job.name, { pollingIntervalSeconds }, async () => {
      const started = Date.now();
      const result = await job.run(deps);
      deps.log.info({ job: job.name, ms: Date.now() - started, result }, 'job done');
    });
    if (job.runOnStart) await queueStartUpRun(boss, deps.knex, job.name);
  }
  const { mailer, publicUrl } = deps;
  const queues = mailer ? (options.queues ?? (Object.keys(HANDLERS) as JobName[])) : [];
  if (mailer) {
    const ctx: JobContext = { ...deps, mailer, publicUrl: publicUrl ?? (() => '') };
    for (const name of queues) {
      await boss.work(
        name,
        { pollingIntervalSeconds, batchSize: BATCH, includeMetadata: true },
        async (jobs) => {
          let failed: unknown;
          for (const job of jobs) {
            try {
              await performJob(ctx, job);
            } catch (err) {
              // The others of the batch still go; pg-boss fails (and retries) those left active.
              deps.log.error({ err, job: job.id, queue: name, attempt: job.retryCount }, 'job failed');
              failed ??= err;
            }
          }
          if (failed) throw failed;
        },
      );
    }
  }
  deps.log.info({ crons: crons.map((j) => j.name), queues }, 'job runner started');
  let stopping: Promise<void> | undefined;
  return {
    async trigger(name) {
      await boss.send(name, {});
    },
    // Graceful: no new fetches, running jobs get up to 20 s, then their jobs are marked failed (retried).
    stop: () => (stopping ??= boss.stop({ graceful: true, wait: true, close: false, timeout: 20_000 })),
  };
}

export { CONTRACT_INSTALMENTS_DUE, SYNC_CHANGEFEED_PRUNE };
