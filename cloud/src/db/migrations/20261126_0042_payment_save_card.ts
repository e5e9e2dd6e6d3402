import type { Knex } from 'knex';

/**
 * An online payment is started in two steps (sales `online-payments.ts`): the pending payment is
 * committed first, the provider is called after the commit. `save_card` carries the payer's "keep my
 * card" choice from the first step to the second.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_payments', (t) => {
    t.boolean('save_card').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_payments', (t) => {
    t.dropColumn('save_card');
  });
}
