import { createPrivateKey, X509Certificate } from 'node:crypto';
import type {
  KsefEnvironment,
  KsefSettingsInput,
  KsefSettingsView,
} from '../../../../../shared/contracts/api/ksef';
import { AppError } from '../../../../../shared/errors';
import type { Config } from '../../../config';
import type { Db, Knex } from '../../../db/knex';
import {
  ciphertextKeyId,
  decryptFieldValue,
  encryptFieldValue,
  fieldKeyring,
  type FieldKeyring,
} from '../../../crypto/field-crypto';

/**
 * The studio's KSeF settings: its KSeF token and offline certificate, encrypted with the server's
 * field-encryption key (AES-256-GCM, `FIELD_ENCRYPTION_KEY` / `FIELD_ENCRYPTION_KEYS`, as payment
 * providers' keys) and bound to the studio, and the environment (test or production) they belong to.
 */

export const KSEF_API_URLS: Record<KsefEnvironment, string> = {
  test: 'https://api-test.ksef.mf.gov.pl/v2',
  production: 'https://api.ksef.mf.gov.pl/v2',
};
/** Hosts of the verification links (kody-qr.md, "Środowiska"). */
export const KSEF_QR_URLS: Record<KsefEnvironment, string> = {
  test: 'https://qr-test.ksef.mf.gov.pl',
  production: 'https://qr.ksef.mf.gov.pl',
};

type KsefConfig = Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'FIELD_ENCRYPTION_KEYS' | 'dataDir' | 'KSEF_API_URL'>;
let config: KsefConfig | null = null;

/** Called once by the app with its configuration (read lazily: a test points KSEF_API_URL at its fake). */
export function configureKsef(c: KsefConfig): void {
  config = c;
}

function keys(): FieldKeyring {
  if (!config) throw new Error('KSeF is not configured (configureKsef)');
  return fieldKeyring(config);
}

export function ksefApiUrl(environment: KsefEnvironment): string {
  return config?.KSEF_API_URL ?? KSEF_API_URLS[environment];
}

const tokenScope = (studioId: string) => ({ studioId, fieldId: 'ksef', clientId: 'token' });
const certificateScope = (studioId: string) => ({
  studioId,
  fieldId: 'ksef',
  clientId: 'offline-certificate',
});

interface SettingsRow {
  studioId: string;
  environment: KsefEnvironment;
  token: string | null;
  tokenHint: string;
  offlineCertificate: string | null;
  offlineCertificateSerial: string | null;
  updatedAt: Date;
}

const view = (row: SettingsRow | undefined): KsefSettingsView => ({
  environment: row?.environment ?? 'test',
  tokenSaved: Boolean(row?.token),
  tokenHint: row?.token ? row.tokenHint : '',
  offlineCertificate:
    row?.offlineCertificate && row.offlineCertificateSerial
      ? { serialNumber: row.offlineCertificateSerial }
      : null,
  updatedAt: row ? new Date(row.updatedAt).toISOString() : null,
});

export async function ksefSettings(db: Db, studioId: string): Promise<KsefSettingsView> {
  return view((await db('studio_ksef_settings').where({ studioId }).first()) as SettingsRow | undefined);
}

/** Checks an offline certificate: an X.509 certificate with an RSA key (KOD II signs with RSASSA-PSS) and its private key. */
function readCertificate(input: { certificatePem: string; privateKeyPem: string }): string {
  try {
    const cert = new X509Certificate(input.certificatePem);
    const key = createPrivateKey(input.privateKeyPem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    if (!cert.checkPrivateKey(key)) throw new Error('key does not match');
    return cert.serialNumber.toUpperCase();
  } catch {
    throw new AppError('ksef.invalidCertificate', {
      message: 'the offline certificate and its RSA private key do not match or cannot be read',
      fields: { offlineCertificate: ['an X.509 certificate (PEM) with its RSA private key (PEM)'] },
    });
  }
}

export async function saveKsefSettings(
  db: Db,
  studioId: string,
  input: KsefSettingsInput,
  now: Date,
): Promise<KsefSettingsView> {
  const row: {
    studioId: string;
    environment: KsefEnvironment;
    updatedAt: Date;
    token?: string | null;
    tokenHint?: string;
    offlineCertificate?: string | null;
    offlineCertificateSerial?: string | null;
  } = { studioId, environment: input.environment, updatedAt: now };
  if (input.token !== undefined) {
    row.token = input.token === null ? null : encryptFieldValue(keys(), tokenScope(studioId), input.token);
    row.tokenHint = input.token === null ? '' : `…${input.token.slice(-4)}`;
  }
  if (input.offlineCertificate !== undefined) {
    const serial = input.offlineCertificate ? readCertificate(input.offlineCertificate) : null;
    row.offlineCertificate = input.offlineCertificate
      ? encryptFieldValue(keys(), certificateScope(studioId), input.offlineCertificate)
      : null;
    row.offlineCertificateSerial = serial;
  }
  await db('studio_ksef_settings').insert(row).onConflict('studioId').merge();
  return ksefSettings(db, studioId);
}

export interface KsefSecrets {
  environment: KsefEnvironment;
  token: string;
  certificate: { certificatePem: string; privateKeyPem: string; serial: string } | null;
}

/** The environment and secrets the sender needs, or null when the studio has no (readable) token. */
export async function ksefSecrets(db: Db, studioId: string): Promise<KsefSecrets | null> {
  const row = (await db('studio_ksef_settings').where({ studioId }).first()) as SettingsRow | undefined;
  if (!row?.token) return null;
  try {
    const token = decryptFieldValue(keys(), tokenScope(studioId), row.token) as string;
    const certificate =
      row.offlineCertificate && row.offlineCertificateSerial
        ? {
            ...(decryptFieldValue(keys(), certificateScope(studioId), row.offlineCertificate) as {
              certificatePem: string;
              privateKeyPem: string;
            }),
            serial: row.offlineCertificateSerial,
          }
        : null;
    return { environment: row.environment, token, certificate };
  } catch {
    // Encrypted with a key the server no longer has: as good as none; staff enter it again.
    return null;
  }
}

/** The environment a studio sends to, when it sends at all (no decryption). */
export async function ksefEnvironmentOf(db: Db, studioId: string): Promise<KsefEnvironment | null> {
  const row = (await db('studio_ksef_settings')
    .where({ studioId })
    .whereNotNull('token')
    .first('environment')) as { environment: KsefEnvironment } | undefined;
  return row?.environment ?? null;
}

/**
 * Key rotation (`npm run fields:reencrypt`): every studio's KSeF token and offline certificate not
 * under the current key, moved to it; a row changed meanwhile is left for the next run.
 */
export async function reencryptKsefSecrets(
  knex: Knex,
  ring: FieldKeyring,
): Promise<{ moved: number; unreadable: number }> {
  const result = { moved: 0, unreadable: 0 };
  const rows = (await knex('studio_ksef_settings')
    .whereNotNull('token')
    .orWhereNotNull('offlineCertificate')
    .select('studioId', 'token', 'offlineCertificate')) as Array<
    Pick<SettingsRow, 'studioId' | 'token' | 'offlineCertificate'>
  >;
  for (const row of rows) {
    for (const [column, scope] of [
      ['token', tokenScope(row.studioId)],
      ['offlineCertificate', certificateScope(row.studioId)],
    ] as const) {
      const old = row[column];
      if (!old || ciphertextKeyId(old) === ring.current.id) continue;
      let plain: unknown;
      try {
        plain = decryptFieldValue(ring, scope, old);
      } catch {
        result.unreadable += 1;
        continue;
      }
      result.moved += await knex('studio_ksef_settings')
        .where({ studioId: row.studioId, [column]: old })
        .update({ [column]: encryptFieldValue(ring, scope, plain) });
    }
  }
  return result;
}
