import type { Knex } from '../../db/knex';
import type {
  ReportColumn,
  ReportColumnKind,
  ReportFilter,
  ReportGroup,
  ReportId,
} from '../../../../shared/contracts/api/reports';
import type { ReportContext } from './report-period';

/**
 * One report: its columns and one SQL query over the studio's rows of the period. The query returns
 * the columns' keys and `_k`, a text unique per row that orders it: the screen takes the first rows by
 * `_k` and the totals in SQL (`report-runner.ts`), the export walks every row through a cursor.
 * Every query is bounded by `studio_id` and the period on an index leading with them (migration 0130).
 */
export interface ReportDef {
  id: ReportId;
  group: ReportGroup;
  filters: ReportFilter[];
  columns(ctx: ReportContext): ReportColumn[];
  sql(ctx: ReportContext): { sql: string; bindings: Knex.RawBinding[] };
}

export const col = (key: string, kind: ReportColumnKind, total = false): ReportColumn => ({
  key,
  kind,
  total,
});

/**
 * SQL with named parameters (`:studio`, `:start` …) turned into knex's positional `?` with their
 * bindings; `::casts` are left alone. Every value goes through a binding, never into the text.
 */
export function named(
  sql: string,
  values: Record<string, Knex.RawBinding>,
): { sql: string; bindings: Knex.RawBinding[] } {
  const bindings: Knex.RawBinding[] = [];
  // String literals ('enums:paymentMethod.') are passed over whole.
  const text = sql.replace(
    /'(?:[^']|'')*'|(?<!:):([a-z][A-Za-z0-9]*)\b(?!:)/g,
    (match: string, name?: string) => {
      if (name === undefined) return match;
      if (!(name in values)) throw new Error(`report SQL: no value for :${name}`);
      bindings.push(values[name] ?? null);
      return '?';
    },
  );
  return { sql: text, bindings };
}

/** The values every report's SQL may name. */
export function baseValues(ctx: ReportContext): Record<string, Knex.RawBinding> {
  const q = ctx.query;
  return {
    studio: ctx.studio.id,
    start: ctx.start,
    end: ctx.end,
    tz: ctx.studio.timeZone,
    location: q.location ?? null,
    instructor: q.instructor ?? null,
    classService: q.classService ?? null,
    pricingOption: q.pricingOption ?? null,
    method: q.method ?? null,
  };
}
