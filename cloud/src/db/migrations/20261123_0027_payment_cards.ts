import type { Knex } from 'knex';

/**
 * Saved payment cards (spec §3 "payment card", §7 `me/payment-cards`) and the provider's customer
 * each client is in a studio's provider account. Only what the provider tells us to show (brand,
 * last four digits, expiry) and its references are kept: card numbers never reach this server.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_provider_customers', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.string('customer_ref', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'client_id', 'provider']);
  });

  await knex.schema.createTable('client_payment_cards', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.string('customer_ref', 100).notNullable();
    t.string('method_ref', 100).notNullable();
    t.string('brand', 30).notNullable();
    t.string('last4', 4).notNullable();
    t.smallint('exp_month').notNullable();
    t.smallint('exp_year').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'provider', 'method_ref']);
    t.index(['studio_id', 'client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_payment_cards');
  await knex.schema.dropTableIfExists('payment_provider_customers');
}
