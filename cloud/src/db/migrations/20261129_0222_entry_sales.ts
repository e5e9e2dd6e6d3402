import type { Knex } from 'knex';

/**
 * Selling an entry at the desk (issue 22): an entry service may have a price for a single entry (a day
 * ticket; minor units, with the VAT rate order lines write; null = not sold on its own). The desk
 * sells it and lets the client in in one go: the order (one `entry` line, paid at the desk) and the
 * `client_entries` row, which keeps the order it was paid by.
 */
async function addToCheck(knex: Knex, table: string, constraint: string, column: string, value: string) {
  const rows: { rows: Array<{ def: string }> } = await knex.raw(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conname = ?`,
    [constraint],
  );
  const values = [...(rows.rows[0]?.def ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  if (values.includes(value)) return;
  values.push(value);
  await knex.raw(`alter table ${table} drop constraint if exists ${constraint}`);
  await knex.raw(
    `alter table ${table} add constraint ${constraint} check (${column} in (${values.map((v) => `'${v}'`).join(', ')}))`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('entry_services', (t) => {
    t.integer('price').nullable();
    t.text('vat_rate').notNullable().defaultTo('2300');
  });
  await knex.raw(
    `alter table entry_services add constraint entry_services_price check (price is null or price >= 0)`,
  );
  await knex.schema.alterTable('client_entries', (t) => {
    t.uuid('order_id').nullable().references('client_orders.id').onDelete('SET NULL');
  });
  await addToCheck(knex, 'client_order_lines', 'client_order_lines_kind', 'kind', 'entry');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_entries', (t) => t.dropColumn('order_id'));
  await knex.raw('alter table entry_services drop constraint if exists entry_services_price');
  await knex.schema.alterTable('entry_services', (t) => {
    t.dropColumn('price');
    t.dropColumn('vat_rate');
  });
}
