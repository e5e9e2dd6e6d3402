import {
  constants,
  createDecipheriv,
  createHash,
  privateDecrypt,
  verify,
  X509Certificate,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  certificateVerificationUrl,
  composeKsefNumber,
  crc8,
  encryptInvoice,
  encryptKsefToken,
  invoiceVerificationUrl,
  isValidKsefNumber,
  newSessionKey,
} from './ksef-crypto';

const here = path.dirname(new URL(import.meta.url).pathname);
const MF_CERT = new X509Certificate(readFileSync(path.join(here, 'testing/fake-mf.cert.pem'))).raw.toString(
  'base64',
);
const MF_KEY = readFileSync(path.join(here, 'testing/fake-mf.key.pem'), 'utf8');
const oaep = (data: string) =>
  privateDecrypt(
    { key: MF_KEY, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(data, 'base64'),
  );

describe('KSeF cryptography and numbers', () => {
  it('validates KSeF numbers with CRC-8 as the docs do (faktury/numer-ksef.md example)', () => {
    expect(crc8('5265877635-20250826-0100001AF629')).toBe('AF');
    expect(isValidKsefNumber('5265877635-20250826-0100001AF629-AF')).toBe(true);
    expect(isValidKsefNumber('5265877635-20250826-0100001AF629-AE')).toBe(false);
    expect(
      isValidKsefNumber(composeKsefNumber('5260250274', new Date('2026-11-23T10:00:00Z'), 'abcdef012345')),
    ).toBe(true);
  });

  it('KOD I is the docs’ link: host, seller NIP, P_1 as DD-MM-YYYY, SHA-256 in base64url', () => {
    const hash = Buffer.from('UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE', 'base64url').toString('base64');
    expect(invoiceVerificationUrl('https://qr-test.ksef.mf.gov.pl', '1111111111', '2026-02-01', hash)).toBe(
      'https://qr-test.ksef.mf.gov.pl/invoice/1111111111/01-02-2026/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE',
    );
  });

  it('KOD II is signed RSASSA-PSS (SHA-256, salt 32) over the link without https://', () => {
    const hash = createHash('sha256').update('<Faktura/>').digest('base64');
    const url = certificateVerificationUrl('https://qr-test.ksef.mf.gov.pl', {
      contextNip: '1111111111',
      sellerNip: '1111111111',
      certificateSerial: '01F20A5D352AE590',
      invoiceHashBase64: hash,
      privateKeyPem: MF_KEY,
    });
    const signed = url.slice('https://'.length, url.lastIndexOf('/'));
    expect(signed).toBe(
      `qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/01F20A5D352AE590/${Buffer.from(hash, 'base64').toString('base64url')}`,
    );
    const signature = Buffer.from(url.slice(url.lastIndexOf('/') + 1), 'base64url');
    const publicKey = new X509Certificate(readFileSync(path.join(here, 'testing/fake-mf.cert.pem')))
      .publicKey;
    expect(
      verify(
        'sha256',
        Buffer.from(signed),
        { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        signature,
      ),
    ).toBe(true);
  });

  it('the token goes as token|timestampMs under RSA-OAEP SHA-256; the invoice under AES-256-CBC with the session key', () => {
    expect(oaep(encryptKsefToken('ref|nip-1111111111|secret', 1_700_000_000_123, MF_CERT)).toString()).toBe(
      'ref|nip-1111111111|secret|1700000000123',
    );
    const session = newSessionKey(MF_CERT);
    expect(oaep(session.encryptedSymmetricKey)).toEqual(session.key);
    expect(Buffer.from(session.initializationVector, 'base64')).toHaveLength(16);
    const xml = Buffer.from('<Faktura>zażółć</Faktura>', 'utf8');
    const sent = encryptInvoice(xml, session);
    const encrypted = Buffer.from(sent.encryptedInvoiceContent, 'base64');
    const decipher = createDecipheriv('aes-256-cbc', session.key, session.iv);
    expect(Buffer.concat([decipher.update(encrypted), decipher.final()])).toEqual(xml);
    expect(sent).toMatchObject({
      invoiceSize: xml.length,
      invoiceHash: createHash('sha256').update(xml).digest('base64'),
      encryptedInvoiceSize: encrypted.length,
      encryptedInvoiceHash: createHash('sha256').update(encrypted).digest('base64'),
    });
    expect(encrypted.length % 16).toBe(0);
  });
});
