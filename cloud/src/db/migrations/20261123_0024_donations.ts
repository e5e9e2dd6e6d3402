import type { Knex } from 'knex';

/**
 * Donations (spec §2 `/{uuid}/donation`, §7 `donation/init`, `donation/checkout`): who gave and what
 * they wrote. The money is an ordinary client order (source `donation`, one `donation` line) paid
 * online, so payments, refunds and chargebacks work as for any order; this row holds only what an
 * order has no place for. A donor need not have an account (`client_id` null on the order).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('donations', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('order_id').notNullable().unique().references('client_orders.id').onDelete('CASCADE');
    t.string('donor_name', 200).notNullable().defaultTo('');
    t.string('donor_email', 254).notNullable();
    t.string('message', 500).notNullable().defaultTo('');
    // The donor asked not to be named to the studio's public (staff still see who gave).
    t.boolean('anonymous').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('donations');
}
