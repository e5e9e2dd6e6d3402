import type { Knex } from 'knex';

/**
 * Sales: client orders with their lines, payments, refunds, the client wallet, checkout idempotency,
 * shopping carts, payment-provider settings and the built-in test provider's simulated bank.
 *
 * - An order is unique per (studio, source, source id) when a source id is given, so a contract
 *   instalment or a cart checkout creates its order once however often it is retried.
 * - A wallet balance is the sum of `client_wallet_payments.amount` (top-ups positive, payments
 *   negative): a fact table, never a stored counter. A wallet payment takes the client's membership
 *   row lock before it sums, so two payments at once cannot take the balance below zero.
 * - Payments, refunds and provider notifications are unique per provider reference, so a repeated
 *   asynchronous notification is recognised and applied once.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('client_orders', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('source', 30).notNullable();
    t.string('source_id', 100).nullable();
    // Spec §3 order status 0..14.
    t.smallint('status').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable();
    // Σ line totals, then minus the voucher discount: what the client owes.
    t.integer('subtotal').notNullable().defaultTo(0);
    t.integer('discount').notNullable().defaultTo(0);
    t.integer('total').notNullable().defaultTo(0);
    t.uuid('voucher_redemption_id').nullable().references('voucher_redemptions.id').onDelete('SET NULL');
    t.boolean('payment_reminder').notNullable().defaultTo(false);
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('note', 500).notNullable().defaultTo('');
    timestamps(t);
    t.index(['studio_id', 'client_id', 'created_at']);
    t.index(['studio_id', 'status']);
  });
  await knex.raw(`
    alter table client_orders
      add constraint client_orders_status check (status between 0 and 14),
      add constraint client_orders_source check (source in
        ('contract_instalment', 'desk', 'online', 'visit', 'top_up', 'donation')),
      add constraint client_orders_amounts check (subtotal >= 0 and discount >= 0 and total = subtotal - discount and total >= 0)`);
  await knex.raw(
    'create unique index client_orders_source on client_orders (studio_id, source, source_id) where source_id is not null',
  );
  // Lists: newest first, keyset on the UUIDv7 id.
  await knex.raw('create index client_orders_newest on client_orders (studio_id, id desc)');

  await knex.schema.createTable('client_order_lines', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('order_id').notNullable().references('client_orders.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('kind', 30).notNullable();
    t.string('ref_id', 100).nullable();
    t.string('name', 300).notNullable();
    t.integer('quantity').notNullable();
    t.integer('unit_price').notNullable();
    // Basis points as text ('2300') or 'exempt'.
    t.string('vat_rate', 10).notNullable();
    t.integer('total').notNullable();
    // What fulfilling the line created (a client pass, a wallet top-up) and when.
    t.uuid('fulfilled_ref_id').nullable();
    t.timestamp('fulfilled_at', { useTz: true }).nullable();
    t.unique(['order_id', 'position']);
    t.index(['studio_id', 'kind', 'ref_id']);
  });
  await knex.raw(`
    alter table client_order_lines
      add constraint client_order_lines_kind check (kind in
        ('pass', 'contract_instalment', 'product', 'visit', 'top_up', 'donation', 'fee')),
      add constraint client_order_lines_quantity check (quantity > 0),
      add constraint client_order_lines_total check (total = quantity * unit_price)`);

  await knex.schema.createTable('client_order_payments', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('order_id').notNullable().references('client_orders.id').onDelete('CASCADE');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    // Spec §3 payment method.
    t.smallint('method').notNullable();
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    // pending → succeeded | failed | cancelled; succeeded → chargeback.
    t.string('status', 12).notNullable();
    t.string('provider', 30).nullable();
    t.string('provider_ref', 100).nullable();
    t.text('redirect_url').nullable();
    t.text('return_url').nullable();
    t.string('failure_reason', 200).nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('settled_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['order_id']);
    t.index(['studio_id', 'client_id']);
  });
  await knex.raw(`
    alter table client_order_payments
      add constraint client_order_payments_amount check (amount > 0),
      add constraint client_order_payments_status check (status in
        ('pending', 'succeeded', 'failed', 'cancelled', 'chargeback'))`);
  await knex.raw(
    'create unique index client_order_payments_provider_ref on client_order_payments (provider, provider_ref) where provider_ref is not null',
  );

  await knex.schema.createTable('client_order_refunds', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('order_id').notNullable().references('client_orders.id').onDelete('CASCADE');
    t.uuid('payment_id').notNullable().references('client_order_payments.id').onDelete('CASCADE');
    t.integer('amount').notNullable();
    // Spec §3 client order refund status and refund error.
    t.string('status', 12).notNullable();
    t.string('error', 30).nullable();
    t.string('reason', 500).notNullable().defaultTo('');
    t.string('provider_ref', 100).nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['order_id']);
    t.index(['payment_id']);
  });
  await knex.raw(`
    alter table client_order_refunds
      add constraint client_order_refunds_amount check (amount > 0),
      add constraint client_order_refunds_status check (status in
        ('awaiting', 'pending', 'success', 'failed', 'cancelled')),
      add constraint client_order_refunds_error check (error is null or error in
        ('transactionNotFound', 'cannotRefund', 'exceededAmount', 'insufficientFunds', 'unknown'))`);

  await knex.schema.createTable('client_wallet_payments', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    // Signed: a top-up or a refund to the wallet adds, a payment from it takes.
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('kind', 12).notNullable();
    t.uuid('order_id').nullable().references('client_orders.id').onDelete('SET NULL');
    t.uuid('payment_id').nullable().references('client_order_payments.id').onDelete('SET NULL');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'client_id', 'created_at']);
  });
  await knex.raw(`
    alter table client_wallet_payments
      add constraint client_wallet_payments_amount check (amount <> 0),
      add constraint client_wallet_payments_kind check (kind in ('top_up', 'payment', 'refund', 'chargeback'))`);
  // A top-up line credits the wallet once, however often its order is settled.
  await knex.raw(
    `create unique index client_wallet_payments_once on client_wallet_payments (payment_id, kind) where payment_id is not null`,
  );

  await knex.schema.createTable('checkout_requests', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('idempotency_key', 100).notNullable();
    t.string('request_hash', 64).notNullable();
    t.integer('response_status').nullable();
    t.jsonb('response_body').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['studio_id', 'user_id', 'idempotency_key']);
  });

  await knex.schema.createTable('shopping_carts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.jsonb('items').notNullable().defaultTo('[]');
    t.string('voucher_code', 32).nullable();
    timestamps(t);
    t.unique(['studio_id', 'client_id']);
  });

  await knex.schema.createTable('studio_payment_providers', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.jsonb('settings').notNullable().defaultTo('{}');
    timestamps(t);
    t.unique(['studio_id', 'provider']);
  });

  await knex.schema.createTable('payment_notifications', (t) => {
    t.uuid('id').primary();
    t.string('provider', 30).notNullable();
    t.string('event_id', 100).notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'event_id']);
  });

  // The test provider's side of the world: what its "bank" knows about each transaction.
  await knex.schema.createTable('test_provider_transactions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('payment_id').notNullable();
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('status', 12).notNullable();
    t.integer('refunded').notNullable().defaultTo(0);
    t.text('return_url').notNullable();
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'test_provider_transactions',
    'payment_notifications',
    'studio_payment_providers',
    'shopping_carts',
    'checkout_requests',
    'client_wallet_payments',
    'client_order_refunds',
    'client_order_payments',
    'client_order_lines',
    'client_orders',
  ])
    await knex.schema.dropTableIfExists(table);
}
