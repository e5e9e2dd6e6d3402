import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';

import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import { fileStorage } from '../../storage';
import { avatarKey } from './accounts.service';
import { seedDemoAgreements } from './demo-agreements';
import { findClientByIdentity } from './identities.service';

const NOW = new Date('2026-11-22T12:00:00Z');
const clock = new ManualClock(NOW);

const app = useTestApp({ clock });

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const unique = () => uuidv7().slice(-12);
// A 1×1 PNG.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A studio with agreements, its owner, and a client signed in. */
async function scenario() {
  const s = await createStudioScenario(app.knex);
  await seedDemoAgreements(app.knex, s.studio.id, NOW);
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  const client = await app.signedIn(s.client.email, s.client.password);
  return { ...s, owner, clientApi: client };
}

const { staffWithRole } = studioSessions(() => app);

const signupBody = (email: string, agreements: Record<string, boolean> = { terms: true, privacy: true }) => ({
  emailAddress: email,
  password: 'a good password',
  firstName: 'Zofia',
  lastName: 'Nowak',
  agreements,
});

describe('studio agreements and client sign-up', () => {
  it('lists the current agreements in the asked language, public; unknown studio 404', async () => {
    const { studio } = await scenario();
    const anon = await app.anonymous();
    const res = await anon.get(`${api(studio, 'studio-agreement/collection')}?locale=pl`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((a: { kind: string; required: boolean }) => [a.kind, a.required])).toEqual([
      ['terms', true],
      ['privacy', true],
      ['marketing', false],
    ]);
    expect(res.body.items[0].title).toBe('Regulamin');
    expect((await anon.get(api({ id: uuidv7() }, 'studio-agreement/collection'))).status).toBe(404);
  });

  it('signs a new client up: user, client record, acceptances with version and time, session, welcome mail', async () => {
    const { studio, owner } = await scenario();
    const anon = await app.anonymous();
    const email = `new-${unique()}@example.com`;
    const res = await anon.post(
      api(studio, 'signup'),
      signupBody(email, { terms: true, privacy: true, marketing: false }),
    );
    expect(res.status).toBe(201);
    expect(res.body.createdUser).toBe(true);
    expect(res.body.me.memberships).toEqual([
      expect.objectContaining({ studioUuid: studio.id, isClient: true }),
    ]);
    const acceptances = await app
      .knex('client_agreement_acceptances')
      .where({ userId: res.body.userId })
      .orderBy('kind');
    expect(acceptances.map((a) => [a.kind, a.version, a.accepted])).toEqual([
      ['marketing', 1, false],
      ['privacy', 1, true],
      ['terms', 1, true],
    ]);
    expect(acceptances[0]!.decidedAt!.toISOString()).toBe(NOW.toISOString());
    // The studio sees the new client in its list.
    const list = await owner.get(`${api(studio, 'client/search')}?q=${encodeURIComponent(email)}`);
    expect(list.body.items.map((c: { emailAddress: string }) => c.emailAddress)).toEqual([email]);
    await app.drainJobs();
    expect(app.mail.some((m) => m.to === email && m.text.includes(`/${studio.id}/frontoffice`))).toBe(true);
    // The new session works.
    const me = await anon.get(api(studio, 'profile'), {
      headers: { 'x-auth-token': `${res.body.userId}:${res.body.sessionId}` },
    });
    expect(me.status).toBe(200);
    expect(me.body.firstName).toBe('Zofia');
  });

  it('400 for every missing required agreement and bad field, and nothing is created', async () => {
    const { studio } = await scenario();
    const anon = await app.anonymous();
    const email = `bad-${unique()}@example.com`;
    const res = await anon.post(api(studio, 'signup'), signupBody(email, { marketing: true }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['agreements.privacy', 'agreements.terms']);
    const bad = await anon.post(api(studio, 'signup'), {
      emailAddress: 'nope',
      password: 'x',
      firstName: '',
      lastName: 'A',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['emailAddress', 'firstName', 'password']);
    expect(await app.knex('users').whereRaw('lower(email) = ?', [email]).first()).toBeUndefined();
  });

  it('attaches an existing account of another studio after its password; wrong password 400; twice 409', async () => {
    const { studio } = await scenario();
    const elsewhere = await createStudioScenario(app.knex);
    const anon = await app.anonymous();
    const wrong = await anon.post(api(studio, 'signup'), {
      ...signupBody(elsewhere.client.email),
      password: 'not the password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.password).toBeDefined();
    const ok = await anon.post(api(studio, 'signup'), {
      ...signupBody(elsewhere.client.email),
      password: TEST_PASSWORD,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.createdUser).toBe(false);
    expect(ok.body.me.memberships).toHaveLength(2);
    // Name of the existing account unchanged.
    expect(ok.body.me.firstName).toBe('Kamil');
    const again = await (
      await app.anonymous()
    ).post(api(studio, 'signup'), {
      ...signupBody(elsewhere.client.email),
      password: TEST_PASSWORD,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.fields.emailAddress).toBeDefined();
  });

  it('is rate-limited like sign-in', async () => {
    const limited = await startTestApp({
      shareDatabaseWith: app,
      rateLimits: { loginPerEmail: { points: 2, durationSeconds: 60 } },
    });
    try {
      const { studio } = await scenario();
      const anon = await limited.anonymous();
      const email = `rl-${unique()}@example.com`;
      for (let i = 0; i < 2; i++)
        expect((await anon.post(api(studio, 'signup'), signupBody(email, {}))).status).toBe(400);
      const res = await anon.post(api(studio, 'signup'), signupBody(email, {}));
      expect(res.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('client-only routes: 401, 403 for staff without a client standing, 404 for another studio', () => {
  const routes: Array<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [
    { method: 'GET', path: 'profile' },
    { method: 'POST', path: 'profile', body: { firstName: 'A', lastName: 'B' } },
    { method: 'POST', path: 'user/avatar', body: { dataUrl: PNG } },
    { method: 'DELETE', path: 'user/avatar' },
    {
      method: 'POST',
      path: 'security',
      body: { currentPassword: TEST_PASSWORD, newPassword: 'another password' },
    },
    { method: 'GET', path: 'settings' },
    {
      method: 'POST',
      path: 'settings',
      body: { locale: 'pl', notifications: { email: true, sms: false, push: true } },
    },
    { method: 'GET', path: 'identity' },
    { method: 'GET', path: 'user-account-link/init' },
    { method: 'GET', path: 'user-account-link/find-my-accounts' },
    {
      method: 'POST',
      path: 'user-account-link/connect',
      body: { emailAddress: 'a@example.com', password: 'x', relationship: 'child' },
    },
    { method: 'PATCH', path: `user-account-link-relation/${uuidv7()}`, body: { relationship: 'child' } },
    { method: 'DELETE', path: `user-account-link-relation/${uuidv7()}` },
    { method: 'GET', path: 'user-message/collection' },
    { method: 'PATCH', path: `user-message/${uuidv7()}/read` },
    { method: 'POST', path: 'messages', body: { content: 'Hello' } },
    { method: 'GET', path: 'user-notification/all' },
    { method: 'PATCH', path: 'user-notification/read' },
    { method: 'PATCH', path: `user-notification/${uuidv7()}/read` },
  ];

  it.each(routes)('$method $path', async (route) => {
    const { studio, owner } = await scenario();
    const anon = await app.anonymous();
    const unauth = await anon.request(route.method, api(studio, route.path), route.body);
    expect(unauth.status).toBe(401);
    const staffOnly = await owner.request(route.method, api(studio, route.path), route.body);
    expect(staffOnly.status).toBe(403);
    await expectHiddenFromOtherStudio(app, {
      method: route.method,
      path: api(studio, route.path),
      body: route.body,
    });
  });
});

describe('profile, avatar, security, settings', () => {
  it('reads and updates the profile; the studio record follows; future birth date 400', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const res = await clientApi.post(api(studio, 'profile'), {
      firstName: 'Kamila',
      lastName: 'Klient',
      phone: '+48 600 100 200',
      birthDate: '1990-05-04',
      sex: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Kamila', birthDate: '1990-05-04', sex: 1, editable: true });
    const record = await owner.get(api(studio, `client/${client.id}`));
    expect(record.body).toMatchObject({
      firstName: 'Kamila',
      phone: '+48 600 100 200',
      birthDate: '1990-05-04',
      sex: 1,
    });
    const future = await clientApi.post(api(studio, 'profile'), {
      firstName: 'K',
      lastName: 'K',
      birthDate: '2030-01-01',
    });
    expect(future.status).toBe(400);
    expect(future.body.error.fields.birthDate).toBeDefined();
    const bad = await clientApi.post(api(studio, 'profile'), {
      firstName: '',
      lastName: 'K',
      sex: 5,
      phone: 'abc',
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['firstName', 'phone', 'sex']);
  });

  it('uploads an avatar under DATA_DIR, serves it, refuses non-images and big files, removes it', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const up = await clientApi.post(api(studio, 'user/avatar'), { dataUrl: PNG });
    expect(up.status).toBe(200);
    expect(up.body.avatarUrl).toMatch(new RegExp(`^/api/v4/${studio.id}/user/${client.id}/avatar`));
    const img = await clientApi.get(up.body.avatarUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    // The studio's staff see it; another studio's client does not.
    expect((await owner.get(up.body.avatarUrl)).status).toBe(200);
    const { avatarFile } = await app.knex('user_profiles').where({ userId: client.id }).first('avatar_file');
    expect(avatarFile).toMatch(new RegExp(`^${client.id}-`));
    expect(await fileStorage(app.deps.config).read(avatarKey(avatarFile))).not.toBeNull();
    const fake = await clientApi.post(api(studio, 'user/avatar'), {
      dataUrl: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>this is not a png').toString('base64')}`,
    });
    expect(fake.status).toBe(400);
    expect(fake.body.error.fields.dataUrl).toBeDefined();
    const big = await clientApi.post(api(studio, 'user/avatar'), {
      dataUrl: `data:image/png;base64,${Buffer.alloc(600 * 1024, 1).toString('base64')}`,
    });
    expect([400, 413]).toContain(big.status);
    const del = await clientApi.delete(api(studio, 'user/avatar'));
    expect(del.status).toBe(204);
    expect((await clientApi.get(up.body.avatarUrl)).status).toBe(404);
    // The file goes after the commit.
    await expect.poll(() => fileStorage(app.deps.config).read(avatarKey(avatarFile))).toBeNull();
    const other = await createStudioScenario(app.knex);
    const outsider = await app.signedIn(other.client.email, other.client.password);
    expect((await outsider.get(up.body.avatarUrl)).status).toBe(404);
  });

  it('changes the password with the current one and signs out other sessions only', async () => {
    const { studio, client, clientApi } = await scenario();
    const otherDevice = await app.signedIn(client.email, TEST_PASSWORD);
    const wrong = await clientApi.post(api(studio, 'security'), {
      currentPassword: 'wrong',
      newPassword: 'a new password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.currentPassword).toBeDefined();
    const short = await clientApi.post(api(studio, 'security'), {
      currentPassword: TEST_PASSWORD,
      newPassword: 'short',
    });
    expect(short.body.error.fields.newPassword).toBeDefined();
    const ok = await clientApi.post(api(studio, 'security'), {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a new password',
    });
    expect(ok.status).toBe(204);
    expect((await clientApi.get(api(studio, 'settings'))).status).toBe(200);
    expect((await otherDevice.get(api(studio, 'settings'))).status).toBe(401);
    expect((await (await app.anonymous()).signIn(client.email, 'a new password')).status).toBe(200);
  });

  it('saves language and notification preferences', async () => {
    const { studio, clientApi } = await scenario();
    expect((await clientApi.get(api(studio, 'settings'))).body).toEqual({
      locale: null,
      notifications: { email: true, sms: false, push: true },
    });
    const body = { locale: 'pl', notifications: { email: false, sms: true, push: false } };
    expect((await clientApi.post(api(studio, 'settings'), body)).body).toEqual(body);
    expect((await clientApi.get(api(studio, 'settings'))).body).toEqual(body);
    const bad = await clientApi.post(api(studio, 'settings'), {
      locale: 'de',
      notifications: { email: 'yes' },
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'locale',
      'notifications.email',
      'notifications.push',
      'notifications.sms',
    ]);
  });
});

describe('identities', () => {
  it('the client has one QR payload; staff add and remove cards; lookups by QR and card; search by card', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const mine = await clientApi.get(api(studio, 'identity'));
    expect(mine.status).toBe(200);
    expect(mine.body.qrPayload).toMatch(/^sp1:[A-Za-z0-9_-]{16,}$/);
    expect((await clientApi.get(api(studio, 'identity'))).body.qrPayload).toBe(mine.body.qrPayload);

    const added = await owner.post(api(studio, `client/${client.id}/client-identity`), {
      cardNumber: 'AB-1234',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ kind: 'card', number: 'AB-1234' });
    const dup = await owner.post(api(studio, `client/${client.id}/client-identity`), {
      cardNumber: 'ab 1234',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields.cardNumber).toBeDefined();
    const bad = await owner.post(api(studio, `client/${client.id}/client-identity`), { cardNumber: '%%' });
    expect(bad.status).toBe(400);

    const list = await owner.get(api(studio, `client/${client.id}/client-identity/collection`));
    expect(list.body.qrPayload).toBe(mine.body.qrPayload);
    expect(list.body.items.map((i: { number: string }) => i.number)).toEqual(['AB-1234']);
    expect((await clientApi.get(api(studio, 'identity'))).body.cards).toHaveLength(1);

    expect(await findClientByIdentity(app.knex, studio.id, mine.body.qrPayload)).toMatchObject({
      userId: client.id,
      via: 'qr',
    });
    expect(await findClientByIdentity(app.knex, studio.id, 'ab1234')).toMatchObject({
      userId: client.id,
      via: 'card',
    });
    const other = await createStudio(app.knex);
    expect(await findClientByIdentity(app.knex, other.id, 'AB-1234')).toBeNull();
    expect(await findClientByIdentity(app.knex, other.id, mine.body.qrPayload)).toBeNull();

    const search = await owner.get(`${api(studio, 'client/search')}?q=AB-1234`);
    expect(search.body.items.map((c: { id: string }) => c.id)).toEqual([client.id]);
    const listSearch = await owner.get(`${api(studio, 'client/collection')}?q=ab1234`);
    expect(listSearch.body.items.map((c: { id: string }) => c.id)).toEqual([client.id]);

    const regenerated = await owner.post(api(studio, `client/${client.id}/client-identity/regenerate-qr`));
    expect(regenerated.body.qrPayload).not.toBe(mine.body.qrPayload);
    expect(await findClientByIdentity(app.knex, studio.id, mine.body.qrPayload)).toBeNull();

    const removed = await owner.delete(api(studio, `client-identity/${added.body.id}`));
    expect(removed.status).toBe(204);
    expect((await owner.delete(api(studio, `client-identity/${added.body.id}`))).status).toBe(404);
  });

  it('the front desk reader names the client of a scanned card or QR code (GET identity-reader)', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const other = await scenario();
    const anonymous = await app.anonymous();
    const card = `R-${unique()}`;
    await owner.post(api(studio, `client/${client.id}/client-identity`), { cardNumber: card });
    const { qrPayload } = (await clientApi.get(api(studio, 'identity'))).body;
    const read = (who: typeof owner, code: string, s: { id: string } = studio) =>
      who.get(`${api(s, 'identity-reader')}?code=${encodeURIComponent(code)}`);

    expect((await read(anonymous, card)).status).toBe(401);
    expect((await read(clientApi, card)).status).toBe(403);
    expect((await read(await staffWithRole(studio, 'no_such_role'), card)).status).toBe(403);
    expect((await read(other.owner, card)).status).toBe(404);
    const bad = await read(owner, '%%');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['query.code']);
    expect((await owner.get(api(studio, 'identity-reader'))).status).toBe(400);

    // A reader types the number its own way (case, spaces); a QR payload works the same.
    const byCard = await read(owner, ` ${card.toLowerCase().replace('-', ' ')} `);
    expect(byCard.status, byCard.text).toBe(200);
    expect(byCard.body.match).toEqual({
      via: 'card',
      client: { id: client.id, firstName: client.firstName, lastName: client.lastName, archived: false },
    });
    expect((await read(owner, qrPayload)).body.match).toMatchObject({ via: 'qr', client: { id: client.id } });
    // Another studio's staff reading this studio's card in their own studio find nobody.
    expect((await read(other.owner, card, other.studio)).body).toEqual({ match: null });
    expect((await read(owner, 'NOBODY-0000')).body).toEqual({ match: null });
  });

  const staffRoutes = (clientId: string, identityId: string) => [
    { method: 'GET' as const, path: `client/${clientId}/client-identity/collection`, denied: null },
    {
      method: 'POST' as const,
      path: `client/${clientId}/client-identity`,
      body: { cardNumber: `C-${unique()}` },
      denied: 'instructor',
    },
    {
      method: 'POST' as const,
      path: `client/${clientId}/client-identity/regenerate-qr`,
      denied: 'instructor',
    },
    { method: 'DELETE' as const, path: `client-identity/${identityId}`, denied: 'instructor' },
  ];

  it('staff routes: 401, 403 for clients and roles without the ability, 404 for other studios and strangers', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const card = await owner.post(api(studio, `client/${client.id}/client-identity`), {
      cardNumber: `K-${unique()}`,
    });
    const anon = await app.anonymous();
    for (const route of staffRoutes(client.id, card.body.id)) {
      const url = api(studio, route.path);
      expect((await anon.request(route.method, url, route.body)).status, `${route.path} anon`).toBe(401);
      expect((await clientApi.request(route.method, url, route.body)).status, `${route.path} client`).toBe(
        403,
      );
      if (route.denied) {
        const staff = await staffWithRole(studio, route.denied);
        expect(
          (await staff.request(route.method, url, route.body)).status,
          `${route.path} ${route.denied}`,
        ).toBe(403);
      }
      await expectHiddenFromOtherStudio(app, { method: route.method, path: url, body: route.body });
    }
    // Someone who is not this studio's client: 404.
    const stranger = await createUser(app.knex);
    expect((await owner.get(api(studio, `client/${stranger.id}/client-identity/collection`))).status).toBe(
      404,
    );
    expect(
      (await owner.post(api(studio, `client/${stranger.id}/client-identity`), { cardNumber: 'X-123' }))
        .status,
    ).toBe(404);
    // Another studio's card cannot be removed from here.
    const other = await scenario();
    const theirs = await other.owner.post(api(other.studio, `client/${other.client.id}/client-identity`), {
      cardNumber: 'Z-999',
    });
    expect((await owner.delete(api(studio, `client-identity/${theirs.body.id}`))).status).toBe(404);
  });
});

describe('linked accounts', () => {
  it('a parent links a child by email and password, acts for the child; the child cannot act for the parent', async () => {
    const { studio, client, clientApi } = await scenario();
    const child = await createUser(app.knex, { firstName: 'Ola', lastName: 'Client' });
    await addMembership(app.knex, studio, child, { isClient: true });
    const wrong = await clientApi.post(api(studio, 'user-account-link/connect'), {
      emailAddress: child.email,
      password: 'wrong',
      relationship: 'child',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.password).toBeDefined();
    const self = await clientApi.post(api(studio, 'user-account-link/connect'), {
      emailAddress: client.email,
      password: TEST_PASSWORD,
      relationship: 'self',
    });
    expect(self.status).toBe(400);
    const bad = await clientApi.post(api(studio, 'user-account-link/connect'), {
      emailAddress: 'x',
      relationship: 'cousin',
    });
    expect(bad.status).toBe(400);

    const linked = await clientApi.post(api(studio, 'user-account-link/connect'), {
      emailAddress: child.email,
      password: TEST_PASSWORD,
      relationship: 'child',
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({
      relationship: 'child',
      owned: true,
      canActFor: true,
      clientHere: true,
    });
    expect(linked.body.user).toMatchObject({ id: child.id, firstName: 'Ola' });
    const twice = await clientApi.post(api(studio, 'user-account-link/connect'), {
      emailAddress: child.email,
      password: TEST_PASSWORD,
      relationship: 'child',
    });
    expect(twice.status).toBe(409);

    // The parent reads the child's profile; not editable.
    const childProfile = await clientApi.get(`${api(studio, 'profile')}?user=${child.id}`);
    expect(childProfile.status).toBe(200);
    expect(childProfile.body).toMatchObject({ userId: child.id, firstName: 'Ola', editable: false });

    // The child sees the link as "parent", may not act for the parent, nor change the relationship.
    const childApi = await app.signedIn(child.email, TEST_PASSWORD);
    const seen = await childApi.get(api(studio, 'user-account-link/init'));
    expect(seen.body.items).toEqual([
      expect.objectContaining({ relationship: 'parent', owned: false, canActFor: false }),
    ]);
    expect(seen.body.relationships.map((r: { value: string }) => r.value)).toEqual([
      'self',
      'spouse',
      'parent',
      'child',
      'sibling',
      'friend',
    ]);
    expect((await childApi.get(`${api(studio, 'profile')}?user=${client.id}`)).status).toBe(404);
    expect(
      (
        await childApi.patch(api(studio, `user-account-link-relation/${linked.body.id}`), {
          relationship: 'friend',
        })
      ).status,
    ).toBe(403);
    // The child was notified.
    const notes = await childApi.get(api(studio, 'user-notification/all'));
    expect(notes.body.items[0]).toMatchObject({
      type: 'accountLinked',
      titleKey: 'notifications.accountLinked',
      read: false,
    });

    // Changing the relationship to friend ends acting.
    const changed = await clientApi.patch(api(studio, `user-account-link-relation/${linked.body.id}`), {
      relationship: 'friend',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ relationship: 'friend', canActFor: false });
    expect((await clientApi.get(`${api(studio, 'profile')}?user=${child.id}`)).status).toBe(404);
    const badPatch = await clientApi.patch(api(studio, `user-account-link-relation/${linked.body.id}`), {
      relationship: 'x',
    });
    expect(badPatch.status).toBe(400);

    // A stranger cannot see or remove the link; either side can.
    const stranger = await scenario();
    expect(
      (await stranger.clientApi.delete(api(stranger.studio, `user-account-link-relation/${linked.body.id}`)))
        .status,
    ).toBe(404);
    expect((await childApi.delete(api(studio, `user-account-link-relation/${linked.body.id}`))).status).toBe(
      204,
    );
    expect((await clientApi.get(api(studio, 'user-account-link/init'))).body.items).toEqual([]);
  });

  it('finds studio-made accounts carrying my email and links them as self only', async () => {
    const { studio, client, clientApi } = await scenario();
    const otherStudio = await scenario();
    // Another studio added "me" without a password under a separate account and typed my email on its record.
    const made = await createUser(app.knex, { password: null, firstName: 'Kamil', lastName: 'C' });
    await addMembership(app.knex, otherStudio.studio, made, { isClient: true });
    await app
      .knex('clients')
      .where({ studioId: otherStudio.studio.id, userId: made.id })
      .update({ email: client.email });
    const found = await clientApi.get(api(studio, 'user-account-link/find-my-accounts'));
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([
      expect.objectContaining({
        userId: made.id,
        linked: false,
        studios: [{ uuid: otherStudio.studio.id, name: otherStudio.studio.name }],
      }),
    ]);
    const asChild = await clientApi.post(api(studio, 'user-account-link/connect'), {
      userId: made.id,
      relationship: 'child',
    });
    expect(asChild.status).toBe(400);
    const notMine = await clientApi.post(api(studio, 'user-account-link/connect'), {
      userId: otherStudio.client.id,
      relationship: 'self',
    });
    expect(notMine.status).toBe(404);
    const ok = await clientApi.post(api(studio, 'user-account-link/connect'), {
      userId: made.id,
      relationship: 'self',
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ relationship: 'self', canActFor: true, clientHere: false });
    expect(
      (await clientApi.get(api(studio, 'user-account-link/find-my-accounts'))).body.items[0].linked,
    ).toBe(true);
  });
});

describe('messages and notifications', () => {
  it('the studio writes, the client reads (unread count), answers; notifications marked read one or all', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const sent = await owner.post(api(studio, 'user/send-message'), {
      userId: client.id,
      subject: 'Welcome',
      content: 'Hi!',
    });
    expect(sent.status).toBe(201);
    await owner.post(api(studio, 'user/send-message'), {
      userId: client.id,
      subject: 'Schedule',
      content: 'New classes',
    });
    let inbox = await clientApi.get(api(studio, 'user-message/collection'));
    expect(inbox.body.unreadCount).toBe(2);
    expect(inbox.body.items.map((m: { subject: string }) => m.subject)).toEqual(['Schedule', 'Welcome']);
    const page = await clientApi.get(`${api(studio, 'user-message/collection')}?limit=1`);
    expect(page.body.items).toHaveLength(1);
    const page2 = await clientApi.get(
      `${api(studio, 'user-message/collection')}?limit=1&cursor=${page.body.next}`,
    );
    expect(page2.body.items[0].subject).toBe('Welcome');
    expect(page2.body.next).toBeNull();
    expect((await clientApi.get(`${api(studio, 'user-message/collection')}?limit=0`)).status).toBe(400);

    const read = await clientApi.patch(api(studio, `user-message/${sent.body.id}/read`));
    expect(read.body.read).toBe(true);
    inbox = await clientApi.get(api(studio, 'user-message/collection'));
    expect(inbox.body.unreadCount).toBe(1);

    const reply = await clientApi.post(api(studio, 'messages'), { content: 'Thanks' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ from: 'client', read: true });
    expect((await clientApi.post(api(studio, 'messages'), { content: '  ' })).status).toBe(400);
    // One's own message cannot be "read" as if received.
    expect((await clientApi.patch(api(studio, `user-message/${reply.body.id}/read`))).status).toBe(404);

    const notes = await clientApi.get(api(studio, 'user-notification/all'));
    expect(notes.body.unreadCount).toBe(2);
    expect(notes.body.items[0]).toMatchObject({ type: 'message', values: { subject: 'Schedule' } });
    const one = await clientApi.patch(api(studio, `user-notification/${notes.body.items[0].id}/read`));
    expect(one.body.read).toBe(true);
    const all = await clientApi.patch(api(studio, 'user-notification/read'));
    expect(all.body.changed).toBe(1);
    expect((await clientApi.get(api(studio, 'user-notification/all'))).body.unreadCount).toBe(0);

    // Another client of the same studio sees none of it.
    const neighbour = await createUser(app.knex);
    await addMembership(app.knex, studio, neighbour, { isClient: true });
    const neighbourApi = await app.signedIn(neighbour.email, TEST_PASSWORD);
    expect((await neighbourApi.get(api(studio, 'user-message/collection'))).body.items).toEqual([]);
    expect((await neighbourApi.patch(api(studio, `user-message/${sent.body.id}/read`))).status).toBe(404);
    expect(
      (await neighbourApi.patch(api(studio, `user-notification/${notes.body.items[0].id}/read`))).status,
    ).toBe(404);
  });

  it('send-message: 401, 400, 403 for clients and roles without clients.message, 404 other studio or non-client', async () => {
    const { studio, client, clientApi, owner } = await scenario();
    const url = api(studio, 'user/send-message');
    const body = { userId: client.id, subject: 'S', content: 'C' };
    expect((await (await app.anonymous()).post(url, body)).status).toBe(401);
    const bad = await owner.post(url, { userId: 'x', subject: '', content: '' });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['content', 'subject', 'userId']);
    expect((await clientApi.post(url, body)).status).toBe(403);
    expect((await (await staffWithRole(studio, 'instructor')).post(url, body)).status).toBe(403);
    await expectHiddenFromOtherStudio(app, { method: 'POST', path: url, body });
    const stranger = await createUser(app.knex);
    expect((await owner.post(url, { ...body, userId: stranger.id })).status).toBe(404);
  });
});

describe('account erasure', () => {
  it('removes the identities, messages and notifications in the studio; keeps acceptances', async () => {
    const { studio, owner } = await scenario();
    const anon = await app.anonymous();
    const email = `erase-${unique()}@example.com`;
    const signed = await anon.post(api(studio, 'signup'), signupBody(email));
    const userId = signed.body.userId as string;
    // The sign-up answers like a sign-in: use its session.
    anon.session = signed.body;
    anon.token = signed.body.token;
    await owner.post(api(studio, `client/${userId}/client-identity`), { cardNumber: `E-${unique()}` });
    await owner.post(api(studio, 'user/send-message'), { userId, subject: 'S', content: 'C' });
    await anon.post(api(studio, 'settings'), {
      locale: 'en',
      notifications: { email: true, sms: true, push: true },
    });
    expect(await app.knex('user_profiles').where({ userId })).toHaveLength(1);
    const erased = await anon.delete(api(studio, 'account'), { password: 'a good password' });
    expect(erased.status).toBe(204);
    expect(await app.knex('client_identities').where({ userId })).toEqual([]);
    expect(await app.knex('user_messages').where({ userId })).toEqual([]);
    expect(await app.knex('user_notifications').where({ userId })).toEqual([]);
    expect(await app.knex('user_profiles').where({ userId })).toEqual([]);
    // Terms and privacy accepted, marketing refused: the studio's proof stays.
    expect((await app.knex('client_agreement_acceptances').where({ userId })).length).toBe(3);
  });
});
