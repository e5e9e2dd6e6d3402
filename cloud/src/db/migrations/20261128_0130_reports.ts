import type { Knex } from 'knex';

/**
 * Management insight (issue 20).
 *
 * - Report indexes: every report reads one studio's rows of one period, so each fact it sums is found
 *   by (studio_id, the instant it is counted at): orders by the moment they were paid, payments by
 *   their settlement, refunds by their creation, visits by the class's start. Without them a month's
 *   report scanned the studio's whole history (EXPLAIN in `reports.int.test.ts`).
 * - `instructor_pay_rates`: what an instructor is paid for teaching, per class service or as the
 *   instructor's default (class_service_id null): per class, per attendee with a minimum, per hour,
 *   or basis points of the class's revenue. One rate per instructor and class service.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index client_orders_studio_paid_at on client_orders (studio_id, paid_at) where paid_at is not null',
  );
  await knex.raw(
    'create index client_order_payments_studio_settled_at on client_order_payments (studio_id, settled_at) where settled_at is not null',
  );
  await knex.raw(
    'create index client_order_refunds_studio_created_at on client_order_refunds (studio_id, created_at)',
  );
  await knex.raw('create index client_visits_studio_starts_at on client_visits (studio_id, starts_at)');
  await knex.raw('create index client_orders_studio_created_at on client_orders (studio_id, created_at)');

  await knex.schema.createTable('instructor_pay_rates', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('id').inTable('studios').onDelete('CASCADE');
    t.uuid('instructor_id').notNullable().references('id').inTable('users');
    t.uuid('class_service_id').nullable().references('id').inTable('class_services').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    t.integer('amount').notNullable();
    t.integer('minimum').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table instructor_pay_rates add constraint instructor_pay_rates_kind check (kind in ('perClass', 'perAttendee', 'perHour', 'revenuePercent'))",
  );
  await knex.raw(
    "create unique index instructor_pay_rates_one on instructor_pay_rates (studio_id, instructor_id, coalesce(class_service_id, '00000000-0000-0000-0000-000000000000'::uuid))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('instructor_pay_rates');
  for (const index of [
    'client_orders_studio_paid_at',
    'client_order_payments_studio_settled_at',
    'client_order_refunds_studio_created_at',
    'client_visits_studio_starts_at',
    'client_orders_studio_created_at',
  ])
    await knex.raw(`drop index if exists ${index}`);
}
