import type { Knex } from '../../db/knex';
import { reencryptKsefSecrets } from '../invoices/index';
import { credentialsScope, type StoredProviderSettings } from '../sales/index';
import {
  ciphertextKeyId,
  decryptFieldValue,
  encryptFieldValue,
  type FieldKeyring,
} from '../../crypto/field-crypto';
import { sealStoredWebhookSecrets } from '../../webhooks/secrets';

export interface ReencryptResult {
  /** Values moved to the current key. */
  fieldValues: number;
  providerCredentials: number;
  /** Studios' KSeF tokens and offline certificates. */
  ksefSecrets: number;
  /** Webhook endpoints whose signing secrets moved (integrations). */
  webhookSecrets: number;
  /** Values no known key opens (left as they are; reported so an operator can look). */
  unreadable: number;
}

const BATCH = 500;

/**
 * Key rotation's second half (`npm run fields:reencrypt`): every stored encrypted value not under the
 * current key is decrypted with its old key and encrypted with the current one. Batches of 500, each
 * row updated only if nobody changed it meanwhile, so it runs beside a live cloud and can be re-run.
 * When it reports nothing left, the old keys can leave FIELD_ENCRYPTION_KEYS.
 */
export async function reencryptStoredSecrets(knex: Knex, keys: FieldKeyring): Promise<ReencryptResult> {
  const result: ReencryptResult = {
    fieldValues: 0,
    providerCredentials: 0,
    ksefSecrets: 0,
    webhookSecrets: 0,
    unreadable: 0,
  };
  const stale = (ciphertext: string) => ciphertextKeyId(ciphertext) !== keys.current.id;

  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = (await knex('client_field_values')
      .whereNotNull('ciphertext')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .select('id', 'studioId', 'fieldId', 'clientId', 'ciphertext')) as Array<{
      id: string;
      studioId: string;
      fieldId: string;
      clientId: string;
      ciphertext: string;
    }>;
    if (!rows.length) break;
    after = rows[rows.length - 1]!.id;
    await knex.transaction(async (trx) => {
      for (const row of rows.filter((r) => stale(r.ciphertext))) {
        const scope = { studioId: row.studioId, fieldId: row.fieldId, clientId: row.clientId };
        let plain: unknown;
        try {
          plain = decryptFieldValue(keys, scope, row.ciphertext);
        } catch {
          result.unreadable += 1;
          continue;
        }
        const changed = await trx('client_field_values')
          .where({ id: row.id, ciphertext: row.ciphertext })
          .update({ ciphertext: encryptFieldValue(keys, scope, plain) });
        result.fieldValues += changed;
      }
    });
  }

  after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = (await knex('studio_payment_providers')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .select('id', 'studioId', 'provider', 'settings')) as Array<{
      id: string;
      studioId: string;
      provider: string;
      settings: StoredProviderSettings;
    }>;
    if (!rows.length) break;
    after = rows[rows.length - 1]!.id;
    await knex.transaction(async (trx) => {
      for (const row of rows) {
        const old = row.settings.credentials;
        if (!old || !stale(old)) continue;
        const scope = credentialsScope(row.studioId, row.provider);
        let plain: unknown;
        try {
          plain = decryptFieldValue(keys, scope, old);
        } catch {
          result.unreadable += 1;
          continue;
        }
        const changed = await trx('studio_payment_providers')
          .where({ id: row.id })
          .whereRaw(`settings->>'credentials' = ?`, [old])
          .update({ settings: { ...row.settings, credentials: encryptFieldValue(keys, scope, plain) } });
        result.providerCredentials += changed;
      }
    });
  }
  const ksef = await reencryptKsefSecrets(knex, keys);
  result.ksefSecrets = ksef.moved;
  result.unreadable += ksef.unreadable;
  const webhooks = await sealStoredWebhookSecrets(knex, { keys, rekey: true });
  result.webhookSecrets = webhooks.sealed;
  result.unreadable += webhooks.unreadable;
  return result;
}
