import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { ClientVisitStatus } from '../../../../shared/enums';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { bookingStudio } from '../bookings/bookings-fixtures';
import { hashApiKey } from './api-keys';

/**
 * Spec §7's remaining internal calls (issue 24): user/ping, app/me, platform/token/connect and
 * destroy, platform/checkin — 401, 400, 403, 404 (another studio) and success for each.
 */
// Monday 17:30 in Warsaw: the 18:00 class is open for check-in.
const NOW = new Date('2026-11-23T16:30:00Z');
const SOON = new Date('2026-11-23T17:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;

const publicCall = (key: string | null, path: string, body: unknown) =>
  new HttpClient(app.url).request('POST', `/api/v2/public/${path}`, body, {
    noDefaults: true,
    headers: key ? { 'x-api-key': key } : {},
  });

async function studio() {
  const s = await bookingStudio(app, SOON, { capacity: 5 });
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  return { ...s, owner };
}

describe('user ping and app/me', () => {
  it('answer the signed-in user; 401 signed out; 404 in a studio they do not belong to', async () => {
    const s = await studio();
    const other = await studio();
    const anonymous = await app.anonymous();
    expect((await anonymous.get(v4(s.studio, 'user/ping'))).status).toBe(401);
    expect((await anonymous.post('/api/v4/app/me', {})).status).toBe(401);

    const client = await app.signedIn(s.client.email, s.client.password);
    const ping = await client.get(v4(s.studio, 'user/ping'));
    expect(ping.status, ping.text).toBe(200);
    expect(ping.body).toEqual({ authenticated: true, userId: s.client.id });
    expect(ping.headers.get('cache-control')).toBe('no-store');
    expect((await client.get(v4(other.studio, 'user/ping'))).status).toBe(404);

    const me = await s.owner.post('/api/v4/app/me', {});
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ id: s.manager.id, emailAddress: s.manager.email });
    expect(me.body.memberships).toContainEqual(
      expect.objectContaining({ studioUuid: s.studio.id, isMember: true }),
    );
  });
});

describe('platform token connect and destroy', () => {
  it('issues a platform key by the owner, replaces it on reconnect, revokes it on destroy', async () => {
    const s = await studio();
    const other = await studio();
    const body = { platform: 'FitMarket', scope: 'read' };
    expect((await (await app.anonymous()).post(v4(s.studio, 'platform/token/connect'), body)).status).toBe(
      401,
    );
    const bad = await s.owner.post(v4(s.studio, 'platform/token/connect'), { platform: ' ', scope: 'all' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['platform', 'scope']);
    const deskUser = await createUser(app.knex, { firstName: 'Desk', lastName: 'Person' });
    await addMembership(app.knex, s.studio, deskUser, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(deskUser.email, deskUser.password);
    expect((await desk.post(v4(s.studio, 'platform/token/connect'), body)).status).toBe(403);
    expect((await other.owner.post(v4(s.studio, 'platform/token/connect'), body)).status).toBe(404);

    const connected = await s.owner.post(v4(s.studio, 'platform/token/connect'), body);
    expect(connected.status, connected.text).toBe(201);
    expect(connected.body.key).toMatchObject({ name: 'Platform: FitMarket', scope: 'read' });
    const first: string = connected.body.secret;
    expect(
      (
        await new HttpClient(app.url).request('GET', '/api/v2/public/ping', undefined, {
          noDefaults: true,
          headers: { 'x-api-key': first },
        })
      ).status,
    ).toBe(200);
    const keys = await s.owner.get(v4(s.studio, 'studio-api/all'));
    expect(keys.body.items.map((k: { name: string }) => k.name)).toContain('Platform: FitMarket');

    // Reconnecting replaces the key: the first stops at once.
    const again = await s.owner.post(v4(s.studio, 'platform/token/connect'), {
      ...body,
      scope: 'read_write',
    });
    expect(again.status).toBe(201);
    expect((await publicCall(first, 'ping', {})).status).toBe(401);
    expect((await publicCall(again.body.secret, 'ping', {})).status).toBe(200);

    expect(
      (await other.owner.post(v4(s.studio, 'platform/token/destroy'), { platform: 'FitMarket' })).status,
    ).toBe(404);
    const destroyed = await s.owner.post(v4(s.studio, 'platform/token/destroy'), { platform: 'FitMarket' });
    expect(destroyed.status, destroyed.text).toBe(200);
    expect(destroyed.body).toEqual({ revoked: 1 });
    expect((await publicCall(again.body.secret, 'ping', {})).status).toBe(401);
    const twice = await s.owner.post(v4(s.studio, 'platform/token/destroy'), { platform: 'FitMarket' });
    expect(twice.status).toBe(404);
    expect(twice.body.error.key).toBe('platform.notConnected');
  });
});

describe('platform/checkin', () => {
  it('checks a card holder in as the studio kiosk would; 401, 400, 403, 404, 409 no kiosk', async () => {
    const s = await studio();
    const writeKey = await s.addApiKey();
    const card = `CARD-${uuidv7().slice(-8)}`;
    await app.knex('client_identities').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      userId: s.client.id,
      kind: 'card',
      value: card,
      valueKey: card.replace(/[\s-]/g, '').toLowerCase(),
    });

    for (const key of [null, 'sk_live_wrong-wrong-wrong-wrong']) {
      const res = await publicCall(key, 'platform/checkin', { code: card });
      expect(res.status).toBe(401);
    }
    const readKey = `sk_live_${uuidv7().replace(/-/g, '')}`;
    await app.knex('studio_apis').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      name: 'Reader',
      keyHash: hashApiKey(readKey),
      scope: 'read',
    });
    const read = await publicCall(readKey, 'platform/checkin', { code: card });
    expect(read.status).toBe(403);
    expect((await publicCall(writeKey, 'platform/checkin', { code: '' })).status).toBe(400);

    // No kiosk yet: the platform has nothing to act as.
    const none = await publicCall(writeKey, 'platform/checkin', { code: card });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ key: 'platform.noKiosk', code: 3010 });
    const kiosk = await s.owner.post(v4(s.studio, 'studio-kiosk'), {
      name: 'Gate',
      settings: { checkInMethods: ['card', 'qr'], printTicket: false, idleSeconds: 30 },
    });
    expect(kiosk.status, kiosk.text).toBe(201);

    // Another studio's key knows neither the card nor the kiosk.
    const other = await studio();
    const otherKey = await other.addApiKey();
    expect(
      (await publicCall(otherKey, 'platform/checkin', { code: card, kioskId: kiosk.body.id })).status,
    ).toBe(404);

    // Identified, not booked: nothing open, the class it could book is shown.
    const looked = await publicCall(writeKey, 'platform/checkin', { code: card });
    expect(looked.status, looked.text).toBe(200);
    expect(looked.body.checkIn).toBeNull();
    expect(looked.body.client.client.id).toBe(s.client.id);
    expect(looked.body.client.classes.map((c: { scheduleEventId: string }) => c.scheduleEventId)).toContain(
      s.eventId,
    );
    // Into the class: booked and checked in (check-in is open), the door is the platform's.
    const checked = await publicCall(writeKey, 'platform/checkin', {
      code: card,
      scheduleEventId: s.eventId,
    });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.checkIn).toMatchObject({ outcome: 'checkedIn', lock: 'none' });
    const visit = await app
      .knex('client_visits')
      .where({ scheduleEventId: s.eventId, clientId: s.client.id })
      .first();
    expect(visit?.status).toBe(ClientVisitStatus.present);
  });
});
