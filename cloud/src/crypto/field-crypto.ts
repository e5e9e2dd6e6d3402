import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * AES-256-GCM for encrypted client custom fields (and studios' payment provider keys). A value is
 * bound to its studio, field and client (additional authenticated data), so ciphertext copied onto
 * another client or field does not decrypt.
 *
 * Format `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url): the key id names the key that encrypted
 * it, so keys can rotate: FIELD_ENCRYPTION_KEY encrypts, FIELD_ENCRYPTION_KEYS (earlier keys) still
 * decrypt, and `npm run fields:reencrypt` moves stored values to the current key. A key's id is the
 * start of its SHA-256, so nothing has to name keys and every instance derives the same ids.
 * `v1.<iv>.<tag>.<ciphertext>` (before rotation) carries no id: every known key is tried.
 */
const VERSION = 'v2';

export interface FieldKeyring {
  /** The key new values are encrypted with. */
  current: { id: string; key: Buffer };
  /** Every key that decrypts, the current one included, by id. */
  byId: ReadonlyMap<string, Buffer>;
}

export function fieldKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

export function keyringOf(current: Buffer, older: readonly Buffer[] = []): FieldKeyring {
  const byId = new Map<string, Buffer>();
  for (const key of [current, ...older]) {
    if (key.length !== 32) throw new Error('a field-encryption key is 32 bytes');
    byId.set(fieldKeyId(key), key);
  }
  return { current: { id: fieldKeyId(current), key: current }, byId };
}

const keyrings = new Map<string, FieldKeyring>();

/**
 * The keys: FIELD_ENCRYPTION_KEY (+ FIELD_ENCRYPTION_KEYS), or, without it (development and the
 * embedded database; production refuses to start, config.ts), one generated on first use and kept
 * (mode 0600) in DATA_DIR/secrets/field-encryption.key, so values survive restarts. Losing that file
 * loses every encrypted value.
 */
export function fieldKeyring(
  config: Pick<Config, 'FIELD_ENCRYPTION_KEY' | 'FIELD_ENCRYPTION_KEYS' | 'dataDir'>,
): FieldKeyring {
  const older = (config.FIELD_ENCRYPTION_KEYS ?? []).map((k) => Buffer.from(k, 'base64'));
  if (config.FIELD_ENCRYPTION_KEY) {
    const cacheKey = [config.FIELD_ENCRYPTION_KEY, ...(config.FIELD_ENCRYPTION_KEYS ?? [])].join(',');
    let ring = keyrings.get(cacheKey);
    if (!ring)
      keyrings.set(cacheKey, (ring = keyringOf(Buffer.from(config.FIELD_ENCRYPTION_KEY, 'base64'), older)));
    return ring;
  }
  const file = path.join(config.dataDir, 'secrets', 'field-encryption.key');
  const cached = keyrings.get(file);
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
  const ring = keyringOf(key, older);
  keyrings.set(file, ring);
  return ring;
}

type Scope = { studioId: string; fieldId: string; clientId: string };

const aad = (scope: Scope) => Buffer.from(`${scope.studioId}/${scope.fieldId}/${scope.clientId}`, 'utf8');

export function encryptFieldValue(keys: FieldKeyring, scope: Scope, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(aad(scope));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [
    VERSION,
    keys.current.id,
    ...[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url')),
  ].join('.');
}

/** The id of the key a stored value was encrypted with (null: a v1 value, from before key ids). */
export function ciphertextKeyId(ciphertext: string): string | null {
  const [version, id] = ciphertext.split('.');
  return version === VERSION ? (id ?? null) : null;
}

function decryptWith(key: Buffer, scope: Scope, iv: string, tag: string, data: string): unknown {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad(scope));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}

/** Throws when the ciphertext was altered, moved to another client or field, or made with an unknown key. */
export function decryptFieldValue(keys: FieldKeyring, scope: Scope, ciphertext: string): unknown {
  const parts = ciphertext.split('.');
  if (parts[0] === VERSION && parts.length === 5) {
    const [, id, iv, tag, data] = parts as [string, string, string, string, string];
    const key = keys.byId.get(id);
    if (!key)
      throw new Error(`field value encrypted with unknown key ${id} (add it to FIELD_ENCRYPTION_KEYS)`);
    return decryptWith(key, scope, iv, tag, data);
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    const candidates = [keys.current.key, ...[...keys.byId.values()].filter((k) => k !== keys.current.key)];
    for (const [i, key] of candidates.entries()) {
      try {
        return decryptWith(key, scope, iv, tag, data);
      } catch (err) {
        if (i === candidates.length - 1) throw err;
      }
    }
  }
  throw new Error('unknown ciphertext format');
}
