import type { Knex } from 'knex';

/**
 * Calls to a payment provider leave the database transaction (issue 18: no outside call while row
 * locks are held): a refund or a saved-card charge is recorded first (refund `awaiting`, payment
 * `pending`), the provider is asked after the commit, and a job asks again if the process died in
 * between. Asking twice must not refund twice: the test bank (like Stripe) remembers the idempotency
 * key of each refund it made and answers a repeated key with the first answer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table test_provider_transactions add column refund_keys jsonb not null default '{}'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table test_provider_transactions drop column refund_keys');
}
