import type { Knex } from 'knex';

/**
 * Reports (issue 20): the period's fiscal receipts (`fiscal_documents` by the instant printed) and the
 * vouchers' redemptions (by the instant redeemed) are read per studio and period, like the orders and
 * payments of migration 0130: without these, a month's report read the studio's whole history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index fiscal_documents_studio_printed_at on fiscal_documents (studio_id, printed_at)',
  );
  await knex.raw(
    'create index voucher_redemptions_studio_created_at on voucher_redemptions (studio_id, created_at)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists fiscal_documents_studio_printed_at');
  await knex.raw('drop index if exists voucher_redemptions_studio_created_at');
}
