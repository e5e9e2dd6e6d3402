import type { Knex } from 'knex';

/**
 * Client records beyond the card (modules/client-records): documents, custom field definitions and
 * values (encrypted ones as ciphertext only), the audit of every decryption, email bounces, and the
 * merges and links of duplicate clients.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  // Metadata only: the bytes live under DATA_DIR/client-documents/<studio id>/<document id>.
  await knex.schema.createTable('client_documents', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('uploaded_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('file_name', 255).notNullable();
    t.string('content_type', 100).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('sha256', 64).notNullable();
    timestamps(t);
    t.index(['studio_id', 'client_id', 'created_at']);
  });

  await knex.schema.createTable('client_fields', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    /** A plain string or locale text ({ en: { value }, pl: { value } }). */
    t.jsonb('name').notNullable();
    t.smallint('type').notNullable();
    t.boolean('required').notNullable().defaultTo(false);
    t.boolean('encrypted').notNullable().defaultTo(false);
    /** Select types: [{ value, label }]; numeric: { min, max } under settings. */
    t.jsonb('options').notNullable().defaultTo('[]');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['studio_id', 'position']);
  });
  await knex.raw('alter table client_fields add constraint client_fields_type check (type between 0 and 6)');

  await knex.schema.createTable('client_field_values', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('field_id').notNullable().references('client_fields.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    /** The value of a plain field; null for an encrypted one. */
    t.jsonb('value').nullable();
    /** AES-256-GCM ciphertext of an encrypted field's JSON value ("v1.<iv>.<tag>.<data>", base64url). */
    t.text('ciphertext').nullable();
    timestamps(t);
    t.unique(['field_id', 'client_id']);
    t.index(['studio_id', 'client_id']);
  });
  await knex.raw(
    'alter table client_field_values add constraint client_field_values_one check ((value is null) or (ciphertext is null))',
  );

  // Who saw which encrypted value of whom, and when. Never deleted with the value.
  await knex.schema.createTable('client_field_decrypt_audits', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('field_id').nullable().references('client_fields.id').onDelete('SET NULL');
    t.string('request_id', 64).nullable();
    timestamps(t);
    t.index(['studio_id', 'created_at']);
    t.index(['studio_id', 'client_id']);
  });

  // One per client of a studio: the address the studio's mail bounced from, and why.
  await knex.schema.createTable('client_email_bounces', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.string('reason', 20).notNullable();
    t.string('message', 500).nullable();
    t.timestamp('bounced_at', { useTz: true }).notNullable();
    timestamps(t);
    t.unique(['studio_id', 'client_id']);
  });
  await knex.raw(
    `alter table client_email_bounces add constraint client_email_bounces_reason check (reason in
     ('unknown', 'noMailbox', 'noDns', 'noConnection', 'invalidDomain', 'exceededQuota'))`,
  );

  // The audit of merges: the duplicate's record stays (archived), this row says where it went.
  await knex.schema.createTable('client_merges', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('kept_client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('merged_client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    t.jsonb('moved').notNullable().defaultTo('{}');
    timestamps(t);
    t.unique(['studio_id', 'merged_client_id']);
    t.index(['studio_id', 'kept_client_id']);
  });

  // Two clients staff confirmed to be the same person with separate accounts (no data moved).
  await knex.schema.createTable('client_links', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    /** The smaller user id of the pair first, so a pair is stored once. */
    t.uuid('client_a_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('client_b_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('actor_id').nullable().references('users.id').onDelete('SET NULL');
    timestamps(t);
    t.unique(['studio_id', 'client_a_id', 'client_b_id']);
    t.index(['studio_id', 'client_b_id']);
  });

  // An account erasure (identity module) empties what this module holds of the person in that
  // studio. Documents are left to the service (their files live on disk): see the module README.
  await knex.raw(`
    create function client_records_erase() returns trigger language plpgsql as $$
    begin
      delete from client_field_values where studio_id = new.studio_id and client_id = new.user_id;
      delete from client_email_bounces where studio_id = new.studio_id and client_id = new.user_id;
      return null;
    end $$`);
  await knex.raw(`
    create trigger account_erasures_client_records
    after insert on account_erasures
    for each row execute function client_records_erase()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists account_erasures_client_records on account_erasures');
  await knex.raw('drop function if exists client_records_erase()');
  for (const table of [
    'client_links',
    'client_merges',
    'client_email_bounces',
    'client_field_decrypt_audits',
    'client_field_values',
    'client_fields',
    'client_documents',
  ])
    await knex.schema.dropTableIfExists(table);
}
