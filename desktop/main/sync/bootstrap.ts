import type { BootstrapStartResult } from '../../../shared/contracts/sync';
import type { LocalDatabase } from '../db/database';
import type { LocalStore } from './local-store';
import { HttpError, META, type SyncEngineOptions } from './sync-types';

interface BootstrapLinesPage {
  table: string;
  /** `id<TAB>json` lines (see cloud/src/sync/bootstrap.service.ts). */
  text: string;
  next: string | null;
}

interface BootstrapProgress {
  start: BootstrapStartResult;
  tableIndex: number;
  after: string | null;
}

/** What a bootstrap needs of the engine. */
export interface BootstrapContext {
  db: LocalDatabase;
  store: LocalStore;
  options: SyncEngineOptions;
  /** The engine's authenticated /sync call; `raw` answers `{ text, headers }`. */
  call<T>(method: string, path: string, body?: unknown, raw?: boolean): Promise<T>;
  /** Re-applies the effects of the mutations the server has not confirmed yet. */
  reapplyPending(): void;
  /** The tables whose rows changed. */
  changed(tables: string[]): void;
}

/**
 * Bootstrap: record the snapshot, page every table by key into staging (each page one transaction,
 * so a kill resumes at the next page), swap staging in at once, then the caller's delta pull from the
 * recorded snapshot makes the cache consistent. The outbox is kept and re-applied.
 *
 * Speed (tests/bench/bootstrap.bench.ts): pages come as `id<TAB>json` lines whose JSON text is stored
 * as it arrived (no parse and re-stringify per row); the next page is fetched while this one is
 * written, so the cloud's work and the station's overlap; the swap renames staging to `rows` and
 * builds the indexes once over the whole table instead of copying every row through them.
 */
export async function runBootstrap(ctx: BootstrapContext): Promise<void> {
  const { db, store, options } = ctx;
  let progress = readBootstrap(store);
  if (!progress) {
    const start = await ctx.call<BootstrapStartResult>('POST', '/sync/bootstrap');
    progress = { start, tableIndex: 0, after: null };
    db.transaction(() => {
      db.prepare('delete from staging_rows').run();
      store.setMeta(META.bootstrap, JSON.stringify(progress));
    })();
  }
  const insert = db.prepare('insert or replace into staging_rows (tbl, id, data) values (?, ?, ?)');
  const pageSize = options.bootstrapPageSize ?? 10_000;
  const tables = progress.start.tables;
  const fetchPage = (at: BootstrapProgress): Promise<BootstrapLinesPage> => {
    const table = tables[at.tableIndex]!;
    const query = new URLSearchParams({ table, limit: String(pageSize), format: 'lines' });
    if (at.after) query.set('after', at.after);
    return ctx
      .call<{ text: string; headers: Headers }>(
        'GET',
        `/sync/bootstrap/page?${query.toString()}`,
        undefined,
        true,
      )
      .then(
        (res) => ({ table, text: res.text, next: res.headers.get('sync-next') || null }),
        (err: unknown) => {
          // The table left the station's scope: skip it.
          if (err instanceof HttpError && err.status === 400) return { table, text: '', next: null };
          throw err;
        },
      );
  };
  let ahead: Promise<BootstrapLinesPage> | null =
    progress.tableIndex < tables.length ? fetchPage(progress) : null;
  while (ahead) {
    const page = await ahead;
    const next: BootstrapProgress = page.next
      ? { ...progress, after: page.next }
      : { ...progress, tableIndex: progress.tableIndex + 1, after: null };
    // Ask for the next page now; it is only a read, so a kill meanwhile loses nothing.
    ahead = next.tableIndex < tables.length ? fetchPage(next) : null;
    ahead?.catch(() => {});
    db.transaction(() => {
      let from = 0;
      const text = page.text;
      while (from < text.length) {
        let end = text.indexOf('\n', from);
        if (end === -1) end = text.length;
        const tab = text.indexOf('\t', from);
        insert.run(page.table, text.slice(from, tab), text.slice(tab + 1, end));
        from = end + 1;
      }
      store.setMeta(META.bootstrap, JSON.stringify(next));
    })();
    progress = next;
    options.hook?.('duringBootstrapPage');
  }
  options.hook?.('beforeBootstrapSwap');
  const start = progress.start;
  db.transaction(() => {
    db.prepare('delete from shadow').run();
    swapStagingIn(db);
    store.setMeta(META.cursor, start.cursor);
    store.setMeta(META.epoch, start.epoch);
    store.setMeta(META.pullResume, null);
    // Not confirmed here: the closing pull (from this snapshot) confirms with its last page, so
    // the pending count and the last-sync time change together, once the cache is consistent.
    store.setMeta(META.bootstrap, null);
    store.setMeta(META.studio, JSON.stringify(start.studio));
    ctx.reapplyPending();
  })();
  ctx.changed(start.tables);
}

/**
 * `staging_rows` becomes `rows` and a new empty staging table is made, inside the caller's
 * transaction: no row is copied, and each index of `rows` (as the local migrations defined it, read
 * back from sqlite_master) is built once over the finished table, which is much faster than updating
 * it row by row. Statements prepared on `rows` are re-prepared by SQLite on their next use.
 */
function swapStagingIn(db: LocalDatabase): void {
  const schema = (type: string, name: string) =>
    db
      .prepare(`select name, sql from sqlite_master where type = ? and tbl_name = ? and sql is not null`)
      .all(type, name) as Array<{ name: string; sql: string }>;
  const indexes = schema('index', 'rows');
  const staging = schema('table', 'staging_rows')[0]!.sql;
  db.exec('drop table rows');
  db.exec('alter table staging_rows rename to rows');
  for (const index of indexes) db.exec(index.sql);
  db.exec(staging);
}

function readBootstrap(store: LocalStore): BootstrapProgress | null {
  const text = store.getMeta(META.bootstrap);
  return text ? (JSON.parse(text) as BootstrapProgress) : null;
}
