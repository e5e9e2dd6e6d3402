import type { Knex } from 'knex';
import { attachChangefeed } from './20261123_0020_sync';

/**
 * Bookings (bookings module): client visits (spec §3 status 0–9; the waiting list is visits with
 * status 8 and a position), late-cancel and no-show fees as rows, the studio's booking settings, free
 * class services, and per-studio API keys of the public API.
 *
 * `client_visits` is the fact table passes derive their entries from (the catalog reads
 * `studio_id, client_pricing_option_id, starts_at, status`): `starts_at` is the event's start, kept in
 * step by a trigger when staff move the event.
 *
 * `client_visit_fees` rows are what the client owes; the sales module turns the unforgiven, unvoided
 * ones without `client_order_id` into orders and fills that column.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.alterTable('class_services', (t) => {
    // A free class needs no pass: bookings are confirmed at once.
    t.boolean('free_of_charge').notNullable().defaultTo(false);
  });

  await knex.schema.createTable('client_visits', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('schedule_event_id').notNullable().references('schedule_events.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.smallint('status').notNullable();
    // How the visit is paid: a pass (client_pricing_option_id), a free class, or at the desk.
    t.string('payment', 8).notNullable();
    t.uuid('client_pricing_option_id')
      .nullable()
      .references('client_pricing_options.id')
      .onDelete('SET NULL');
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.string('booked_by', 8).notNullable();
    t.uuid('booked_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    // Sort key on the waiting list while status is 8 (1-based positions are its rank).
    t.integer('waiting_position').nullable();
    t.timestamp('booked_at', { useTz: true }).notNullable();
    t.timestamp('promoted_at', { useTz: true }).nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.uuid('cancelled_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('checked_in_at', { useTz: true }).nullable();
    t.timestamp('attendance_marked_at', { useTz: true }).nullable();
    // Staff waived the fee of this late cancel or absence.
    t.boolean('fee_waived').notNullable().defaultTo(false);
    timestamps(t);
    t.index(['studio_id', 'schedule_event_id', 'status']);
    t.index(['studio_id', 'client_id', 'starts_at']);
    t.index(['client_pricing_option_id']);
  });
  await knex.raw(
    `alter table client_visits add constraint client_visits_status_check check (status between 0 and 9)`,
  );
  await knex.raw(
    `alter table client_visits add constraint client_visits_payment_check check (payment in ('pass', 'free', 'desk'))`,
  );
  await knex.raw(
    `alter table client_visits add constraint client_visits_booked_by_check check (booked_by in ('staff', 'self', 'api'))`,
  );
  await knex.raw(
    `alter table client_visits add constraint client_visits_waiting_check
       check ((status = 8) = (waiting_position is not null))`,
  );
  // One standing visit (booked, present, absent, waiting, unconfirmed) per client and class.
  await knex.raw(
    `create unique index client_visits_one_per_client on client_visits (schedule_event_id, client_id)
       where status in (0, 1, 2, 8, 9)`,
  );
  await knex.raw(`
    create function client_visits_follow_event() returns trigger language plpgsql as $$
    begin
      update client_visits set starts_at = new.starts_at where schedule_event_id = new.id;
      return new;
    end $$`);
  await knex.raw(`
    create trigger schedule_events_moves_visits after update of starts_at on schedule_events
      for each row when (old.starts_at is distinct from new.starts_at)
      execute function client_visits_follow_event()`);

  // Desks sync visits (docs/offline-sync.md): when the sync migration ran first, attach its changefeed.
  const capture = (await knex.raw(`select to_regprocedure('sync_capture()') is not null as ok`)) as {
    rows: Array<{ ok: boolean }>;
  };
  if (capture.rows[0]?.ok) await attachChangefeed(knex, 'client_visits');

  await knex.schema.createTable('client_visit_fees', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_visit_id').notNullable().references('client_visits.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 12).notNullable();
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.boolean('forgiven').notNullable().defaultTo(false);
    // Attendance corrected (absent → present) or the cancel undone: the fee no longer applies.
    t.timestamp('voided_at', { useTz: true }).nullable();
    // Filled by the sales module when it bills the fee.
    t.uuid('client_order_id').nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['studio_id', 'client_id']);
    t.index(['client_visit_id']);
  });
  await knex.raw(
    `alter table client_visit_fees add constraint client_visit_fees_kind_check check (kind in ('lateCancel', 'noShow'))`,
  );
  await knex.raw(
    `alter table client_visit_fees add constraint client_visit_fees_amount_check check (amount > 0)`,
  );

  await knex.schema.createTable('studio_booking_settings', (t) => {
    t.uuid('studio_id').primary().references('studios.id').onDelete('CASCADE');
    t.integer('late_cancel_fee').notNullable().defaultTo(0);
    t.integer('no_show_fee').notNullable().defaultTo(0);
    t.boolean('forgive_first_offence').notNullable().defaultTo(false);
    t.integer('promotion_cutoff_minutes').notNullable().defaultTo(60);
    t.boolean('pay_at_desk_allowed').notNullable().defaultTo(false);
    timestamps(t);
  });

  // Keys of the public API (spec §7 studio-api): only a hash is stored.
  await knex.schema.createTable('studio_apis', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('studio_apis');
  await knex.schema.dropTableIfExists('studio_booking_settings');
  await knex.schema.dropTableIfExists('client_visit_fees');
  await knex.raw('drop trigger if exists schedule_events_moves_visits on schedule_events');
  await knex.raw('drop function if exists client_visits_follow_event()');
  await knex.schema.dropTableIfExists('client_visits');
  await knex.schema.alterTable('class_services', (t) => t.dropColumn('free_of_charge'));
}
