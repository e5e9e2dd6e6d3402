import type { Knex } from 'knex';

/**
 * Sales a station recorded (`recordSale@1`): one row per sale, next to the retail sale it made, so
 * the command can dedupe on the station and the fiscal receipt number as well as on the sale id
 * (a station whose outbox was restored may send a printed receipt again under a new sale id).
 *
 * - `fiscal_receipt_number` is the number the station's printer printed (null: not printed);
 *   unique per device, so the same printed receipt is one sale however often it arrives.
 * - `shift_id` is the station's shift (the POS module's; no foreign key: it may arrive later).
 * - `flags` are what the rules noticed (price changed, archived, negative stock...), also in sync_flags.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sync_sales', (t) => {
    t.uuid('sale_id').primary().references('retail_sales.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('device_id').notNullable().references('sync_devices.id').onDelete('CASCADE');
    t.uuid('mutation_id').notNullable();
    t.uuid('receipt_id').nullable();
    t.string('station_slug', 64).nullable();
    t.integer('fiscal_receipt_number').nullable();
    t.uuid('shift_id').nullable();
    t.jsonb('flags').notNullable().defaultTo('[]');
    t.timestamp('sold_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'sold_at']);
    t.index(['shift_id']);
  });
  await knex.raw(
    'create unique index sync_sales_device_receipt on sync_sales (device_id, fiscal_receipt_number) where fiscal_receipt_number is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sync_sales');
}
