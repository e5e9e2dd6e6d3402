import type { Knex } from 'knex';

/**
 * Google Calendar connections (issue 21, spec §7 `google-calendar/oauth`): a studio member's grant to
 * push their appointments to their calendar, and which appointment became which event there (with a
 * fingerprint of what was pushed, so a change pushes again). cloud/src/modules/appointments/README.md.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('google_calendar_connections', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** pending (sent to Google to consent), connected, revoked (Google refused the grant since). */
    t.string('status', 16).notNullable();
    /** sha256 of the OAuth `state` while pending (the secret itself only travels through the browser). */
    t.string('state_hash', 64).nullable().unique();
    t.timestamp('state_expires_at', { useTz: true }).nullable();
    t.string('return_to', 500).notNullable().defaultTo('/');
    t.string('email', 320).nullable();
    t.string('calendar_id', 320).notNullable().defaultTo('primary');
    t.text('access_token').nullable();
    t.text('refresh_token').nullable();
    t.timestamp('access_expires_at', { useTz: true }).nullable();
    t.string('last_error', 500).nullable();
    t.timestamp('connected_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'user_id']);
  });
  await knex.raw(`alter table google_calendar_connections
    add constraint google_calendar_connections_status check (status in ('pending', 'connected', 'revoked'))`);
  await knex.schema.createTable('google_calendar_events', (t) => {
    t.uuid('connection_id').notNullable().references('google_calendar_connections.id').onDelete('CASCADE');
    t.uuid('client_appointment_id').notNullable().references('client_appointments.id').onDelete('CASCADE');
    t.string('external_id', 1024).notNullable();
    t.string('fingerprint', 32).notNullable();
    t.timestamp('pushed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['connection_id', 'client_appointment_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('google_calendar_events');
  await knex.schema.dropTableIfExists('google_calendar_connections');
}
