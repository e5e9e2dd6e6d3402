import type { Knex } from 'knex';

/**
 * Pricing options (passes) grow into the catalog, and the passes clients hold into facts the catalog
 * derives their state from (ARCHITECTURE: balances are derived, not counters):
 * - `pricing_option_categories`; `pricing_options` gains category, tax, validity (count + unit or a
 *   specific date), covered service types, restrictions, sale channels, a limit per client, sharing;
 * - `pricing_option_promotions`: a price for a period of the studio's calendar days;
 * - `client_pricing_options` gains the sale instant, the price paid and a snapshot of the option's
 *   validity terms (editing an option never changes passes already sold);
 * - `client_pricing_option_changes`: staff changes (extend, freeze, entries), each an audit row and a
 *   fact the pass's state is derived from;
 * - `client_pricing_option_shares`: a pass shared with a linked account.
 * `client_pricing_options.status` and `.expires_at` stay as a projection of the derived state for
 * list filters (clients module's has-valid-pass); the catalog refreshes them on every change it makes.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.createTable('pricing_option_categories', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('archived_at', { useTz: true }).nullable();
    timestamps(t);
    t.index(['studio_id', 'position']);
  });

  await knex.schema.alterTable('pricing_options', (t) => {
    t.uuid('category_id').nullable().references('pricing_option_categories.id').onDelete('SET NULL');
    t.uuid('tax_id').nullable().references('taxes.id').onDelete('RESTRICT');
    t.jsonb('description').notNullable().defaultTo('{}');
    t.integer('validity_count').nullable();
    t.string('validity_unit', 10).nullable();
    t.date('valid_until').nullable();
    t.jsonb('service_types')
      .notNullable()
      .defaultTo(JSON.stringify(['classroomPricingOption']));
    // { classServiceIds, locationIds, timeWindows: [{ weekdays, fromMinutes, toMinutes }], tagIds }
    t.jsonb('restrictions').notNullable().defaultTo('{}');
    t.boolean('sell_at_desk').notNullable().defaultTo(true);
    t.boolean('sell_online').notNullable().defaultTo(true);
    t.integer('limit_per_client').nullable();
    t.boolean('shareable').notNullable().defaultTo(false);
    t.integer('share_limit').nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('archived_at', { useTz: true }).nullable();
  });
  // Passes that counted days keep them: the old column becomes a count of days.
  await knex.raw(
    `update pricing_options set validity_count = validity_days, validity_unit = 'day' where validity_days is not null`,
  );
  await knex.raw(
    `alter table pricing_options add constraint pricing_options_validity_unit check (validity_unit in ('day', 'week', 'month'))`,
  );
  await knex.raw(
    `alter table pricing_options add constraint pricing_options_expiration_type check (expiration_type between 0 and 4)`,
  );
  await knex.raw(`alter table pricing_options add constraint pricing_options_price check (price >= 0)`);
  await knex.raw('create index pricing_options_studio_category on pricing_options (studio_id, category_id)');

  await knex.schema.createTable('pricing_option_promotions', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('pricing_option_id').notNullable().references('pricing_options.id').onDelete('CASCADE');
    t.integer('price').notNullable();
    t.date('starts_on').notNullable();
    t.date('ends_on').notNullable();
    timestamps(t);
    t.index(['studio_id', 'pricing_option_id']);
  });
  await knex.raw(
    `alter table pricing_option_promotions add constraint pricing_option_promotions_period check (starts_on <= ends_on and price >= 0)`,
  );

  await knex.schema.alterTable('client_pricing_options', (t) => {
    t.timestamp('sold_at', { useTz: true }).nullable();
    t.integer('price_paid').nullable();
    t.smallint('expiration_type').nullable();
    t.integer('validity_count').nullable();
    t.string('validity_unit', 10).nullable();
    t.date('valid_until').nullable();
    t.uuid('sold_by').nullable().references('users.id').onDelete('SET NULL');
  });
  await knex.raw(`
    update client_pricing_options cpo
       set sold_at = coalesce(cpo.activated_at, cpo.created_at),
           price_paid = po.price,
           expiration_type = po.expiration_type,
           validity_count = po.validity_count,
           validity_unit = po.validity_unit
      from pricing_options po
     where po.id = cpo.pricing_option_id`);
  await knex.raw(`alter table client_pricing_options alter column sold_at set default now()`);
  await knex.raw(`update client_pricing_options set sold_at = created_at where sold_at is null`);
  await knex.raw(`alter table client_pricing_options alter column sold_at set not null`);
  await knex.raw(`alter table client_pricing_options alter column expiration_type set default 0`);
  await knex.raw(`update client_pricing_options set expiration_type = 0 where expiration_type is null`);
  await knex.raw(`alter table client_pricing_options alter column expiration_type set not null`);
  await knex.raw(
    'create index client_pricing_options_studio_option on client_pricing_options (studio_id, pricing_option_id)',
  );

  await knex.schema.createTable('client_pricing_option_changes', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_pricing_option_id')
      .notNullable()
      .references('client_pricing_options.id')
      .onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.jsonb('payload').notNullable();
    t.string('note', 500).notNullable().defaultTo('');
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    // Set for the changes a manager made to many passes at once.
    t.uuid('bulk_id').nullable();
    timestamps(t);
    t.index(['studio_id', 'client_pricing_option_id']);
  });
  await knex.raw(
    `alter table client_pricing_option_changes add constraint client_pricing_option_changes_kind check (kind in ('extend', 'freeze', 'entries'))`,
  );

  await knex.schema.createTable('client_pricing_option_shares', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_pricing_option_id')
      .notNullable()
      .references('client_pricing_options.id')
      .onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('shared_by').nullable().references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.unique(['client_pricing_option_id', 'user_id']);
    t.index(['studio_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_pricing_option_shares');
  await knex.schema.dropTableIfExists('client_pricing_option_changes');
  await knex.schema.alterTable('client_pricing_options', (t) => {
    t.dropColumns(
      'sold_at',
      'price_paid',
      'expiration_type',
      'validity_count',
      'validity_unit',
      'valid_until',
      'sold_by',
    );
  });
  await knex.schema.dropTableIfExists('pricing_option_promotions');
  await knex.raw('drop index if exists pricing_options_studio_category');
  await knex.raw('alter table pricing_options drop constraint if exists pricing_options_validity_unit');
  await knex.raw('alter table pricing_options drop constraint if exists pricing_options_expiration_type');
  await knex.raw('alter table pricing_options drop constraint if exists pricing_options_price');
  await knex.schema.alterTable('pricing_options', (t) => {
    t.dropColumns(
      'category_id',
      'tax_id',
      'description',
      'validity_count',
      'validity_unit',
      'valid_until',
      'service_types',
      'restrictions',
      'sell_at_desk',
      'sell_online',
      'limit_per_client',
      'shareable',
      'share_limit',
      'position',
      'archived_at',
    );
  });
  await knex.schema.dropTableIfExists('pricing_option_categories');
}
