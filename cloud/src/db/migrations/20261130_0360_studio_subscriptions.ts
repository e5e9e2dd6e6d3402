import type { Knex } from 'knex';

/**
 * Issue 25, the studio's subscription to the platform (modules/subscription): the studio's plan, its
 * billing periods (each one a purchase for a period identifier, `YYYY-MM`: a renewal of the plan with
 * its add-ons, or add-ons bought within a paid period), their online payments, the platform's invoice
 * numbering, and the e-mail and SMS credits as a ledger of grants (a paid period) and uses (a
 * campaign's sent messages): the balance is their sum.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_subscriptions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE').unique();
    t.string('plan_code', 40).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('studio_subscription_periods', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('subscription_id').notNullable().references('studio_subscriptions.id').onDelete('CASCADE');
    t.string('period', 7).notNullable();
    t.string('kind', 20).notNullable();
    t.string('plan_code', 40).nullable();
    t.date('starts_on').notNullable();
    t.date('ends_on').notNullable();
    t.jsonb('lines').notNullable();
    t.integer('net').notNullable();
    t.integer('vat').notNullable();
    t.integer('total').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('vat_rate').notNullable();
    t.string('status', 20).notNullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.string('invoice_number', 40).nullable();
    t.date('invoice_date').nullable();
    t.jsonb('seller').nullable();
    t.jsonb('buyer').nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'period']);
  });
  await knex.raw(
    `alter table studio_subscription_periods add constraint studio_subscription_periods_kind check (kind in ('renewal', 'addOns'))`,
  );
  await knex.raw(
    `alter table studio_subscription_periods add constraint studio_subscription_periods_status check (status in ('awaiting', 'paid', 'failed', 'cancelled'))`,
  );
  // One paid renewal per period identifier: paying a month twice is refused by the database too.
  await knex.raw(
    `create unique index studio_subscription_periods_paid_renewal on studio_subscription_periods (studio_id, period) where kind = 'renewal' and status = 'paid'`,
  );
  await knex.raw(
    `create unique index studio_subscription_periods_invoice_number on studio_subscription_periods (studio_id, invoice_number) where invoice_number is not null`,
  );
  await knex.schema.createTable('subscription_payments', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('period_id').notNullable().references('studio_subscription_periods.id').onDelete('CASCADE');
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('provider', 20).notNullable();
    t.string('provider_ref', 200).nullable();
    t.jsonb('redirect').nullable();
    t.string('status', 20).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'period_id']);
    t.index(['studio_id', 'provider', 'provider_ref']);
  });
  await knex.schema.createTable('subscription_credit_entries', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('service', 10).notNullable();
    t.integer('amount').notNullable();
    t.string('source_key', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'service', 'source_key']);
  });
  await knex.raw(
    `alter table subscription_credit_entries add constraint subscription_credit_entries_service check (service in ('email', 'sms'))`,
  );
  // The platform's invoice numbers: one gapless sequence per year (the platform is one seller).
  await knex.schema.createTable('platform_invoice_counters', (t) => {
    t.integer('year').primary();
    t.integer('last').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('platform_invoice_counters');
  await knex.schema.dropTableIfExists('subscription_credit_entries');
  await knex.schema.dropTableIfExists('subscription_payments');
  await knex.schema.dropTableIfExists('studio_subscription_periods');
  await knex.schema.dropTableIfExists('studio_subscriptions');
}
