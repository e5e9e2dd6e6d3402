/**
 * Tables the cloud streams to stations (snake_case rows as stored). Adding one is one line here and
 * one line in cloud/src/sync/tables.ts (what to omit, the scope filter), plus a migration that
 * attaches the changefeed trigger (`attachChangefeed(knex, '<table>')`).
 */
export const SYNCED_TABLES = [
  'clients',
  'tags',
  'user_tags',
  'taxes',
  'pricing_option_categories',
  'pricing_options',
  'client_pricing_options',
  'product_categories',
  'products',
  'locations',
  'location_rooms',
  'class_service_categories',
  'class_services',
  'schedule_events',
  'client_visits',
  'client_identities',
  'client_pricing_option_shares',
  'entry_services',
  'client_entries',
  'appointment_services',
  'client_appointments',
] as const;
export type SyncedTable = (typeof SYNCED_TABLES)[number];

export function isSyncedTable(name: string): name is SyncedTable {
  return (SYNCED_TABLES as readonly string[]).includes(name);
}
