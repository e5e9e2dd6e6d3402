import type { Knex } from 'knex';

/**
 * Appointments (issue 21): one-to-one services with staff availability. Categories and services
 * (duration, buffers, price, where, confirmation, booking window, cancellation cut-off), who performs
 * each service, the staff's weekly hours per location with dated exceptions, unavailability, and
 * the client appointments themselves (a time reservation is an appointment in status `reserved`
 * holding the slot until `held_until`).
 *
 * The guarantee that no two appointments hold one staff member's (or one room's) time is the
 * database's: an exclusion constraint on (studio, member, block) with `&&` over the block — the
 * appointment with its buffers — for the statuses that hold time. It needs btree_gist (PGlite loads
 * it in `db/embedded.ts`). Order lines and order sources learn `appointment` (the online and wallet
 * payment): the checks are rebuilt from what they hold now plus it, so another migration's additions
 * survive.
 */
const HOLDING = `('reserved', 'pending', 'booked', 'present', 'absent')`;

async function addToCheck(knex: Knex, table: string, constraint: string, column: string, value: string) {
  const rows: { rows: Array<{ def: string }> } = await knex.raw(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conname = ?`,
    [constraint],
  );
  const def = rows.rows[0]?.def ?? '';
  const values = [...def.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  if (values.includes(value)) return;
  values.push(value);
  await knex.raw(`alter table ${table} drop constraint if exists ${constraint}`);
  await knex.raw(
    `alter table ${table} add constraint ${constraint} check (${column} in (${values.map((v) => `'${v}'`).join(', ')}))`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists btree_gist');

  await knex.schema.createTable('appointment_service_categories', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'position']);
  });

  await knex.schema.createTable('appointment_services', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('category_id').nullable().references('appointment_service_categories.id').onDelete('SET NULL');
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    /** Spec §3 appointment event type: visit (a client's session) or resource (a room held). */
    t.string('event_type', 10).notNullable().defaultTo('visit');
    t.integer('duration_minutes').notNullable();
    t.integer('buffer_before_minutes').notNullable().defaultTo(0);
    t.integer('buffer_after_minutes').notNullable().defaultTo(0);
    t.integer('slot_step_minutes').notNullable().defaultTo(15);
    /** Minor units; null: only a covering pass pays (no single price). */
    t.integer('price').nullable();
    t.string('vat_rate', 10).notNullable().defaultTo('2300');
    t.uuid('location_id').nullable().references('locations.id').onDelete('SET NULL');
    t.uuid('room_id').nullable().references('location_rooms.id').onDelete('SET NULL');
    t.boolean('online').notNullable().defaultTo(false);
    /** Spec §3 confirmation type. */
    t.string('confirmation', 10).notNullable().defaultTo('auto');
    t.boolean('bookable_online').notNullable().defaultTo(true);
    t.integer('booking_opens_hours').nullable();
    t.integer('booking_closes_minutes').notNullable().defaultTo(0);
    t.integer('cancellation_cutoff_minutes').notNullable().defaultTo(1440);
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('archived_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'position']);
  });
  await knex.raw(`alter table appointment_services
    add constraint appointment_services_event_type check (event_type in ('visit', 'resource')),
    add constraint appointment_services_confirmation check (confirmation in ('auto', 'manual')),
    add constraint appointment_services_duration check (duration_minutes between 5 and 1440),
    add constraint appointment_services_buffers check (buffer_before_minutes between 0 and 240 and buffer_after_minutes between 0 and 240),
    add constraint appointment_services_step check (slot_step_minutes between 5 and 240),
    add constraint appointment_services_price check (price is null or price >= 0)`);

  await knex.schema.createTable('appointment_service_members', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('service_id').notNullable().references('appointment_services.id').onDelete('CASCADE');
    t.uuid('member_id').notNullable().references('users.id').onDelete('CASCADE');
    t.primary(['service_id', 'member_id']);
    t.index(['studio_id', 'member_id']);
  });

  await knex.schema.createTable('member_appointment_schedules', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('member_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('location_id').nullable().references('locations.id').onDelete('CASCADE');
    t.smallint('weekday').notNullable();
    t.smallint('start_minute').notNullable();
    t.smallint('end_minute').notNullable();
    t.index(['studio_id', 'member_id']);
  });
  await knex.raw(`alter table member_appointment_schedules
    add constraint member_appointment_schedules_weekday check (weekday between 0 and 6),
    add constraint member_appointment_schedules_minutes check (start_minute >= 0 and end_minute <= 1440 and start_minute < end_minute)`);

  await knex.schema.createTable('member_appointment_schedule_exceptions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('member_id').notNullable().references('users.id').onDelete('CASCADE');
    t.date('date').notNullable();
    /** Both null: a day off. */
    t.smallint('start_minute').nullable();
    t.smallint('end_minute').nullable();
    t.uuid('location_id').nullable().references('locations.id').onDelete('CASCADE');
    t.index(['studio_id', 'member_id', 'date']);
  });
  await knex.raw(`alter table member_appointment_schedule_exceptions
    add constraint member_appointment_schedule_exceptions_minutes check (
      (start_minute is null and end_minute is null) or
      (start_minute >= 0 and end_minute <= 1440 and start_minute < end_minute))`);

  await knex.schema.createTable('appointment_unavailabilities', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('member_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.string('reason', 200).notNullable().defaultTo('');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'member_id', 'starts_at']);
  });
  await knex.raw(
    'alter table appointment_unavailabilities add constraint appointment_unavailabilities_span check (starts_at < ends_at)',
  );

  await knex.schema.createTable('client_appointments', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('service_id').notNullable().references('appointment_services.id').onDelete('RESTRICT');
    t.uuid('member_id').notNullable().references('users.id').onDelete('RESTRICT');
    t.uuid('client_id').nullable().references('users.id').onDelete('RESTRICT');
    t.uuid('location_id').nullable().references('locations.id').onDelete('SET NULL');
    t.uuid('room_id').nullable().references('location_rooms.id').onDelete('SET NULL');
    t.boolean('online').notNullable().defaultTo(false);
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    /** The appointment with its buffers: what the exclusion constraints compare. */
    t.timestamp('blocked_from', { useTz: true }).notNullable();
    t.timestamp('blocked_until', { useTz: true }).notNullable();
    t.string('status', 16).notNullable();
    t.timestamp('held_until', { useTz: true }).nullable();
    /** pass | wallet | online | desk | free */
    t.string('payment', 10).notNullable();
    t.uuid('client_pricing_option_id')
      .nullable()
      .references('client_pricing_options.id')
      .onDelete('SET NULL');
    t.uuid('client_order_id').nullable().references('client_orders.id').onDelete('SET NULL');
    t.integer('price').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable().defaultTo('PLN');
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.string('booked_by', 10).notNullable();
    t.uuid('booked_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('confirmed_at', { useTz: true }).nullable();
    t.uuid('decided_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.uuid('cancelled_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('checked_in_at', { useTz: true }).nullable();
    t.string('note', 500).notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'starts_at']);
    t.index(['studio_id', 'client_id', 'starts_at']);
    t.index(['studio_id', 'service_id', 'starts_at']);
    t.index(['studio_id', 'client_pricing_option_id']);
  });
  await knex.raw(`alter table client_appointments
    add constraint client_appointments_status check (status in ('reserved', 'pending', 'booked', 'present', 'absent', 'cancelled', 'lateCancelled', 'rejected', 'calledOff', 'expired')),
    add constraint client_appointments_payment check (payment in ('pass', 'wallet', 'online', 'desk', 'free')),
    add constraint client_appointments_span check (starts_at < ends_at and blocked_from <= starts_at and ends_at <= blocked_until),
    add constraint client_appointments_member_time exclude using gist
      (studio_id with =, member_id with =, tstzrange(blocked_from, blocked_until) with &&)
      where (status in ${HOLDING}),
    add constraint client_appointments_room_time exclude using gist
      (studio_id with =, room_id with =, tstzrange(blocked_from, blocked_until) with &&)
      where (room_id is not null and status in ${HOLDING})`);

  // Calendar feeds: one secret token per staff member or client; revoking deletes the row.
  await knex.schema.createTable('appointment_calendar_feeds', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('audience', 10).notNullable();
    /** SHA-256 of the secret in the feed's URL. */
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'user_id', 'audience']);
  });

  await addToCheck(knex, 'client_order_lines', 'client_order_lines_kind', 'kind', 'appointment');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('appointment_calendar_feeds');
  await knex.schema.dropTableIfExists('client_appointments');
  await knex.schema.dropTableIfExists('appointment_unavailabilities');
  await knex.schema.dropTableIfExists('member_appointment_schedule_exceptions');
  await knex.schema.dropTableIfExists('member_appointment_schedules');
  await knex.schema.dropTableIfExists('appointment_service_members');
  await knex.schema.dropTableIfExists('appointment_services');
  await knex.schema.dropTableIfExists('appointment_service_categories');
}
