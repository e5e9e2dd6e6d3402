import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
} from '../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { PaymentMethod } from '../../../shared/enums';
import { bookingStudio } from '../modules/bookings/bookings-fixtures';
import { deviceCall, newClientArgs, studioWithStation } from './sync.test-support';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

async function staff(studioId: string, role: string) {
  const user = await createUser(app.knex, { firstName: 'Staff', lastName: role });
  const studio = (await app.knex('studios').where({ id: studioId }).first())!;
  await addMembership(app.knex, studio, user, { isMember: true, role });
  return { user, client: await app.signedIn(user.email, user.password) };
}

describe('POST /sync/devices', () => {
  it('401 without a session, 403 without the XMLHttpRequest marker, 400 with every bad field', async () => {
    const anon = await app.anonymous();
    expect((await anon.post('/sync/devices', { deviceId: uuidv7(), name: 'x' })).status).toBe(401);
    const { manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const noMarker = await owner.post(
      '/sync/devices',
      { deviceId: uuidv7(), name: 'x' },
      { headers: { 'x-requested-with': '' } },
    );
    expect(noMarker.status).toBe(403);
    const bad = await owner.post('/sync/devices', { deviceId: 'nope', name: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['deviceId', 'name']);
  });

  it('gives a station its token bound to the studio; accountants may not run a station', async () => {
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const deviceId = uuidv7();
    const res = await owner.post('/sync/devices', { deviceId, name: 'Recepcja' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ deviceId, studioId: studio.id, studioUuid: studio.id });
    expect(res.body.deviceToken).toMatch(/^sdt\./);
    expect(res.body.scope.tables).toContain('clients');
    expect(res.body.scope.commands).toEqual(expect.arrayContaining(['createClient@1', 'updateClient@1']));

    const frontDesk = await staff(studio.id, 'front_desk');
    expect((await frontDesk.client.post('/sync/devices', { deviceId: uuidv7(), name: 'FD' })).status).toBe(
      201,
    );
    const accountant = await staff(studio.id, 'accountant');
    expect((await accountant.client.post('/sync/devices', { deviceId: uuidv7(), name: 'A' })).status).toBe(
      403,
    );
  });

  it('signing a station in again rotates its token; another studio cannot take its id', async () => {
    const station = await studioWithStation(app);
    const again = await station.owner.post('/sync/devices', { deviceId: station.deviceId, name: 'Renamed' });
    expect(again.status).toBe(201);
    expect((await station.call('GET', '/sync/devices/me')).status).toBe(401);
    const me = await deviceCall(app.url, again.body.deviceToken, 'GET', '/sync/devices/me');
    expect(me.body).toMatchObject({ deviceId: station.deviceId, name: 'Renamed' });

    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    const taken = await otherOwner.post('/sync/devices', { deviceId: station.deviceId, name: 'Mine' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe(2205);
  });

  it('staff of two studios must choose one; a studio they do not work for is 404', async () => {
    const a = await createStudioScenario(app.knex);
    const b = await createStudio(app.knex);
    await addMembership(app.knex, b, a.manager, { isMember: true, role: 'manager' });
    const owner = await app.signedIn(a.manager.email, a.manager.password);
    const ambiguous = await owner.post('/sync/devices', { deviceId: uuidv7(), name: 'X' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.fields.studioUuid).toBeDefined();
    const chosen = await owner.post('/sync/devices', { deviceId: uuidv7(), name: 'X', studioUuid: b.id });
    expect(chosen.status).toBe(201);
    expect(chosen.body.studioId).toBe(b.id);
    const stranger = await createStudio(app.knex);
    const hidden = await owner.post('/sync/devices', {
      deviceId: uuidv7(),
      name: 'X',
      studioUuid: stranger.id,
    });
    expect(hidden.status).toBe(404);
  });
});

describe('device token routes', () => {
  it('401 without a token, with a malformed one, and with a forged secret', async () => {
    const station = await studioWithStation(app);
    for (const token of [null, 'garbage', `sdt.${station.deviceId}.${'x'.repeat(43)}`]) {
      for (const [method, path, body] of [
        ['GET', '/sync/devices/me', undefined],
        ['POST', '/sync/bootstrap', undefined],
        ['GET', '/sync/bootstrap/page?table=clients', undefined],
        ['POST', '/sync/pull', { cursor: '1:1:', epoch: 'x' }],
        ['POST', '/sync/push', { mutations: [station.mutation(1, 'createClient', newClientArgs())] }],
        ['GET', '/sync/events', undefined],
      ] as const) {
        const res = await deviceCall(app.url, token, method, path, body);
        expect(res.status, `${method} ${path} with ${token}`).toBe(401);
        expect(res.body.error.code).toBe(2200);
      }
    }
  });

  it('unknown /sync paths answer the JSON 404', async () => {
    const station = await studioWithStation(app);
    const res = await station.call('GET', '/sync/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.key).toBe('resource.notFound');
  });

  it('revocation: by the station itself, or by staff with settings.edit of its studio only', async () => {
    const station = await studioWithStation(app);
    const frontDesk = await staff(station.studio.id, 'front_desk');
    expect((await frontDesk.client.delete(`/sync/devices/${station.deviceId}`)).status).toBe(403);
    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    expect((await otherOwner.delete(`/sync/devices/${station.deviceId}`)).status).toBe(404);
    expect((await station.owner.delete(`/sync/devices/${uuidv7()}`)).status).toBe(404);
    expect((await station.owner.delete('/sync/devices/not-a-uuid')).status).toBe(404);
    // Another station cannot revoke this one.
    const second = await studioWithStation(app, station.studio);
    expect((await second.call('DELETE', `/sync/devices/${station.deviceId}`)).status).toBe(404);
    expect((await station.call('DELETE', `/sync/devices/${station.deviceId}`)).status).toBe(204);
    expect((await station.call('GET', '/sync/devices/me')).status).toBe(401);
    expect((await second.owner.delete(`/sync/devices/${second.deviceId}`)).status).toBe(204);
    expect((await second.call('GET', '/sync/devices/me')).status).toBe(401);
  });
});

describe('bootstrap, pull and push over HTTP', () => {
  it('bootstrap pages hold only the station studio rows; bad tables and limits are 400', async () => {
    const a = await studioWithStation(app);
    const b = await studioWithStation(app);
    const start = await a.call('POST', '/sync/bootstrap');
    expect(start.status).toBe(200);
    expect(start.body.studio.id).toBe(a.studio.id);
    const page = await a.call('GET', '/sync/bootstrap/page?table=clients&limit=1000');
    expect(page.status).toBe(200);
    const ids = page.body.rows.map((r: { row: { studio_id: string } }) => r.row.studio_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([a.studio.id]));
    expect(page.text).not.toContain(b.studio.id);
    const bad = await a.call('GET', '/sync/bootstrap/page?table=users&limit=0&after=zz');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['query.limit']);
    const badTable = await a.call('GET', '/sync/bootstrap/page?table=users');
    expect(badTable.status).toBe(400);
    expect(badTable.body.error.fields['query.table']).toBeDefined();
  });

  it('pull: 400 for a bad cursor, 409 reset for another epoch, the delta holds only this studio', async () => {
    const a = await studioWithStation(app);
    const b = await studioWithStation(app);
    const start = (await a.call('POST', '/sync/bootstrap')).body;
    const bad = await a.call('POST', '/sync/pull', { cursor: 'x', epoch: start.epoch, limit: 0 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['cursor', 'limit']);
    const reset = await a.call('POST', '/sync/pull', { cursor: start.cursor, epoch: 'another' });
    expect(reset.status).toBe(409);
    expect(reset.body.error.code).toBe(2201);
    expect(reset.headers.get('sync-reset-reason')).toBe('epoch');

    // A client added in the back office of A and one of B.
    const addedA = await a.owner.post(`/api/v4/${a.studio.id}/client`, {
      firstName: 'Ala',
      lastName: 'Delta',
    });
    expect(addedA.status).toBe(201);
    await b.owner.post(`/api/v4/${b.studio.id}/client`, { firstName: 'Bea', lastName: 'Other' });
    const pulled = await a.call('POST', '/sync/pull', { cursor: start.cursor, epoch: start.epoch });
    expect(pulled.status, pulled.text).toBe(200);
    const puts = pulled.body.patch.filter(
      (p: { op: string; table: string }) => p.op === 'put' && p.table === 'clients',
    );
    expect(puts.map((p: { row: { user_id: string } }) => p.row.user_id)).toEqual([addedA.body.client.id]);
    expect(pulled.text).not.toContain('Bea');
    expect(pulled.body.hasMore).toBe(false);
    // Nothing new: an empty delta, and the cursor moves on.
    const again = await a.call('POST', '/sync/pull', { cursor: pulled.body.cursor, epoch: start.epoch });
    expect(again.body.patch).toEqual([]);
  });

  it("pull carries who shares which pass (the desk's offline Passes tab and kiosk), this studio's only", async () => {
    const a = await studioWithStation(app);
    const b = await studioWithStation(app);
    const start = (await a.call('POST', '/sync/bootstrap')).body;
    const share = async (studioId: string) => {
      const [owner, partner] = await Promise.all([
        createUser(app.knex, { firstName: 'Owner', lastName: 'Pass' }),
        createUser(app.knex, { firstName: 'Partner', lastName: 'Pass' }),
      ]);
      const studio = (await app.knex('studios').where({ id: studioId }).first())!;
      await addMembership(app.knex, studio, owner, { isClient: true });
      await addMembership(app.knex, studio, partner, { isClient: true });
      const optionId = uuidv7();
      await app.knex('pricing_options').insert({
        id: optionId,
        studioId,
        name: JSON.stringify({ en: { value: 'Shared 10' } }),
        price: 30000,
        entries: 10,
      });
      const passId = uuidv7();
      await app.knex('client_pricing_options').insert({
        id: passId,
        studioId,
        clientId: owner.id,
        pricingOptionId: optionId,
        soldAt: new Date(),
        entries: 10,
        expirationType: 2,
      });
      const id = uuidv7();
      await app.knex('client_pricing_option_shares').insert({
        id,
        studioId,
        clientPricingOptionId: passId,
        userId: partner.id,
        sharedBy: owner.id,
      });
      return { id, passId, partnerId: partner.id };
    };
    const mine = await share(a.studio.id);
    const theirs = await share(b.studio.id);
    const pulled = await a.call('POST', '/sync/pull', { cursor: start.cursor, epoch: start.epoch });
    expect(pulled.status, pulled.text).toBe(200);
    const shares = pulled.body.patch.filter(
      (p: { op: string; table: string }) => p.op === 'put' && p.table === 'client_pricing_option_shares',
    );
    expect(shares.map((p: { row: Record<string, unknown> }) => p.row)).toEqual([
      expect.objectContaining({
        id: mine.id,
        client_pricing_option_id: mine.passId,
        user_id: mine.partnerId,
      }),
    ]);
    expect(pulled.text).not.toContain(theirs.id);
  });

  it('push: 400 bad batch, 426 unknown command version, 409 gap with the expected seq, then applied', async () => {
    const s = await studioWithStation(app);
    const bad = await s.call('POST', '/sync/push', { mutations: [{ id: 'x', seq: 0 }] });
    expect(bad.status).toBe(400);
    const unknown = await s.call('POST', '/sync/push', {
      mutations: [s.mutation(1, 'createClient', newClientArgs(), { version: 99 })],
    });
    expect(unknown.status).toBe(426);
    expect(unknown.body.error.code).toBe(2203);
    const gap = await s.call('POST', '/sync/push', {
      mutations: [s.mutation(3, 'createClient', newClientArgs())],
    });
    expect(gap.status).toBe(409);
    expect(gap.body.error.code).toBe(2202);
    expect(gap.headers.get('sync-expected-seq')).toBe('1');
    const ok = await s.call('POST', '/sync/push', {
      mutations: [s.mutation(1, 'createClient', newClientArgs())],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.results[0].outcome.status).toBe('applied');
    expect(ok.body.lastMutationSeq).toBe(1);
  });

  it('push cannot reach another studio: updating its client is rejected as not found', async () => {
    const a = await studioWithStation(app);
    const b = await createStudioScenario(app.knex);
    const res = await a.call('POST', '/sync/push', {
      mutations: [a.mutation(1, 'updateClient', { userId: b.client.id, fields: { firstName: 'Hacked' } })],
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0].outcome).toMatchObject({ status: 'rejected', key: 'resource.notFound' });
    const record = await app.knex('clients').where({ studioId: b.studio.id, userId: b.client.id }).first();
    expect(record!.firstName).not.toBe('Hacked');
  });

  it("a command naming another studio's client, class, pass or option is rejected, even a fact, and stores nothing", async () => {
    const soon = new Date(Date.now() + 30 * 60_000);
    const a = await bookingStudio(app, soon);
    const b = await bookingStudio(app, soon);
    const station = await studioWithStation(app, a.studio);
    const visitId = uuidv7();
    const res = await station.call('POST', '/sync/push', {
      mutations: [
        // A fact: a check-in of studio B's client on studio A's class.
        station.mutation(1, 'checkIn', { visitId, userId: b.client.id, scheduleEventId: a.eventId }),
        // An intent naming B's class and B's pass for A's client.
        station.mutation(2, 'bookClass', {
          visitId: uuidv7(),
          userId: a.client.id,
          scheduleEventId: b.eventId,
          clientPricingOptionId: b.mainPass,
        }),
        station.mutation(3, 'kioskEntry', { entryId: uuidv7(), kioskId: uuidv7(), userId: b.client.id }),
        station.mutation(4, 'recordSale', {
          saleId: uuidv7(),
          clientId: a.client.id,
          lines: [
            {
              type: 'pricingOption',
              id: b.optionId,
              name: 'Pass',
              quantity: 1,
              unitPrice: 100,
              vatRate: 2300,
            },
          ],
          payments: [{ method: PaymentMethod.cash, amount: 100 }],
        }),
      ],
    });
    expect(res.status, res.text).toBe(200);
    const outcomes = res.body.results.map((r: { outcome: unknown }) => r.outcome);
    expect(outcomes).toEqual([
      expect.objectContaining({
        status: 'rejected',
        key: 'resource.notFound',
        fields: { userId: ['not found in this studio'] },
      }),
      expect.objectContaining({
        status: 'rejected',
        fields: {
          scheduleEventId: ['not found in this studio'],
          clientPricingOptionId: ['not found in this studio'],
        },
      }),
      expect.objectContaining({ status: 'rejected', fields: { userId: ['not found in this studio'] } }),
      expect.objectContaining({ status: 'rejected', fields: { 'lines.0.id': ['not found in this studio'] } }),
    ]);
    expect(await app.knex('client_visits').where({ clientId: b.client.id, studioId: a.studio.id })).toEqual(
      [],
    );
    expect(await app.knex('client_visits').where({ id: visitId })).toEqual([]);
    expect(await app.knex('client_visits').where({ studioId: b.studio.id, clientId: a.client.id })).toEqual(
      [],
    );
    expect(await app.knex('kiosk_check_ins').where({ studioId: a.studio.id })).toEqual([]);
    expect(await app.knex('retail_sales').where({ studioId: a.studio.id })).toEqual([]);
    expect(await app.knex('sync_quarantine').where({ studioId: a.studio.id })).toEqual([]);
  });

  it('GET /sync/events pokes the station when its studio changes, not another studio', async () => {
    const a = await studioWithStation(app);
    const b = await studioWithStation(app);
    const controller = new AbortController();
    const res = await fetch(`${app.url}/sync/events`, {
      headers: { authorization: `Bearer ${a.token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const waitFor = async (needle: string) => {
      const deadline = Date.now() + 8000;
      while (!seen.includes(needle) && Date.now() < deadline) {
        const { value, done } = await Promise.race([
          reader.read(),
          new Promise<{ value: undefined; done: false }>((r) =>
            setTimeout(() => r({ value: undefined, done: false }), 500),
          ),
        ]);
        if (done) break;
        if (value) seen += decoder.decode(value);
      }
      return seen.includes(needle);
    };
    expect(await waitFor('event: hello')).toBe(true);
    await b.owner.post(`/api/v4/${b.studio.id}/client`, { firstName: 'Not', lastName: 'Yours' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen).not.toContain('event: poke');
    await a.owner.post(`/api/v4/${a.studio.id}/client`, { firstName: 'Poke', lastName: 'Me' });
    expect(await waitFor('event: poke')).toBe(true);
    controller.abort();
  });
});
