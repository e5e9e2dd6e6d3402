import type { Knex } from 'knex';

/**
 * The studio's data export (issue 20): a manager asks for all of the studio's data, a background job
 * writes it as CSV files in one zip, and the manager downloads it when it is ready.
 *
 * - `studio_data_exports`: one request, its progress (0–100) and outcome.
 * - `studio_data_export_chunks`: the zip itself, in pieces of about 1 MB written as the job goes and
 *   streamed out in order on download. In the database rather than on one instance's disk, so any
 *   instance serves the download; removed with the export.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_data_exports', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('id').inTable('studios').onDelete('CASCADE');
    t.uuid('requested_by').notNullable().references('id').inTable('users');
    t.string('status', 16).notNullable().defaultTo('queued');
    t.integer('progress').notNullable().defaultTo(0);
    t.bigInteger('size').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['studio_id', 'created_at']);
  });
  await knex.raw(
    "alter table studio_data_exports add constraint studio_data_exports_status check (status in ('queued', 'running', 'ready', 'failed'))",
  );
  await knex.schema.createTable('studio_data_export_chunks', (t) => {
    t.uuid('studio_id').notNullable();
    t.uuid('export_id').notNullable().references('id').inTable('studio_data_exports').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.binary('data').notNullable();
    t.primary(['studio_id', 'export_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('studio_data_export_chunks');
  await knex.schema.dropTableIfExists('studio_data_exports');
}
