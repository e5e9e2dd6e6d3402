import type { Knex } from 'knex';

/**
 * Webhook signing secrets encrypted at rest (issue 24): the columns take the field-encryption
 * ciphertext (`v2.<key id>.<iv>.<tag>.<data>`, longer than the 100 characters a plain `whsec_` secret
 * needed), and no new write may store a secret in the clear. The check is NOT VALID: rows already
 * there are encrypted by the server at its next start (`webhooks/secrets.ts`, which needs the key this
 * migration does not have).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table webhook_endpoints
      alter column secret type text,
      alter column previous_secret type text,
      add constraint webhook_endpoints_secret_sealed
        check (secret not like 'whsec\\_%' and (previous_secret is null or previous_secret not like 'whsec\\_%'))
        not valid`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table webhook_endpoints drop constraint webhook_endpoints_secret_sealed`);
}
