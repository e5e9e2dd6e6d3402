import type { Knex } from 'knex';

/**
 * Rate limits kept in PostgreSQL (issue 27: several instances), so that every cloud instance spends
 * from one budget. The shape is rate-limiter-flexible's RateLimiterPostgres table (it is told the
 * table exists and never creates it): `key` is `<limit name>:<key>`, `expire` epoch milliseconds.
 * Not a studio's table (keys are addresses and e-mails across studios), so no studio_id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table rate_limits (
      key text primary key,
      points integer not null default 0,
      expire bigint
    )`);
  await knex.raw('create index rate_limits_expire_idx on rate_limits (expire)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table rate_limits');
}
