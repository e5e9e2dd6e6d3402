import type { Knex } from 'knex';

/**
 * A voucher redemption given back (issue 26): a checkout whose online payment failed or was cancelled
 * releases the voucher use it had taken, so the client's retry can use the voucher again. The row stays
 * (the failed order still names it) with `released_at` set; uses are counted over rows not released.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('voucher_redemptions', (t) => {
    t.timestamp('released_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('voucher_redemptions', (t) => {
    t.dropColumn('released_at');
  });
}
