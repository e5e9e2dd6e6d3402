import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback fake of DeepL's `POST /v2/translate` for tests and local runs (point DEEPL_API_URL at
 * it). Deterministic: a known phrase gets its dictionary translation, anything else comes back as
 * `[<TARGET>] <text>`. It checks what DeepL checks that matters to us (the auth header, a JSON body
 * with `text[]` and `target_lang`) and records every request so a test can see what was sent.
 * `fail(status)` makes the next answers fail with that status (429, 456, 500 …).
 */
export const FAKE_DEEPL_KEY = 'fake-deepl-key:fx';

const DICTIONARY: Record<string, Record<string, string>> = {
  'EN-GB': {
    'Karnet 8 wejść': '8-entry pass',
    'Karnet 4 wejścia': '4-entry pass',
    'Karnet 10 wejść': '10-entry pass',
    'Joga poranna': 'Morning yoga',
    'Karnet poranny 10 wejść': 'Morning pass, 10 entries',
  },
  PL: { '8-entry pass': 'Karnet 8 wejść', 'Morning yoga': 'Joga poranna' },
};

export interface FakeDeepl {
  url: string;
  requests: Array<{ authorization: string | undefined; body: unknown }>;
  fail(status: number | null): void;
  close(): Promise<void>;
}

export async function startFakeDeepl(port = 0): Promise<FakeDeepl> {
  const requests: FakeDeepl['requests'] = [];
  let failWith: number | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v2/translate') return send(404, { message: 'Not found' });
      type Body = { text?: unknown; target_lang?: unknown; source_lang?: unknown };
      let body: Body | null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body | null;
      } catch {
        body = null;
      }
      requests.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== `DeepL-Auth-Key ${FAKE_DEEPL_KEY}`)
        return send(403, { message: 'Authorization failure, check auth_key' });
      if (failWith !== null) return send(failWith, { message: 'failing on purpose' });
      if (!body || !Array.isArray(body.text) || typeof body.target_lang !== 'string')
        return send(400, { message: 'Bad request. Reason: Parameter "text" not specified.' });
      const target = body.target_lang.toUpperCase();
      send(200, {
        translations: body.text.map((t) => ({
          detected_source_language: typeof body.source_lang === 'string' ? body.source_lang : 'PL',
          text: DICTIONARY[target]?.[String(t)] ?? `[${target}] ${String(t)}`,
        })),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    fail: (status) => {
      failWith = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
