import type { Knex } from 'knex';

/**
 * A fiscal receipt may carry the buyer's NIP ("paragon z NIP-em", POSNET `trnipset`): the desk
 * prints it and its `recordSale@1` carries it (`buyerNip`); the cloud keeps it with the receipt.
 * An invoice for a receipted sale to a business is allowed only when the receipt carries that
 * buyer's NIP (the invoices module's rule reads this column). Ten digits, or null (no NIP printed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('retail_receipts', (t) => {
    t.string('buyer_nip', 10).nullable();
  });
  await knex.raw(
    "alter table retail_receipts add constraint retail_receipts_buyer_nip check (buyer_nip is null or buyer_nip ~ '^[0-9]{10}$')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table retail_receipts drop constraint if exists retail_receipts_buyer_nip');
  await knex.schema.alterTable('retail_receipts', (t) => {
    t.dropColumn('buyer_nip');
  });
}
