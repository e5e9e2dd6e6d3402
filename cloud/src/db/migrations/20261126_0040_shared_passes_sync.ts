import type { Knex } from 'knex';
import { attachChangefeed, detachChangefeed } from './20261123_0020_sync';

/**
 * Desk offline (issue 8): who shares which pass. A pass shared with a linked account
 * (`client-pricing-option/{id}/share`) pays that client's classes too, so the station's mirror gets
 * `client_pricing_option_shares`: the desk's Passes tab lists passes shared with the client offline
 * and counts every client's visits on a shared pass, and the offline kiosk lets them in with it.
 *
 * Stations bootstrapped before this migration never asked for the table: every existing row is
 * touched once (an update that changes nothing) so the changefeed carries it at their next pull.
 */
export async function up(knex: Knex): Promise<void> {
  await attachChangefeed(knex, 'client_pricing_option_shares');
  await knex.raw('update client_pricing_option_shares set user_id = user_id');
}

export async function down(knex: Knex): Promise<void> {
  await detachChangefeed(knex, 'client_pricing_option_shares');
}
