import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';

/**
 * AES-256-GCM for encrypted client custom fields. A value is bound to its studio, field and client
 * (additional authenticated data), so ciphertext copied onto another client or field does not
 * decrypt. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url), the version leaving room for key rotation.
 */
const VERSION = 'v1';

const keys = new Map<string, Buffer>();

/**
 * The key: FIELD_ENCRYPTION_KEY, or one generated on first use and kept (mode 0600) in
 * DATA_DIR/secrets/field-encryption.key, so development and the embedded database keep working
 * across restarts. Losing that file loses every encrypted value: production sets the variable.
 */
export function fieldKey(config: Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'dataDir'>): Buffer {
  if (config.FIELD_ENCRYPTION_KEY) return Buffer.from(config.FIELD_ENCRYPTION_KEY, 'base64');
  const file = path.join(config.dataDir, 'secrets', 'field-encryption.key');
  const cached = keys.get(file);
  if (cached) return cached;
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // `wx`: two processes starting at once keep the first key written.
      fs.writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  }
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  keys.set(file, key);
  return key;
}

const aad = (scope: { studioId: string; fieldId: string; clientId: string }) =>
  Buffer.from(`${scope.studioId}/${scope.fieldId}/${scope.clientId}`, 'utf8');

export function encryptFieldValue(
  key: Buffer,
  scope: { studioId: string; fieldId: string; clientId: string },
  value: unknown,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(scope));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Throws when the ciphertext was altered, moved to another client or field, or made with another key. */
export function decryptFieldValue(
  key: Buffer,
  scope: { studioId: string; fieldId: string; clientId: string },
  ciphertext: string,
): unknown {
  const [version, iv, tag, data] = ciphertext.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad(scope));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}
