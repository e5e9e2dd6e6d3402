import type { Knex } from 'knex';

/**
 * Contracts as entitlements, and contracts bought online:
 * - `client_contracts.service_types` / `restrictions`: what the contract covered when it was sold (a
 *   snapshot like the price: editing the contract later does not change what clients bought); rows
 *   sold before this migration take the contract's current coverage;
 * - `client_visits.payment = 'contract'` with `client_contract_id`: a visit the client's membership
 *   pays for (no pass entry used);
 * - one order may now pay several instalments (an online purchase's checkout pays the sign-up fee and
 *   the first period together), so the unique index on `client_contract_instalments.order_id`
 *   becomes a plain one. Instalment orders of the job stay one per instalment (the order factory is
 *   idempotent per instalment id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_contracts', (t) => {
    t.jsonb('service_types').nullable();
    t.jsonb('restrictions').nullable();
  });
  await knex.raw(`
    update client_contracts cc
       set service_types = c.service_types, restrictions = c.restrictions
      from contracts c
     where c.id = cc.contract_id`);

  await knex.schema.alterTable('client_visits', (t) => {
    t.uuid('client_contract_id').nullable().references('client_contracts.id').onDelete('SET NULL');
    t.index(['client_contract_id']);
  });
  await knex.raw('alter table client_visits drop constraint client_visits_payment_check');
  await knex.raw(
    `alter table client_visits add constraint client_visits_payment_check check (payment in ('pass', 'contract', 'free', 'desk'))`,
  );

  await knex.raw('drop index if exists client_contract_instalments_order_id');
  await knex.raw(
    'create index client_contract_instalments_order_id on client_contract_instalments (order_id) where order_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists client_contract_instalments_order_id');
  await knex.raw(
    'create unique index client_contract_instalments_order_id on client_contract_instalments (order_id) where order_id is not null',
  );
  await knex.raw(`update client_visits set payment = 'free' where payment = 'contract'`);
  await knex.raw('alter table client_visits drop constraint client_visits_payment_check');
  await knex.raw(
    `alter table client_visits add constraint client_visits_payment_check check (payment in ('pass', 'free', 'desk'))`,
  );
  await knex.schema.alterTable('client_visits', (t) => {
    t.dropColumn('client_contract_id');
  });
  await knex.schema.alterTable('client_contracts', (t) => {
    t.dropColumn('service_types');
    t.dropColumn('restrictions');
  });
}
