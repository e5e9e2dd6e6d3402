import { PassThrough, Readable } from 'node:stream';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import ExcelJS from 'exceljs';
import {
  REPORT_SCREEN_ROWS,
  type ReportColumn,
  type ReportData,
  type ReportId,
  type ReportRow,
} from '../../../../shared/contracts/api/reports';
import { CSV_BOM, csvDelimiterForLocale, csvLine } from '../../../../shared/domain/clients/csv';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import type { ReportDef } from './report-def';
import type { ReportContext } from './report-period';

/** One report row as the database gives it: bigint sums arrive as text, instants as Date. */
type DbCell = string | number | Date | null;
type DbRow = Record<string, DbCell>;
const EXPORT_PAGE = 2000;

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

/** The screen's answer: the first rows by `_k`, and the totals and row count of all of them in SQL. */
export async function reportData(def: ReportDef, ctx: ReportContext): Promise<ReportData> {
  const columns = def.columns(ctx);
  const { sql, bindings } = def.sql(ctx);
  const summed = columns.filter((c) => c.total);
  const rowsResult: { rows: DbRow[] } = await ctx.db.raw(
    `select * from (${sql}) r order by r._k limit ${REPORT_SCREEN_ROWS + 1}`,
    bindings,
  );
  const totalsResult: { rows: DbRow[] } = await ctx.db.raw(
    `select count(*) as "_rows"${summed.map((c) => `, coalesce(sum(r."${c.key}"), 0) as "${c.key}"`).join('')}
       from (${sql}) r`,
    bindings,
  );
  const sums = totalsResult.rows[0] ?? {};
  const totals: Record<string, number> = {};
  for (const c of summed) totals[c.key] = Number(sums[c.key] ?? 0);
  return {
    id: def.id,
    from: ctx.query.from,
    to: ctx.query.to,
    currency: ctx.studio.currency,
    columns,
    rows: rowsResult.rows.slice(0, REPORT_SCREEN_ROWS).map((r) => present(columns, r)),
    totals,
    rowCount: Number(sums._rows ?? 0),
    truncated: rowsResult.rows.length > REPORT_SCREEN_ROWS,
  };
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
  const { sql, bindings } = def.sql(ctx);
  const trx = await knex.transaction({ readOnly: true });
  try {
    await trx.raw(
      `declare report_rows no scroll cursor for select * from (${sql}) r order by r._k`,
      bindings,
    );
    for (;;) {
      const page: { rows: DbRow[] } = await trx.raw(`fetch ${EXPORT_PAGE} from report_rows`);
      if (page.rows.length === 0) break;
      yield page.rows.map((r) => present(columns, r));
      if (page.rows.length < EXPORT_PAGE) break;
    }
    await trx.commit();
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
}

/** How an export writes a cell: labels translated, instants in the studio's time, money in units. */
function exportCell(
  column: ReportColumn,
  value: ReportRow[string],
  t: (key: string) => string,
  timeZone: string,
): string | number | null {
  if (value === null) return null;
  switch (column.kind) {
    case 'money':
      return Number(value) / 100;
    case 'label':
      return t(String(value));
    case 'datetime':
      return format(new TZDate(Date.parse(String(value)), timeZone), 'yyyy-MM-dd HH:mm');
    default:
      return value;
  }
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
  async function* lines() {
    yield CSV_BOM + csvLine(titles, delimiter);
    for await (const page of reportPages(input.knex, input.def, input.ctx)) {
      yield page
        .map((row) =>
          csvLine(
            columns.map((c) => {
              const v = exportCell(c, row[c.key] ?? null, t, tz);
              return c.kind === 'money' && typeof v === 'number' ? money(v) : v;
            }),
            delimiter,
          ),
        )
        .join('');
    }
  }
  return Readable.from(lines());
}

/** The report as XLSX, written as it is read (exceljs's streaming WorkbookWriter). */
export function reportXlsx(input: ExportInput, sheetName: string): Readable {
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
  void (async () => {
    for await (const page of reportPages(input.knex, input.def, input.ctx)) {
      for (const row of page)
        sheet.addRow(columns.map((c) => exportCell(c, row[c.key] ?? null, t, tz))).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export type { ReportId };
