import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Station PINs are stored only as scrypt hashes (N=2^15, r=8, p=1, 16-byte salt, 32-byte key; the
 * parameters travel with each hash so they can be raised later). A PIN is short, so the hash alone
 * would not resist an offline guess for long: what protects it is that the file stays in main
 * (0600, encrypted with the OS keychain in Electron) and that a few wrong tries drop the PIN.
 */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

function scrypt(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPin(pin: string, params = DEFAULTS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, params.keyLength, {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 128 * params.N * params.r * 2,
  });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(keyText, 'base64');
  const actual = await scrypt(pin, Buffer.from(saltText, 'base64'), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: 128 * N * R * 2,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
