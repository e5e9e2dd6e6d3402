import type { Knex } from 'knex';

/**
 * Donation receipts by e-mail: `receipt_sent_at` marks a donation whose receipt went out (claimed
 * before sending, cleared again when the send fails). A donation is due a receipt while its order is
 * paid and this is null; the partial index keeps that lookup to the few unsent ones. Donations paid
 * before this migration are marked sent: nobody gets a receipt for a gift made long ago.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('donations', (t) => {
    t.timestamp('receipt_sent_at', { useTz: true }).nullable();
  });
  await knex.raw(
    `update donations d set receipt_sent_at = now()
       from client_orders o where o.id = d.order_id and o.status = 1`,
  );
  await knex.raw(
    'create index donations_receipt_due on donations (created_at) where receipt_sent_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists donations_receipt_due');
  await knex.schema.alterTable('donations', (t) => {
    t.dropColumn('receipt_sent_at');
  });
}
