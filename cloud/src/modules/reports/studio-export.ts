import { Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';
import { v7 as uuidv7 } from 'uuid';
import type { StudioExportView } from '../../../../shared/contracts/api/reports';
import { CSV_BOM, csvLine } from '../../../../shared/domain/clients/csv';
import { AppError } from '../../../../shared/errors';
import type { StudioDataExportsRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import { enqueue } from '../../jobs/queue';
import type { Studio } from '../identity/index';

/**
 * The studio's data export (issue 20): every table of the studio's own records as a CSV file (UTF-8
 * with BOM, comma-separated, one row per record, every column as stored) in one zip, written by the
 * `studio.export` job a page at a time (a cursor) into ~1 MB chunks in `studio_data_export_chunks`,
 * and streamed back chunk by chunk on download. What is exported: `EXPORT_TABLES`.
 */
export const EXPORT_TABLES = [
  'clients',
  'client_visits',
  'client_orders',
  'client_order_lines',
  'client_order_payments',
  'client_order_refunds',
  'client_pricing_options',
  'client_contracts',
  'client_contract_instalments',
  'client_wallet_payments',
  'invoices',
  'invoice_lines',
  'products',
] as const;

const PAGE = 2000;
const CHUNK = 1 << 20;

export function presentExport(row: StudioDataExportsRow): StudioExportView {
  return {
    id: row.id,
    status:
      row.status === 'ready' || row.status === 'running' || row.status === 'failed' ? row.status : 'queued',
    progress: row.progress,
    size: Number(row.size),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

/** Asks for an export: the row and its job, in the request's transaction. */
export async function requestExport(
  trx: Knex.Transaction,
  studio: Studio,
  userId: string,
): Promise<StudioExportView> {
  const id = uuidv7();
  const [row] = await trx('studio_data_exports')
    .insert({ id, studioId: studio.id, requestedBy: userId })
    .returning('*');
  await enqueue(trx, 'studio.export', { exportId: id }, { key: `studio.export:${id}` });
  return presentExport(row!);
}

export async function findExport(db: Db, studio: Studio, id: string): Promise<StudioDataExportsRow> {
  const row = await db('studio_data_exports').where({ studioId: studio.id, id }).first();
  if (!row) throw AppError.notFound('export');
  return row;
}

export async function listExports(db: Db, studio: Studio): Promise<StudioExportView[]> {
  const rows = await db('studio_data_exports')
    .where({ studioId: studio.id })
    .orderBy('createdAt', 'desc')
    .limit(10);
  return rows.map(presentExport);
}

/** The zip, chunk by chunk in order (one chunk in memory at a time). */
export function exportStream(knex: Knex, row: StudioDataExportsRow): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const chunk = await knex('studio_data_export_chunks')
        .where({ studioId: row.studioId, exportId: row.id, seq })
        .first('data');
      if (!chunk) return;
      yield chunk.data;
    }
  }
  return Readable.from(chunks());
}

type Cell = string | number | boolean | Date | null | object;

function csvValue(value: Cell): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * The job: (re)writes the zip of the export's studio. A run that died half-way starts over (its
 * chunks are deleted first); progress is the share of tables written.
 */
export async function performStudioExport(
  payload: { exportId: string },
  ctx: { knex: Knex; clock: { now(): Date } },
): Promise<void> {
  const { knex } = ctx;
  const row = await knex('studio_data_exports').where({ id: payload.exportId }).first();
  if (!row || row.status === 'ready') return;
  const where = { studioId: row.studioId, exportId: row.id };
  await knex('studio_data_export_chunks').where(where).delete();
  await knex('studio_data_exports')
    .where({ id: row.id })
    .update({ status: 'running', progress: 0, error: null });
  let seq = 0;
  let size = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async (force: boolean) => {
    if (pendingBytes === 0 || (!force && pendingBytes < CHUNK)) return;
    const data = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    await knex('studio_data_export_chunks').insert({ ...where, seq: seq++, data });
    size += data.length;
  };
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else {
      pending.push(data);
      pendingBytes += data.length;
    }
  });
  try {
    for (const [index, table] of EXPORT_TABLES.entries()) {
      const file = new ZipDeflate(`${table}.csv`, { level: 6 });
      zip.add(file);
      const encoder = new TextEncoder();
      let header = false;
      const trx = await knex.transaction({ readOnly: true });
      try {
        await trx.raw(
          `declare export_rows no scroll cursor for select * from ${table} where studio_id = ? order by id`,
          [row.studioId],
        );
        for (;;) {
          const page: { rows: Array<Record<string, Cell>>; fields: Array<{ name: string }> } = await trx.raw(
            `fetch ${PAGE} from export_rows`,
          );
          const names = page.fields.map((f) => f.name);
          let text = '';
          if (!header) {
            text += CSV_BOM + csvLine(names, ',');
            header = true;
          }
          for (const r of page.rows)
            text += csvLine(
              names.map((n) => csvValue(r[n] ?? null)),
              ',',
            );
          file.push(encoder.encode(text), false);
          await flush(false);
          if (page.rows.length < PAGE) break;
        }
        await trx.commit();
      } finally {
        if (!trx.isCompleted()) await trx.rollback();
      }
      file.push(new Uint8Array(0), true);
      if (failure) throw failure;
      await flush(false);
      await knex('studio_data_exports')
        .where({ id: row.id })
        .update({ progress: Math.floor((100 * (index + 1)) / EXPORT_TABLES.length) - 1 });
    }
    zip.end();
    if (failure) throw failure;
    await flush(true);
    await knex('studio_data_exports')
      .where({ id: row.id })
      .update({ status: 'ready', progress: 100, size, finishedAt: ctx.clock.now() });
  } catch (err) {
    await knex('studio_data_exports')
      .where({ id: row.id })
      .update({ status: 'failed', error: err instanceof Error ? err.message.slice(0, 500) : 'failed' });
    throw err;
  }
}

/** How long a finished export stays downloadable (its zip lives in the database). */
export const STUDIO_EXPORT_KEEP_DAYS = 7;

/**
 * Deletes the exports finished (ready or failed) more than `STUDIO_EXPORT_KEEP_DAYS` ago, with their
 * chunks (cascade), a few at a time so no statement holds many megabytes of chunks at once; queued or
 * running ones stay whatever their age (the job retries them). `studioId` scopes it to one studio
 * (tests). Returns how many exports went.
 */
export async function expireStudioExports(
  knex: Knex,
  now: Date,
  options: { studioId?: string } = {},
): Promise<number> {
  const before = new Date(now.getTime() - STUDIO_EXPORT_KEEP_DAYS * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await knex('studio_data_exports')
      .whereIn('status', ['ready', 'failed'])
      .whereRaw('coalesce(finished_at, created_at) < ?', [before])
      .modify((q) => {
        if (options.studioId) q.where({ studioId: options.studioId });
      })
      .limit(20)
      .pluck('id');
    if (batch.length === 0) return removed;
    removed += await knex('studio_data_exports').whereIn('id', batch).delete();
  }
}
