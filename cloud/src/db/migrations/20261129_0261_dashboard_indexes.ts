import type { Knex } from 'knex';

/**
 * Reports (issue 20): the dashboard's indexes.
 *
 * - `clients (studio_id, created_at)`: "new clients today and this month" read a month of one studio's
 *   clients; without it every client of the studio was read (50,000 in `bench:reports`).
 * - `client_orders (studio_id, paid_at) include (status, total)` replaces the 0130 index of the same
 *   columns: revenue today, this month, last month and by day (the dashboard) and the sales by day
 *   (a report) sum `total` of paid orders by `paid_at`, now from the index alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index clients_studio_created_at on clients (studio_id, created_at)');
  await knex.raw(
    'create index client_orders_studio_paid_at_total on client_orders (studio_id, paid_at) include (status, total) where paid_at is not null',
  );
  await knex.raw('drop index if exists client_orders_studio_paid_at');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'create index client_orders_studio_paid_at on client_orders (studio_id, paid_at) where paid_at is not null',
  );
  await knex.raw('drop index if exists client_orders_studio_paid_at_total');
  await knex.raw('drop index if exists clients_studio_created_at');
}
