import type { Knex } from 'knex';

/**
 * Issue 25 ("texts in the viewer's language"): an order line kept only the name in the buyer's
 * language at the time of sale, so an English purchase printed "4 entries" on a Polish invoice and a
 * Polish one "Karnet 4 wejść" on an English screen. The line now also keeps the catalogue's name in
 * every language it had (a `LocaleText`); screens resolve it for the viewer, invoices for the
 * invoice's language. Null for lines sold before (and lines with no catalogue name: fees, top-ups):
 * their `name` stays what is shown.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_lines', (t) => {
    t.jsonb('name_texts').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_lines', (t) => {
    t.dropColumn('name_texts');
  });
}
