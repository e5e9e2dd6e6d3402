import type { Knex } from 'knex';

/**
 * Kiosk mode (modules/kiosk): more than one kiosk per studio with its own key and settings, the
 * studio's smart locks, kiosk sessions (a device signed in with a kiosk key, allowed kiosk calls
 * only) and the log of what each kiosk did (check-ins, bookings, entries, door openings).
 *
 * - `studio_kiosks` (entry module, 0003) gains columns additively. The default kiosk keeps signing in
 *   with the studio's `kiosk_key` (the entry app's `/kiosk`), so its own `kiosk_key` stays null;
 *   every other kiosk has its own key.
 * - Kiosk session tokens are stored as SHA-256 digests only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_smart_locks', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('driver', 20).notNullable();
    /** Driver settings: for `httpRelay` { url, method, secret, openSeconds }. */
    t.jsonb('config').notNullable().defaultTo('{}');
    t.timestamp('last_tested_at', { useTz: true }).nullable();
    t.boolean('last_test_ok').nullable();
    t.string('last_test_message', 300).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id']);
  });
  await knex.raw(
    `alter table studio_smart_locks add constraint studio_smart_locks_driver check (driver in ('httpRelay'))`,
  );

  await knex.schema.alterTable('studio_kiosks', (t) => {
    t.string('kiosk_key', 64).nullable();
    t.uuid('location_id').nullable().references('locations.id').onDelete('SET NULL');
    t.uuid('smart_lock_id').nullable().references('studio_smart_locks.id').onDelete('SET NULL');
    /** { checkInMethods: ('card'|'qr'|'name')[], printTicket: boolean, idleSeconds: number } */
    t.jsonb('settings').notNullable().defaultTo('{}');
  });

  // Every studio has its default kiosk (entry's studio/create makes it; older studios get it here).
  await knex.raw(
    `insert into studio_kiosks (id, studio_id, name, is_default)
     select gen_random_uuid(), s.id, 'Kiosk', true from studios s
     where not exists (select 1 from studio_kiosks k where k.studio_id = s.id and k.is_default)`,
  );

  await knex.schema.createTable('kiosk_sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('kiosk_id').notNullable().references('studio_kiosks.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('user_agent', 300).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.index(['kiosk_id']);
  });

  // Append-only: what a kiosk did for whom (the desk's "who came in" list, the door's audit).
  await knex.schema.createTable('kiosk_check_ins', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('kiosk_id').notNullable().references('studio_kiosks.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.uuid('client_visit_id').nullable().references('client_visits.id').onDelete('SET NULL');
    t.uuid('client_pricing_option_id').nullable();
    t.string('lock_result', 10).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
    t.index(['client_id']);
  });
  await knex.raw(
    `alter table kiosk_check_ins add constraint kiosk_check_ins_kind check (kind in ('visit', 'booking', 'entry'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('kiosk_check_ins');
  await knex.schema.dropTableIfExists('kiosk_sessions');
  await knex.schema.alterTable('studio_kiosks', (t) => {
    t.dropColumn('settings');
    t.dropColumn('smart_lock_id');
    t.dropColumn('location_id');
    t.dropColumn('kiosk_key');
  });
  await knex.schema.dropTableIfExists('studio_smart_locks');
}
