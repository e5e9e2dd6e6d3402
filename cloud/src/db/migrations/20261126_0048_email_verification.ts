import type { Knex } from 'knex';

/**
 * Security (issue 28, account pre-hijacking): an account proves that it owns its email address.
 * `users.email_verified_at` is set by a verification link (sent at client sign-up) or a used
 * password-reset / welcome link (it reached the mailbox). Accounts that had a password before this
 * migration keep working as before: they are taken as verified (they signed in for months; we cannot
 * ask every one of them again). Links live in `email_verification_tokens`, bound to the address they
 * were sent to.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('email_verified_at', { useTz: true }).nullable();
  });
  await knex.raw('update users set email_verified_at = created_at where password_hash is not null');
  await knex.schema.createTable('email_verification_tokens', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('studio_id').nullable().references('studios.id').onDelete('CASCADE');
    /** The address the link was sent to: a link for an old address does not verify a new one. */
    t.text('email').notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_verification_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
}
