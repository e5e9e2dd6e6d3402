import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * `Server-Timing` for every request (issue 26: the web bench shows where API time goes): the whole
 * request (`total`) and the time its knex queries took (`db`, with their count). One
 * AsyncLocalStorage store per request; knex's `query` / `query-response` / `query-error` events add
 * each query's duration to the store of the request that started it. Overlapping queries of one
 * request (Promise.all) are summed, so `db` can exceed the wall time they took.
 */
interface RequestTiming {
  dbMs: number;
  queries: number;
}

const storage = new AsyncLocalStorage<RequestTiming>();
const instrumented = new WeakSet<Knex>();

/** Runs `fn` (the rest of the request) with a fresh timing store. */
export function withRequestTiming<T>(fn: (timing: RequestTiming) => Promise<T>): Promise<T> {
  const timing: RequestTiming = { dbMs: 0, queries: 0 };
  return storage.run(timing, () => fn(timing));
}

/** Listens to knex's query events (once per instance; transactions report through their parent). */
export function instrumentKnex(knex: Knex): void {
  if (instrumented.has(knex)) return;
  instrumented.add(knex);
  const started = new Map<string, { timing: RequestTiming; at: number }>();
  knex.on('query', (query: { __knexQueryUid?: string }) => {
    const timing = storage.getStore();
    if (!timing || !query.__knexQueryUid) return;
    started.set(query.__knexQueryUid, { timing, at: performance.now() });
  });
  const done = (_: unknown, query: { __knexQueryUid?: string }) => {
    const uid = query?.__knexQueryUid;
    if (!uid) return;
    const entry = started.get(uid);
    if (!entry) return;
    started.delete(uid);
    entry.timing.dbMs += performance.now() - entry.at;
    entry.timing.queries += 1;
  };
  knex.on('query-response', done);
  knex.on('query-error', done);
}

/** The header's value: `total;dur=12.3, db;dur=4.5;desc="3 queries"`. */
export function serverTimingHeader(timing: RequestTiming, totalMs: number): string {
  return `total;dur=${totalMs.toFixed(1)}, db;dur=${timing.dbMs.toFixed(1)};desc="${timing.queries} queries"`;
}
