import type { Knex } from 'knex';

/**
 * Sending invoices to KSeF (issue 19; the Ministry of Finance's KSeF API 2.0).
 *
 * - `studio_ksef_settings`: the studio's KSeF token (encrypted with the field-encryption key, bound
 *   to the studio) and the environment it belongs to (test or production); optionally the KSeF
 *   offline certificate (certificate + private key, encrypted) that signs KOD II of offline
 *   invoices. A studio without a row (or without a token) does not send.
 * - `invoice_ksef`: one row per invoice of a sending studio, written in the issuing transaction:
 *   the FA(3) document as sent (its SHA-256 is KOD I's), where it is (waiting → sent → accepted |
 *   refused), whether it was issued in offline mode (KSeF unreachable), the session and invoice
 *   reference numbers, and once accepted the KSeF number and the official receipt (UPO, XML).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_ksef_settings', (t) => {
    t.uuid('studio_id').primary().references('studios.id').onDelete('CASCADE');
    t.string('environment', 12).notNullable().defaultTo('test');
    t.text('token').nullable();
    t.string('token_hint', 20).notNullable().defaultTo('');
    t.text('offline_certificate').nullable();
    t.string('offline_certificate_serial', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table studio_ksef_settings add constraint studio_ksef_settings_environment
    check (environment in ('test', 'production'))`);

  await knex.schema.createTable('invoice_ksef', (t) => {
    t.uuid('invoice_id').primary().references('invoices.id').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('status', 12).notNullable().defaultTo('waiting');
    t.string('mode', 8).notNullable().defaultTo('online');
    t.string('environment', 12).notNullable();
    // Resends so far + 1: the send job's key (`ksef.send:<invoice>:<attempt>`).
    t.integer('attempt').notNullable().defaultTo(1);
    t.text('xml').nullable();
    t.string('invoice_hash', 44).nullable();
    // A refused offline invoice sent again (technical correction): the hash of the refused one.
    t.string('corrected_hash', 44).nullable();
    t.string('session_reference', 40).nullable();
    t.string('invoice_reference', 40).nullable();
    t.string('ksef_number', 36).nullable();
    t.text('upo').nullable();
    t.integer('status_code').nullable();
    t.text('reason').nullable();
    t.text('last_error').nullable();
    t.timestamp('offline_since', { useTz: true }).nullable();
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('accepted_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['ksef_number']);
    t.index(['studio_id', 'status']);
  });
  await knex.raw(`alter table invoice_ksef
    add constraint invoice_ksef_status check (status in ('waiting', 'sent', 'accepted', 'refused')),
    add constraint invoice_ksef_mode check (mode in ('online', 'offline')),
    add constraint invoice_ksef_environment check (environment in ('test', 'production')),
    add constraint invoice_ksef_accepted check ((status = 'accepted') = (ksef_number is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invoice_ksef');
  await knex.schema.dropTable('studio_ksef_settings');
}
