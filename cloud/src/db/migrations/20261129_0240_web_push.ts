import type { Knex } from 'knex';

/**
 * Web push (issue 23): the installation's VAPID key pair and the front office's subscriptions.
 *
 * - `web_push_keys`: one row (`id` 1), made on first use unless VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY
 *   are set: every instance of the installation signs with the same key, the one browsers
 *   subscribed with.
 * - `push_subscriptions`: a browser of a client that allowed notifications from a studio's front
 *   office: the push service's endpoint and the keys that encrypt for it (RFC 8291). Removed when
 *   the client turns them off, or when the push service answers 404/410 (gone).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_push_keys', (t) => {
    t.smallint('id').primary();
    t.string('public_key', 100).notNullable();
    t.string('private_key', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table web_push_keys add constraint web_push_keys_one check (id = 1)');
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('endpoint', 1000).notNullable();
    t.string('p256dh', 200).notNullable();
    t.string('auth', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_sent_at', { useTz: true }).nullable();
    t.unique(['studio_id', 'endpoint']);
    t.index(['studio_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_subscriptions');
  await knex.schema.dropTable('web_push_keys');
}
