import type { Knex } from 'knex';

/**
 * Contracts (memberships) and what clients hold of them:
 * - `contracts`: price per period (minor units), period unit and length, duration in periods (null =
 *   open-ended), activation type (spec §3: 0 sale date, 1 first day of the month) with or without a
 *   pro-rata first part, coverage like a pricing option (service types + restrictions), notice in
 *   periods, sign-up fee, tax, sale channels;
 * - `client_contracts`: a sale, with a snapshot of the contract's terms (editing a contract never
 *   changes contracts already sold), its anchor (period 0's first day), entitlement start, end and
 *   termination;
 * - `client_contract_instalments`: the schedule; each row becomes one order when due (`order_id`; no
 *   foreign key because the orders table arrives in a later migration — the order factory is
 *   idempotent per instalment id and a unique index holds one order per instalment);
 * - `client_contract_suspensions`: days without entitlement while billing pauses;
 * - `client_contract_events`: the audit trail (sold, terminated, suspended, resumed, instalment ordered).
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('contracts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.integer('price').notNullable();
    t.string('period_unit', 10).notNullable().defaultTo('month');
    t.integer('period_length').notNullable().defaultTo(1);
    t.integer('duration_periods').nullable();
    t.smallint('activation_type').notNullable().defaultTo(0);
    t.boolean('pro_rata').notNullable().defaultTo(false);
    t.jsonb('service_types')
      .notNullable()
      .defaultTo(JSON.stringify(['classroomPricingOption']));
    // { classServiceIds, locationIds, timeWindows: [{ weekdays, fromMinutes, toMinutes }], tagIds }
    t.jsonb('restrictions').notNullable().defaultTo('{}');
    t.integer('notice_periods').notNullable().defaultTo(1);
    t.integer('sign_up_fee').notNullable().defaultTo(0);
    t.uuid('tax_id').nullable().references('taxes.id').onDelete('RESTRICT');
    t.boolean('sell_at_desk').notNullable().defaultTo(true);
    t.boolean('sell_online').notNullable().defaultTo(true);
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('archived_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id', 'position']);
  });
  await knex.raw(`
    alter table contracts
      add constraint contracts_period_unit check (period_unit in ('week', 'month')),
      add constraint contracts_amounts check (price >= 0 and sign_up_fee >= 0),
      add constraint contracts_counts check (period_length >= 1 and (duration_periods is null or duration_periods >= 1) and notice_periods >= 0),
      add constraint contracts_activation_type check (activation_type in (0, 1))`);

  await knex.schema.createTable('client_contracts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('contract_id').notNullable().references('contracts.id').onDelete('RESTRICT');
    t.string('channel', 10).notNullable().defaultTo('desk');
    t.timestamp('sold_at', { useTz: true }).notNullable();
    t.uuid('sold_by').nullable().references('users.id').onDelete('SET NULL');
    // Snapshot of the contract's terms at sale.
    t.jsonb('name').notNullable();
    t.integer('price').notNullable();
    t.string('period_unit', 10).notNullable();
    t.integer('period_length').notNullable();
    t.integer('duration_periods').nullable();
    t.smallint('activation_type').notNullable();
    t.boolean('pro_rata').notNullable();
    t.integer('notice_periods').notNullable();
    t.integer('sign_up_fee').notNullable();
    t.integer('tax_rate_bp').nullable();
    t.string('currency', 3).notNullable();
    // The schedule: period 0 starts on the anchor; the client is entitled from `entitled_from`.
    t.date('anchor_on').notNullable();
    t.date('entitled_from').notNullable();
    // Last day: a fixed duration's end (moved by suspensions), or the end after termination.
    t.date('ends_on').nullable();
    t.timestamp('terminated_at', { useTz: true }).nullable();
    t.uuid('terminated_by').nullable().references('users.id').onDelete('SET NULL');
    t.date('termination_requested_on').nullable();
    timestamps(t);
    t.index(['studio_id', 'client_id']);
    t.index(['studio_id', 'contract_id']);
  });
  await knex.raw(
    `alter table client_contracts add constraint client_contracts_channel check (channel in ('desk', 'online', 'api'))`,
  );

  await knex.schema.createTable('client_contract_instalments', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_contract_id').notNullable().references('client_contracts.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.integer('period_index').nullable();
    t.date('period_starts_on').nullable();
    t.date('period_ends_on').nullable();
    t.date('due_on').notNullable();
    t.integer('amount').notNullable();
    t.string('status', 10).notNullable().defaultTo('scheduled');
    t.uuid('order_id').nullable();
    timestamps(t);
    t.index(['studio_id', 'client_contract_id', 'due_on']);
  });
  await knex.raw(`
    alter table client_contract_instalments
      add constraint client_contract_instalments_kind check (kind in ('signUpFee', 'proRata', 'period')),
      add constraint client_contract_instalments_status check (status in ('scheduled', 'due', 'ordered', 'paid', 'suspended', 'cancelled')),
      add constraint client_contract_instalments_amount check (amount >= 0),
      add constraint client_contract_instalments_order check ((order_id is null) = (status in ('scheduled', 'due', 'suspended', 'cancelled')))`);
  // One row per period of a contract; the job finds what is due without scanning every studio.
  await knex.raw(
    `create unique index client_contract_instalments_period on client_contract_instalments (client_contract_id, period_index) where kind = 'period'`,
  );
  await knex.raw(
    `create index client_contract_instalments_due on client_contract_instalments (due_on) where status in ('scheduled', 'due')`,
  );
  await knex.raw(
    'create unique index client_contract_instalments_order_id on client_contract_instalments (order_id) where order_id is not null',
  );

  await knex.schema.createTable('client_contract_suspensions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_contract_id').notNullable().references('client_contracts.id').onDelete('CASCADE');
    t.date('starts_on').notNullable();
    // Null while suspended; set on resume (the day before billing starts again).
    t.date('ends_on').nullable();
    t.integer('shift_periods').nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('resumed_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('resumed_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id', 'client_contract_id']);
  });
  // At most one open suspension per contract.
  await knex.raw(
    'create unique index client_contract_suspensions_open on client_contract_suspensions (client_contract_id) where ends_on is null',
  );

  await knex.schema.createTable('client_contract_events', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_contract_id').notNullable().references('client_contracts.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.string('note', 500).notNullable().defaultTo('');
    // Null for the scheduled job and API-key calls.
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('via', 10).notNullable().defaultTo('staff');
    timestamps(t);
    t.index(['studio_id', 'client_contract_id', 'created_at']);
  });
  await knex.raw(
    `alter table client_contract_events add constraint client_contract_events_kind check (kind in ('sold', 'terminated', 'suspended', 'resumed', 'instalmentOrdered', 'scheduleExtended'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_contract_events');
  await knex.schema.dropTableIfExists('client_contract_suspensions');
  await knex.schema.dropTableIfExists('client_contract_instalments');
  await knex.schema.dropTableIfExists('client_contracts');
  await knex.schema.dropTableIfExists('contracts');
}
