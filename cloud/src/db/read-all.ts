import type { Knex } from 'knex';

type Thunks<T extends readonly unknown[]> = { [K in keyof T]: () => PromiseLike<T[K]> };

/**
 * Runs independent reads: together on the pool, one after another inside a transaction.
 *
 * A transaction holds a single connection, and pg only queues overlapping queries on one client
 * with a deprecation warning (removed in pg 9), so `Promise.all` over a transaction would break on
 * the next major version. Services that may be handed either use this instead of `Promise.all`.
 */
export async function readAll<T extends readonly unknown[]>(db: Knex, reads: Thunks<T>): Promise<T> {
  if (!db.isTransaction) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
