import PgBoss from 'pg-boss';
import { preparedName, preparesStatements, type Db } from '../db/knex';
import type { MailMessage } from '../mail/mailer';
import type { BookingMailJob } from '../modules/bookings/index';
import type {
  CampaignBatchJob,
  AutomationMailJob,
  TransactionalMailJob,
} from '../modules/communication/index';
import type { ProviderCall } from '../modules/sales/index';

/**
 * The side-effect pipeline's queues (see README.md): what each job carries and how it is retried.
 * A job is written by `enqueue` in the business transaction and performed by the runner's worker
 * after the commit. Add a queue here (payload type + options) and its handler in `handlers.ts`.
 */
export interface JobPayloads {
  /** A rendered e-mail (password reset, staff invite, welcome, account link). */
  'mail.send': MailMessage;
  /** A booking e-mail, rendered when sent from the visit as it is then. */
  'booking.mail': BookingMailJob;
  /** A donation's receipt, sent while its order is still paid. */
  'donation.receipt': { donationId: string };
  /** A payment provider call its request did not finish (refund, saved-card charge, closing a checkout). */
  'sales.provider-call': ProviderCall;
  /** An invoice sent to KSeF (attempt: the resend count, part of the job's key). */
  'ksef.send': { invoiceId: string; attempt: number };
  /** A video transcoded to HLS with its thumbnail (attempt: the retry count, part of the job's key). */
  'video.transcode': { videoId: string; attempt: number };
  /** A deleted video's files (`all`), or only its abandoned partial upload (`upload`), removed. */
  'video.delete-files': { studioId: string; videoId: string; scope: 'all' | 'upload' };
  /** The studio's data export: its zip of CSV files written (reports module). */
  'studio.export': { exportId: string };
  /** One batch of a campaign's sending (key `campaign.batch:<id>:<run>:<seq>`). */
  'campaign.batch': CampaignBatchJob;
  /** The client list's bulk message, sent as an e-mail campaign to the chosen clients. */
  'client.bulk-message': { requestId: string };
  /** One automated message (a reminder-log row), rendered when sent. */
  'automation.mail': AutomationMailJob;
  /** A purchase confirmation, failed payment or password-changed mail (modules/communication). */
  'transactional.mail': TransactionalMailJob;
  /** One webhook delivery (an event to one endpoint), signed and sent (modules/integrations). */
  'webhook.deliver': { deliveryId: string };
  /** A member's appointments pushed to their connected Google Calendar (modules/appointments). */
  'appointment.calendar-push': { connectionId: string };
  /** A disconnected Google Calendar grant revoked at Google. */
  'appointment.calendar-revoke': { token: string };
  /** A paid subscription period's invoice e-mailed to the studio (modules/subscription). */
  'subscription.invoice-mail': { periodId: string };
}

export type JobName = keyof JobPayloads;

export interface QueueOptions {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each retry (exponential backoff, with jitter). */
  retryDelay: number;
  /** A job still active this long (its worker died) is failed and retried by the maintenance. */
  expireInSeconds: number;
}

const MAIL: QueueOptions = { retryLimit: 8, retryDelay: 30, expireInSeconds: 120 };

export const QUEUES: Record<JobName, QueueOptions> = {
  'mail.send': MAIL,
  'booking.mail': MAIL,
  'donation.receipt': MAIL,
  'sales.provider-call': { retryLimit: 10, retryDelay: 60, expireInSeconds: 120 },
  // KSeF unreachable: retried from 1 minute, doubling (≈ 17 h over 10 retries); Resend starts again.
  'ksef.send': { retryLimit: 10, retryDelay: 60, expireInSeconds: 300 },
  // A broken file fails for good at once (recorded on the video); retries are for outages of the
  // storage. An hour covers a long video on a small machine.
  'video.transcode': { retryLimit: 3, retryDelay: 60, expireInSeconds: 3600 },
  // Deleting is idempotent: a storage outage is retried for about a day.
  'video.delete-files': { retryLimit: 10, retryDelay: 60, expireInSeconds: 600 },
  // A large studio's export takes minutes; a failed one starts over.
  'studio.export': { retryLimit: 3, retryDelay: 60, expireInSeconds: 3600 },
  // A batch sends up to a few hundred messages: expired (its worker died) after 15 minutes.
  'campaign.batch': { retryLimit: 10, retryDelay: 30, expireInSeconds: 900 },
  'automation.mail': MAIL,
  'client.bulk-message': MAIL,
  'transactional.mail': MAIL,
  'subscription.invoice-mail': MAIL,
  // A receiver down: retried from 30 s, doubling (≈ 8.5 h over 10 retries), then failed for good.
  'webhook.deliver': { retryLimit: 10, retryDelay: 30, expireInSeconds: 60 },
  'appointment.calendar-push': { retryLimit: 8, retryDelay: 30, expireInSeconds: 300 },
  'appointment.calendar-revoke': { retryLimit: 5, retryDelay: 60, expireInSeconds: 60 },
};

export const JOB_SCHEMA = 'pgboss';

/**
 * pg-boss talks to the database through knex: one query at a time on a connection knex hands out.
 * Given a transaction, that is the transaction's own connection (knex's transaction client always
 * answers with it), so a job sent through it commits or rolls back with the business change. Given
 * the knex instance, a pooled connection (the embedded PGlite is a pool of one, which pg-boss then
 * shares). Results stay raw (snake_case): the driver's connection is used, not the query builder.
 */
export function bossConnection(db: Db): PgBoss.Db {
  const client = db.client as {
    acquireConnection(): Promise<{
      query(
        text: string | { text: string; values?: unknown[]; name: string },
        values?: unknown[],
      ): Promise<{ rows: unknown[] }>;
    }>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  // pg-boss's statements are fixed texts: on PostgreSQL they run prepared (see db/knex.ts).
  const prepares = preparesStatements(db);
  return {
    async executeSql(text, values) {
      const connection = await client.acquireConnection();
      try {
        return prepares && /^\s*(insert|select|update|with)\b/i.test(text)
          ? await connection.query({ text, values, name: preparedName(text) })
          : await connection.query(text, values);
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}

/** Builds pg-boss's statements only: never started, every call names the connection to use. */
export const statements = new PgBoss({
  db: {
    executeSql: () => Promise.reject(new Error('jobs: pass a connection (enqueue(db, …))')),
  },
  schema: JOB_SCHEMA,
});

export interface EnqueueOptions {
  /**
   * Idempotency key: the worker performs a job whose key it has already delivered as done, without
   * doing it again (`job_deliveries`). Default: the job's own id. Give one when the same effect may
   * be enqueued twice (a receipt per donation: `donation.receipt:<id>`).
   */
  key?: string;
  /** Not before this time. */
  startAfter?: Date;
}

/** Tests only: told of every job id enqueued by this process (a test app performs its own jobs). */
export const queueTestHooks: { enqueued?: (name: JobName, id: string) => void } = {};

/**
 * Queues a side effect inside the caller's transaction (pass the request's `db`): it exists only if
 * the transaction commits, and the worker performs it after the commit, with retries and backoff.
 * Returns the job id.
 */
export async function enqueue<N extends JobName>(
  db: Db,
  name: N,
  payload: JobPayloads[N],
  options: EnqueueOptions = {},
): Promise<string> {
  const id = await statements.send(name, payload as object, {
    db: bossConnection(db),
    ...(options.key ? { singletonKey: options.key } : {}),
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
  });
  // pg-boss inserts through a join on its queue table: an unknown queue inserts nothing.
  if (!id) throw new Error(`job queue ${name} is not installed (installJobQueues runs with the migrations)`);
  queueTestHooks.enqueued?.(name, id);
  return id;
}

/**
 * Installs pg-boss's schema when absent (the runner's start migrates it on a pg-boss upgrade) and
 * every queue of `QUEUES` that does not exist yet. Runs with the migrations (`migrateLatest`), so
 * every database that the app writes to can take jobs before any worker started.
 */
export async function installJobQueues(db: Db): Promise<void> {
  const connection = bossConnection(db);
  const boss = new PgBoss({ db: connection, schema: JOB_SCHEMA });
  if (!(await boss.isInstalled())) {
    try {
      // pg-boss wraps its plan in BEGIN … COMMIT; run inside a migration, that COMMIT would end the
      // migration's transaction and every later migration of the batch would run without one (a
      // fresh database ran them so). One multi-statement query is a transaction of its own anyway.
      const plan = PgBoss.getConstructionPlans(JOB_SCHEMA)
        .replace(/^\s*BEGIN;/, '')
        .replace(/COMMIT;\s*$/, '');
      await connection.executeSql(plan, []);
    } catch (err) {
      // Two processes installing at once: the other one won.
      if (!(await boss.isInstalled())) throw err;
    }
  }
  for (const [name, options] of Object.entries(QUEUES)) {
    if (await boss.getQueue(name)) continue;
    try {
      await boss.createQueue(name, { name, policy: 'standard', ...options, retryBackoff: true });
    } catch (err) {
      if (!(await boss.getQueue(name))) throw err;
    }
  }
}
