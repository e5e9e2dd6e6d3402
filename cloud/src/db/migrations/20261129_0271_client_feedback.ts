import type { Knex } from 'knex';

/** Issue 25: what clients tell the studio from the front office (POST feedback), for its staff. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('client_feedback', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.smallint('rating').nullable();
    t.text('message').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });
  await knex.raw(
    `alter table client_feedback add constraint client_feedback_rating check (rating is null or rating between 1 and 5)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_feedback');
}
