import {
  CalendarAuthError,
  type CalendarDriver,
  type CalendarEvent,
  type CalendarTokens,
} from './calendar-driver';

/**
 * Google Calendar, written against Google's published API:
 * - OAuth 2.0 for web server apps (authorization code flow): the browser goes to
 *   `accounts.google.com/o/oauth2/v2/auth` (`access_type=offline`, `prompt=consent` so a refresh
 *   token is issued), the code comes back to our redirect URI and is exchanged at
 *   `oauth2.googleapis.com/token` (`grant_type=authorization_code`), later refreshed there
 *   (`grant_type=refresh_token`), and revoked at `oauth2.googleapis.com/revoke`.
 * - Scopes: `openid email` (the `id_token` names the account) and `calendar.events` (events only).
 * - Calendar API v3: `POST calendars/{calendarId}/events` (insert), `PUT …/events/{eventId}`
 *   (update), `DELETE …/events/{eventId}` (204; 404/410 when already gone).
 * The base URLs are configurable so the tests point it at a local fake.
 */
export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** Default https://accounts.google.com */
  authBaseUrl?: string;
  /** Default https://oauth2.googleapis.com */
  tokenBaseUrl?: string;
  /** Default https://www.googleapis.com */
  apiBaseUrl?: string;
}

export const GOOGLE_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/calendar.events'];

const trim = (url: string) => url.replace(/\/+$/, '');

/** The `email` claim of an id_token received straight from Google's token endpoint over TLS. */
function emailOf(idToken: unknown): string | null {
  if (typeof idToken !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload.email === 'string' ? payload.email : null;
  } catch {
    return null;
  }
}

function eventBody(e: CalendarEvent) {
  return {
    summary: e.summary,
    description: e.description,
    ...(e.location ? { location: e.location } : {}),
    start: { dateTime: e.startsAt.toISOString(), timeZone: e.timeZone },
    end: { dateTime: e.endsAt.toISOString(), timeZone: e.timeZone },
    status: e.tentative ? 'tentative' : 'confirmed',
    // Reminders are the member's calendar's defaults.
    reminders: { useDefault: true },
  };
}

export function googleCalendarDriver(settings: GoogleSettings): CalendarDriver {
  const auth = trim(settings.authBaseUrl ?? 'https://accounts.google.com');
  const token = trim(settings.tokenBaseUrl ?? 'https://oauth2.googleapis.com');
  const api = trim(settings.apiBaseUrl ?? 'https://www.googleapis.com');
  const events = (calendarId: string, eventId?: string) =>
    `${api}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events${eventId ? `/${encodeURIComponent(eventId)}` : ''}`;

  async function tokenCall(form: Record<string, string>): Promise<CalendarTokens> {
    const res = await fetch(`${token}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        ...form,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    // invalid_grant: the code was used or the grant was withdrawn at Google.
    if (res.status === 400 || res.status === 401)
      throw new CalendarAuthError(`google token: ${String(body.error ?? res.status)}`);
    if (!res.ok || typeof body.access_token !== 'string') throw new Error(`google token: HTTP ${res.status}`);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: new Date(Date.now() + Number(body.expires_in ?? 3600) * 1000),
      email: emailOf(body.id_token),
    };
  }

  async function apiCall(method: string, url: string, accessToken: string, body?: unknown) {
    const res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status === 401) throw new CalendarAuthError('google calendar: access token refused');
    return res;
  }

  return {
    name: 'google',
    authorizeUrl(state, redirectUri) {
      const q = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: GOOGLE_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
      });
      return `${auth}/o/oauth2/v2/auth?${q}`;
    },
    exchangeCode: (code, redirectUri) =>
      tokenCall({ code, redirect_uri: redirectUri, grant_type: 'authorization_code' }),
    refresh: (refreshToken) => tokenCall({ refresh_token: refreshToken, grant_type: 'refresh_token' }),
    async insertEvent(accessToken, calendarId, event) {
      const res = await apiCall('POST', events(calendarId), accessToken, eventBody(event));
      const body = (await res.json().catch(() => ({}))) as { id?: string };
      if (!res.ok || !body.id) throw new Error(`google events.insert: HTTP ${res.status}`);
      return body.id;
    },
    async updateEvent(accessToken, calendarId, eventId, event) {
      const res = await apiCall('PUT', events(calendarId, eventId), accessToken, eventBody(event));
      // Deleted by the member in their calendar: the caller inserts it again.
      if (res.status === 404 || res.status === 410) return false;
      if (!res.ok) throw new Error(`google events.update: HTTP ${res.status}`);
      return true;
    },
    async deleteEvent(accessToken, calendarId, eventId) {
      const res = await apiCall('DELETE', events(calendarId, eventId), accessToken);
      if (!res.ok && res.status !== 404 && res.status !== 410)
        throw new Error(`google events.delete: HTTP ${res.status}`);
    },
    async revoke(t) {
      const res = await fetch(`${token}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: t }),
        signal: AbortSignal.timeout(15_000),
      });
      // 400 invalid_token: already revoked or expired — nothing left to withdraw.
      if (!res.ok && res.status !== 400) throw new Error(`google revoke: HTTP ${res.status}`);
    },
  };
}
