import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on loopback for tests (what FCM or Mozilla's autopush are to a browser): it takes
 * the server's POSTs to subscription endpoints `/push/<id>`, answers 201 (or 410 for an endpoint
 * marked gone), and keeps each request. `browser()` makes a subscription as a browser would (its
 * own P-256 key pair and auth secret), and `open()` decrypts a received message with it (RFC 8291,
 * aes128gcm) and checks the VAPID JWT (RFC 8292: ES256 over the server's public key, `aud` the
 * endpoint's origin, `exp` within 24 h).
 */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeBrowser {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  open(push: ReceivedPush): {
    payload: unknown;
    jwt: { aud: string; exp: number; sub: string };
    vapidKey: string;
  };
}

export interface FakePushService {
  host: string;
  received: ReceivedPush[];
  gone: Set<string>;
  browser(): FakeBrowser;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

function verifyVapid(headers: IncomingHttpHeaders, endpoint: string) {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(String(headers.authorization ?? ''));
  if (!m) throw new Error(`no VAPID authorization: ${headers.authorization}`);
  const [token, key] = [m[1]!, m[2]!.trim()];
  const [h, p, sig] = token.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
  if (header.alg !== 'ES256') throw new Error(`JWT alg ${header.alg}`);
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(sig, 'base64url'),
  );
  if (!ok) throw new Error('VAPID JWT signature does not verify');
  const jwt = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (jwt.aud !== new URL(endpoint).origin) throw new Error(`JWT aud ${jwt.aud}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(jwt.exp > now && jwt.exp <= now + 24 * 3600)) throw new Error(`JWT exp ${jwt.exp}`);
  return { jwt, vapidKey: key };
}

export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const gone = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (gone.has(path)) {
        res.writeHead(410).end();
        return;
      }
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    received,
    gone,
    browser() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `http://${host}/push/${randomBytes(8).toString('hex')}`;
      return {
        subscription: {
          endpoint,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
        open(push) {
          if (push.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
          const { jwt, vapidKey } = verifyVapid(push.headers, endpoint);
          // RFC 8188 header: salt (16) | record size (4) | key id length (1) | key id (the sender's key).
          const body = push.body;
          const salt = body.subarray(0, 16);
          const idlen = body.readUInt8(20);
          const senderKey = body.subarray(21, 21 + idlen);
          const ciphertext = body.subarray(21 + idlen);
          const secret = ecdh.computeSecret(senderKey);
          const prkKey = hmac(auth, secret);
          const keyInfo = Buffer.concat([
            Buffer.from('WebPush: info\0'),
            ecdh.getPublicKey(),
            senderKey,
            Buffer.from([1]),
          ]);
          const ikm = hmac(prkKey, keyInfo);
          const prk = hmac(salt, ikm);
          const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
          const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
          const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
          decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
          const plain = Buffer.concat([
            decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
            decipher.final(),
          ]);
          let end = plain.length - 1;
          while (end >= 0 && plain[end] === 0) end -= 1;
          if (plain[end] !== 2) throw new Error('no last-record delimiter');
          return { payload: JSON.parse(plain.subarray(0, end).toString('utf8')) as unknown, jwt, vapidKey };
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
