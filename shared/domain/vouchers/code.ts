/**
 * Voucher codes. Staff may type their own (letters, digits and hyphens, 4 to 32 characters) or let
 * the server generate one. Codes are compared whatever the case: they are stored upper-cased, and
 * what a client or cashier types is normalized the same way before it is looked up.
 */
export const VOUCHER_CODE_MIN = 4;
export const VOUCHER_CODE_MAX = 32;
export const VOUCHER_CODE_PATTERN = /^[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?$/;

/** No 0/O, 1/I/L, 2/Z, 5/S: codes are read aloud at a desk and copied from paper. */
export const GENERATED_CODE_ALPHABET = '346789ABCDEFGHJKMNPQRTUVWXY';
export const GENERATED_CODE_LENGTH = 10;

/** Trims and upper-cases; inner spaces are dropped (codes printed in groups). */
export function normalizeVoucherCode(input: string): string {
  return input.trim().replace(/\s+/g, '').toUpperCase();
}

export function isVoucherCode(normalized: string): boolean {
  return (
    normalized.length >= VOUCHER_CODE_MIN &&
    normalized.length <= VOUCHER_CODE_MAX &&
    VOUCHER_CODE_PATTERN.test(normalized)
  );
}

/**
 * A code from random bytes (the caller supplies them: crypto on the server, a seeded source in
 * tests), as XXXXX-XXXXX. Bytes are used by rejection sampling so every letter is equally likely.
 */
export function generateVoucherCode(randomBytes: (n: number) => Uint8Array): string {
  const alphabet = GENERATED_CODE_ALPHABET;
  const limit = 256 - (256 % alphabet.length);
  let code = '';
  while (code.length < GENERATED_CODE_LENGTH) {
    for (const byte of randomBytes(GENERATED_CODE_LENGTH * 2)) {
      if (byte >= limit) continue;
      code += alphabet[byte % alphabet.length];
      if (code.length === GENERATED_CODE_LENGTH) break;
    }
  }
  const half = GENERATED_CODE_LENGTH / 2;
  return `${code.slice(0, half)}-${code.slice(half)}`;
}
