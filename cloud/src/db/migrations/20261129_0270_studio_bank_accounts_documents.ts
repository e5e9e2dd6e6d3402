import type { Knex } from 'knex';

/**
 * Issue 25: the studio's bank accounts (IBAN checked, one default per currency, printed on invoices
 * and shown as transfer instructions) and the studio's documents (files staff keep in the file
 * storage under `studio-documents/<studio>/<id>`; clients may download the published ones).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_bank_accounts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('iban', 34).notNullable();
    t.string('bank_name', 100).notNullable().defaultTo('');
    t.string('currency', 3).notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'iban']);
  });
  await knex.raw(
    `create unique index studio_bank_accounts_default on studio_bank_accounts (studio_id, currency) where is_default`,
  );

  await knex.schema.createTable('studio_documents', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('uploaded_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.string('file_name', 255).notNullable();
    t.string('content_type', 100).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('sha256', 64).notNullable();
    t.timestamp('published_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('studio_documents');
  await knex.schema.dropTableIfExists('studio_bank_accounts');
}
