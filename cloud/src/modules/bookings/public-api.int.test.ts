import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../../tests/support/http-client';
import { START, useBookingsApp } from './bookings-app.test-support';
import { bookingStudio } from './bookings-fixtures';

/**
 * The public API's reading calls (spec §7 "Public API"): the timetable (GET and POST schedule), class
 * services, locations and a client's visits — with the studio's API key, and only that studio's.
 */
const { app } = useBookingsApp();

async function studioWithKey() {
  const st = await bookingStudio(app, START);
  return { ...st, key: await st.addApiKey() };
}

function call(key: string | null, method: 'GET' | 'POST', path: string, body?: unknown) {
  return new HttpClient(app.url).request(method, path, body, {
    noDefaults: true,
    headers: key ? { 'x-api-key': key } : {},
  });
}

const week = { from: '2026-06-01', to: '2026-06-07' };

describe('public API: timetable, class services, locations, client visits', () => {
  it('answers with the key’s studio only; no or a wrong key is 401; bad input 400 by field', async () => {
    const a = await studioWithKey();
    const b = await studioWithKey();
    await call(a.key, 'POST', '/api/v2/public/classroom/book', {
      scheduleEventId: a.eventId,
      userId: a.client.id,
    });
    const routes: Array<[method: 'GET' | 'POST', path: string, body?: unknown]> = [
      ['GET', `/api/v2/public/schedule?from=${week.from}&to=${week.to}`],
      ['POST', '/api/v2/public/schedule', week],
      ['GET', '/api/v2/public/class-service/all'],
      ['GET', '/api/v2/public/location/all'],
      ['GET', `/api/v2/public/client/${a.client.id}/visits?when=all`],
    ];
    for (const [method, path, body] of routes) {
      const ok = await call(a.key, method, path, body);
      expect(ok.status, `${method} ${path}: ${ok.text}`).toBe(200);
      // Studio b's key never sees studio a's things (its class service and location ids differ).
      const other = await call(b.key, method, path, body);
      if (path.includes('/client/')) expect(other.status, path).toBe(404);
      else {
        expect(other.status, path).toBe(200);
        expect(other.text, path).not.toContain(a.serviceId);
        expect(other.text, path).not.toContain(a.locationId);
      }
      if (method === 'GET') expect((await call(null, method, path, body)).status, path).toBe(401);
      const wrong = await call('sk_wrong_0000000000000000', method, path, body);
      expect(wrong.status, path).toBe(401);
      expect(wrong.body.error.key).toBe('apiKey.invalid');
    }

    const schedule = await call(a.key, 'GET', `/api/v2/public/schedule?from=${week.from}&to=${week.to}`);
    expect(schedule.body.items.map((e: { id: string }) => e.id)).toContain(a.eventId);
    expect(schedule.body.timeZone).toBe('Europe/Warsaw');
    const posted = await call(a.key, 'POST', '/api/v2/public/schedule', week);
    expect(posted.body.items).toEqual(schedule.body.items);
    const services = await call(a.key, 'GET', '/api/v2/public/class-service/all');
    expect(services.body.items.map((s: { id: string }) => s.id)).toEqual([a.serviceId]);
    const locations = await call(a.key, 'GET', '/api/v2/public/location/all');
    expect(locations.body.items.map((l: { name: string }) => l.name)).toEqual(['Mokotów']);
    const visits = await call(a.key, 'GET', `/api/v2/public/client/${a.client.id}/visits?when=all`);
    expect(visits.body.items).toEqual([
      expect.objectContaining({ scheduleEventId: a.eventId, status: 0, payment: 'pass', bookedBy: 'api' }),
    ]);

    const bad = await call(a.key, 'GET', '/api/v2/public/schedule?from=2026-06-07&to=tomorrow');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['query.to']);
    const badPost = await call(a.key, 'POST', '/api/v2/public/schedule', { from: 'x' });
    expect(badPost.status).toBe(400);
    expect(Object.keys(badPost.body.error.fields).sort()).toEqual(['from', 'to']);
    const badVisits = await call(a.key, 'GET', `/api/v2/public/client/${a.client.id}/visits?when=soon`);
    expect(badVisits.status).toBe(400);
    // A malformed id names nothing here: 404, as for any unknown id.
    expect((await call(a.key, 'GET', '/api/v2/public/client/not-a-uuid/visits')).status).toBe(404);
  });
});
