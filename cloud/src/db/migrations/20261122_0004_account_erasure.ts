import type { Knex } from 'knex';

/**
 * Account erasure: one row per client who erased their account in a studio. It is the studio's proof
 * of when the request was carried out (and whether the person was anonymised everywhere), and it
 * holds no personal data itself: only ids, which point at the anonymised user row when `anonymised`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_erasures', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('erased_at', { useTz: true }).notNullable();
    /** True when the user row itself was anonymised (no live membership left in any studio). */
    t.boolean('anonymised').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'erased_at']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('account_erasures');
}
