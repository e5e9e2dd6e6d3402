import type { Knex } from 'knex';

/**
 * Entry services (issue 22): open gym, sauna, climbing wall, a day pass — used by entering, not by
 * booking a class. `client_entries` is the fact of one entry; it spends a pass entry like a visit
 * (the catalog reads both) and counts toward the service's daily limit and capacity at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('entry_services', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.uuid('location_id').nullable().references('locations.id').onDelete('SET NULL');
    /** Entries one client may make per local day; null: no limit. */
    t.integer('max_entries_per_day').nullable();
    /** Clients inside at once; null: no limit. */
    t.integer('capacity').nullable();
    /** How long an entry counts as inside (for the capacity). */
    t.integer('stay_minutes').notNullable().defaultTo(120);
    /** Opening hours as pass time windows (weekdays 0 Sunday … 6, [from, to) minutes); [] = always. */
    t.jsonb('opening_hours').notNullable().defaultTo('[]');
    t.timestamp('archived_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id']);
  });
  await knex.schema.createTable('client_entries', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('entry_service_id').notNullable().references('entry_services.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('entered_at', { useTz: true }).notNullable();
    t.timestamp('leaves_at', { useTz: true }).notNullable();
    t.uuid('client_pricing_option_id')
      .nullable()
      .references('client_pricing_options.id')
      .onDelete('SET NULL');
    /** desk (staff enrolled it) or kiosk. */
    t.text('source').notNullable();
    t.uuid('enrolled_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('kiosk_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'client_id', 'entered_at']);
    t.index(['studio_id', 'entry_service_id', 'entered_at']);
    t.index(['studio_id', 'client_pricing_option_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('client_entries');
  await knex.schema.dropTable('entry_services');
}
