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
  const res: { rows: Array<{ epoch: string; floor: string }> } = await db.raw(
    'select epoch, floor_xid::text as floor from sync_meta where id = 1',
  );
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
  const res: { rows: Array<{ pruned: boolean; future: boolean }> } = await trx.raw(
    `select pg_snapshot_xmin(?::pg_snapshot) < ?::xid8 as pruned,
            pg_snapshot_xmax(?::pg_snapshot) > pg_snapshot_xmax(pg_current_snapshot()) as future`,
    [cursor, meta.floorXid, cursor],
  );
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
    const snap: { rows: Array<{ snap: string }> } = await trx.raw(
      'select pg_current_snapshot()::text as snap',
    );
    pin = snap.rows[0]!.snap;
    lastMutationSeq = args.deviceId ? await deviceLastSeq(trx, args.deviceId) : 0;
  }
  const after: [string, string] = args.resume
    ? [args.resume.afterTable, args.resume.afterId]
    : ['', '00000000-0000-0000-0000-000000000000'];
  // A committed transaction is invisible in the cursor exactly when its xid is at or above the
  // cursor's xmax or in its list of then-running xids. Asking the (studio_id, xid) index for those two
  // ranges, rather than everything from the cursor's xmin on, keeps a pull small even when a long
  // transaction elsewhere in the cluster held the xmin back (e.g. the pull closing a bootstrap).
  const keys: { rows: Array<{ tbl: string; id: string }> } = await trx.raw(
    `select table_name as tbl, row_id::text as id
       from (select table_name, row_id, xid from sync_change
              where studio_id = ? and xid >= pg_snapshot_xmax(?::pg_snapshot)
             union all
             select table_name, row_id, xid from sync_change
              where studio_id = ? and xid = any(array(select pg_snapshot_xip(?::pg_snapshot)))) c
      where not pg_visible_in_snapshot(xid, ?::pg_snapshot)
        and pg_visible_in_snapshot(xid, ?::pg_snapshot)
        and (table_name, row_id) > (?, ?::uuid)
      group by table_name, row_id
      order by table_name, row_id
      limit ?`,
    [
      args.studioId,
      args.cursor,
      args.studioId,
      args.cursor,
      args.cursor,
      pin,
      after[0],
      after[1],
      args.limit + 1,
    ],
  );
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
  const res: { rows: Array<{ last_seq: number }> } = await db.raw(
    'select last_seq from sync_clients where device_id = ?',
    [deviceId],
  );
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
    const res: { rows: Array<{ id: string; json: string }> } = await db.raw(
      `select t.id::text as id, ${rowJson(table)} as json from ${table} t
        where t.studio_id = ? and t.id = any(?::uuid[]) and (${cond.sql})`,
      [studioId, select.ids, ...cond.bindings],
    );
    return res.rows;
  }
  const res: { rows: Array<{ id: string; json: string }> } = await db.raw(
    `select t.id::text as id, ${rowJson(table)} as json from ${table} t
      where t.studio_id = ? and t.id > ?::uuid and (${cond.sql})
      order by t.id limit ?`,
    [studioId, select.after ?? '00000000-0000-0000-0000-000000000000', ...cond.bindings, select.limit],
  );
  return res.rows;
}

/**
 * How long the changefeed keeps changes (the design's "e.g. 45 days"). Longer than the stations'
 * offline window (30 days, push.service.ts): a station offline for the whole window still continues
 * its cursor instead of bootstrapping again.
 */
export const CHANGEFEED_RETENTION_DAYS = 45;

/**
 * Prunes the log: changes older than `olderThanDays` go (up to the oldest change kept and the oldest
 * running transaction), and the floor rises to one above the newest xid actually removed — never down.
 * A cursor whose xmin is below the floor may have missed a removed change: it gets 409 reset and the
 * station bootstraps again, keeping its outbox. A cursor taken after every removed change committed
 * goes on, so stations that pulled recently (or an idle studio's) are not reset because time passed.
 */
export async function pruneChangefeed(
  knex: Knex,
  olderThanDays: number,
  now: Date,
): Promise<{ deleted: number; floorXid: string }> {
  return knex.transaction(async (trx) => {
    await trx.raw('select 1 from sync_meta where id = 1 for update');
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000);
    // `at` is the writing statement's time. Only rows below every kept change and every running
    // transaction may go, so what stays is a suffix of the log in xid order.
    const res: { rows: Array<{ n: number; newest: string | null }> } = await trx.raw(
      `with bound as (
         select least((select min(xid) from sync_change where at >= ?),
                      pg_snapshot_xmin(pg_current_snapshot())) as xid),
       removed as (
         delete from sync_change c using bound where c.at < ? and c.xid < bound.xid returning c.xid)
       select count(*)::int as n, max(xid)::text as newest from removed`,
      [cutoff, cutoff],
    );
    const { n, newest } = res.rows[0]!;
    const meta: { rows: Array<{ floor: string }> } = await trx.raw(
      `update sync_meta
          set floor_xid = case when ?::text is null then floor_xid
                               else greatest(floor_xid, ((?::text)::bigint + 1)::text::xid8) end,
              pruned_at = ?
        where id = 1
        returning floor_xid::text as floor`,
      [newest, newest, now],
    );
    return { deleted: n, floorXid: meta.rows[0]!.floor };
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
