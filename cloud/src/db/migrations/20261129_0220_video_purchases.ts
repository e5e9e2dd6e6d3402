import type { Knex } from 'knex';

/**
 * One-off purchase of a video course (issue 22): a course may have a price (minor units, with its
 * VAT rate as order lines write it); null = not sold on its own. A paid `video` order line records a
 * `client_video_purchases` row, which opens the course to the client for good.
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
  await knex.schema.alterTable('video_services', (t) => {
    t.integer('price').nullable();
    t.text('vat_rate').notNullable().defaultTo('2300');
  });
  await knex.raw(
    `alter table video_services add constraint video_services_price check (price is null or price >= 0)`,
  );
  await knex.schema.createTable('client_video_purchases', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('video_service_id').notNullable().references('video_services.id').onDelete('CASCADE');
    t.uuid('order_id').nullable().references('client_orders.id').onDelete('SET NULL');
    t.integer('price').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'client_id', 'video_service_id']);
  });
  await addToCheck(knex, 'client_order_lines', 'client_order_lines_kind', 'kind', 'video');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_video_purchases');
  await knex.raw('alter table video_services drop constraint if exists video_services_price');
  await knex.schema.alterTable('video_services', (t) => {
    t.dropColumn('price');
    t.dropColumn('vat_rate');
  });
}
