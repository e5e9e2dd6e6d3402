import type { Knex } from 'knex';

/**
 * Integrations (issue 24): public API keys get a scope, a visible prefix, a last-used time and a
 * per-key rate limit; studios subscribe webhook endpoints to events, each event sent to an endpoint
 * is a delivery, and every HTTP attempt of a delivery is logged (request, response, timing).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_apis', (t) => {
    // Keys issued before scopes could do everything: they stay read-write.
    t.string('scope', 16).notNullable().defaultTo('read_write');
    t.string('key_prefix', 16).notNullable().defaultTo('');
    t.integer('rate_limit_per_minute').notNullable().defaultTo(120);
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('rotated_at', { useTz: true }).nullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
  });
  await knex.raw(
    "alter table studio_apis add constraint studio_apis_scope check (scope in ('read', 'read_write'))",
  );

  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('url', 2000).notNullable();
    t.string('description', 200).notNullable().defaultTo('');
    t.specificType('events', 'text[]').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    /** Why the platform turned it off (`failing`), null when a person did or it is on. */
    t.string('disabled_reason', 32).nullable();
    /** Standard Webhooks secret (`whsec_` + base64 of 24 random bytes). */
    t.string('secret', 100).notNullable();
    /** The secret before the last rotation: deliveries are signed with both until it expires. */
    t.string('previous_secret', 100).nullable();
    t.timestamp('previous_secret_expires_at', { useTz: true }).nullable();
    /** Deliveries in a row that failed for good; reset by a success. */
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['studio_id']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    /** The event's id (`webhook-id` header: the same for a replay, receivers deduplicate on it). */
    t.string('event_id', 40).notNullable();
    t.string('event_type', 60).notNullable();
    t.jsonb('payload').notNullable();
    /** pending → delivered | failed | skipped (endpoint disabled or deleted before sending). */
    t.string('status', 16).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.uuid('replay_of').nullable().references('webhook_deliveries.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['endpoint_id', 'created_at']);
    t.index(['studio_id']);
  });

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.jsonb('request_headers').notNullable();
    t.text('request_body').notNullable();
    t.integer('response_status').nullable();
    /** The first 4 KB of the answer. */
    t.text('response_body').nullable();
    /** Why no answer came (refused address, timeout, connection error). */
    t.string('error', 500).nullable();
    t.integer('duration_ms').notNullable();
    t.index(['delivery_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_endpoints');
  await knex.raw('alter table studio_apis drop constraint if exists studio_apis_scope');
  await knex.schema.alterTable('studio_apis', (t) => {
    t.dropColumn('scope');
    t.dropColumn('key_prefix');
    t.dropColumn('rate_limit_per_minute');
    t.dropColumn('last_used_at');
    t.dropColumn('rotated_at');
    t.dropColumn('created_by');
  });
}
