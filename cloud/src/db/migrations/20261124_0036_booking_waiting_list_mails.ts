import type { Knex } from 'knex';

/**
 * Bookings, third part: two new kinds of booking e-mail, so the outbox's kind check takes them:
 * - `waitingList`: joining a waiting list mails the client, with the place in `details`;
 * - `eventMessage`: staff message everyone on a class (`enrollments/send-notification`), the text in
 *   `details`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table booking_mails drop constraint booking_mails_kind_check');
  await knex.raw(
    `alter table booking_mails add constraint booking_mails_kind_check
       check (kind in ('confirmed', 'cancelled', 'promoted', 'classCancelled', 'waitingList', 'eventMessage'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('booking_mails').whereIn('kind', ['waitingList', 'eventMessage']).delete();
  await knex.raw('alter table booking_mails drop constraint booking_mails_kind_check');
  await knex.raw(
    `alter table booking_mails add constraint booking_mails_kind_check
       check (kind in ('confirmed', 'cancelled', 'promoted', 'classCancelled'))`,
  );
}
