import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A local stand-in for Google's OAuth 2.0 and Calendar API v3 endpoints, written from Google's
 * published API (the paths, form fields, JSON bodies and status codes the Google driver relies on),
 * on 127.0.0.1. The "consent screen" is `GET /o/oauth2/v2/auth`: it answers 302 to the redirect URI
 * with a one-time code and the state, as Google does after the user agrees.
 */
export interface FakeEvent {
  id: string;
  calendarId: string;
  summary: string;
  description?: string;
  location?: string;
  status: string;
  start: { dateTime: string; timeZone?: string };
  end: { dateTime: string; timeZone?: string };
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Events by calendar ("primary" is the account's). */
  events: Map<string, FakeEvent>;
  /** Access and refresh tokens revoked so far. */
  revoked: string[];
  /** Every call, as "METHOD /path". */
  calls: string[];
  /** Make the current access tokens expire (the next API call is 401 until refreshed). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export async function startFakeGoogle(email = 'therapist@gmail.test'): Promise<FakeGoogle> {
  const clientId = 'fake-client.apps.googleusercontent.com';
  const clientSecret = 'fake-secret';
  const codes = new Map<string, string>(); // code → redirect_uri
  const access = new Set<string>();
  const refresh = new Set<string>();
  const events = new Map<string, FakeEvent>();
  const revoked: string[] = [];
  const calls: string[] = [];
  const issue = (withRefresh: boolean) => {
    const accessToken = `ya29.${randomBytes(12).toString('hex')}`;
    access.add(accessToken);
    const refreshToken = withRefresh ? `1//${randomBytes(12).toString('hex')}` : undefined;
    if (refreshToken) refresh.add(refreshToken);
    return {
      access_token: accessToken,
      expires_in: 3599,
      token_type: 'Bearer',
      scope: 'openid email https://www.googleapis.com/auth/calendar.events',
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      id_token: `${b64({ alg: 'RS256' })}.${b64({ iss: 'https://accounts.google.com', aud: clientId, email, email_verified: true })}.sig`,
    };
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const json = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const q = url.searchParams;
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || !q.get('redirect_uri'))
        return json(400, { error: 'invalid_request' });
      const code = `4/${randomBytes(8).toString('hex')}`;
      codes.set(code, q.get('redirect_uri')!);
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      back.searchParams.set('scope', q.get('scope') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
        return json(401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (codes.get(code) !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
        codes.delete(code);
        return json(200, issue(true));
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (!refresh.has(form.get('refresh_token') ?? '')) return json(400, { error: 'invalid_grant' });
        const { refresh_token: _r, ...fresh } = issue(false);
        return json(200, fresh);
      }
      return json(400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'POST' && url.pathname === '/revoke') {
      const t = new URLSearchParams(await readBody(req)).get('token') ?? '';
      if (!access.delete(t) && !refresh.delete(t)) return json(400, { error: 'invalid_token' });
      revoked.push(t);
      return json(200, {});
    }
    const m = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(url.pathname);
    if (m) {
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!access.has(bearer))
        return json(401, {
          error: { code: 401, message: 'Request had invalid authentication credentials.' },
        });
      const calendarId = decodeURIComponent(m[1]!);
      const eventId = m[2] ? decodeURIComponent(m[2]) : null;
      if (req.method === 'POST' && !eventId) {
        const body = JSON.parse(await readBody(req)) as Omit<FakeEvent, 'id' | 'calendarId'>;
        if (!body.start?.dateTime || !body.end?.dateTime) return json(400, { error: { code: 400 } });
        const id = randomBytes(10).toString('hex');
        events.set(id, { ...body, id, calendarId, status: body.status ?? 'confirmed' });
        return json(200, events.get(id));
      }
      const existing = eventId ? events.get(eventId) : undefined;
      if (!existing || existing.calendarId !== calendarId) return json(404, { error: { code: 404 } });
      if (req.method === 'PUT') {
        const body = JSON.parse(await readBody(req)) as Omit<FakeEvent, 'id' | 'calendarId'>;
        events.set(existing.id, { ...body, id: existing.id, calendarId, status: body.status ?? 'confirmed' });
        return json(200, events.get(existing.id));
      }
      if (req.method === 'DELETE') {
        events.delete(existing.id);
        return json(204);
      }
    }
    json(404, { error: { code: 404 } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    clientId,
    clientSecret,
    events,
    revoked,
    calls,
    expireAccessTokens: () => access.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
