import type { Knex } from 'knex';

/**
 * Products in categories with their stock movements, and vouchers with what they apply to and their
 * redemptions (spec §7 "Payments and catalog" products, "Misc" vouchers, Retail `voucher-redeem`).
 *
 * - Stock is the sum of `product_stock_movements` (audited, never a drifting counter). The service
 *   takes the product's row lock before it adds a movement, so a tracked product cannot go negative.
 * - Barcodes are unique per studio (digits only, check digit validated by the service); SKUs unique
 *   per studio whatever the case; category names too.
 * - Voucher codes are stored upper-cased and unique per studio on upper(code), so a lookup of what a
 *   client typed, in any case, is one index probe.
 * - A redemption carries its `use_number` (1, 2, ... per voucher) under a unique constraint: even
 *   without the row lock the service takes, two redemptions cannot both be use 1 of a single-use
 *   voucher.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('product_categories', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
  });
  await knex.raw(
    'create unique index product_categories_studio_name on product_categories (studio_id, lower(name))',
  );

  await knex.schema.createTable('products', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('category_id').nullable().references('product_categories.id').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.integer('price').notNullable();
    t.uuid('tax_id').notNullable().references('taxes.id').onDelete('RESTRICT');
    t.boolean('track_stock').notNullable().defaultTo(false);
    t.string('barcode', 13).nullable();
    t.string('sku', 64).nullable();
    t.timestamp('archived_at', { useTz: true }).nullable();
    timestamps(t);
    // Lists: by category and name (keyset), and name search.
    t.index(['studio_id', 'category_id']);
    t.index(['tax_id']);
  });
  await knex.raw('alter table products add constraint products_price check (price >= 0)');
  await knex.raw(`alter table products add constraint products_barcode check (barcode ~ '^[0-9]{8,13}$')`);
  await knex.raw(
    'create unique index products_studio_barcode on products (studio_id, barcode) where barcode is not null',
  );
  await knex.raw(
    'create unique index products_studio_sku on products (studio_id, lower(sku)) where sku is not null',
  );
  await knex.raw('create index products_by_name on products (studio_id, lower(name), id)');

  await knex.schema.createTable('product_stock_movements', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.integer('quantity').notNullable();
    t.string('reason', 20).notNullable();
    t.string('note', 500).notNullable().defaultTo('');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['product_id', 'created_at']);
  });
  await knex.raw(
    `alter table product_stock_movements add constraint product_stock_movements_reason
     check (reason in ('initial', 'delivery', 'adjustment', 'loss', 'sale', 'return'))`,
  );

  await knex.schema.createTable('vouchers', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('code', 32).notNullable();
    t.string('description', 500).notNullable().defaultTo('');
    // Spec §3 voucher type: 0 single use, 1 multi use.
    t.smallint('type').notNullable();
    t.string('discount_type', 12).notNullable();
    // Minor units (amount) or basis points (percentage).
    t.integer('value').notNullable();
    t.string('currency', 3).notNullable();
    t.integer('usage_limit_total').nullable();
    t.integer('usage_limit_per_client').nullable();
    // Studio calendar days, inclusive.
    t.date('valid_from').nullable();
    t.date('valid_to').nullable();
    // 'all' or 'selected' (the voucher_targets rows).
    t.string('applies_to', 10).notNullable().defaultTo('all');
    t.timestamp('archived_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id', 'created_at']);
  });
  await knex.raw(`
    alter table vouchers
      add constraint vouchers_type check (type in (0, 1)),
      add constraint vouchers_discount_type check (discount_type in ('amount', 'percentage')),
      add constraint vouchers_value check (value > 0 and (discount_type = 'amount' or value <= 10000)),
      add constraint vouchers_limits check (
        (usage_limit_total is null or usage_limit_total > 0)
        and (usage_limit_per_client is null or usage_limit_per_client > 0)),
      add constraint vouchers_validity check (valid_from is null or valid_to is null or valid_from <= valid_to),
      add constraint vouchers_applies_to check (applies_to in ('all', 'selected'))`);
  await knex.raw('create unique index vouchers_studio_code on vouchers (studio_id, upper(code))');

  await knex.schema.createTable('voucher_targets', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('voucher_id').notNullable().references('vouchers.id').onDelete('CASCADE');
    // 'productCategory' | 'product' | 'pricingOption'; the id is checked by the service (one studio).
    t.string('target_type', 20).notNullable();
    t.uuid('target_id').notNullable();
    t.unique(['voucher_id', 'target_type', 'target_id']);
  });
  await knex.raw(
    `alter table voucher_targets add constraint voucher_targets_type
     check (target_type in ('productCategory', 'product', 'pricingOption'))`,
  );

  await knex.schema.createTable('voucher_redemptions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('voucher_id').notNullable().references('vouchers.id').onDelete('RESTRICT');
    t.integer('use_number').notNullable();
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('redeemed_by').nullable().references('users.id').onDelete('SET NULL');
    t.integer('basket_total').notNullable();
    t.integer('eligible_total').notNullable();
    t.integer('discount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('reference', 100).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['voucher_id', 'use_number']);
    t.index(['voucher_id', 'client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'voucher_redemptions',
    'voucher_targets',
    'vouchers',
    'product_stock_movements',
    'products',
    'product_categories',
  ])
    await knex.schema.dropTableIfExists(table);
}
