import type { Config } from '../../../config';
import type { Db } from '../../../db/knex';
import {
  decryptFieldValue,
  encryptFieldValue,
  fieldKeyring,
  type FieldKeyring,
} from '../../../crypto/field-crypto';

/**
 * A studio's keys to its payment provider account, kept encrypted in
 * `studio_payment_providers.settings.credentials` with the server's field-encryption key (the one
 * client custom fields use: AES-256-GCM, `FIELD_ENCRYPTION_KEY`). The ciphertext is bound to its
 * studio and provider, so a row copied to another studio or provider does not decrypt. Nothing
 * outside this file sees the keys except the provider that uses them; views show a hint only.
 */

let keySource: (() => FieldKeyring) | null = null;

/** Called once by the app with its configuration (the key is read lazily, on first use). */
export function configurePaymentSecrets(
  config: Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'FIELD_ENCRYPTION_KEYS' | 'dataDir'>,
): void {
  keySource = () => fieldKeyring(config);
}

function key(): FieldKeyring {
  if (!keySource) throw new Error('payment secrets are not configured (configurePaymentSecrets)');
  return keySource();
}

/** What a provider's credentials are bound to (the re-encryption needs it too). */
export const credentialsScope = (studioId: string, provider: string) => ({
  studioId,
  fieldId: 'payment-provider',
  clientId: provider,
});

export function encryptCredentials(studioId: string, provider: string, value: unknown): string {
  return encryptFieldValue(key(), credentialsScope(studioId, provider), value);
}

export interface StoredProviderSettings {
  credentials?: string;
  secretKeyHint?: string;
}

/** The studio's decrypted credentials, or null when none are saved (or they cannot be read). */
export async function credentialsOf<T>(db: Db, studioId: string, provider: string): Promise<T | null> {
  const row: { settings: StoredProviderSettings } | undefined = await db('studio_payment_providers')
    .where({ studioId, provider })
    .first('settings');
  if (!row?.settings.credentials) return null;
  try {
    return decryptFieldValue(key(), credentialsScope(studioId, provider), row.settings.credentials) as T;
  } catch {
    // Another key (lost or rotated without re-encryption): as good as no keys; staff re-enter them.
    return null;
  }
}

/** "sk_test_…4242": enough to tell which key is saved, not enough to use it. */
export function secretKeyHint(secretKey: string): string {
  const prefix = /^[a-z]+_(test|live)_/.exec(secretKey)?.[0] ?? '';
  return `${prefix}…${secretKey.slice(-4)}`;
}
