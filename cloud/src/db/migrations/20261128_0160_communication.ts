import type { Knex } from 'knex';

/**
 * Communication (issue 23): campaigns, their recipients, opt-outs and suppressed addresses, the
 * studio's automation scenarios and the reminder log.
 *
 * - `campaigns`: one message to many clients; `type` (spec §3: 0 email, 1 sms, 2 push, 3 inbox),
 *   `status` (0 draft, 1 sent, 2 in progress, 3 scheduled, 4 paused); `filter` is the client list's
 *   filter, `content` the texts per language `{ "pl": { "subject", "body" }, "en": … }`.
 * - `campaign_recipients`: who a campaign goes to, written once when sending starts (the filter as it
 *   is then); a row is marked sent right after its message left, so a batch run again after a restart
 *   skips it. `token` is the recipient's one-click unsubscribe token (RFC 8058).
 * - `communication_opt_outs`: a client who unsubscribed from a channel of a studio's marketing.
 * - `mail_suppressions`: an address that bounced or complained: no more mail to it from that studio.
 * - `automation_scenarios`: the scenarios a studio switched on, with their settings.
 * - `reminder_log`: every automated message, at most once per client and occasion (`occasion_key`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 120).notNullable();
    t.smallint('type').notNullable();
    t.smallint('status').notNullable().defaultTo(0);
    t.jsonb('filter').notNullable().defaultTo('{}');
    t.jsonb('content').notNullable().defaultTo('{}');
    /** An uploaded image or attachment: `{ key, name, type, size }`. */
    t.jsonb('attachment').nullable();
    t.timestamp('scheduled_at', { useTz: true }).nullable();
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    /** Bumped by pause/resume: the key of the next batch job. */
    t.integer('run').notNullable().defaultTo(0);
    t.integer('recipient_count').notNullable().defaultTo(0);
    t.integer('sent_count').notNullable().defaultTo(0);
    t.integer('failed_count').notNullable().defaultTo(0);
    t.integer('unsubscribed_count').notNullable().defaultTo(0);
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    /** A campaign that went out is hidden when deleted, not removed: its unsubscribe links keep working. */
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'id']);
  });
  await knex.raw('alter table campaigns add constraint campaigns_type check (type between 0 and 3)');
  await knex.raw('alter table campaigns add constraint campaigns_status check (status between 0 and 4)');

  await knex.schema.createTable('campaign_recipients', (t) => {
    t.uuid('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('address', 254).notNullable();
    t.string('locale', 5).notNullable();
    t.string('first_name', 100).notNullable().defaultTo('');
    t.string('status', 10).notNullable().defaultTo('pending');
    t.string('error', 200).nullable();
    t.string('token', 32).notNullable().unique();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.primary(['campaign_id', 'user_id']);
  });
  await knex.raw(
    `alter table campaign_recipients add constraint campaign_recipients_status check (status in ('pending', 'sent', 'failed'))`,
  );
  await knex.raw(
    `create index campaign_recipients_pending on campaign_recipients (campaign_id, user_id) where status = 'pending'`,
  );

  await knex.schema.createTable('communication_opt_outs', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('channel', 10).notNullable();
    t.uuid('campaign_id').nullable().references('campaigns.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['studio_id', 'user_id', 'channel']);
  });

  await knex.schema.createTable('mail_suppressions', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('address', 254).notNullable();
    t.string('reason', 20).notNullable();
    t.string('detail', 200).notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['studio_id', 'address']);
  });
  await knex.raw(
    `alter table mail_suppressions add constraint mail_suppressions_reason check (reason in ('bounce', 'complaint'))`,
  );

  await knex.schema.createTable('automation_scenarios', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('kind', 30).notNullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    /** The scenario's settings (`hoursBefore`, `daysWithoutVisit`, …). */
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['studio_id', 'kind']);
  });

  await knex.schema.createTable('reminder_log', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 30).notNullable();
    /** The occasion: one message per client and occasion (`class:<visit>`, `birthday:2026`). */
    t.string('occasion_key', 120).notNullable();
    /** Spec §3 Reminder type: 0 email. */
    t.smallint('type').notNullable().defaultTo(0);
    /** Spec §3 Reminder status: 0 failed, 1 sent; null while queued. */
    t.smallint('status').nullable();
    t.string('address', 254).notNullable();
    t.string('subject', 200).notNullable();
    t.string('locale', 5).notNullable();
    /** What the message says besides the client's name (a class's title and time, a pass's end). */
    t.jsonb('values').notNullable().defaultTo('{}');
    t.string('error', 200).nullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'user_id', 'kind', 'occasion_key']);
    t.index(['studio_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'reminder_log',
    'automation_scenarios',
    'mail_suppressions',
    'communication_opt_outs',
    'campaign_recipients',
    'campaigns',
  ])
    await knex.schema.dropTableIfExists(table);
}
