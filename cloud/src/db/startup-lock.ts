import type { Logger } from '../logger';
import { createKnex, type Knex } from './knex';

/** One key for the whole deployment: "studio platform start-up". */
export const STARTUP_LOCK_KEY = 2_700_027;

/**
 * Runs `work` while holding a PostgreSQL session advisory lock, on a connection of its own to
 * `directUrl` (DATABASE_DIRECT_URL: a session lock does not survive a transaction-mode pooler).
 * Instances starting together on a fresh database take turns: the first migrates and sets up the job
 * queue, the next waits, then finds nothing left to do. (Two at once deadlocked in the queue's set-up.)
 * `work` gets the locked connection's knex (one connection) for the migrations.
 */
export async function withStartupLock<T>(
  directUrl: string,
  log: Logger,
  work: (knex: Knex) => Promise<T>,
): Promise<T> {
  // A pool of one that keeps its connection: the lock belongs to that session.
  const knex = createKnex(directUrl, { singleConnection: true });
  try {
    const got = (await knex.raw('select pg_try_advisory_lock(?) as got', [STARTUP_LOCK_KEY])) as {
      rows: Array<{ got: boolean }>;
    };
    if (!got.rows[0]!.got) {
      log.info('another instance is starting (migrations, job queue); waiting for it');
      await knex.raw('select pg_advisory_lock(?)', [STARTUP_LOCK_KEY]);
    }
    try {
      return await work(knex);
    } finally {
      await knex.raw('select pg_advisory_unlock(?)', [STARTUP_LOCK_KEY]);
    }
  } finally {
    await knex.destroy();
  }
}
