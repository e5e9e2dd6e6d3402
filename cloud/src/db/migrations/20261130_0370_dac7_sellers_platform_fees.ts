import type { Knex } from 'knex';

/**
 * DAC7 (issue 20). `studio_dac7_sellers`: who the studio is as a seller — an entity (the default, a
 * company: the invoice settings' seller name, NIP, address and IBAN identify it) or an individual (a
 * sole trader), whom DAC7 identifies by first and last name and date of birth besides the tax id,
 * address and bank account (still the invoice settings'). Set by the studio
 * (`PUT dac7-report/seller`).
 *
 * `platform_fees`: what the platform operator charged the studio (commissions, service fees), each
 * at the instant charged; DAC7 reports them per quarter of the studio's calendar. Recorded by the
 * operator (`npm run dac7:fee`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table studio_dac7_sellers (
      studio_id uuid primary key references studios(id) on delete cascade,
      kind text not null check (kind in ('entity', 'individual')),
      first_name text not null default '',
      last_name text not null default '',
      birth_date date,
      updated_at timestamptz not null default now()
    )`);
  await knex.raw(`
    create table platform_fees (
      id uuid primary key,
      studio_id uuid not null references studios(id) on delete cascade,
      charged_at timestamptz not null,
      amount bigint not null check (amount >= 0),
      currency text not null,
      description text not null default '',
      created_at timestamptz not null default now()
    )`);
  await knex.raw(`create index platform_fees_studio_charged on platform_fees (studio_id, charged_at)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('platform_fees');
  await knex.schema.dropTableIfExists('studio_dac7_sellers');
}
