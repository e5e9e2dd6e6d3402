import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for SMSAPI.pl's `POST /sms.do` (Bearer token, form-encoded, `format=json`): it
 * keeps what it was sent, refuses a repeated `idx` with error 105 as SMSAPI does with `check_idx=1`,
 * and answers error 13 (no valid number) for numbers in `invalid`.
 */
export interface FakeSmsapi {
  url: string;
  token: string;
  sent: Array<{ to: string; message: string; from: string | null; idx: string | null; auth: string }>;
  invalid: Set<string>;
  close(): Promise<void>;
}

export async function startFakeSmsapi(token = 'test-token'): Promise<FakeSmsapi> {
  const fake: FakeSmsapi = { url: '', token, sent: [], invalid: new Set(), close: async () => undefined };
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const answer = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || req.url !== '/sms.do')
        return answer(404, { error: 404, message: 'not found' });
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${token}`) return answer(401, { error: 101, message: 'Authorization failed' });
      const form = new URLSearchParams(body);
      const to = form.get('to') ?? '';
      const idx = form.get('idx');
      if (form.get('check_idx') === '1' && idx && seen.has(idx))
        return answer(200, { error: 105, message: 'idx already used' });
      if (fake.invalid.has(to)) return answer(200, { error: 13, message: 'No correct phone numbers' });
      if (idx) seen.add(idx);
      const message = form.get('message') ?? '';
      fake.sent.push({ to, message, from: form.get('from'), idx, auth });
      answer(200, {
        count: 1,
        list: [{ id: `msg-${fake.sent.length}`, points: 0.16, number: to, status: 'QUEUE', parts: 1, idx }],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
