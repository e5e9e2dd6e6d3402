import type { Knex } from 'knex';

/**
 * A split payment on the invoice (issue 26): an invoice issued for an order paid in several ways (part
 * cash, part card; wallet and card) keeps each method and amount as paid at issue, `[{ method, amount }]`
 * in minor units, largest first; null when the order was paid one way (or the invoice was typed in).
 * Shown on the invoice's screen and printed on its PDF.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.jsonb('payment_split').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('payment_split');
  });
}
