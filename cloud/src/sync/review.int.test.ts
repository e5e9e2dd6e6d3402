import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../tests/support/factories';
import { HttpClient } from '../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../tests/support/tenancy';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { newClientArgs, studioWithStation } from './sync.test-support';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/**
 * A studio whose station pushed two clients with the same email (a `possibleDuplicate` flag, never a
 * rejection) and one recordSale-like fact the server kept in quarantine, plus staff of three roles.
 */
async function reviewScenario() {
  const station = await studioWithStation(app);
  const email = `twin-${uuidv7().slice(-12)}@example.com`;
  const first = newClientArgs({ emailAddress: email, firstName: 'Anna', lastName: 'Pierwsza' });
  const twin = newClientArgs({ emailAddress: email, firstName: 'Anna', lastName: 'Druga' });
  const pushed = await station.call('POST', '/sync/push', {
    mutations: [station.mutation(1, 'createClient', first), station.mutation(2, 'createClient', twin)],
  });
  expect(pushed.status, pushed.text).toBe(200);
  expect(pushed.body.results[1].outcome.status).toBe('flagged');
  // Quarantine is reached after five failures of a handler; its row is what the screen reads.
  const quarantined = uuidv7();
  await app.knex('sync_quarantine').insert({
    mutationId: quarantined,
    studioId: station.studio.id,
    deviceId: station.deviceId,
    seq: 3,
    name: 'checkIn',
    version: 1,
    args: JSON.stringify({ visitId: uuidv7() }),
    error: 'handler kept failing',
  });
  const staff = async (role: string) => {
    const user = await createUser(app.knex, { firstName: 'Staff', lastName: role });
    await addMembership(app.knex, station.studio, user, { isMember: true, role });
    return app.signedIn(user.email, user.password);
  };
  return {
    ...station,
    twin,
    quarantined,
    frontDesk: await staff('front_desk'),
    accountant: await staff('accountant'),
  };
}

const base = (studioId: string) => `/api/v4/${studioId}/sync`;

describe('station flags and quarantine review', () => {
  it('lists open items per station with the client concerned; the front desk resolves a flag', async () => {
    const s = await reviewScenario();
    const list = await s.frontDesk.get(`${base(s.studio.id)}/issues`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.stations).toEqual([{ id: s.deviceId, name: 'Front desk 1', open: 2 }]);
    const types = list.body.items.map((i: { type: string; kind: string }) => `${i.type}:${i.kind}`);
    expect(types.sort()).toEqual(['flag:possibleDuplicate', 'quarantine:checkIn']);
    const flag = list.body.items.find((i: { type: string }) => i.type === 'flag');
    expect(flag).toMatchObject({
      station: { id: s.deviceId, name: 'Front desk 1' },
      subject: { table: 'clients', client: { userId: s.twin.userId, name: 'Anna Druga' } },
      resolvedAt: null,
    });
    const quarantine = list.body.items.find((i: { type: string }) => i.type === 'quarantine');
    expect(quarantine.command).toMatchObject({ name: 'checkIn', version: 1, seq: 3 });

    const resolved = await s.frontDesk.post(`${base(s.studio.id)}/issue/flag/${flag.id}`, {
      action: 'resolve',
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ resolution: 'resolved', resolvedBy: { name: 'Staff front_desk' } });
    // Closed once: a second close (another person at the same time) is a conflict, not a second change.
    const again = await s.frontDesk.post(`${base(s.studio.id)}/issue/flag/${flag.id}`, { action: 'dismiss' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 2210, key: 'sync.issueClosed' });

    const open = await s.frontDesk.get(`${base(s.studio.id)}/issues?station=${s.deviceId}`);
    expect(open.body.items.map((i: { type: string }) => i.type)).toEqual(['quarantine']);
    expect(open.body.stations[0].open).toBe(1);
    const closed = await s.frontDesk.get(`${base(s.studio.id)}/issues?state=closed`);
    expect(closed.body.items.map((i: { id: string }) => i.id)).toEqual([flag.id]);
  });

  it('quarantined commands are closed by people with settings.edit; accountants see nothing', async () => {
    const s = await reviewScenario();
    const path = `${base(s.studio.id)}/issue/quarantine/${s.quarantined}`;
    const refused = await s.frontDesk.post(path, { action: 'dismiss' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.key).toBe('auth.forbidden');
    expect((await s.accountant.get(`${base(s.studio.id)}/issues`)).status).toBe(403);
    const flagId = (await s.owner.get(`${base(s.studio.id)}/issues`)).body.items.find(
      (i: { type: string }) => i.type === 'flag',
    ).id;
    expect(
      (await s.accountant.post(`${base(s.studio.id)}/issue/flag/${flagId}`, { action: 'resolve' })).status,
    ).toBe(403);

    const dismissed = await s.owner.post(path, { action: 'dismiss' });
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(dismissed.body).toMatchObject({ type: 'quarantine', resolution: 'dismissed' });
    const row = await app.knex('sync_quarantine').where({ mutationId: s.quarantined }).first();
    expect(row).toMatchObject({ resolution: 'dismissed', resolvedBy: s.ownerId });
    expect(row!.resolvedAt).not.toBeNull();
  });

  it('401 signed out, 400 with every field, 404 for unknown ids and other studios', async () => {
    const s = await reviewScenario();
    const anonymous = new HttpClient(app.url);
    expect((await anonymous.get(`${base(s.studio.id)}/issues`)).status).toBe(401);

    const badQuery = await s.owner.get(`${base(s.studio.id)}/issues?state=maybe&limit=0&cursor=x&station=1`);
    expect(badQuery.status).toBe(400);
    expect(Object.keys(badQuery.body.error.fields).sort()).toEqual([
      'query.cursor',
      'query.limit',
      'query.state',
      'query.station',
    ]);
    const badBody = await s.owner.post(`${base(s.studio.id)}/issue/quarantine/${s.quarantined}`, {
      action: 'delete',
      extra: true,
    });
    expect(badBody.status).toBe(400);
    expect(Object.keys(badBody.body.error.fields).sort()).toEqual(['action', 'extra']);

    expect(
      (await s.owner.post(`${base(s.studio.id)}/issue/flag/${uuidv7()}`, { action: 'resolve' })).status,
    ).toBe(404);
    expect(
      (await s.owner.post(`${base(s.studio.id)}/issue/other/${uuidv7()}`, { action: 'resolve' })).status,
    ).toBe(404);

    const items = (await s.owner.get(`${base(s.studio.id)}/issues`)).body.items as Array<{
      id: string;
      type: string;
    }>;
    const flag = items.find((i) => i.type === 'flag')!;
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: `${base(s.studio.id)}/issues` }, [flag.id]);
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: `${base(s.studio.id)}/issue/flag/${flag.id}`,
      body: { action: 'resolve' },
    });
    // A manager of another studio asking with their own studio's uuid for this studio's ids gets nothing either.
    const other = await studioWithStation(app);
    const foreign = await other.owner.post(`${base(other.studio.id)}/issue/quarantine/${s.quarantined}`, {
      action: 'dismiss',
    });
    expect(foreign.status).toBe(404);
    const theirs = await other.owner.get(`${base(other.studio.id)}/issues?station=${s.deviceId}`);
    expect(theirs.body.items).toEqual([]);
    expect(await app.knex('sync_flags').where({ id: flag.id }).first('resolvedAt')).toEqual({
      resolvedAt: null,
    });
  });

  it('pages newest first with a cursor', async () => {
    const s = await reviewScenario();
    const first = await s.owner.get(`${base(s.studio.id)}/issues?limit=1`);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await s.owner.get(
      `${base(s.studio.id)}/issues?limit=1&cursor=${encodeURIComponent(first.body.next)}`,
    );
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.body.next).toBeNull();
  });
});
