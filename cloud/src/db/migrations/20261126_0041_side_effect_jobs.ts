import type { Knex } from 'knex';
import { enqueue, installJobQueues } from '../../jobs/queue';

/**
 * One pipeline for side effects (jobs/README.md): pg-boss's queues take every mail and receipt.
 * - `job_deliveries`: the delivered marker of a side-effect job, by idempotency key, written in the
 *   transaction that completes the job, so a job run again (its worker died) is not performed twice.
 * - pg-boss's schema and queues are installed here, so the pending outbox rows can move into jobs:
 *   booking mails not sent yet become `booking.mail` jobs and the `booking_mails` table goes; paid
 *   donations without a receipt get a `donation.receipt` job and the due-receipt index goes
 *   (`receipt_sent_at` stays: the receipt's record).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_deliveries', (t) => {
    t.string('key', 200).primary();
    t.string('queue', 50).notNullable();
    t.uuid('job_id').notNullable();
    t.timestamp('delivered_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await installJobQueues(knex);
  const pending = (await knex.raw(
    `select id, studio_id, client_id, client_visit_id, kind, details from booking_mails
      where sent_at is null and attempts < 5 order by id`,
  )) as {
    rows: Array<{
      id: string;
      studio_id: string;
      client_id: string;
      client_visit_id: string;
      kind: string;
      details: object;
    }>;
  };
  for (const row of pending.rows)
    await enqueue(
      knex,
      'booking.mail',
      {
        studioId: row.studio_id,
        clientId: row.client_id,
        visitId: row.client_visit_id,
        kind: row.kind as never,
        details: row.details as never,
      },
      { key: `booking_mails:${row.id}` },
    );
  await knex.schema.dropTable('booking_mails');
  const due = (await knex.raw(
    `select d.id from donations d join client_orders o on o.id = d.order_id
      where d.receipt_sent_at is null and o.status = 1 order by d.created_at`,
  )) as { rows: Array<{ id: string }> };
  for (const row of due.rows)
    await enqueue(knex, 'donation.receipt', { donationId: row.id }, { key: `donation.receipt:${row.id}` });
  await knex.raw('drop index if exists donations_receipt_due');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'create index donations_receipt_due on donations (created_at) where receipt_sent_at is null',
  );
  await knex.schema.createTable('booking_mails', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('client_visit_id').notNullable().references('client_visits.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
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
       check (kind in ('confirmed', 'cancelled', 'promoted', 'classCancelled', 'waitingList', 'eventMessage'))`,
  );
  await knex.raw(`create index booking_mails_pending on booking_mails (id) where sent_at is null`);
  await knex.schema.dropTableIfExists('job_deliveries');
}
