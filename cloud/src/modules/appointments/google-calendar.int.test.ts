import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { sessionClient } from '../bookings/bookings-fixtures';
import { appointmentStudio } from './appointments-fixtures';
import { setCalendarDriver } from './calendar-sync/calendar-driver';
import { googleCalendarDriver } from './calendar-sync/google-driver';
import { startFakeGoogle, type FakeGoogle } from './testing/fake-google';

/**
 * Google Calendar (issue 21, spec §7 `google-calendar/oauth` GET and DELETE): a member of staff
 * connects through the OAuth 2.0 code flow (a local fake of Google's endpoints on loopback), their
 * appointments are pushed as events, a move updates the event, a call-off deletes it (after the
 * expired access token is refreshed), disconnecting revokes the grant. The routes' 401/400/404.
 */
const NOW = new Date('2026-06-01T10:00:00Z');
const DAY = '2026-06-03';
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+02:00`).toISOString();
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;
let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
});
afterAll(async () => {
  setCalendarDriver(null);
  await google?.close();
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('Google Calendar', () => {
  it('connect, push, update on a move, delete on a call-off with a refreshed token, disconnect', async () => {
    clock.set(NOW);
    setCalendarDriver(
      googleCalendarDriver({
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        authBaseUrl: google.url,
        tokenBaseUrl: google.url,
        apiBaseUrl: google.url,
      }),
    );
    const st = await appointmentStudio(app);
    const anna = await sessionClient(app, st.anna.id);
    const booked = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:00'),
      clientId: st.client.id,
    });
    expect(booked.status, booked.text).toBe(201);

    // Not connected yet: where to grant access.
    const returnTo = `/${st.studio.id}/backoffice#/appointments`;
    const state = await anna.get(
      v4(st.studio, `google-calendar/oauth?returnTo=${encodeURIComponent(returnTo)}`),
    );
    expect(state.status, state.text).toBe(200);
    expect(state.body).toMatchObject({ available: true, connected: false, email: null });
    const authorize = new URL(state.body.authorizeUrl);
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      `${app.url}/api/v4/google-calendar/oauth/callback`,
    );
    expect(authorize.searchParams.get('access_type')).toBe('offline');
    expect(authorize.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/calendar.events');

    // Google's consent screen sends the browser back with a code; the callback sends it home.
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const browser = await HttpClient.anonymous(app.url);
    const back = await browser.get(pathOf(consent.headers.get('location')!));
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${returnTo}?calendar=connected`);
    expect((await anna.get(v4(st.studio, 'google-calendar/oauth'))).body).toMatchObject({
      connected: true,
      email: 'therapist@gmail.test',
      authorizeUrl: null,
    });
    // Google's tokens are stored encrypted (a database dump grants no calendar).
    const stored = (await app.knex('google_calendar_connections').where({ studioId: st.studio.id }).first())!;
    expect(stored.accessToken).toMatch(/^v2\./);
    expect(stored.refreshToken).toMatch(/^v2\./);
    expect(`${stored.accessToken}${stored.refreshToken}`).not.toMatch(/ya29\.|1\/\//);
    // A code is used once: replaying the callback fails.
    const replay = await browser.get(pathOf(consent.headers.get('location')!));
    expect(replay.headers.get('location')).toBe('/?calendar=failed');

    // Connecting pushes the existing appointment.
    await app.drainJobs();
    expect([...google.events.values()]).toEqual([
      expect.objectContaining({
        calendarId: 'primary',
        summary: expect.stringMatching(/^Masaż · /),
        status: 'confirmed',
        start: { dateTime: at('10:00'), timeZone: 'Europe/Warsaw' },
      }),
    ]);
    const [eventId] = [...google.events.keys()];

    // Staff move it: the same event moves.
    const moved = await st.owner.post(v4(st.studio, 'client-appointment/move'), {
      clientAppointmentId: booked.body.id,
      startsAt: at('13:00'),
    });
    expect(moved.status, moved.text).toBe(200);
    await app.drainJobs();
    expect(google.events.size).toBe(1);
    expect(google.events.get(eventId!)?.start.dateTime).toBe(at('13:00'));

    // The access token expired; calling it off refreshes it and deletes the event.
    google.expireAccessTokens();
    const off = await st.owner.post(v4(st.studio, 'client-appointment/call-off'), {
      clientAppointmentId: booked.body.id,
    });
    expect(off.body.status).toBe('calledOff');
    await app.drainJobs();
    expect(google.events.size).toBe(0);
    expect(google.calls.filter((c) => c === 'POST /token')).toHaveLength(2); // the code, then one refresh

    // Disconnect: the grant is revoked at Google.
    const gone = await anna.delete(v4(st.studio, 'google-calendar/oauth'));
    expect(gone.status).toBe(204);
    await app.drainJobs();
    expect(google.revoked).toHaveLength(1);
    expect(google.revoked[0]).toMatch(/^1\/\//); // the refresh token itself, opened for Google
    expect((await anna.get(v4(st.studio, 'google-calendar/oauth'))).body.connected).toBe(false);
    // Not connected: no push job for a new appointment.
    await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('15:00'),
      clientId: st.client.id,
    });
    expect(await app.drainJobs()).toBe(0);
    expect(google.events.size).toBe(0);
  });

  it('401 signed out, 404 another studio, 400 bad input; a bad state fails; no Google configured', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const anonymous = await HttpClient.anonymous(app.url);
    expect((await anonymous.get(v4(st.studio, 'google-calendar/oauth'))).status).toBe(401);
    expect((await anonymous.delete(v4(st.studio, 'google-calendar/oauth'))).status).toBe(401);
    const other = await createStudioScenario(app.knex);
    const otherOwner = await sessionClient(app, other.manager.id);
    expect((await otherOwner.get(v4(st.studio, 'google-calendar/oauth'))).status).toBe(404);
    expect((await otherOwner.delete(v4(st.studio, 'google-calendar/oauth'))).status).toBe(404);
    const bad = await st.me.get(v4(st.studio, `google-calendar/oauth?returnTo=${'x'.repeat(600)}`));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['query.returnTo']);
    // A client may connect too; another origin is never a place to return to.
    setCalendarDriver(
      googleCalendarDriver({
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        authBaseUrl: google.url,
      }),
    );
    const mine = await st.me.get(
      v4(st.studio, `google-calendar/oauth?returnTo=${encodeURIComponent('//evil.test/')}`),
    );
    expect(mine.body.available).toBe(true);
    const consent = await fetch(mine.body.authorizeUrl, { redirect: 'manual' });
    const forged = new URL(consent.headers.get('location')!);
    forged.searchParams.set('state', 'forged');
    expect((await anonymous.get(pathOf(forged.toString()))).headers.get('location')).toBe(
      '/?calendar=failed',
    );
    // Denied at Google: back with calendar=failed (to "/", the unsafe path was replaced).
    const denied = new URL(consent.headers.get('location')!);
    denied.searchParams.delete('code');
    denied.searchParams.set('error', 'access_denied');
    expect((await anonymous.get(pathOf(denied.toString()))).headers.get('location')).toBe(
      '/?calendar=failed',
    );
    expect((await st.me.delete(v4(st.studio, 'google-calendar/oauth'))).status).toBe(204);
    // No Google client configured on the server.
    setCalendarDriver(null);
    expect((await st.me.get(v4(st.studio, 'google-calendar/oauth'))).body).toEqual({
      available: false,
      connected: false,
      email: null,
      authorizeUrl: null,
    });
  });
});
