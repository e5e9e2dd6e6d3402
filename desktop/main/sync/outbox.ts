import type { Outcome } from '../../../shared/contracts/sync';
import type { LocalDatabase } from '../db/database';
import type { LocalStore } from './local-store';
import { META, type OutboxRow } from './sync-types';

/**
 * The station's outbox table as the engine reads and rewrites it: every function here runs inside
 * (or as) one synchronous SQLite statement or the caller's transaction.
 */

/** Mutations whose effects the server has not confirmed in a pull yet. */
export function unconfirmedMutations(
  db: LocalDatabase,
  store: LocalStore,
): Array<{ seq: number; effects: string }> {
  const confirmed = Number(store.getMeta(META.confirmedSeq) ?? 0);
  return db.prepare('select seq, effects from outbox where seq > ? order by seq').all(confirmed) as Array<{
    seq: number;
    effects: string;
  }>;
}

/** An outbox row as SQLite holds it (the columns the engine reads). */
export interface OutboxRecord {
  seq: number;
  mutation_id: string;
  name: string;
  version: number;
  args: string;
  occurred_at: string;
  actor_id: string | null;
  is_fact: number;
  status: 'pending' | 'acked';
  outcome: string | null;
}

export function readOutbox(db: LocalDatabase): OutboxRow[] {
  return (db.prepare('select * from outbox order by seq').all() as OutboxRecord[]).map((r) => ({
    seq: r.seq,
    mutationId: r.mutation_id,
    name: r.name,
    version: r.version,
    args: JSON.parse(r.args) as Record<string, unknown>,
    occurredAt: r.occurred_at,
    actorId: r.actor_id,
    isFact: r.is_fact === 1,
    status: r.status,
    outcome: r.outcome ? (JSON.parse(r.outcome) as Outcome) : null,
  }));
}

/** Closing a shift requires no pending facts in the outbox. */
export function hasPendingFacts(db: LocalDatabase): boolean {
  return Boolean(db.prepare(`select 1 from outbox where status = 'pending' and is_fact = 1 limit 1`).get());
}

/** Forgets where the pull stands: the next sync bootstraps again (the outbox is kept). */
export function forgetCursor(store: LocalStore): void {
  store.setMeta(META.cursor, null);
  store.setMeta(META.epoch, null);
  store.setMeta(META.pullResume, null);
}

/**
 * A new device id starts at seq 1 on the server: unsent mutations keep their ids and order, get new
 * seqs; what the old id already delivered is dropped from the outbox. Inside the caller's transaction.
 */
export function renumberOutbox(db: LocalDatabase, store: LocalStore): void {
  db.prepare(`delete from outbox where status = 'acked'`).run();
  const rows = db.prepare('select seq from outbox order by seq').all() as Array<{ seq: number }>;
  const offset = 1_000_000_000;
  db.prepare('update outbox set seq = seq + ?').run(offset);
  rows.forEach((r, i) => db.prepare('update outbox set seq = ? where seq = ?').run(i + 1, r.seq + offset));
  store.setMeta(META.nextSeq, rows.length + 1);
  store.setMeta(META.ackedThrough, 0);
  store.setMeta(META.confirmedSeq, 0);
  forgetCursor(store);
}

/** The highest seq whose outcome this station holds with no gap before it. */
export function outcomeKnownThrough(db: LocalDatabase, store: LocalStore): number {
  const row = db.prepare(`select min(seq) as s from outbox where status = 'pending'`).get() as {
    s: number | null;
  };
  const next = Number(store.getMeta(META.nextSeq) ?? 1);
  return (row.s ?? next) - 1;
}
