import type { Knex } from 'knex';

/**
 * Issue 25, the subscription's follow-ups: why a campaign stopped before it started (a scheduled
 * campaign whose start found too few credits: `{ key, needed, available, at }`, cleared when it is
 * sent or scheduled again), and when a paid period's invoice was e-mailed to the studio.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.jsonb('stop_reason').nullable();
  });
  await knex.schema.alterTable('studio_subscription_periods', (t) => {
    t.timestamp('invoice_sent_at', { useTz: true }).nullable();
    t.string('invoice_sent_to', 254).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_subscription_periods', (t) => {
    t.dropColumn('invoice_sent_to');
    t.dropColumn('invoice_sent_at');
  });
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('stop_reason');
  });
}
