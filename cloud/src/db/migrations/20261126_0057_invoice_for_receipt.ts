import type { Knex } from 'knex';

/**
 * Invoices for receipted sales (faktura do paragonu, issue 19; ustawa o VAT art. 106b ust. 5, 106h).
 *
 * - `retail_receipts.buyer_nip` and `fiscal_documents.buyer_nip`: the buyer's NIP printed on the
 *   fiscal receipt (POSNET prints it in the receipt's header), on the cloud's receipt record and on
 *   the station's report of the printed receipt (the fiscal document). The desk side
 *   fills them; an invoice for a receipted sale to a NIP buyer is only allowed when the receipt carries
 *   that NIP. Added only when missing: the desk side may add the same columns in its own migration.
 * - `invoices.receipt_id` and `invoices.receipt`: the receipt an invoice was issued for and its
 *   reference as printed on the invoice (number, date, printer); such an invoice is FP in the VAT
 *   records.
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('retail_receipts', 'buyer_nip')))
    await knex.schema.alterTable('retail_receipts', (t) => {
      t.string('buyer_nip', 20).nullable();
    });
  if (!(await knex.schema.hasColumn('fiscal_documents', 'buyer_nip')))
    await knex.schema.alterTable('fiscal_documents', (t) => {
      t.string('buyer_nip', 20).nullable();
    });
  await knex.schema.alterTable('invoices', (t) => {
    t.uuid('receipt_id').nullable().references('retail_receipts.id').onDelete('SET NULL');
    // { number, date, printerName, stationSlug }
    t.jsonb('receipt').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('receipt');
    t.dropColumn('receipt_id');
  });
}
