import type { Knex } from 'knex';

/**
 * The entry application: the studio's kiosk devices (kiosk sign-in answers a kiosk's guid) and the
 * script errors the web apps report (log/post). The kiosk issue extends studio_kiosks additively.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_kiosks', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    /** The kiosk the studio's kiosk key signs in to; one per studio. */
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id']);
  });
  await knex.raw(
    'create unique index studio_kiosks_one_default on studio_kiosks (studio_id) where is_default',
  );

  // Append-only: no updated_at. Not studio-scoped: a script error may come from the entry app.
  await knex.schema.createTable('client_error_logs', (t) => {
    t.uuid('id').primary();
    t.string('level', 16).notNullable();
    t.integer('channel').notNullable();
    t.string('message', 2000).notNullable();
    t.text('stack').nullable();
    t.string('version', 64).nullable();
    t.string('user_agent', 300).nullable();
    t.string('ip', 64).nullable();
    t.uuid('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_error_logs');
  await knex.schema.dropTableIfExists('studio_kiosks');
}
