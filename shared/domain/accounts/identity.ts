/**
 * Client identities a kiosk or the front desk reads: the client's QR code (a random token the
 * platform generates) and membership card numbers (printed cards the studio hands out).
 */
export const QR_PREFIX = 'sp1:';
export const CARD_NUMBER_MAX = 40;
/** Letters, digits, spaces and hyphens; at least 3 significant characters. */
const CARD_RE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;

/** The QR code's text for a token. */
export function qrPayload(token: string): string {
  return `${QR_PREFIX}${token}`;
}

/**
 * A card number as it is compared: case, spaces and hyphens do not matter ("AB-12 34" = "ab1234"),
 * so a number typed at the desk matches what a reader sends. Null for what cannot be a card number.
 */
export function cardNumberKey(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > CARD_NUMBER_MAX || !CARD_RE.test(trimmed)) return null;
  const key = trimmed.replace(/[\s-]/g, '').toLowerCase();
  return key.length >= 3 ? key : null;
}

export type ScannedIdentity = { kind: 'qr'; token: string } | { kind: 'card'; key: string };

/** What a scanned or typed value is: a QR token (by its prefix) or a card number. */
export function parseScannedIdentity(value: string): ScannedIdentity | null {
  const trimmed = value.trim();
  if (trimmed.startsWith(QR_PREFIX)) {
    const token = trimmed.slice(QR_PREFIX.length);
    return /^[A-Za-z0-9_-]{16,64}$/.test(token) ? { kind: 'qr', token } : null;
  }
  const key = cardNumberKey(trimmed);
  return key ? { kind: 'card', key } : null;
}
