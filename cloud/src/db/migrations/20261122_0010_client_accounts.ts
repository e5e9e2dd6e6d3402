import type { Knex } from 'knex';

/**
 * Client accounts (front office) and client identities:
 * - `studio_agreements`: a studio's versioned agreement texts (terms, privacy, marketing);
 * - `client_agreement_acceptances`: what a client answered to which version, and when;
 * - `user_profiles`: a person's own birth date, sex, avatar and notification preferences (the
 *   `users` row keeps name, phone and language);
 * - `client_identities`: per studio, a client's QR token and membership card numbers;
 * - `user_account_links`: accounts linked by a person (family, own accounts in other studios);
 * - `user_messages`, `user_notifications`: a client's inbox in a studio.
 *
 * An account erasure (identity module's `account_erasures`) removes the studio's identities,
 * messages and notifications of the person, and, when the person is anonymised, their profile and
 * links (a trigger, so the identity module needs not know these tables). Acceptances are kept: they
 * are the studio's proof of consent and hold no personal data beyond the user id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_agreements', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    t.integer('version').notNullable();
    t.boolean('required').notNullable();
    /** Locale texts: `{ "en": { "value": "…" }, "pl": { "value": "…" } }`. */
    t.jsonb('title').notNullable();
    t.jsonb('content').notNullable();
    t.timestamp('published_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'kind', 'version']);
  });
  await knex.raw(
    `alter table studio_agreements add constraint studio_agreements_kind check (kind in ('terms', 'privacy', 'marketing'))`,
  );

  await knex.schema.createTable('client_agreement_acceptances', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('agreement_id').notNullable().references('studio_agreements.id').onDelete('RESTRICT');
    t.string('kind', 20).notNullable();
    t.integer('version').notNullable();
    t.boolean('accepted').notNullable();
    t.timestamp('decided_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'user_id', 'kind', 'decided_at']);
  });

  await knex.schema.createTable('user_profiles', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.date('birth_date').nullable();
    t.smallint('sex').nullable();
    t.string('avatar_file', 100).nullable();
    t.string('avatar_type', 20).nullable();
    t.boolean('notify_email').notNullable().defaultTo(true);
    t.boolean('notify_sms').notNullable().defaultTo(false);
    t.boolean('notify_push').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table user_profiles add constraint user_profiles_sex check (sex in (0, 1))');

  await knex.schema.createTable('client_identities', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    /** The card number as entered, or the QR token. */
    t.string('value', 64).notNullable();
    /** What is compared: the token, or the card number without case, spaces and hyphens. */
    t.string('value_key', 64).notNullable();
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'user_id']);
  });
  await knex.raw(
    `alter table client_identities add constraint client_identities_kind check (kind in ('qr', 'card'))`,
  );
  // One card number (any spelling) and one QR token per studio; one QR code per client.
  await knex.raw(
    'create unique index client_identities_key on client_identities (studio_id, kind, value_key)',
  );
  await knex.raw(
    `create unique index client_identities_one_qr on client_identities (studio_id, user_id) where kind = 'qr'`,
  );

  await knex.schema.createTable('user_account_links', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('linked_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('relationship', 10).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['linked_user_id']);
  });
  await knex.raw(
    `alter table user_account_links add constraint user_account_links_relationship
     check (relationship in ('self', 'spouse', 'parent', 'child', 'sibling', 'friend'))`,
  );
  await knex.raw(
    'alter table user_account_links add constraint user_account_links_not_self check (user_id <> linked_user_id)',
  );
  // One link per pair, whichever side made it.
  await knex.raw(
    'create unique index user_account_links_pair on user_account_links (least(user_id, linked_user_id), greatest(user_id, linked_user_id))',
  );
  await knex.raw('create index user_account_links_owner on user_account_links (user_id)');

  await knex.schema.createTable('user_messages', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('sender', 10).notNullable();
    t.uuid('author_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('subject', 200).notNullable().defaultTo('');
    t.text('content').notNullable();
    /** When the recipient read it (the client for studio messages, the studio for the client's). */
    t.timestamp('read_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'user_id', 'id']);
  });
  await knex.raw(
    `alter table user_messages add constraint user_messages_sender check (sender in ('studio', 'client'))`,
  );

  await knex.schema.createTable('user_notifications', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 40).notNullable();
    t.string('title_key', 100).notNullable();
    t.jsonb('values').notNullable().defaultTo('{}');
    t.timestamp('read_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'user_id', 'id']);
  });

  await knex.raw(`
    create function client_accounts_erase() returns trigger language plpgsql as $$
    begin
      delete from client_identities where studio_id = new.studio_id and user_id = new.user_id;
      delete from user_messages where studio_id = new.studio_id and user_id = new.user_id;
      delete from user_notifications where studio_id = new.studio_id and user_id = new.user_id;
      if new.anonymised then
        delete from user_profiles where user_id = new.user_id;
        delete from user_account_links where user_id = new.user_id or linked_user_id = new.user_id;
      end if;
      return null;
    end $$`);
  await knex.raw(`
    create trigger account_erasures_client_accounts
    after insert on account_erasures
    for each row execute function client_accounts_erase()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists account_erasures_client_accounts on account_erasures');
  await knex.raw('drop function if exists client_accounts_erase()');
  for (const table of [
    'user_notifications',
    'user_messages',
    'user_account_links',
    'client_identities',
    'user_profiles',
    'client_agreement_acceptances',
    'studio_agreements',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
