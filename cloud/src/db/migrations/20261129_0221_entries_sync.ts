import type { Knex } from 'knex';
import { attachChangefeed, detachChangefeed } from './20261123_0020_sync';

/**
 * Entry services offline (issue 22): the station's mirror gets `entry_services` (limits, opening
 * hours, location) and `client_entries` (in the visits window: today's entries decide the daily
 * limit and the capacity at once, and an entry spends a counted pass), so the desktop kiosk lets a
 * client in with the cloud's rule while the cloud is away (`kioskEntry@2`).
 *
 * Stations bootstrapped before this migration never asked for the tables: every existing row is
 * touched once so the changefeed carries it at their next pull.
 */
export async function up(knex: Knex): Promise<void> {
  await attachChangefeed(knex, 'entry_services');
  await attachChangefeed(knex, 'client_entries');
  await knex.raw('update entry_services set studio_id = studio_id');
  await knex.raw(
    `update client_entries set studio_id = studio_id where entered_at > now() - interval '60 days'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await detachChangefeed(knex, 'client_entries');
  await detachChangefeed(knex, 'entry_services');
}
