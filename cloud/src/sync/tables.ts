import { SYNCED_TABLES, type SyncedTable } from '../../../shared/contracts/sync';
import type { DeviceScope } from '../../../shared/contracts/sync';
import type { Db, Knex } from '../db/knex';

/**
 * What the cloud sends of each synced table: the whole row as stored (`to_jsonb`), minus `omit`,
 * restricted by `scope` (a SQL condition on alias `t`; a changed row outside it is sent as a delete).
 * Every synced table has `id` (uuid) and `studio_id`, and carries the changefeed triggers.
 */
export interface SyncedTableSpec {
  omit?: readonly string[];
  scope?: (scope: DeviceScope) => { sql: string; bindings: Knex.Value[] } | null;
}

export const TABLE_SPECS: Record<SyncedTable, SyncedTableSpec> = {
  // The generated search keys stay: the desk searches with the same fold.
  clients: {},
  tags: {},
  user_tags: {},
  taxes: {},
  pricing_option_categories: {},
  pricing_options: {},
  client_pricing_options: {},
  product_categories: {},
  products: {},
  locations: {},
  location_rooms: {},
  class_service_categories: {},
  class_services: {},
  schedule_events: {},
  // The rolling window: visits older than the device's window are not sent (a changed old visit is a del).
  client_visits: {
    scope: (scope) => ({
      sql: `t.starts_at >= now() - make_interval(days => ?)`,
      bindings: [scope.visitsWindowDays],
    }),
  },
};

/** The synced tables that exist in this database (client_visits arrives with the bookings module). */
let present: Promise<Set<SyncedTable>> | undefined;
export function presentTables(db: Db): Promise<Set<SyncedTable>> {
  present ??= (async () => {
    const rows = (await db.raw(
      `select t.name from unnest(?::text[]) as t(name) where to_regclass(t.name) is not null`,
      [SYNCED_TABLES as unknown as string[]],
    )) as { rows: Array<{ name: SyncedTable }> };
    return new Set(rows.rows.map((r) => r.name));
  })().catch((err: unknown) => {
    present = undefined;
    throw err;
  });
  return present;
}

/** Tests that create a table at run time forget the cached list. */
export function forgetPresentTables(): void {
  present = undefined;
}

/** `to_jsonb(t) - omitted` as text: rows leave the database as JSON text, not parsed and re-encoded. */
export function rowJson(table: SyncedTable, alias = 't'): string {
  const omit = TABLE_SPECS[table].omit ?? [];
  return `(to_jsonb(${alias})${omit.map((c) => ` - '${c}'`).join('')})::text`;
}

export function scopeCondition(
  table: SyncedTable,
  scope: DeviceScope,
): { sql: string; bindings: Knex.Value[] } {
  return TABLE_SPECS[table].scope?.(scope) ?? { sql: 'true', bindings: [] };
}
