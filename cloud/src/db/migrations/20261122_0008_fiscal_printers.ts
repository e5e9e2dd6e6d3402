import type { Knex } from 'knex';

/**
 * Fiscal printers as settings of a POS station, the diagnose requests queued for the station, and
 * the fiscal documents: the receipt outcome of each sale as the station's driver answered it, with
 * the totals of the shared receipt-totals function (see modules/fiscal-printers/README.md).
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('studio_fiscal_printers', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    /** The POS station (its slug) whose printer this is: one fiscal printer per station. */
    t.string('station_slug', 64).notNullable();
    /** { kind: 'serial', path, baudRate, parity, dataBits, stopBits, flowControl } | { kind: 'tcp', host, port } */
    t.jsonb('connection').notNullable();
    /** Seven slots A–G: basis points, "exempt" or "inactive". */
    t.jsonb('vat_slots').notNullable();
    /** What the station last reported (StationPrinterStatus), and when the cloud received it. */
    t.jsonb('last_status').nullable();
    t.timestamp('last_seen_at', { useTz: true }).nullable();
    timestamps(t);
  });
  // Case-insensitive: "Front-1" and "front-1" are one station.
  await knex.raw(
    'create unique index studio_fiscal_printers_station on studio_fiscal_printers (studio_id, lower(station_slug))',
  );

  await knex.schema.createTable('fiscal_printer_diagnoses', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('printer_id').notNullable().references('studio_fiscal_printers.id').onDelete('CASCADE');
    t.uuid('requested_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('completed_at', { useTz: true }).nullable();
    /** DiagnoseResult as the station posted it. */
    t.jsonb('result').nullable();
    timestamps(t);
    t.index(['studio_id', 'printer_id', 'created_at']);
  });
  // At most one request waits per printer: asking again while one waits returns that one.
  await knex.raw(
    'create unique index fiscal_printer_diagnoses_one_pending on fiscal_printer_diagnoses (printer_id) where completed_at is null',
  );

  await knex.schema.createTable('fiscal_documents', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    /** The sale (the driver's receipt id). No foreign key: sales arrive with their own module. */
    t.uuid('sale_id').notNullable();
    /** Kept when the printer's settings are deleted: the document stays the studio's record. */
    t.uuid('printer_id').nullable().references('studio_fiscal_printers.id').onDelete('SET NULL');
    t.string('station_slug', 64).notNullable();
    t.string('status', 20).notNullable();
    t.integer('receipt_number').nullable();
    t.boolean('recovered').notNullable().defaultTo(false);
    t.string('reason', 40).nullable();
    t.string('message_key', 80).nullable();
    t.integer('printer_error').nullable();
    /** PendingFiscalReceipt of a needsAttention outcome. */
    t.jsonb('pending').nullable();
    /** The receipt lines as sold (ReceiptLineInput[]) and the payments. */
    t.jsonb('lines').notNullable();
    t.jsonb('payments').notNullable().defaultTo('[]');
    /** computeReceiptTotals of the lines: per-line, per-rate and receipt totals in grosze. */
    t.jsonb('totals').notNullable();
    t.integer('subtotal').notNullable();
    t.integer('discount').notNullable().defaultTo(0);
    t.integer('total').notNullable();
    t.integer('vat').notNullable();
    t.string('currency', 3).notNullable();
    t.timestamp('printed_at', { useTz: true }).notNullable();
    timestamps(t);
    t.unique(['studio_id', 'sale_id']);
    t.index(['studio_id', 'station_slug', 'status']);
  });
  await knex.raw(
    "alter table fiscal_documents add constraint fiscal_documents_status check (status in ('printed', 'notPrinted', 'needsAttention'))",
  );
  await knex.raw(
    "alter table fiscal_documents add constraint fiscal_documents_printed_number check ((status = 'printed') = (receipt_number is not null))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('fiscal_documents');
  await knex.schema.dropTableIfExists('fiscal_printer_diagnoses');
  await knex.schema.dropTableIfExists('studio_fiscal_printers');
}
