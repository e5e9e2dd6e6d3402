import type { DeviceScope, SyncedTable } from '../../../shared/contracts/sync';
import type { Db } from '../db/knex';
import { rowJson, scopeCondition } from './tables';

export interface BootstrapLinesPage {
  /**
   * One line per row: `<id>\t<row as JSON text>` ('' when the table has no more rows), in the
   * subquery's id order in practice; nothing depends on the order of the lines (the station stores each
   * by key, and `next` is the greatest id of the page, computed on its own).
   */
  body: string;
  count: number;
  /** Id to ask the next page after; null on the table's last page. */
  next: string | null;
}

/**
 * A bootstrap page as lines of `id<TAB>json`, built by PostgreSQL in one string (`string_agg`): the
 * driver receives one value instead of thousands of rows, and the station stores each row's JSON text
 * as it arrived, with no JSON.parse/JSON.stringify per row. JSON text from PostgreSQL never holds a raw
 * newline or tab (they are escaped inside strings), so the line format is unambiguous. Same rows and
 * scope as `readRows(... { after, limit })`.
 *
 * Cost (tests/bench/bootstrap.bench.ts, 10,000 visits a page): `string_agg(... order by p.id)` sorted
 * the page's ~8 MB of text again inside the aggregate, past `work_mem`, so every page went through a
 * temporary file; the rows already come sorted from the subquery's keyset scan (which is what makes
 * the page the first `limit` rows after `after`), so the aggregate takes them as they come.
 */
export async function bootstrapPageLines(
  db: Db,
  table: SyncedTable,
  studioId: string,
  scope: DeviceScope,
  page: { after: string | null; limit: number },
): Promise<BootstrapLinesPage> {
  const cond = scopeCondition(table, scope);
  const res: { rows: Array<{ n: number; body: string; last: string | null }> } = await db.raw(
    `select count(*)::int as n,
            coalesce(string_agg(p.id::text || E'\\t' || p.json, E'\\n'), '') as body,
            max(p.id::text collate "C") as last
       from (select t.id, ${rowJson(table)} as json from ${table} t
              where t.studio_id = ? and t.id > ?::uuid and (${cond.sql})
              order by t.id limit ?) p`,
    [studioId, page.after ?? '00000000-0000-0000-0000-000000000000', ...cond.bindings, page.limit],
  );
  const row = res.rows[0]!;
  return { body: row.body, count: row.n, next: row.n === page.limit ? row.last : null };
}
