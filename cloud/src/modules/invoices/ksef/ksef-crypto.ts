import {
  constants,
  createCipheriv,
  createHash,
  publicEncrypt,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';

/**
 * The cryptography KSeF API 2.0 asks of a client (ksef-docs: uwierzytelnianie.md, sesja-interaktywna.md,
 * kody-qr.md), on Node's crypto:
 * - the KSeF token is sent as `token|timestampMs` encrypted with the Ministry's public key
 *   (certificate of usage `KsefTokenEncryption`), RSA-OAEP with SHA-256 (MGF1 SHA-256), base64;
 * - each session has a fresh 32-byte AES key and 16-byte IV; the key goes RSA-OAEP-encrypted with the
 *   certificate of usage `SymmetricKeyEncryption`, the IV in clear; each invoice is AES-256-CBC with
 *   PKCS#7 padding; SHA-256 (base64) and sizes of the plain and the encrypted file go with it;
 * - KOD I: `https://<qr host>/invoice/<seller NIP>/<P_1 as DD-MM-YYYY>/<SHA-256 of the file, base64url>`;
 * - KOD II: `https://<qr host>/certificate/Nip/<context NIP>/<seller NIP>/<certificate serial>/<hash>/<signature>`,
 *   the signature RSASSA-PSS (SHA-256, MGF1 SHA-256, salt 32) of the URL without `https://`, base64url.
 */

export const sha256Base64 = (data: Buffer | string) => createHash('sha256').update(data).digest('base64');
export const sha256Base64Url = (data: Buffer | string) =>
  createHash('sha256').update(data).digest('base64url');
export const base64ToBase64Url = (b64: string) => Buffer.from(b64, 'base64').toString('base64url');

/** A KSeF public-key certificate as `GET /security/public-key-certificates` lists it (DER, base64). */
export interface KsefPublicKeyCertificate {
  certificate: string;
  publicKeyId?: string;
  usage: string[];
  validFrom?: string;
  validTo?: string;
}

export function publicKeyOf(certificateDerBase64: string) {
  return new X509Certificate(Buffer.from(certificateDerBase64, 'base64')).publicKey;
}

export function rsaOaepEncrypt(certificateDerBase64: string, data: Buffer): Buffer {
  return publicEncrypt(
    { key: publicKeyOf(certificateDerBase64), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    data,
  );
}

export function encryptKsefToken(token: string, timestampMs: number, certificateDerBase64: string): string {
  return rsaOaepEncrypt(certificateDerBase64, Buffer.from(`${token.trim()}|${timestampMs}`, 'utf8')).toString(
    'base64',
  );
}

export interface SessionKey {
  key: Buffer;
  iv: Buffer;
  encryptedSymmetricKey: string;
  initializationVector: string;
}

export function newSessionKey(certificateDerBase64: string): SessionKey {
  const key = randomBytes(32);
  const iv = randomBytes(16);
  return {
    key,
    iv,
    encryptedSymmetricKey: rsaOaepEncrypt(certificateDerBase64, key).toString('base64'),
    initializationVector: iv.toString('base64'),
  };
}

export interface EncryptedInvoice {
  invoiceHash: string;
  invoiceSize: number;
  encryptedInvoiceHash: string;
  encryptedInvoiceSize: number;
  encryptedInvoiceContent: string;
}

export function encryptInvoice(xml: Buffer, session: Pick<SessionKey, 'key' | 'iv'>): EncryptedInvoice {
  const cipher = createCipheriv('aes-256-cbc', session.key, session.iv);
  const encrypted = Buffer.concat([cipher.update(xml), cipher.final()]);
  return {
    invoiceHash: sha256Base64(xml),
    invoiceSize: xml.length,
    encryptedInvoiceHash: sha256Base64(encrypted),
    encryptedInvoiceSize: encrypted.length,
    encryptedInvoiceContent: encrypted.toString('base64'),
  };
}

/** CRC-8 (polynomial 0x07, initial 0x00) of a KSeF number's first 32 characters (faktury/numer-ksef.md). */
export function crc8(text: string): string {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc.toString(16).toUpperCase().padStart(2, '0');
}

/** A KSeF number `NIP-YYYYMMDD-<12 hex>-<CRC-8>` (the seed and the local fake make them as KSeF does). */
export function composeKsefNumber(nip: string, date: Date, technical: string): string {
  const data = `${nip}-${date.toISOString().slice(0, 10).replace(/-/g, '')}-${technical.toUpperCase()}`;
  return `${data}-${crc8(data)}`;
}

export function isValidKsefNumber(value: string): boolean {
  return (
    /^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/.test(value) && crc8(value.slice(0, 32)) === value.slice(33)
  );
}

/** KOD I: the invoice's verification link (issue date P_1 as DD-MM-YYYY). */
export function invoiceVerificationUrl(
  qrBase: string,
  sellerNip: string,
  issueDate: string,
  invoiceHashBase64: string,
) {
  const [y, m, d] = issueDate.split('-');
  return `${qrBase}/invoice/${sellerNip}/${d}-${m}-${y}/${base64ToBase64Url(invoiceHashBase64)}`;
}

/** KOD II: the issuer's certificate link, signed with the KSeF offline certificate's private key. */
export function certificateVerificationUrl(
  qrBase: string,
  args: {
    contextNip: string;
    sellerNip: string;
    certificateSerial: string;
    invoiceHashBase64: string;
    privateKeyPem: string;
  },
): string {
  const path =
    `${qrBase.replace(/^https?:\/\//, '')}/certificate/Nip/${args.contextNip}/${args.sellerNip}/` +
    `${args.certificateSerial}/${base64ToBase64Url(args.invoiceHashBase64)}`;
  const signature = sign('sha256', Buffer.from(path, 'utf8'), {
    key: args.privateKeyPem,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: 32,
  });
  return `https://${path}/${signature.toString('base64url')}`;
}
