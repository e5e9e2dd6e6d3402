import type { Knex } from 'knex';

/**
 * Issue 25, spec §7 POST bundle/request: a studio asks the platform for the premium mobile apps
 * bundle. One open request per studio; a withdrawn one stays on record.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bundle_requests', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('requested_by').nullable().references('users.id').onDelete('SET NULL');
    t.text('contact_name').notNullable();
    t.text('contact_email').notNullable();
    t.text('contact_phone').nullable();
    t.text('message').nullable();
    t.text('status').notNullable().defaultTo('requested');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('withdrawn_at', { useTz: true }).nullable();
    t.index(['studio_id', 'created_at']);
  });
  await knex.raw(
    `alter table bundle_requests add constraint bundle_requests_status check (status in ('requested', 'withdrawn'))`,
  );
  await knex.raw(
    `create unique index bundle_requests_one_open on bundle_requests (studio_id) where status = 'requested'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('bundle_requests');
}
