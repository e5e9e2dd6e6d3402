import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { processDueInstalments } from './client-contracts.service';

// Monday 23 November 2026, 10:00 in Warsaw.
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

async function ownerStudio() {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  await app.knex('taxes').insert({
    id: uuidv7(),
    studioId: scenario.studio.id,
    name: 'VAT 23%',
    rateBp: 2300,
    fiscalSlot: 'A',
    isDefault: true,
  });
  return { ...scenario, owner };
}

async function staffWithRole(studio: Studio, role: string | null): Promise<HttpClient> {
  const user = await createUser(app.knex, { firstName: 'Staff', lastName: role ?? 'Without role' });
  await addMembership(app.knex, studio, user, { isMember: true, role });
  return app.signedIn(user.email, user.password);
}

async function apiKey(studio: Studio): Promise<string> {
  const key = `sk_test_${uuidv7().replace(/-/g, '')}`;
  await app.knex('studio_apis').insert({
    id: uuidv7(),
    studioId: studio.id,
    name: 'Partner',
    keyHash: createHash('sha256').update(key, 'utf8').digest('hex'),
  });
  return key;
}

const monthly = (over: Record<string, unknown> = {}) => ({
  name: lt('Open membership', 'Karnet open'),
  price: 19900,
  periodUnit: 'month',
  periodLength: 1,
  durationPeriods: 12,
  activationType: 0,
  serviceTypes: ['classroomPricingOption'],
  noticePeriods: 1,
  signUpFee: 4900,
  ...over,
});

async function createContract(owner: HttpClient, studio: Studio, over: Record<string, unknown> = {}) {
  const res = await owner.post(api(studio, 'contract'), monthly(over));
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function sell(owner: HttpClient, studio: Studio, userId: string, contractId: string) {
  const res = await owner.post(api(studio, `client/${userId}/client-contract`), { contractId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const ordersOf = (studio: Studio) =>
  app.knex('client_orders').where({ studioId: studio.id, source: 'contract_instalment' }).select('*');

describe('contracts catalog', () => {
  it('creates, reads, lists, edits and archives a contract; init has the form choices', async () => {
    const { studio, owner } = await ownerStudio();
    const contract = await createContract(owner, studio, {
      restrictions: { timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 960 }] },
      sellOnline: false,
    });
    expect(contract).toMatchObject({
      price: 19900,
      currency: 'PLN',
      periodUnit: 'month',
      durationPeriods: 12,
      activationType: 0,
      proRata: false,
      noticePeriods: 1,
      signUpFee: 4900,
      taxRateBp: 2300,
      sellAtDesk: true,
      sellOnline: false,
      archived: false,
      activeClientContracts: 0,
    });
    expect(contract.restrictions.timeWindows).toHaveLength(1);

    const got = await owner.get(api(studio, `contract/${contract.id}`));
    expect(got.body.id).toBe(contract.id);
    const patched = await owner.patch(api(studio, `contract/${contract.id}`), {
      price: 21900,
      durationPeriods: null,
      activationType: 1,
      proRata: true,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      price: 21900,
      durationPeriods: null,
      activationType: 1,
      proRata: true,
    });

    const init = await owner.get(api(studio, `contract/init?contract=${contract.id}`));
    expect(init.status).toBe(200);
    expect(init.body.contract.id).toBe(contract.id);
    expect(init.body.activationTypes.map((a: any) => a.value)).toEqual([0, 1]);
    expect(init.body.periodUnits).toEqual(['week', 'month']);
    expect(init.body.taxes).toHaveLength(1);

    const online = await owner.get(api(studio, 'contract/all?channel=online'));
    expect(online.body.items).toEqual([]);
    const del = await owner.delete(api(studio, `contract/${contract.id}`));
    expect(del.status).toBe(204);
    expect((await owner.get(api(studio, 'contract/all'))).body.items).toEqual([]);
    const archived = await owner.get(api(studio, 'contract/all?archived=only'));
    expect(archived.body.items.map((c: any) => c.id)).toEqual([contract.id]);
    expect(archived.body.items[0].archived).toBe(true);
  });

  it('answers 401, 400 with every field, 403 without the ability, 404 for unknown and other studios', async () => {
    const { studio, owner } = await ownerStudio();
    const contract = await createContract(owner, studio);
    const anon = await app.anonymous();
    for (const [method, path] of [
      ['GET', 'contract/all'],
      ['GET', 'contract/init'],
      ['GET', `contract/${contract.id}`],
      ['POST', 'contract'],
      ['PATCH', `contract/${contract.id}`],
      ['DELETE', `contract/${contract.id}`],
    ] as const) {
      const res = await anon.request(
        method,
        api(studio, path),
        method === 'GET' || method === 'DELETE' ? undefined : monthly(),
      );
      expect(res.status, `${method} ${path}`).toBe(401);
    }

    const bad = await owner.post(api(studio, 'contract'), {
      name: {},
      price: -1,
      periodUnit: 'year',
      periodLength: 0,
      durationPeriods: 0,
      activationType: 2,
      serviceTypes: [],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(
      [
        'activationType',
        'durationPeriods',
        'name',
        'periodLength',
        'periodUnit',
        'price',
        'serviceTypes',
      ].sort(),
    );
    const unknownTax = await owner.post(api(studio, 'contract'), monthly({ taxId: uuidv7() }));
    expect(unknownTax.status).toBe(400);
    expect(unknownTax.body.error.fields.taxId).toBeDefined();

    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(api(studio, 'contract/all'))).status).toBe(403);
    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.get(api(studio, 'contract/all'))).status).toBe(200);
    expect((await desk.post(api(studio, 'contract'), monthly())).status).toBe(403);
    expect((await desk.patch(api(studio, `contract/${contract.id}`), { price: 1 })).status).toBe(403);
    expect((await desk.delete(api(studio, `contract/${contract.id}`))).status).toBe(403);

    expect((await owner.get(api(studio, `contract/${uuidv7()}`))).status).toBe(404);
    expect((await owner.get(api(studio, 'contract/not-an-id'))).status).toBe(404);
    for (const request of [
      { method: 'GET' as const, path: api(studio, `contract/${contract.id}`) },
      { method: 'PATCH' as const, path: api(studio, `contract/${contract.id}`), body: { price: 1 } },
      { method: 'DELETE' as const, path: api(studio, `contract/${contract.id}`) },
      { method: 'GET' as const, path: api(studio, 'contract/all') },
    ])
      await expectHiddenFromOtherStudio(app, request, [contract.id]);
  });
});

describe('client contracts', () => {
  it('sells at the desk: schedule with sign-up fee, orders what is due today, lists per client', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio);
    const sold = await sell(owner, studio, client.id, contract.id);
    expect(sold).toMatchObject({
      status: 'active',
      channel: 'desk',
      entitledFrom: '2026-11-23',
      endsOn: '2027-11-22',
      canTerminate: true,
      canSuspend: true,
      canResume: false,
    });
    expect(sold.instalments).toHaveLength(13);
    expect(sold.instalments.slice(0, 3).map((i: any) => [i.kind, i.dueOn, i.amount, i.status])).toEqual([
      ['signUpFee', '2026-11-23', 4900, 'ordered'],
      ['period', '2026-11-23', 19900, 'ordered'],
      ['period', '2026-12-23', 19900, 'scheduled'],
    ]);
    expect(sold.outstanding).toBe(11 * 19900);
    const orders = await ordersOf(studio);
    expect(orders).toHaveLength(2);
    expect(orders.map((o: any) => o.total).sort((a: number, b: number) => a - b)).toEqual([4900, 19900]);

    const list = await owner.get(api(studio, `client/${client.id}/client-contract/all`));
    expect(list.body.items.map((c: any) => c.id)).toEqual([sold.id]);
    const detail = await owner.get(api(studio, `client-contract/${sold.id}`));
    expect(detail.body.events.map((e: any) => e.kind).sort()).toEqual([
      'instalmentOrdered',
      'instalmentOrdered',
      'sold',
    ]);
    expect((await owner.get(api(studio, 'contract/all'))).body.items[0].activeClientContracts).toBe(1);
    // Editing the contract later never changes what was sold.
    await owner.patch(api(studio, `contract/${contract.id}`), { price: 1000 });
    expect((await owner.get(api(studio, `client-contract/${sold.id}`))).body.clientContract.price).toBe(
      19900,
    );
  });

  it('sale refuses archived or desk-excluded contracts (409), unknown clients (404), bad input (400)', async () => {
    const { studio, owner, client } = await ownerStudio();
    const onlineOnly = await createContract(owner, studio, { sellAtDesk: false });
    const res = await owner.post(api(studio, `client/${client.id}/client-contract`), {
      contractId: onlineOnly.id,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ key: 'contract.notForSale', code: 1900 });
    const contract = await createContract(owner, studio);
    expect(
      (await owner.post(api(studio, `client/${uuidv7()}/client-contract`), { contractId: contract.id }))
        .status,
    ).toBe(404);
    expect(
      (await owner.post(api(studio, `client/${client.id}/client-contract`), { contractId: uuidv7() })).status,
    ).toBe(404);
    const bad = await owner.post(api(studio, `client/${client.id}/client-contract`), {
      contractId: 'x',
      extra: 1,
    });
    expect(bad.status).toBe(400);
    const instructor = await staffWithRole(studio, 'instructor');
    expect(
      (await instructor.post(api(studio, `client/${client.id}/client-contract`), { contractId: contract.id }))
        .status,
    ).toBe(403);
    expect((await instructor.get(api(studio, `client/${client.id}/client-contract/all`))).status).toBe(200);
    const anon = await app.anonymous();
    expect((await anon.get(api(studio, `client/${client.id}/client-contract/all`))).status).toBe(401);
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `client/${client.id}/client-contract`),
      body: { contractId: contract.id },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: api(studio, `client/${client.id}/client-contract/all`),
    });
  });

  it('terminates with notice: the current and the notice period remain, later ones are cancelled', async () => {
    const { studio, owner: seller, client, manager } = await ownerStudio();
    const contract = await createContract(seller, studio, { signUpFee: 0 });
    const sold = await sell(seller, studio, client.id, contract.id);
    clock.set(new Date('2026-12-28T09:00:00Z'));
    await processDueInstalments(app.knex, clock.now());
    // A month later: sign in again (sessions follow the clock).
    const owner = await app.signedIn(manager.email, manager.password);
    const res = await owner.patch(api(studio, `client-contract/${sold.id}`), {
      action: 'terminate',
      note: 'moving away',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'ending', endsOn: '2027-02-22', canTerminate: false });
    const statuses = res.body.instalments.map((i: any) => [i.dueOn, i.status]);
    expect(statuses.slice(0, 4)).toEqual([
      ['2026-11-23', 'ordered'],
      ['2026-12-23', 'ordered'],
      ['2027-01-23', 'scheduled'],
      ['2027-02-23', 'cancelled'],
    ]);
    expect(res.body.instalments.filter((i: any) => i.status === 'cancelled')).toHaveLength(9);
    const again = await owner.patch(api(studio, `client-contract/${sold.id}`), { action: 'terminate' });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('clientContract.alreadyTerminated');
    // The front desk may not waive the notice; a manager may.
    const other = await sell(owner, studio, client.id, contract.id);
    const desk = await staffWithRole(studio, 'front_desk');
    expect(
      (
        await desk.patch(api(studio, `client-contract/${other.id}`), {
          action: 'terminate',
          noticePeriods: 0,
        })
      ).status,
    ).toBe(403);
    const waived = await owner.patch(api(studio, `client-contract/${other.id}`), {
      action: 'terminate',
      noticePeriods: 0,
    });
    expect(waived.body.endsOn).toBe('2027-01-27');
    clock.set(NOW);
  });

  it('suspends and resumes: instalments pause and shift by whole periods, nothing is lost', async () => {
    const { studio, owner, client, manager } = await ownerStudio();
    const contract = await createContract(owner, studio, { signUpFee: 0, durationPeriods: 6 });
    const sold = await sell(owner, studio, client.id, contract.id);
    const suspended = await owner.patch(api(studio, `client-contract/${sold.id}`), {
      action: 'suspend',
      from: '2026-12-01',
    });
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body).toMatchObject({
      canSuspend: false,
      canResume: true,
      suspensions: [{ startsOn: '2026-12-23', endsOn: null }],
    });
    expect(suspended.body.instalments.filter((i: any) => i.status === 'suspended')).toHaveLength(5);
    const twice = await owner.patch(api(studio, `client-contract/${sold.id}`), { action: 'suspend' });
    expect(twice.body.error.key).toBe('clientContract.alreadySuspended');

    clock.set(new Date('2027-02-10T09:00:00Z'));
    // Suspended instalments never become orders.
    await processDueInstalments(app.knex, clock.now());
    const owner2 = await app.signedIn(manager.email, manager.password);
    expect(await ordersOf(studio)).toHaveLength(1);
    const resumed = await owner2.patch(api(studio, `client-contract/${sold.id}`), { action: 'resume' });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.suspensions).toEqual([{ startsOn: '2026-12-23', endsOn: '2027-02-22' }]);
    expect(resumed.body.endsOn).toBe('2027-07-22');
    expect(resumed.body.instalments.map((i: any) => i.dueOn)).toEqual([
      '2026-11-23',
      '2027-02-23',
      '2027-03-23',
      '2027-04-23',
      '2027-05-23',
      '2027-06-23',
    ]);
    const notSuspended = await owner2.patch(api(studio, `client-contract/${sold.id}`), { action: 'resume' });
    expect(notSuspended.body.error.key).toBe('clientContract.notSuspended');
    const bad = await owner2.patch(api(studio, `client-contract/${sold.id}`), { action: 'pause' });
    expect(bad.status).toBe(400);
    const past = await owner2.patch(api(studio, `client-contract/${sold.id}`), {
      action: 'suspend',
      from: '2020-01-01',
    });
    expect(past.status).toBe(400);
    expect(past.body.error.fields.from).toBeDefined();
    clock.set(NOW);
  });

  it('PATCH and GET client-contract: 401, 403, 404 and other studios', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio);
    const sold = await sell(owner, studio, client.id, contract.id);
    const anon = await app.anonymous();
    expect(
      (await anon.patch(api(studio, `client-contract/${sold.id}`), { action: 'terminate' })).status,
    ).toBe(401);
    expect((await anon.get(api(studio, `client-contract/${sold.id}`))).status).toBe(401);
    const instructor = await staffWithRole(studio, 'instructor');
    expect(
      (await instructor.patch(api(studio, `client-contract/${sold.id}`), { action: 'terminate' })).status,
    ).toBe(403);
    expect(
      (await owner.patch(api(studio, `client-contract/${uuidv7()}`), { action: 'terminate' })).status,
    ).toBe(404);
    await expectHiddenFromOtherStudio(
      app,
      { method: 'GET', path: api(studio, `client-contract/${sold.id}`) },
      [sold.id],
    );
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: api(studio, `client-contract/${sold.id}`),
      body: { action: 'terminate' },
    });
    const untouched = await owner.get(api(studio, `client-contract/${sold.id}`));
    expect(untouched.body.clientContract.terminatedAt).toBeNull();
  });
});

describe('route guards not covered above', () => {
  it('every contract route answers 401, 400, 403 and 404 where it can', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio);
    const sold = await sell(owner, studio, client.id, contract.id);
    const anon = await app.anonymous();
    expect(
      (await anon.post(api(studio, `client/${client.id}/client-contract`), { contractId: contract.id }))
        .status,
    ).toBe(401);

    // 400: a malformed id in the init query, a patch with wrong values (every field reported).
    const badInit = await owner.get(api(studio, 'contract/init?contract=nope'));
    expect(badInit.status).toBe(400);
    expect(badInit.body.error.fields['query.contract']).toBeDefined();
    const badList = await owner.get(api(studio, 'contract/all?archived=sometimes'));
    expect(badList.status).toBe(400);
    expect(badList.body.error.fields['query.archived']).toBeDefined();
    const badPatch = await owner.patch(api(studio, `contract/${contract.id}`), {
      price: -5,
      periodUnit: 'year',
      noticePeriods: 99,
    });
    expect(badPatch.status).toBe(400);
    expect(Object.keys(badPatch.body.error.fields).sort()).toEqual(['noticePeriods', 'periodUnit', 'price']);
    expect((await owner.get(api(studio, `contract/${contract.id}`))).body.price).toBe(19900);

    // 403: an instructor cannot read the catalog of contracts; a member without a role sees no client contracts.
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(api(studio, 'contract/init'))).status).toBe(403);
    expect((await instructor.get(api(studio, `contract/${contract.id}`))).status).toBe(403);
    const noRole = await staffWithRole(studio, null);
    expect((await noRole.get(api(studio, `client/${client.id}/client-contract/all`))).status).toBe(403);
    expect((await noRole.get(api(studio, `client-contract/${sold.id}`))).status).toBe(403);

    // 404: unknown client, other studio's init.
    expect((await owner.get(api(studio, `client/${uuidv7()}/client-contract/all`))).status).toBe(404);
    await expectHiddenFromOtherStudio(
      app,
      { method: 'GET', path: api(studio, `contract/init?contract=${contract.id}`) },
      [contract.id],
    );

    // Public API: a wrong key is 401 everywhere; bad bodies are 400.
    const partner = new HttpClient(app.url);
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      partner.request(method, `/api/v2/public/${path}`, body, { noDefaults: true, headers });
    const instalment = sold.instalments[2];
    for (const [method, path, body] of [
      ['GET', `client/${client.id}/contracts`, undefined],
      ['POST', `client-contract/${sold.id}/terminate`, {}],
      ['POST', `client-contract-instalment/${instalment.id}/suspend`, {}],
      ['POST', `client-contract-instalment/${instalment.id}/resume`, {}],
      ['POST', 'contracts/checkout', { contractId: contract.id, userId: client.id }],
    ] as const)
      expect(
        (await call(method, path, body, { 'x-api-key': 'sk_wrong_000000000000000' })).status,
        `${method} ${path}`,
      ).toBe(401);
    const key = await apiKey(studio);
    const withKey = { 'x-api-key': key };
    const badTerminate = await call(
      'POST',
      `client-contract/${sold.id}/terminate`,
      { requestedOn: '23.11.2026' },
      withKey,
    );
    expect(badTerminate.status).toBe(400);
    expect(badTerminate.body.error.fields.requestedOn).toBeDefined();
    expect(
      (await call('POST', `client-contract-instalment/${instalment.id}/suspend`, { extra: true }, withKey))
        .status,
    ).toBe(400);
    expect((await call('POST', `client-contract-instalment/${uuidv7()}/resume`, {}, withKey)).status).toBe(
      404,
    );
    // Nothing changed through the refused calls.
    const after = (await owner.get(api(studio, `client-contract/${sold.id}`))).body.clientContract;
    expect(after).toMatchObject({ terminatedAt: null, suspensions: [] });
  });
});

describe('front office', () => {
  it('lists contracts sold online to anyone, and a client sees their own contracts', async () => {
    const { studio, owner, client } = await ownerStudio();
    const online = await createContract(owner, studio, { name: lt('Monthly', 'Miesięczny') });
    await createContract(owner, studio, { name: lt('Desk only'), sellOnline: false });
    const anon = await app.anonymous();
    const list = await anon.post(`/api/v4/${studio.id}/pricing/contracts`, {});
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: any) => c.id)).toEqual([online.id]);
    expect(list.body.items[0]).toMatchObject({ name: 'Miesięczny', price: 19900, signUpFee: 4900 });
    expect((await anon.post(`/api/v4/${uuidv7()}/pricing/contracts`, {})).status).toBe(404);
    expect((await anon.post(`/api/v4/${studio.id}/pricing/contracts`, { x: 1 })).status).toBe(400);

    await sell(owner, studio, client.id, online.id);
    const me = await app.signedIn(client.email, client.password);
    const mine = await me.get(`/api/v4/${studio.id}/contracts`);
    expect(mine.status).toBe(200);
    expect(mine.body.items).toHaveLength(1);
    expect((await anon.get(`/api/v4/${studio.id}/contracts`)).status).toBe(401);
    // Another studio's client sees none of it.
    const other = await createStudioScenario(app.knex);
    const otherClient = await app.signedIn(other.client.email, other.client.password);
    expect((await otherClient.get(`/api/v4/${studio.id}/contracts`)).status).toBe(404);
  });
});

describe('public API (x-api-key)', () => {
  it('lists contracts and client contracts, checks out, terminates, suspends and resumes instalments', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio, { durationPeriods: null, signUpFee: 0 });
    const key = await apiKey(studio);
    const partner = new HttpClient(app.url);
    const call = (method: string, path: string, body?: unknown, k = key) =>
      partner.request(method, `/api/v2/public/${path}`, body, {
        noDefaults: true,
        headers: { 'x-api-key': k },
      });

    expect((await call('GET', 'contract/all', undefined, 'sk_wrong_000000000000000')).status).toBe(401);
    const all = await call('GET', 'contract/all');
    expect(all.body.items.map((c: any) => c.id)).toEqual([contract.id]);

    const bad = await call('POST', 'contracts/checkout', { contractId: contract.id });
    expect(bad.status).toBe(400);
    const sold = await call('POST', 'contracts/checkout', { contractId: contract.id, userId: client.id });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body).toMatchObject({ channel: 'api', endsOn: null });
    expect(sold.body.instalments).toHaveLength(12);

    const listed = await call('GET', `client/${client.id}/contracts`);
    expect(listed.body.items.map((c: any) => c.id)).toEqual([sold.body.id]);
    expect((await call('GET', `client/${uuidv7()}/contracts`)).status).toBe(404);

    const third = sold.body.instalments[2];
    const suspended = await call('POST', `client-contract-instalment/${third.id}/suspend`, {});
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body.suspensions[0].startsOn).toBe(third.dueOn);
    expect(suspended.body.instalments.slice(0, 2).map((i: any) => i.status)).toEqual([
      'ordered',
      'scheduled',
    ]);
    const resumed = await call('POST', `client-contract-instalment/${third.id}/resume`, {});
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.canResume).toBe(false);

    const terminated = await call('POST', `client-contract/${sold.body.id}/terminate`, {});
    expect(terminated.status, terminated.text).toBe(200);
    expect(terminated.body).toMatchObject({ status: 'ending', endsOn: '2027-01-22' });
    const events = (await owner.get(api(studio, `client-contract/${sold.body.id}`))).body.events;
    expect(events.find((e: any) => e.kind === 'terminated').via).toBe('api');

    // Another studio's key sees none of it.
    const other = await ownerStudio();
    const otherKey = await apiKey(other.studio);
    expect((await call('GET', `client/${client.id}/contracts`, undefined, otherKey)).status).toBe(404);
    expect((await call('POST', `client-contract/${sold.body.id}/terminate`, {}, otherKey)).status).toBe(404);
    expect((await call('POST', `client-contract-instalment/${third.id}/suspend`, {}, otherKey)).status).toBe(
      404,
    );
    expect((await call('POST', `client-contract-instalment/${third.id}/resume`, {}, otherKey)).status).toBe(
      404,
    );
    expect(
      (await call('POST', 'contracts/checkout', { contractId: contract.id, userId: client.id }, otherKey))
        .status,
    ).toBe(404);
    expect((await call('GET', 'contract/all', undefined, otherKey)).body.items).toEqual([]);
  });
});

describe('job: contract instalments due', () => {
  it('turns a due instalment into exactly one order, however often it runs', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio, { signUpFee: 0, durationPeriods: 3 });
    const sold = await sell(owner, studio, client.id, contract.id);
    expect(await ordersOf(studio)).toHaveLength(1);
    // 22 December 23:30 UTC is 23 December 00:30 in Warsaw: the second instalment is due.
    const due = new Date('2026-12-22T23:30:00Z');
    const first = await processDueInstalments(app.knex, due);
    expect(first.ordered).toBeGreaterThanOrEqual(1);
    const second = await processDueInstalments(app.knex, due);
    expect(second.ordered).toBe(0);
    const orders = await ordersOf(studio);
    expect(orders).toHaveLength(2);
    const lines = await app.knex('client_order_lines').whereIn(
      'order_id',
      orders.map((o: any) => o.id),
    );
    expect(lines.map((l: any) => l.kind)).toEqual(['contract_instalment', 'contract_instalment']);
    const view = (await owner.get(api(studio, `client-contract/${sold.id}`))).body.clientContract;
    expect(view.instalments.map((i: any) => i.status)).toEqual(['ordered', 'ordered', 'scheduled']);
    // An hour earlier it was still 22 December in Warsaw: nothing more was due then.
    expect((await processDueInstalments(app.knex, new Date('2026-12-22T22:30:00Z'))).ordered).toBe(0);
  });

  it('keeps open-ended contracts planned a year ahead', async () => {
    const { studio, owner, client } = await ownerStudio();
    const contract = await createContract(owner, studio, { signUpFee: 0, durationPeriods: null });
    const sold = await sell(owner, studio, client.id, contract.id);
    expect(sold.instalments).toHaveLength(12);
    await processDueInstalments(app.knex, new Date('2027-03-01T09:00:00Z'));
    const view = (await owner.get(api(studio, `client-contract/${sold.id}`))).body.clientContract;
    expect(view.instalments).toHaveLength(15);
    expect(view.instalments.at(-1).dueOn).toBe('2028-01-23');
  });
});
