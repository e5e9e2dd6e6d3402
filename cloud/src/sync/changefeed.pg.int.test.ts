import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createStudio } from '../../../tests/support/factories';
import { isolatedDatabase } from '../../../tests/support/isolated-db';
import { createKnex, type Knex } from '../db/knex';
import { readDeltaPage, readMeta } from './changefeed';
import type { PullResume } from '../../../shared/contracts/sync';
import { VISITS_WINDOW_DAYS } from './devices.service';

/**
 * What the tests must prove, 1: many writers with random commit delays, rollbacks, savepoints and one
 * long transaction, against a looping puller, on a real PostgreSQL. The replica equals the server; a
 * naive `seq > last` cursor is caught losing rows (negative control).
 */
const realPg = Boolean(process.env.TEST_DATABASE_URL) && !inject('embeddedDatabase');
if (!realPg)
  console.warn(
    'changefeed.pg.int.test.ts: skipped — set TEST_DATABASE_URL to a PostgreSQL database to run it',
  );

const SCOPE = { tables: ['tags'], commands: [], visitsWindowDays: VISITS_WINDOW_DAYS };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!realPg)('changefeed on real PostgreSQL', () => {
  let knex: Knex;
  beforeAll(() => {
    knex = createKnex(inject('databaseUrl'));
    // Writers + the long transaction + two pullers at once.
    (knex.client as { config: { pool: { max: number } } }).config.pool.max = 20;
  });
  afterAll(async () => knex?.destroy());

  async function snapshot(): Promise<string> {
    const res = (await knex.raw('select pg_current_snapshot()::text as snap')) as {
      rows: Array<{ snap: string }>;
    };
    return res.rows[0]!.snap;
  }

  /** Our puller: snapshot cursor, small pages pinned to the first page's snapshot. */
  async function pullAll(studioId: string, cursor: string, replica: Map<string, string>): Promise<string> {
    let resume: PullResume | null = null;
    for (;;) {
      const page = await knex.transaction(
        (trx) => readDeltaPage(trx, { studioId, deviceId: null, scope: SCOPE, cursor, resume, limit: 7 }),
        { isolationLevel: 'repeatable read', readOnly: true },
      );
      for (const p of page.patch) {
        if (p.op === 'put') replica.set(p.id, (JSON.parse(p.json) as { name: string }).name);
        else replica.delete(p.id);
      }
      if (!page.hasMore) return page.pin;
      resume = page.resume;
    }
  }

  /** The negative control: a cursor that is a number taken when the writing began (here the xid). */
  async function pullNaive(studioId: string, last: bigint, replica: Map<string, string>): Promise<bigint> {
    const changes = (await knex.raw(
      `select c.row_id::text as id, c.xid::text as xid, t.name from sync_change c
         left join tags t on t.id = c.row_id
        where c.studio_id = ? and c.table_name = 'tags' and c.xid > ?::text::xid8 order by c.xid`,
      [studioId, last.toString()],
    )) as { rows: Array<{ id: string; xid: string; name: string | null }> };
    for (const c of changes.rows) {
      if (c.name === null) replica.delete(c.id);
      else replica.set(c.id, c.name);
      if (BigInt(c.xid) > last) last = BigInt(c.xid);
    }
    return last;
  }

  it('concurrent writers with delays, rollbacks, savepoints and a long transaction: the replica equals the server, a naive cursor loses rows', async () => {
    const studio = await createStudio(knex);
    const start = await snapshot();
    const ids: string[] = [];
    let done = false;
    let committed = 0;
    let rolledBack = 0;

    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) {
        try {
          await knex.transaction(async (trx) => {
            const id = uuidv7();
            await trx('tags').insert({
              id,
              studioId: studio.id,
              name: `w${w}-${i}-${uuidv7().slice(-6)}`,
              type: 0,
            });
            const existing = ids[Math.floor(Math.random() * ids.length)];
            if (existing && Math.random() < 0.4)
              await trx('tags')
                .where({ id: existing })
                .update({ name: `upd-${w}-${i}-${uuidv7().slice(-6)}` });
            if (existing && Math.random() < 0.1) await trx('tags').where({ id: existing }).delete();
            if (Math.random() < 0.3) {
              // A savepoint that rolls back: its rows and their changefeed entries vanish.
              await trx
                .transaction(async (sp) => {
                  await sp('tags').insert({
                    id: uuidv7(),
                    studioId: studio.id,
                    name: `sp-${uuidv7()}`,
                    type: 0,
                  });
                  throw new Error('roll back the savepoint');
                })
                .catch(() => {});
            }
            await sleep(Math.random() * 40);
            if (Math.random() < 0.15) throw new Error('roll back');
            ids.push(id);
          });
          committed += 1;
        } catch {
          rolledBack += 1;
        }
      }
    };

    // The long transaction writes first (takes its xid early) and commits last.
    const longOne = knex.transaction(async (trx) => {
      await trx('tags').insert({ id: uuidv7(), studioId: studio.id, name: 'long-transaction', type: 0 });
      await sleep(2500);
    });

    const replica = new Map<string, string>();
    const naive = new Map<string, string>();
    const puller = (async () => {
      let cursor = start;
      let naiveLast =
        BigInt((await knex.raw(`select pg_snapshot_xmin(?::pg_snapshot)::text as x`, [start])).rows[0].x) -
        1n;
      while (!done) {
        cursor = await pullAll(studio.id, cursor, replica);
        naiveLast = await pullNaive(studio.id, naiveLast, naive);
        await sleep(Math.random() * 30);
      }
      cursor = await pullAll(studio.id, cursor, replica);
      await pullNaive(studio.id, naiveLast, naive);
    })();

    await Promise.all([...Array.from({ length: 8 }, (_, w) => writer(w)), longOne]);
    done = true;
    await puller;

    const server = new Map(
      (
        (await knex('tags').where({ studioId: studio.id }).select('id', 'name')) as Array<{
          id: string;
          name: string;
        }>
      ).map((r) => [r.id, r.name]),
    );
    expect(committed).toBeGreaterThan(100);
    expect(rolledBack).toBeGreaterThan(0);
    expect(server.has([...server.keys()].find((k) => server.get(k) === 'long-transaction')!)).toBe(true);
    expect(replica).toEqual(server);
    // Negative control: the naive cursor missed at least the long transaction's row.
    const missed = [...server.keys()].filter((k) => naive.get(k) !== server.get(k));
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.map((k) => server.get(k))).toContain('long-transaction');
  }, 60_000);

  it('a cursor below the pruning floor must reset; pruning keeps every change a live cursor needs', async () => {
    const { pruneChangefeed, cursorProblem } = await import('./changefeed');
    // Its own database: pruning raises the floor for every studio (and would reset other files' cursors).
    const iso = await isolatedDatabase();
    const knex = createKnex(iso.url);
    const snapshot = async () =>
      ((await knex.raw('select pg_current_snapshot()::text as snap')) as { rows: Array<{ snap: string }> })
        .rows[0]!.snap;
    try {
      const studio = await createStudio(knex);
      const old = await snapshot();
      await knex('tags').insert({ id: uuidv7(), studioId: studio.id, name: `p-${uuidv7()}`, type: 0 });
      const fresh = await snapshot();
      await knex('tags').insert({ id: uuidv7(), studioId: studio.id, name: `q-${uuidv7()}`, type: 0 });
      // Prune everything older than "tomorrow": the floor rises to the oldest running transaction.
      await pruneChangefeed(knex, -1, new Date());
      const meta = await readMeta(knex);
      const xmin = async (snap: string) =>
        BigInt((await knex.raw('select pg_snapshot_xmin(?::pg_snapshot)::text as x', [snap])).rows[0].x);
      const floor = BigInt(meta.floorXid);
      // The floor is one above the newest change removed, never above a transaction still running
      // somewhere in the cluster (another database's long transaction keeps everything).
      expect(floor).toBeLessThanOrEqual(await xmin(await snapshot()));
      const below = await knex.raw('select count(*)::int as n from sync_change where xid < ?::xid8', [
        meta.floorXid,
      ]);
      expect(below.rows[0].n).toBe(0);
      await knex.transaction(async (trx) => {
        for (const cursor of [old, fresh]) {
          const expected = (await xmin(cursor)) < floor ? 'pruned' : null;
          expect(await cursorProblem(trx, cursor, meta.epoch, meta)).toBe(expected);
        }
        const raised = { ...meta, floorXid: String((await xmin(fresh)) + 1n) };
        expect(await cursorProblem(trx, old, meta.epoch, raised)).toBe('pruned');
        expect(await cursorProblem(trx, fresh, meta.epoch, raised)).toBe('pruned');
        expect(await cursorProblem(trx, await snapshot(), meta.epoch, meta)).toBeNull();
        expect(await cursorProblem(trx, '999999999:999999999:', meta.epoch, meta)).toBe('restored');
      });
    } finally {
      await knex.destroy();
      await iso.drop();
    }
  });
});
