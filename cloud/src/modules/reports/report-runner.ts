import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type ExcelJS from 'exceljs';
import {
  REPORT_SCREEN_ROWS,
  type ReportColumn,
  type ReportData,
  type ReportId,
  type ReportRow,
} from '../../../../shared/contracts/api/reports';
import { CSV_BOM, csvDelimiterForLocale, csvLine } from '../../../../shared/domain/clients/csv';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Db, Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import { loadExcelJS } from '../../libraries';
import type { ReportDef } from './report-def';
import type { ReportContext } from './report-period';

/** One report row as the database gives it: bigint sums arrive as text, instants as Date. */
type DbCell = string | number | Date | null;
type DbRow = Record<string, DbCell>;
/**
 * Rows per cursor fetch of an export: small enough that a page's rows and their cells die young (in
 * V8's new space, collected cheaply) instead of being promoted and piling up until a full collection.
 */
const EXPORT_PAGE = 500;

/**
 * A report query's session: a year of a large studio groups and sorts some 350,000 rows (retention,
 * payroll), which the default 4 MB of work memory spills to disk; and JIT compiling its expressions
 * costs more (~100 ms) than it saves on queries that run a second or less. Per transaction only.
 */
const REPORT_SESSION = `set local work_mem = '64MB'; set local jit = off`;

async function inReportSession<T>(db: Db, run: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(
    async (trx) => {
      await trx.raw(REPORT_SESSION);
      return run(trx);
    },
    { readOnly: true },
  );
}

function numeric(kind: ReportColumn['kind']): boolean {
  return kind === 'money' || kind === 'count' || kind === 'percent';
}

/** A database row as the contract's row: numbers as numbers, instants as ISO text, `_k` left out. */
function present(columns: ReportColumn[], row: DbRow): ReportRow {
  const out: ReportRow = {};
  for (const c of columns) {
    const v = row[c.key];
    out[c.key] =
      v === null || v === undefined
        ? null
        : v instanceof Date
          ? v.toISOString()
          : numeric(c.kind)
            ? Number(v)
            : String(v);
  }
  return out;
}

/**
 * The screen's answer in ONE execution of the report's query: its rows materialized once, the first
 * ones by `_k` and the totals and row count of all of them read from that (the totals come on every
 * row, and on a single row of nulls when the report has no rows).
 */
export async function reportData(def: ReportDef, ctx: ReportContext): Promise<ReportData> {
  const columns = def.columns(ctx);
  const { sql, bindings } = def.sql(ctx);
  const summed = columns.filter((c) => c.total);
  const result: { rows: DbRow[] } = await inReportSession(ctx.db, (trx) =>
    trx.raw(
      `with r as materialized (${sql}),
          t as (select count(*) as "_rows"${summed.map((c, i) => `, coalesce(sum(r."${c.key}"), 0) as "_t${i}"`).join('')}
                  from r)
     select t.*, top.* from t
       left join lateral (select * from r order by r._k limit ${REPORT_SCREEN_ROWS + 1}) top on true
      order by top._k`,
      bindings,
    ),
  );
  const first = result.rows[0] ?? {};
  const totals: Record<string, number> = {};
  summed.forEach((c, i) => (totals[c.key] = Number(first[`_t${i}`] ?? 0)));
  const rows = result.rows.filter((r) => r._k !== null && r._k !== undefined);
  return {
    id: def.id,
    from: ctx.query.from,
    to: ctx.query.to,
    currency: ctx.studio.currency,
    columns,
    rows: rows.slice(0, REPORT_SCREEN_ROWS).map((r) => present(columns, r)),
    totals,
    rowCount: Number(first._rows ?? 0),
    truncated: rows.length > REPORT_SCREEN_ROWS,
  };
}

/** Every row of a report as the database gives it, a page at a time (see `reportPages`). */
async function* reportDbPages(knex: Knex, def: ReportDef, ctx: ReportContext): AsyncGenerator<DbRow[]> {
  const { sql, bindings } = def.sql(ctx);
  const trx = await knex.transaction({ readOnly: true });
  try {
    await trx.raw(REPORT_SESSION);
    await trx.raw(
      `declare report_rows no scroll cursor for select * from (${sql}) r order by r._k`,
      bindings,
    );
    for (;;) {
      const page: { rows: DbRow[] } = await trx.raw(`fetch ${EXPORT_PAGE} from report_rows`);
      if (page.rows.length === 0) break;
      yield page.rows;
      if (page.rows.length < EXPORT_PAGE) break;
    }
    await trx.commit();
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
}

/**
 * Every row of a report, a page at a time, through a server-side cursor in a read-only transaction
 * of its own: one query, one sort, and never more than a page in memory.
 */
export async function* reportPages(
  knex: Knex,
  def: ReportDef,
  ctx: ReportContext,
): AsyncGenerator<ReportRow[]> {
  const columns = def.columns(ctx);
  for await (const page of reportDbPages(knex, def, ctx)) yield page.map((r) => present(columns, r));
}

/** "yyyy-MM-dd HH:mm" in the studio's time zone, with ONE formatter for the whole export. */
function localMinutes(timeZone: string): (instant: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (instant) => {
    const p: Record<string, string> = {};
    for (const part of format.formatToParts(instant)) p[part.type] = part.value;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  };
}

/**
 * How an export writes a cell: labels translated (each label once per export), instants in the
 * studio's time, money in units. Works on the database's row as it comes (no intermediate row).
 */
function exportCells(
  columns: ReportColumn[],
  t: (key: string) => string,
  timeZone: string,
): (row: DbRow) => Array<string | number | null> {
  const labels = new Map<string, string>();
  const label = (key: string) => {
    let text = labels.get(key);
    if (text === undefined) labels.set(key, (text = t(key)));
    return text;
  };
  const minutes = localMinutes(timeZone);
  return (row) =>
    columns.map((c) => {
      const v = row[c.key];
      if (v === null || v === undefined) return null;
      switch (c.kind) {
        case 'money':
          return Number(v) / 100;
        case 'count':
        case 'percent':
          return Number(v);
        case 'label':
          return label(String(v));
        case 'datetime':
          return minutes(v instanceof Date ? v : new Date(String(v)));
        default:
          return v instanceof Date ? v.toISOString() : String(v);
      }
    });
}

export interface ExportInput {
  knex: Knex;
  def: ReportDef;
  ctx: ReportContext;
  locale: Locale;
}

function headers(input: ExportInput): {
  columns: ReportColumn[];
  titles: string[];
  t: (k: string) => string;
} {
  const t = tFor(input.locale) as unknown as (key: string) => string;
  const columns = input.def.columns(input.ctx);
  return { columns, titles: columns.map((c) => t(`reports:column.${c.key}`)), t };
}

/** The report as CSV (UTF-8 with BOM; `;` and decimal commas for Polish), streamed page by page. */
export function reportCsv(input: ExportInput): Readable {
  const { columns, titles, t } = headers(input);
  const delimiter = csvDelimiterForLocale(input.locale);
  const tz = input.ctx.studio.timeZone;
  const money = (n: number) => (delimiter === ';' ? n.toFixed(2).replace('.', ',') : n.toFixed(2));
  const cells = exportCells(columns, t, tz);
  async function* lines() {
    yield CSV_BOM + csvLine(titles, delimiter);
    for await (const page of reportDbPages(input.knex, input.def, input.ctx)) {
      let text = '';
      for (const row of page) {
        const values = cells(row);
        columns.forEach((c, i) => {
          const v = values[i];
          if (c.kind === 'money' && typeof v === 'number') values[i] = money(v);
        });
        text += csvLine(values, delimiter);
      }
      yield text;
    }
  }
  return Readable.from(lines());
}

/**
 * exceljs's sheet stream: a StreamBuf, which the zip (archiver) reads through a PassThrough of
 * `readable-stream` 2 (`pipes[0]`) that it pipes into the entry's compressor once it reaches the entry.
 * That PassThrough predates `writableLength`: what it holds is `_writableState.length`.
 */
interface SheetStream {
  buffers?: Array<{ length?: number }>;
  pipes?: Array<NodeJS.EventEmitter & { _writableState?: { length?: number } }>;
}
/**
 * How much of the sheet's XML may wait for the compressor: two of StreamBuf's 64 kB buffers. With more
 * (1 MB), the buffers waited long enough to outlive V8's young-generation collections, and ~40–60 MB
 * of them piled up in the old generation until a full collection (a year's payments at the bench's
 * size: the server's rise 32–41 MB; with 128 kB, 15–16 MB).
 */
const BACKLOG_BYTES = 128 << 10;

function sheetStream(sheet: ExcelJS.Worksheet): SheetStream | undefined {
  return (sheet as unknown as { _stream?: SheetStream })._stream;
}

/** Bytes of the sheet's XML written and not yet taken by the zip's compressor. */
function backlog(stream: SheetStream | undefined): number {
  let bytes = 0;
  for (const b of stream?.buffers ?? []) bytes += b.length ?? 0;
  for (const p of stream?.pipes ?? []) bytes += p._writableState?.length ?? 0;
  return bytes;
}

/**
 * Back-pressure: exceljs's StreamBuf never says "wait" (its write always accepts and ignores what its
 * PassThrough answers), so rows written faster than the zip compresses them, or than the client reads
 * the file, would pile up in memory — the whole sheet's XML, ~250 bytes a row, for a year's payments.
 * After each page of rows, wait until the compressor's input has come down to 128 kB and the response
 * has room again; only then is the next page fetched from the cursor. (The PassThrough emits `drain`
 * once emptied — a write to it over its 16 kB mark has set `needDrain`; a short timer too, in case.)
 */
async function caughtUp(sheet: ExcelJS.Worksheet, out: PassThrough): Promise<void> {
  for (;;) {
    if (out.destroyed) throw new Error('the download was closed');
    const stream = sheetStream(sheet);
    if (out.writableNeedDrain) await firstOf([out, 'drain'], [out, 'close']);
    else if (backlog(stream) > BACKLOG_BYTES) {
      const input = stream?.pipes?.[0];
      await firstOf(...(input ? [[input, 'drain'] as const] : []), [out, 'close'], 100);
    } else return;
  }
}

/** Waits for the first of these events, or `ms`; removes its listeners (an export waits thousands of times). */
async function firstOf(...waits: Array<readonly [NodeJS.EventEmitter, string] | number>): Promise<void> {
  const abort = new AbortController();
  const { signal } = abort;
  try {
    await Promise.race(
      waits.map((w) =>
        typeof w === 'number' ? delay(w, undefined, { signal }) : once(w[0], w[1], { signal }),
      ),
    );
  } finally {
    abort.abort();
  }
}

/** The report as XLSX, written as it is read (exceljs's streaming WorkbookWriter, with back-pressure). */
export async function reportXlsx(input: ExportInput, sheetName: string): Promise<Readable> {
  const ExcelJS = await loadExcelJS();
  const { columns, titles, t } = headers(input);
  const tz = input.ctx.studio.timeZone;
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: titles[i],
    key: c.key,
    width: c.kind === 'text' || c.kind === 'label' ? 28 : 16,
    style: c.kind === 'money' ? { numFmt: '#,##0.00' } : {},
  }));
  const cells = exportCells(columns, t, tz);
  void (async () => {
    for await (const page of reportDbPages(input.knex, input.def, input.ctx)) {
      for (const row of page) sheet.addRow(cells(row)).commit();
      await caughtUp(sheet, out);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export type { ReportId };
