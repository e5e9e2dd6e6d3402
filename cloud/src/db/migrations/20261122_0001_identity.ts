import type { Knex } from 'knex';

/** Users, studios, memberships, sessions, password-reset tokens. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary();
    t.string('email', 254).notNullable();
    t.string('password_hash', 200).nullable();
    t.string('first_name', 100).notNullable().defaultTo('');
    t.string('last_name', 100).notNullable().defaultTo('');
    t.string('phone', 40).nullable();
    t.string('locale', 5).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index users_email_lower_unique on users (lower(email))');

  await knex.schema.createTable('studios', (t) => {
    t.uuid('id').primary();
    t.string('name', 200).notNullable();
    t.string('slug', 120).notNullable().unique();
    t.string('currency', 3).notNullable().defaultTo('PLN');
    t.string('default_locale', 5).notNullable().defaultTo('pl');
    t.string('time_zone', 64).notNullable().defaultTo('Europe/Warsaw');
    t.smallint('studio_type').notNullable().defaultTo(0);
    t.string('address_line', 200).notNullable().defaultTo('');
    t.string('postal_code', 20).notNullable().defaultTo('');
    t.string('city', 100).notNullable().defaultTo('');
    t.string('country', 2).notNullable().defaultTo('PL');
    t.string('kiosk_key', 64).notNullable();
    t.string('logo_url', 500).nullable();
    t.jsonb('appearance').notNullable().defaultTo('{}');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index studios_name_lower on studios (lower(name))');

  await knex.schema.createTable('memberships', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('is_client').notNullable().defaultTo(false);
    t.boolean('is_member').notNullable().defaultTo(false);
    t.string('role', 40).nullable();
    t.timestamp('archived_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('csrf_token', 64).notNullable();
    t.string('user_agent', 300).nullable();
    t.string('ip', 64).nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });

  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('studio_id').nullable().references('studios.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['password_reset_tokens', 'sessions', 'memberships', 'studios', 'users']) {
    await knex.schema.dropTableIfExists(table);
  }
}
