import type { Knex } from 'knex';
import type { Config } from '../config';
import {
  ciphertextKeyId,
  decryptFieldValue,
  encryptFieldValue,
  fieldKeyring,
  type FieldKeyring,
} from '../crypto/field-crypto';

/**
 * Webhook signing secrets at rest (issue 24): `webhook_endpoints.secret` and `previous_secret` hold
 * the secret encrypted with the server's field-encryption key (`FIELD_ENCRYPTION_KEY`, AES-256-GCM,
 * the one client custom fields and payment keys use), bound to the endpoint's studio and id, so a
 * value copied onto another endpoint does not decrypt. Only the delivery job (to sign) and the
 * back office's token call (to show it to `settings.edit`) open it. Outside the modules, like
 * `emit.ts`, so the demo seed, the server's start and the re-encryption can use it.
 */

let keySource: (() => FieldKeyring) | null = null;

/** Called by the app and the server with their configuration (the key is read on first use). */
export function configureWebhookSecrets(
  config: Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'FIELD_ENCRYPTION_KEYS' | 'dataDir'>,
): void {
  keySource = () => fieldKeyring(config);
}

function keys(): FieldKeyring {
  if (!keySource) throw new Error('webhook secrets are not configured (configureWebhookSecrets)');
  return keySource();
}

const scope = (studioId: string, endpointId: string) => ({
  studioId,
  fieldId: 'webhook-secret',
  clientId: endpointId,
});

/** A Standard Webhooks secret in the clear: what was stored before encryption (migration 0210). */
export const isPlainWebhookSecret = (stored: string) => stored.startsWith('whsec_');

export function sealWebhookSecret(studioId: string, endpointId: string, secret: string): string {
  return encryptFieldValue(keys(), scope(studioId, endpointId), secret);
}

/** Throws when the value was altered, moved to another endpoint or made with an unknown key. */
export function openWebhookSecret(studioId: string, endpointId: string, stored: string): string {
  return decryptFieldValue(keys(), scope(studioId, endpointId), stored) as string;
}

interface EndpointSecrets {
  id: string;
  studioId: string;
  secret: string;
  previousSecret: string | null;
}

/**
 * Encrypts what is stored in the clear (rows from before migration 0210: run by the server at start,
 * under the start-up lock) and, with `rekey`, moves values under an older key to the current one
 * (`npm run fields:reencrypt`). Each row is updated only if nobody changed it meanwhile.
 */
export async function sealStoredWebhookSecrets(
  knex: Knex,
  options: { keys?: FieldKeyring; rekey?: boolean } = {},
): Promise<{ sealed: number; unreadable: number }> {
  const ring = options.keys ?? keys();
  const result = { sealed: 0, unreadable: 0 };
  const q = knex('webhook_endpoints').select('id', 'studioId', 'secret', 'previousSecret');
  if (!options.rekey)
    q.where((w) => w.where('secret', 'like', 'whsec\\_%').orWhere('previousSecret', 'like', 'whsec\\_%'));
  const rows = (await q) as EndpointSecrets[];
  const reseal = (row: EndpointSecrets, stored: string | null): string | null => {
    if (stored === null) return null;
    const s = scope(row.studioId, row.id);
    if (isPlainWebhookSecret(stored)) return encryptFieldValue(ring, s, stored);
    if (ciphertextKeyId(stored) === ring.current.id) return stored;
    return encryptFieldValue(ring, s, decryptFieldValue(ring, s, stored));
  };
  for (const row of rows) {
    let secret: string | null;
    let previousSecret: string | null;
    try {
      secret = reseal(row, row.secret);
      previousSecret = reseal(row, row.previousSecret);
    } catch {
      result.unreadable += 1;
      continue;
    }
    if (secret === row.secret && previousSecret === row.previousSecret) continue;
    result.sealed += await knex('webhook_endpoints')
      .where({ id: row.id, secret: row.secret })
      .update({ secret: secret!, previousSecret });
  }
  return result;
}
