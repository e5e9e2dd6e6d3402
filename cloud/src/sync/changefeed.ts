import type { Knex } from 'knex';
import type { DeviceScope, PullResume, SyncedTable } from '../../../shared/contracts/sync';
import { isSyncedTable } from '../../../shared/contracts/sync';
import { AppError } from '../../../shared/errors';
import type { Db } from '../db/knex';
import { presentTables, rowJson, scopeCondition } from './tables';

/**
 * The changefeed (docs/offline-sync.md, "Server changefeed"). A cursor is a PostgreSQL snapshot as
 * text. A pull runs in REPEATABLE READ READ ONLY, so the rows it reads and `pg_current_snapshot()`
 * are the same snapshot S; a change is due when its transaction is visible in S and was not in the
 * cursor. A transaction still running at S is invisible in S and comes with the next pull, whatever
 * its xid: that is what a `seq > last` cursor gets wrong.
 */

export interface SyncMeta {
  epoch: string;
  floorXid: string;
}

export async function readMeta(db: Db): Promise<SyncMeta> {
  const res = (await db.raw('select epoch, floor_xid::text as floor from sync_meta where id = 1')) as {
    rows: Array<{ epoch: string; floor: string }>;
  };
  const row = res.rows[0];
  if (!row) throw new Error('sync_meta is empty: run the migrations');
  return { epoch: row.epoch, floorXid: row.floor };
}

/** Why a cursor cannot be continued (409 `sync.reset`), or null when it can. */
export async function cursorProblem(
  trx: Db,
  cursor: string,
  epoch: string,
  meta: SyncMeta,
): Promise<'epoch' | 'pruned' | 'restored' | null> {
  if (epoch !== meta.epoch) return 'epoch';
  const res = (await trx.raw(
    `select pg_snapshot_xmin(?::pg_snapshot) < ?::xid8 as pruned,
            pg_snapshot_xmax(?::pg_snapshot) > pg_snapshot_xmax(pg_current_snapshot()) as future`,
    [cursor, meta.floorXid, cursor],
  )) as { rows: Array<{ pruned: boolean; future: boolean }> };
  const row = res.rows[0]!;
  // A cursor from the future: the database was restored from a backup (or this is another server).
  if (row.future) return 'restored';
  if (row.pruned) return 'pruned';
  return null;
}

export function resetError(reason: string): AppError {
  return new AppError('sync.reset', {
    message: `bootstrap again (${reason})`,
    headers: { 'sync-reset-reason': reason },
  });
}

export type PatchLine =
  { op: 'put'; table: string; id: string; json: string } | { op: 'del'; table: string; id: string };

export interface DeltaPage {
  patch: PatchLine[];
  /** The snapshot the page's keys were taken from (the first page's, pinned). */
  pin: string;
  lastMutationSeq: number;
  hasMore: boolean;
  resume: PullResume | null;
}

/**
 * One page of changes after `cursor` for a studio, inside a REPEATABLE READ transaction `trx`. The
 * first page pins `pg_current_snapshot()`; later pages (with `resume`) keep that pin so the set of keys
 * is the same one, and read the rows as they are now (newer values are harmless: they are sent again
 * by the next pull, whose cursor is the pin).
 */
export async function readDeltaPage(
  trx: Knex.Transaction,
  args: {
    studioId: string;
    deviceId: string | null;
    scope: DeviceScope;
    cursor: string;
    resume: PullResume | null;
    limit: number;
  },
): Promise<DeltaPage> {
  let pin: string;
  let lastMutationSeq: number;
  if (args.resume) {
    pin = args.resume.pin;
    lastMutationSeq = args.resume.lastMutationSeq;
  } else {
    const snap = (await trx.raw('select pg_current_snapshot()::text as snap')) as {
      rows: Array<{ snap: string }>;
    };
    pin = snap.rows[0]!.snap;
    lastMutationSeq = args.deviceId ? await deviceLastSeq(trx, args.deviceId) : 0;
  }
  const after: [string, string] = args.resume
    ? [args.resume.afterTable, args.resume.afterId]
    : ['', '00000000-0000-0000-0000-000000000000'];
  const keys = (await trx.raw(
    `select table_name as tbl, row_id::text as id
       from sync_change
      where studio_id = ?
        and xid >= pg_snapshot_xmin(?::pg_snapshot)
        and not pg_visible_in_snapshot(xid, ?::pg_snapshot)
        and pg_visible_in_snapshot(xid, ?::pg_snapshot)
        and (table_name, row_id) > (?, ?::uuid)
      group by table_name, row_id
      order by table_name, row_id
      limit ?`,
    [args.studioId, args.cursor, args.cursor, pin, after[0], after[1], args.limit + 1],
  )) as { rows: Array<{ tbl: string; id: string }> };
  const hasMore = keys.rows.length > args.limit;
  const page = hasMore ? keys.rows.slice(0, args.limit) : keys.rows;

  const present = await presentTables(trx);
  const byTable = new Map<SyncedTable, string[]>();
  for (const key of page) {
    if (!isSyncedTable(key.tbl) || !present.has(key.tbl)) continue;
    const ids = byTable.get(key.tbl) ?? [];
    ids.push(key.id);
    byTable.set(key.tbl, ids);
  }
  const patch: PatchLine[] = [];
  for (const [table, ids] of byTable) {
    const rows = await readRows(trx, table, args.studioId, args.scope, { ids });
    const found = new Map(rows.map((r) => [r.id, r.json]));
    for (const id of ids) {
      const json = found.get(id);
      patch.push(json === undefined ? { op: 'del', table, id } : { op: 'put', table, id, json });
    }
  }
  const last = page[page.length - 1];
  return {
    patch,
    pin,
    lastMutationSeq,
    hasMore,
    resume: hasMore && last ? { pin, lastMutationSeq, afterTable: last.tbl, afterId: last.id } : null,
  };
}

export async function deviceLastSeq(db: Db, deviceId: string): Promise<number> {
  const res = (await db.raw('select last_seq from sync_clients where device_id = ?', [deviceId])) as {
    rows: Array<{ last_seq: number }>;
  };
  return Number(res.rows[0]?.last_seq ?? 0);
}

/** Rows of a synced table as JSON text, by ids or a key page, within the studio and the device's scope. */
export async function readRows(
  db: Db,
  table: SyncedTable,
  studioId: string,
  scope: DeviceScope,
  select: { ids: string[] } | { after: string | null; limit: number },
): Promise<Array<{ id: string; json: string }>> {
  const cond = scopeCondition(table, scope);
  if ('ids' in select) {
    const res = (await db.raw(
      `select t.id::text as id, ${rowJson(table)} as json from ${table} t
        where t.studio_id = ? and t.id = any(?::uuid[]) and (${cond.sql})`,
      [studioId, select.ids, ...cond.bindings],
    )) as { rows: Array<{ id: string; json: string }> };
    return res.rows;
  }
  const res = (await db.raw(
    `select t.id::text as id, ${rowJson(table)} as json from ${table} t
      where t.studio_id = ? and t.id > ?::uuid and (${cond.sql})
      order by t.id limit ?`,
    [studioId, select.after ?? '00000000-0000-0000-0000-000000000000', ...cond.bindings, select.limit],
  )) as { rows: Array<{ id: string; json: string }> };
  return res.rows;
}

/**
 * Prunes the log: changes older than `olderThanDays` go, and the floor rises to the oldest xid kept
 * (never above the oldest running transaction). A cursor whose xmin is below the floor may have lost
 * changes: it gets 409 reset. Returns the number of rows removed.
 */
export async function pruneChangefeed(knex: Knex, olderThanDays: number, now: Date): Promise<number> {
  return knex.transaction(async (trx) => {
    await trx.raw('select 1 from sync_meta where id = 1 for update');
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000);
    const res = (await trx.raw(
      `with kept as (select min(xid) as xid from sync_change where at >= ?)
       select least(coalesce(kept.xid, pg_snapshot_xmin(pg_current_snapshot())),
                    pg_snapshot_xmin(pg_current_snapshot()))::text as floor
         from kept`,
      [cutoff],
    )) as { rows: Array<{ floor: string }> };
    const floor = res.rows[0]!.floor;
    const deleted = (await trx.raw('delete from sync_change where xid < ?::xid8', [floor])) as {
      rowCount: number;
    };
    await trx.raw(
      `update sync_meta set floor_xid = greatest(floor_xid, ?::xid8), pruned_at = ? where id = 1`,
      [floor, now],
    );
    return deleted.rowCount;
  });
}

/** Serializes a page's patch without parsing the rows' JSON text again. */
export function patchJson(patch: PatchLine[]): string {
  return `[${patch
    .map((p) =>
      p.op === 'put'
        ? `{"op":"put","table":${JSON.stringify(p.table)},"id":${JSON.stringify(p.id)},"row":${p.json}}`
        : `{"op":"del","table":${JSON.stringify(p.table)},"id":${JSON.stringify(p.id)}}`,
    )
    .join(',')}]`;
}
