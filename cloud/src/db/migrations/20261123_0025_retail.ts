import type { Knex } from 'knex';

/**
 * Retail (the back-office point of sale): a desk sale with the orders it created (one per retail
 * item status), and the fiscal receipt each sale's pay-now part needs, with the orders it covers.
 *
 * - A receipt stores its lines, discount and payments exactly as the station is to print them, and
 *   the totals of the shared receipt-totals function (`shared/domain/receipts`), so what is stored
 *   equals what a fiscal printer prints.
 * - Whether a receipt was printed is not stored here: it is the station's fiscal document for the
 *   receipt (`fiscal_documents.sale_id` = the receipt's id), a fact the station reports.
 * - An order is covered by at most one receipt (a receipt printed twice is a legal problem).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('retail_sales', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('station_slug', 64).nullable();
    t.string('note', 500).notNullable().defaultTo('');
    // The day the scheduled items are to be paid.
    t.date('scheduled_for').nullable();
    // What the desk was handed (all payments) and the cash given back.
    t.integer('tendered').notNullable().defaultTo(0);
    t.integer('change').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });
  await knex.raw(
    'alter table retail_sales add constraint retail_sales_amounts check (tendered >= 0 and change >= 0)',
  );

  await knex.schema.createTable('retail_sale_orders', (t) => {
    t.uuid('order_id').primary().references('client_orders.id').onDelete('CASCADE');
    t.uuid('sale_id').notNullable().references('retail_sales.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    // Spec §3 retail item status of the items the order holds.
    t.smallint('item_status').notNullable();
    t.index(['sale_id']);
  });
  await knex.raw(
    'alter table retail_sale_orders add constraint retail_sale_orders_item_status check (item_status between 0 and 3)',
  );

  await knex.schema.createTable('retail_receipts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('sale_id').nullable().references('retail_sales.id').onDelete('SET NULL');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('station_slug', 64).nullable();
    // ReceiptLineInput[] as printed, the receipt-level discount, the fiscal payments and change.
    t.jsonb('lines').notNullable();
    t.integer('discount').notNullable().defaultTo(0);
    t.jsonb('payments').notNullable().defaultTo('[]');
    t.integer('change').notNullable().defaultTo(0);
    // computeReceiptTotals of the lines and discount.
    t.jsonb('totals').notNullable();
    t.integer('subtotal').notNullable();
    t.integer('total').notNullable();
    t.integer('vat').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('print_requests').notNullable().defaultTo(0);
    t.timestamp('last_print_requested_at', { useTz: true }).nullable();
    t.uuid('last_batch_id').nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'alter table retail_receipts add constraint retail_receipts_amounts check (total = subtotal - discount and total >= 0 and vat >= 0 and change >= 0)',
  );
  // Lists: newest first, keyset on the UUIDv7 id.
  await knex.raw('create index retail_receipts_newest on retail_receipts (studio_id, id desc)');

  await knex.schema.createTable('retail_receipt_orders', (t) => {
    t.uuid('order_id').primary().references('client_orders.id').onDelete('CASCADE');
    t.uuid('receipt_id').notNullable().references('retail_receipts.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.index(['receipt_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['retail_receipt_orders', 'retail_receipts', 'retail_sale_orders', 'retail_sales'])
    await knex.schema.dropTableIfExists(table);
}
