import type { Knex } from 'knex';
import { attachChangefeed, detachChangefeed } from './20261123_0020_sync';

/**
 * Kiosk, issue 10 (desktop part and smart-lock messages).
 *
 * The desktop kiosk checks clients in offline by membership card and QR code, so the stations'
 * mirror gets `client_identities` (shared/contracts/sync/tables.ts; the card's printed `value` is
 * left out, the lookup key `value_key` is sent).
 *
 * Stations bootstrapped before this migration never asked for the table: every existing row is
 * touched once (an update that changes nothing) so the changefeed carries it to them at their next
 * pull, without a re-bootstrap.
 */
export async function up(knex: Knex): Promise<void> {
  // A smart lock's last test as a reason the back office translates (EN/PL), not only English text.
  await knex.schema.alterTable('studio_smart_locks', (t) => {
    t.text('last_test_reason').nullable();
    t.integer('last_test_status').nullable();
  });
  await attachChangefeed(knex, 'client_identities');
  await knex.raw('update client_identities set value_key = value_key');
}

export async function down(knex: Knex): Promise<void> {
  await detachChangefeed(knex, 'client_identities');
  await knex.schema.alterTable('studio_smart_locks', (t) => {
    t.dropColumn('last_test_reason');
    t.dropColumn('last_test_status');
  });
}
