import type { Knex } from 'knex';

/**
 * A studio's tax rates (spec §7 `tax/collection`), each mapped to one of the fiscal printer's VAT
 * slots A–G. Products and pricing options point at a tax row; a null rate means VAT-exempt ("zw").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('taxes', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // Basis points: 2300 = 23 %. Null: exempt from VAT (a different fiscal meaning than 0 %).
    t.integer('rate_bp').nullable();
    t.string('fiscal_slot', 1).notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id']);
  });
  await knex.raw(
    `alter table taxes add constraint taxes_rate_bp_range check (rate_bp is null or rate_bp between 0 and 10000)`,
  );
  await knex.raw(
    `alter table taxes add constraint taxes_fiscal_slot_letter check (fiscal_slot in ('A','B','C','D','E','F','G'))`,
  );
  // One rate per fiscal slot (the printer holds one rate per letter), one default, names unique.
  await knex.raw(`create unique index taxes_studio_slot_unique on taxes (studio_id, fiscal_slot)`);
  await knex.raw(`create unique index taxes_studio_default_unique on taxes (studio_id) where is_default`);
  await knex.raw(`create unique index taxes_studio_name_unique on taxes (studio_id, lower(name))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('taxes');
}
