import http from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { configureWebhookNetwork } from '../ssrf';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A studio's webhook URL on loopback for a test file: every delivery is kept in `received`; each
 * answer takes the next status of `answers` (200 when none is queued). Loopback is allowed past the
 * SSRF guard for the file and refused again after it.
 */
export function useWebhookReceiver(path = '/in') {
  const state = {
    received: [] as ReceivedDelivery[],
    answers: [] as number[],
    url: '',
  };
  let server: http.Server;
  beforeAll(async () => {
    configureWebhookNetwork({ allowLoopback: true });
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        state.received.push({ headers: req.headers, body });
        res.statusCode = state.answers.shift() ?? 200;
        res.end(res.statusCode < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    state.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${path}`;
  });
  afterAll(async () => {
    configureWebhookNetwork({ allowLoopback: false });
    await new Promise((resolve) => server.close(resolve));
  });
  return state;
}
