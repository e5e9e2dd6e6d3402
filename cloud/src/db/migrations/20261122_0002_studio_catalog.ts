import type { Knex } from 'knex';

/**
 * The first slice of a studio's content, enough for the demo studio: locations and rooms, class
 * services, schedule events, pricing options and the passes clients hold. The schedule, catalog and
 * sales modules extend these tables with additive migrations.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('locations', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('address_line', 200).notNullable().defaultTo('');
    t.string('postal_code', 20).notNullable().defaultTo('');
    t.string('city', 100).notNullable().defaultTo('');
    timestamps(t);
    t.index(['studio_id']);
  });

  await knex.schema.createTable('location_rooms', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('location_id').notNullable().references('locations.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.integer('capacity').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['studio_id', 'location_id']);
  });

  await knex.schema.createTable('class_services', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.string('service_type', 20).notNullable().defaultTo('classroom');
    t.integer('duration_minutes').notNullable();
    t.string('color', 9).notNullable().defaultTo('#228be6');
    timestamps(t);
    t.index(['studio_id']);
  });

  await knex.schema.createTable('schedule_events', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('class_service_id').notNullable().references('class_services.id').onDelete('CASCADE');
    t.uuid('location_id').notNullable().references('locations.id').onDelete('CASCADE');
    t.uuid('room_id').nullable().references('location_rooms.id').onDelete('SET NULL');
    t.uuid('instructor_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.integer('capacity').notNullable();
    timestamps(t);
    t.index(['studio_id', 'starts_at']);
  });

  await knex.schema.createTable('pricing_options', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.integer('price').notNullable();
    t.integer('tax_rate_bp').notNullable().defaultTo(2300);
    t.integer('entries').nullable();
    t.integer('validity_days').nullable();
    t.smallint('expiration_type').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['studio_id']);
  });

  await knex.schema.createTable('client_pricing_options', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('pricing_option_id').notNullable().references('pricing_options.id').onDelete('RESTRICT');
    t.smallint('status').notNullable().defaultTo(1);
    t.integer('entries').nullable();
    t.timestamp('activated_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id', 'client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'client_pricing_options',
    'pricing_options',
    'schedule_events',
    'class_services',
    'location_rooms',
    'locations',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
