import type { Knex } from 'knex';
import { attachChangefeed, detachChangefeed } from './20261123_0020_sync';

/**
 * The desk's appointments offline (issue 21): the station's mirror gets `appointment_services` and
 * the `client_appointments` of today and after (cloud/src/sync/tables.ts), so the desktop shows the
 * day's appointments and checks a client in (`appointmentCheckIn@1`) while the cloud is away.
 *
 * Stations bootstrapped before this migration never asked for the tables: every existing service and
 * every appointment still in the window is touched once so the changefeed carries it at their next pull.
 */
export async function up(knex: Knex): Promise<void> {
  await attachChangefeed(knex, 'appointment_services');
  await attachChangefeed(knex, 'client_appointments');
  await knex.raw('update appointment_services set studio_id = studio_id');
  await knex.raw(
    `update client_appointments set studio_id = studio_id where ends_at >= now() - interval '2 days'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await detachChangefeed(knex, 'client_appointments');
  await detachChangefeed(knex, 'appointment_services');
}
