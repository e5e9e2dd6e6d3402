import { SYNCED_TABLES, type SyncedTable } from '../../../shared/contracts/sync';
import type { DeviceScope } from '../../../shared/contracts/sync';
import type { Db, Knex } from '../db/knex';

/**
 * What the cloud sends of each synced table: the whole row as stored (`rowJson`), minus `omit`,
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
  // The kiosk's offline lookup by card and QR code needs only the key (desktop/main/kiosk).
  client_identities: { omit: ['value'] },
  // Who shares which pass: the desk lists passes shared with a client and counts their visits offline.
  client_pricing_option_shares: {},
  // Entry services offline (the desktop kiosk): the services with their limits, and the entries of
  // the visits window (today's decide the daily limit and the capacity; each spends a counted pass).
  entry_services: {},
  client_entries: {
    scope: (scope) => ({
      sql: `t.entered_at >= now() - make_interval(days => ?)`,
      bindings: [scope.visitsWindowDays],
    }),
  },
  // The desk's appointments (issue 21): the services (names, confirmation) and the client appointments
  // of today and after (from two days back, so the studio's "today" is whole in any time zone).
  appointment_services: {},
  client_appointments: {
    scope: () => ({
      sql: `t.ends_at >= now() - make_interval(days => ?)`,
      bindings: [APPOINTMENTS_BACK_DAYS],
    }),
  },
};

/** How far back the station's copy of client appointments reaches (days before now). */
export const APPOINTMENTS_BACK_DAYS = 2;

/** The synced tables that exist in this database (client_visits arrives with the bookings module). */
let present: Promise<Set<SyncedTable>> | undefined;
export function presentTables(db: Db): Promise<Set<SyncedTable>> {
  present ??= (async () => {
    const rows: { rows: Array<{ name: SyncedTable }> } = await db.raw(
      `select t.name from unnest(?::text[]) as t(name) where to_regclass(t.name) is not null`,
      [SYNCED_TABLES as unknown as string[]],
    );
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

/**
 * The row as JSON text: rows leave the database as JSON text, not parsed and re-encoded. With nothing
 * omitted, `row_to_json` (text built directly, columns in table order) — about half the cost of
 * `to_jsonb(t)::text` (a binary jsonb first, then printed), which dominated a bootstrap page's query
 * (tests/bench/bootstrap.bench.ts). Same keys and values either way; only the spacing and key order of
 * the text differ, and the station parses it.
 */
export function rowJson(table: SyncedTable, alias = 't'): string {
  const omit = TABLE_SPECS[table].omit ?? [];
  if (omit.length === 0) return `row_to_json(${alias})::text`;
  return `(to_jsonb(${alias})${omit.map((c) => ` - '${c}'`).join('')})::text`;
}

export function scopeCondition(
  table: SyncedTable,
  scope: DeviceScope,
): { sql: string; bindings: Knex.Value[] } {
  return TABLE_SPECS[table].scope?.(scope) ?? { sql: 'true', bindings: [] };
}
