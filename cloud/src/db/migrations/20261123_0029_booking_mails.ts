import type { Knex } from 'knex';

/**
 * Bookings, second part:
 * - `booking_mails`: the outbox of booking e-mails (confirmation, cancellation, waiting-list
 *   promotion, class cancelled). A row is written in the same transaction as the change it tells
 *   about, so a rolled-back booking never mails and a committed one is never forgotten; it is sent
 *   after the commit (and by any later delivery run when that failed). `claimed_at` is a lease: a
 *   delivery claims rows, sends, then sets `sent_at` (or `skipped` when the client turned e-mail off).
 * - Fee orders: `client_visit_fees.client_order_id` gets an index (a fee is billed once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('booking_mails', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('client_visit_id').notNullable().references('client_visits.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    // What the mail says beyond the visit (a late cancel's fee).
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('claimed_at', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 500).nullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.boolean('skipped').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'client_id']);
    t.index(['client_visit_id']);
  });
  await knex.raw(
    `alter table booking_mails add constraint booking_mails_kind_check
       check (kind in ('confirmed', 'cancelled', 'promoted', 'classCancelled'))`,
  );
  // Delivery reads only what is still to send: a small partial index, however long the history.
  await knex.raw(`create index booking_mails_pending on booking_mails (id) where sent_at is null`);
  await knex.raw(`create index client_visit_fees_order on client_visit_fees (client_order_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists client_visit_fees_order');
  await knex.schema.dropTableIfExists('booking_mails');
}
