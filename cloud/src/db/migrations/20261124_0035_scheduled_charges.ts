import type { Knex } from 'knex';

/**
 * Scheduled orders charged on their day (retail item status "scheduled", `retail_sales.scheduled_for`):
 * `charge_attempted_at` marks a scheduled order the job tried to charge and could not (no card, card
 * declined, wallet too low), so it is tried once, not every run; staff charge it by hand afterwards.
 * The partial index keeps the job's lookup to the scheduled orders not tried yet.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_orders', (t) => {
    t.timestamp('charge_attempted_at', { useTz: true }).nullable();
  });
  await knex.raw(
    'create index client_orders_scheduled_untried on client_orders (studio_id) where status = 7 and charge_attempted_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists client_orders_scheduled_untried');
  await knex.schema.alterTable('client_orders', (t) => {
    t.dropColumn('charge_attempted_at');
  });
}
