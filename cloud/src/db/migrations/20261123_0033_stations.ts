import type { Knex } from 'knex';

/**
 * POS stations (`studio-pos`) and their cash shifts.
 *
 * - A POS has a slug: the station slug sales (`retail_sales.station_slug`) and fiscal printers
 *   (`studio_fiscal_printers.station_slug`) already carry, so a shift finds its sales by it.
 * - A POS may be assigned to one registered desktop device (`sync_devices`), a device to one POS.
 * - A shift's id is made by the till (UUIDv7), so an open/cash/close replayed by a station that was
 *   offline is the same row. At most one open shift per POS.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_pos', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 80).notNullable();
    t.string('slug', 64).notNullable();
    t.uuid('location_id').nullable().references('locations.id').onDelete('SET NULL');
    t.uuid('device_id').nullable().references('sync_devices.id').onDelete('SET NULL');
    t.timestamp('assigned_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'slug']);
  });
  await knex.raw(
    'create unique index studio_pos_device on studio_pos (device_id) where device_id is not null',
  );

  await knex.schema.createTable('pos_shifts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('pos_id').notNullable().references('studio_pos.id').onDelete('CASCADE');
    t.uuid('opened_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('opened_at', { useTz: true }).notNullable();
    t.integer('float').notNullable();
    t.uuid('closed_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('closed_at', { useTz: true }).nullable();
    // Snapshot at close (what the cashier was shown); a late sale does not rewrite it.
    t.integer('cash_sales').nullable();
    t.integer('cash_refunds').nullable();
    t.integer('expected').nullable();
    t.integer('counted').nullable();
    t.string('note', 500).notNullable().defaultTo('');
    t.string('daily_report', 12).nullable();
    t.index(['studio_id', 'pos_id', 'opened_at']);
  });
  await knex.raw(`
    alter table pos_shifts
      add constraint pos_shifts_amounts check (float >= 0 and (counted is null or counted >= 0)),
      add constraint pos_shifts_daily_report check (daily_report is null or daily_report in ('printed', 'failed', 'noPrinter'))`);
  await knex.raw('create unique index pos_shifts_one_open on pos_shifts (pos_id) where closed_at is null');

  await knex.schema.createTable('pos_shift_cash_movements', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('shift_id').notNullable().references('pos_shifts.id').onDelete('CASCADE');
    t.string('kind', 3).notNullable();
    t.integer('amount').notNullable();
    t.string('reason', 200).notNullable().defaultTo('');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['shift_id', 'created_at']);
  });
  await knex.raw(`
    alter table pos_shift_cash_movements
      add constraint pos_shift_cash_movements_kind check (kind in ('in', 'out')),
      add constraint pos_shift_cash_movements_amount check (amount > 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pos_shift_cash_movements');
  await knex.schema.dropTable('pos_shifts');
  await knex.schema.dropTable('studio_pos');
}
