import type { Knex } from 'knex';

/**
 * Resumable uploads across instances (issue 22): the tus lock of an upload is a lease in the database,
 * so a PATCH that reaches another instance waits for (or takes over after the lease of) the one
 * still writing — no sticky sessions. `holder` is the lock's own id; `expires_at` is renewed while the
 * upload is written, so a crashed instance's lock lapses by itself.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('video_upload_locks', (t) => {
    t.text('id').primary();
    t.uuid('holder').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('video_upload_locks');
}
