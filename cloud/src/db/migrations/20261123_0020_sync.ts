import type { Knex } from 'knex';

/**
 * Offline sync (docs/offline-sync.md): the changefeed, devices and their tokens, the push log with
 * stored outcomes, failures and quarantine, flags for the desk, and the audit of client field changes.
 *
 * The changefeed is `sync_change(studio_id, table_name, row_id, xid)`, filled by statement-level
 * triggers with transition tables on every synced table (one set-based insert per statement, however
 * many rows; knex, raw SQL, other triggers and migrations are all seen). `xid` is the writing
 * transaction's 64-bit id; pulls compare it with PostgreSQL snapshots, never with a sequence.
 */
const CHANGEFEED_TABLES = [
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
  // Arrives with the bookings module; attached here when its migration ran first, else by that
  // module's migration calling attachChangefeed().
  'client_visits',
];

/**
 * Attaches the changefeed triggers to a table with `id` and `studio_id` columns. Later migrations
 * that add a synced table call this (and add one line to the table registries).
 */
export async function attachChangefeed(knex: Knex, table: string): Promise<void> {
  for (const [op, ref] of [
    ['insert', 'new table as new_rows'],
    ['update', 'new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await knex.raw(`drop trigger if exists ${table}_sync_${op} on ${table}`);
    await knex.raw(`
      create trigger ${table}_sync_${op} after ${op} on ${table}
      referencing ${ref} for each statement execute function sync_capture()`);
  }
}

export async function detachChangefeed(knex: Knex, table: string): Promise<void> {
  for (const op of ['insert', 'update', 'delete'])
    await knex.raw(`drop trigger if exists ${table}_sync_${op} on ${table}`);
}

export async function up(knex: Knex): Promise<void> {
  // One row: the epoch every cursor carries (a new one invalidates every device's cursor) and the
  // pruning floor (cursors whose xmin is below it lost history: they get 409 reset).
  await knex.raw(`
    create table sync_meta (
      id smallint primary key default 1 check (id = 1),
      epoch text not null,
      floor_xid xid8 not null default '0',
      pruned_at timestamptz null
    )`);
  await knex.raw(`insert into sync_meta (epoch) values (gen_random_uuid()::text)`);

  await knex.raw(`
    create table sync_change (
      studio_id uuid not null,
      table_name text not null,
      row_id uuid not null,
      xid xid8 not null default pg_current_xact_id(),
      at timestamptz not null default now()
    )`);
  // Pulls read one studio's changes from a cursor's xmin on; pruning walks by xid.
  await knex.raw('create index sync_change_studio_xid on sync_change (studio_id, xid)');
  await knex.raw('create index sync_change_xid on sync_change (xid)');

  // Identical notifications in one transaction are folded into one by PostgreSQL.
  await knex.raw(`
    create function sync_capture() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        insert into sync_change (studio_id, table_name, row_id)
          select distinct o.studio_id, tg_table_name, o.id from old_rows o;
        perform pg_notify('sync_poke', s.studio_id::text) from (select distinct studio_id from old_rows) s;
      else
        insert into sync_change (studio_id, table_name, row_id)
          select distinct n.studio_id, tg_table_name, n.id from new_rows n;
        perform pg_notify('sync_poke', s.studio_id::text) from (select distinct studio_id from new_rows) s;
      end if;
      return null;
    end $$`);
  for (const table of CHANGEFEED_TABLES) {
    const exists = await knex.raw('select to_regclass(?) is not null as ok', [table]);
    if (exists.rows[0]?.ok) await attachChangefeed(knex, table);
  }

  await knex.schema.createTable('sync_devices', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('token_hash', 64).notNullable();
    t.uuid('registered_by').nullable().references('users.id').onDelete('SET NULL');
    t.jsonb('scope').notNullable();
    t.timestamp('last_seen_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id']);
  });

  // The push lock: one row per device, locked FOR UPDATE by every mutation it pushes.
  await knex.schema.createTable('sync_clients', (t) => {
    t.uuid('device_id').primary().references('sync_devices.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.bigInteger('last_seq').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Every mutation the server ran, with the outcome it answered (replays answer it again).
  await knex.schema.createTable('sync_mutations', (t) => {
    t.uuid('id').primary();
    t.uuid('device_id').notNullable().references('sync_devices.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.bigInteger('seq').notNullable();
    t.string('name', 60).notNullable();
    t.integer('version').notNullable();
    t.jsonb('args').notNullable();
    t.uuid('actor_id').nullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.jsonb('outcome').notNullable();
    t.unique(['device_id', 'seq']);
  });

  await knex.schema.createTable('sync_failures', (t) => {
    t.uuid('mutation_id').primary();
    t.uuid('device_id').notNullable().references('sync_devices.id').onDelete('CASCADE');
    t.integer('failures').notNullable().defaultTo(0);
    t.text('last_error').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Payloads whose handler kept failing: facts are kept here for a person, the queue moves on.
  await knex.schema.createTable('sync_quarantine', (t) => {
    t.uuid('mutation_id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('device_id').notNullable().references('sync_devices.id').onDelete('CASCADE');
    t.bigInteger('seq').notNullable();
    t.string('name', 60).notNullable();
    t.integer('version').notNullable();
    t.jsonb('args').notNullable();
    t.text('error').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('resolved_at', { useTz: true }).nullable();
    t.index(['studio_id', 'created_at']);
  });

  // Things a synced command left for the desk to look at (possible duplicates, uncovered visits...).
  await knex.schema.createTable('sync_flags', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('device_id').nullable().references('sync_devices.id').onDelete('SET NULL');
    t.uuid('mutation_id').nullable();
    t.string('kind', 40).notNullable();
    t.string('subject_table', 60).notNullable();
    t.uuid('subject_id').notNullable();
    t.jsonb('details').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('resolved_at', { useTz: true }).nullable();
    t.index(['studio_id', 'created_at']);
  });

  // The audit of updateClient (last writer wins per field, in server receipt order).
  await knex.schema.createTable('client_field_changes', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('field', 40).notNullable();
    t.jsonb('old_value').nullable();
    t.jsonb('new_value').nullable();
    t.uuid('mutation_id').nullable();
    t.uuid('device_id').nullable().references('sync_devices.id').onDelete('SET NULL');
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of CHANGEFEED_TABLES) {
    const exists = await knex.raw('select to_regclass(?) is not null as ok', [table]);
    if (exists.rows[0]?.ok) await detachChangefeed(knex, table);
  }
  for (const table of [
    'client_field_changes',
    'sync_flags',
    'sync_quarantine',
    'sync_failures',
    'sync_mutations',
    'sync_clients',
    'sync_devices',
  ])
    await knex.schema.dropTableIfExists(table);
  await knex.raw('drop function if exists sync_capture()');
  await knex.raw('drop table if exists sync_change');
  await knex.raw('drop table if exists sync_meta');
}
