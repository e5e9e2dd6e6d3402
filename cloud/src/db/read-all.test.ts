import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { readAll } from './read-all';

/** Two reads that log when they start and end; the first takes longer. */
function reads(log: string[]) {
  const read = (name: string, ms: number) => () =>
    new Promise<string>((resolve) => {
      log.push(`${name} start`);
      setTimeout(() => {
        log.push(`${name} end`);
        resolve(name);
      }, ms);
    });
  return [read('a', 20), read('b', 1)] as const;
}

describe('readAll', () => {
  it('runs the reads one after another on a transaction, in order', async () => {
    const log: string[] = [];
    const trx = { isTransaction: true } as unknown as Knex;
    expect(await readAll(trx, reads(log))).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs them together on the pool', async () => {
    const log: string[] = [];
    const pool = {} as unknown as Knex;
    expect(await readAll(pool, reads(log))).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'b start', 'b end', 'a end']);
  });
});
