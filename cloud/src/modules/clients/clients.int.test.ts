import { beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudio, createUser, TEST_PASSWORD } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import type { TestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { findUser } from '../identity/rows';
import { api, unique, useClientsApp } from './clients.test-support';

// Clients: every route's refusals and tenancy, adding a client and the duplicate check.
const kit = useClientsApp();
const { ownerStudio, staffWithRole, seedClient, createTag } = kit;
let app: TestApp;
beforeAll(() => {
  app = kit.app();
});

// ------------------------------------------------------------------------------------ the route table

interface Fixture {
  studio: Studio;
  clientId: string;
  tagId: string;
  memberTagId: string;
  noteId: string;
}

type RouteCase = {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** A default role that lacks what the route asks (403). */
  deniedRole: string;
  /** Names the first studio's ids: the other studio, in its own studio, gets 404 for them too. */
  foreign?: true;
};

const ROUTES: RouteCase[] = [
  { name: 'add init', method: 'GET', path: () => 'client/add/init', deniedRole: 'instructor' },
  {
    name: 'check existence',
    method: 'GET',
    path: () => 'client/check-existence?emailAddress=a@example.com',
    deniedRole: 'auditor',
  },
  { name: 'collection', method: 'GET', path: () => 'client/collection', deniedRole: 'auditor' },
  { name: 'search', method: 'GET', path: () => 'client/search?q=ann', deniedRole: 'auditor' },
  { name: 'bulk init', method: 'GET', path: () => 'client/bulk', deniedRole: 'auditor' },
  {
    name: 'bulk tag',
    foreign: true,
    method: 'POST',
    path: () => 'client/bulk',
    body: (f) => ({ action: 'tag', clientIds: [f.clientId], tagIds: [f.tagId] }),
    deniedRole: 'instructor',
  },
  {
    name: 'bulk export',
    foreign: true,
    method: 'POST',
    path: () => 'client/bulk',
    body: (f) => ({ action: 'export', clientIds: [f.clientId] }),
    deniedRole: 'front_desk',
  },
  { name: 'export', method: 'POST', path: () => 'client/export', body: () => ({}), deniedRole: 'accountant' },
  {
    name: 'create',
    method: 'POST',
    path: () => 'client',
    body: () => ({ firstName: 'New', lastName: 'Person' }),
    deniedRole: 'instructor',
  },
  { name: 'list init', method: 'GET', path: () => 'client-list/init', deniedRole: 'auditor' },
  {
    name: 'detail',
    foreign: true,
    method: 'GET',
    path: (f) => `client/${f.clientId}`,
    deniedRole: 'auditor',
  },
  {
    name: 'edit init',
    foreign: true,
    method: 'GET',
    path: (f) => `client/${f.clientId}/init`,
    deniedRole: 'auditor',
  },
  {
    name: 'profile',
    foreign: true,
    method: 'GET',
    path: (f) => `client/${f.clientId}/profile`,
    deniedRole: 'auditor',
  },
  {
    name: 'edit',
    foreign: true,
    method: 'PATCH',
    path: (f) => `client/${f.clientId}`,
    body: () => ({ firstName: 'Edited' }),
    deniedRole: 'accountant',
  },
  {
    name: 'archive',
    foreign: true,
    method: 'DELETE',
    path: (f) => `client/${f.clientId}`,
    deniedRole: 'front_desk',
  },
  {
    name: 'backoffice search',
    method: 'POST',
    path: () => 'backoffice/search',
    body: () => ({ queryString: 'ann' }),
    deniedRole: '',
  },
  { name: 'tags', method: 'GET', path: () => 'tag/all?type=1', deniedRole: 'instructor' },
  {
    name: 'tag create',
    method: 'POST',
    path: () => 'tag',
    body: () => ({ name: `T ${unique()}`, type: 0 }),
    deniedRole: 'instructor',
  },
  {
    name: 'tag put',
    foreign: true,
    method: 'PUT',
    path: (f) => `tag/${f.tagId}`,
    body: () => ({ name: `T ${unique()}`, type: 0 }),
    deniedRole: 'accountant',
  },
  {
    name: 'tag patch',
    foreign: true,
    method: 'PATCH',
    path: (f) => `tag/${f.memberTagId}`,
    body: () => ({ name: `M ${unique()}` }),
    deniedRole: 'front_desk',
  },
  {
    name: 'tag delete',
    foreign: true,
    method: 'DELETE',
    path: (f) => `tag/${f.tagId}`,
    deniedRole: 'instructor',
  },
  {
    name: 'user-tag add',
    foreign: true,
    method: 'POST',
    path: () => 'user-tag/add',
    body: (f) => ({ tagIds: [f.tagId], userIds: [f.clientId] }),
    deniedRole: 'instructor',
  },
  {
    name: 'user-tag remove',
    foreign: true,
    method: 'POST',
    path: () => 'user-tag/remove',
    body: (f) => ({ tagIds: [f.tagId], userIds: [f.clientId] }),
    deniedRole: 'accountant',
  },
  {
    name: 'note create',
    foreign: true,
    method: 'PUT',
    path: () => 'client-note',
    body: (f) => ({ userId: f.clientId, type: 'private', content: 'Knee injury' }),
    deniedRole: 'instructor',
  },
  {
    name: 'note edit',
    foreign: true,
    method: 'PATCH',
    path: (f) => `client-note/${f.noteId}`,
    body: () => ({ content: 'Edited' }),
    deniedRole: 'accountant',
  },
  {
    name: 'note delete',
    foreign: true,
    method: 'DELETE',
    path: (f) => `client-note/${f.noteId}`,
    deniedRole: 'instructor',
  },
];

describe('every clients route', () => {
  let fixture: Fixture;
  let secrets: string[];

  beforeAll(async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio, {
      firstName: 'Secretina',
      lastName: 'Hiddenova',
      email: `secretina-${unique()}@example.com`,
    });
    const tagId = await createTag(owner, studio, `Secret tag ${unique()}`);
    const memberTagId = await createTag(owner, studio, `Secret staff tag ${unique()}`, 1);
    const note = await owner.request('PUT', api(studio, 'client-note'), {
      userId: clientId,
      type: 'private',
      content: 'Secret note',
    });
    expect(note.status, note.text).toBe(201);
    fixture = { studio, clientId, tagId, memberTagId, noteId: note.body.id };
    secrets = ['Secretina', 'Hiddenova', 'Secret tag', 'Secret note'];
  });

  it.each(ROUTES)('$method $name: 401 without a session', async (route) => {
    const anonymous = await app.anonymous();
    const res = await anonymous.request(
      route.method,
      api(fixture.studio, route.path(fixture)),
      route.body?.(fixture),
    );
    expect(res.status).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });

  it.each(ROUTES)(
    '$method $name: 403 for a client of the studio and for a role without the ability',
    async (route) => {
      const clientUser = await createUser(app.knex);
      await addMembership(app.knex, fixture.studio, clientUser, { isClient: true });
      const asClient = await app.signedIn(clientUser.email, clientUser.password);
      const res = await asClient.request(
        route.method,
        api(fixture.studio, route.path(fixture)),
        route.body?.(fixture),
      );
      expect(res.status).toBe(403);
      if (route.deniedRole) {
        const denied = await staffWithRole(fixture.studio, route.deniedRole);
        const res2 = await denied.request(
          route.method,
          api(fixture.studio, route.path(fixture)),
          route.body?.(fixture),
        );
        expect(res2.status, res2.text).toBe(403);
        expect(res2.body.error.key).toBe('auth.forbidden');
        for (const secret of secrets) expect(res2.text).not.toContain(secret);
      }
    },
  );

  it.each(ROUTES)('$method $name: 404 for another studio, even with its own uuid', async (route) => {
    await expectHiddenFromOtherStudio(
      app,
      { method: route.method, path: api(fixture.studio, route.path(fixture)), body: route.body?.(fixture) },
      secrets,
    );
    // The other studio's manager in their own studio, naming the first studio's ids.
    if (route.foreign) {
      const other = await ownerStudio();
      const res = await other.owner.request(
        route.method,
        api(other.studio, route.path(fixture)),
        route.body?.(fixture),
      );
      expect(res.status, `${route.name} with foreign ids: ${res.text}`).toBe(404);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
  });

  it('the other studio sees none of the first one in lists, searches, tags and exports', async () => {
    const other = await ownerStudio();
    for (const path of [
      'client/collection?status=all',
      'client/search?q=secretina',
      'tag/all',
      `client/${fixture.clientId}`,
      `client/${fixture.clientId}/profile`,
    ]) {
      const res = await other.owner.get(api(other.studio, path));
      for (const secret of secrets) expect(res.text, path).not.toContain(secret);
    }
    const search = await other.owner.post(api(other.studio, 'backoffice/search'), {
      queryString: 'Secretina',
    });
    expect(search.body).toEqual({ clients: [] });
    const csv = await other.owner.post(api(other.studio, 'client/export'), { status: 'all' });
    for (const secret of secrets) expect(csv.text).not.toContain(secret);
  });
});

// -------------------------------------------------------------------------------------- add & edit

describe('POST client', () => {
  it('adds a person: a user without a password, a client membership, the record; 201', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const res = await owner.post(api(studio, 'client'), {
      firstName: '  Łucja ',
      lastName: 'Żółć',
      emailAddress: ' Lucja.Zolc@Example.COM ',
      phone: '+48 600 100 200',
      birthDate: '1990-07-04',
      sex: 1,
      note: 'Prefers mornings',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      client: {
        firstName: 'Łucja',
        lastName: 'Żółć',
        emailAddress: 'lucja.zolc@example.com',
        phone: '+48 600 100 200',
        birthDate: '1990-07-04',
        sex: 1,
        status: 'active',
        tags: [],
        hasValidPass: false,
        isMember: false,
        hasAccount: false,
        archivedAt: null,
      },
      possibleDuplicates: [],
      linkedExistingAccount: false,
      restored: false,
    });
    const userId = res.body.client.id;
    const user = await findUser(app.knex, userId);
    expect(user).toMatchObject({ email: 'lucja.zolc@example.com', passwordHash: null, firstName: 'Łucja' });
    const membership = await app.knex('memberships').where({ studioId: studio.id, userId }).first();
    expect(membership).toMatchObject({ isClient: true, isMember: false, archivedAt: null });
    const profile = await owner.get(api(studio, `client/${userId}/profile`));
    expect(profile.body.notes).toMatchObject([
      { type: 'private', content: 'Prefers mornings', author: { id: manager.id, firstName: 'Maria' } },
    ]);
  });

  it('without an email: the record holds none, the user a hidden placeholder', async () => {
    const { studio, owner } = await ownerStudio();
    const res = await owner.post(api(studio, 'client'), {
      firstName: 'Walk',
      lastName: 'In',
      emailAddress: '',
      phone: null,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client).toMatchObject({ emailAddress: null, phone: null, birthDate: null, sex: null });
    const user = await findUser(app.knex, res.body.client.id);
    expect(user!.email).toMatch(/@clients\.invalid$/);
    expect(JSON.stringify(res.body)).not.toContain('.invalid');
  });

  it('an existing account becomes a client: no duplicate user, password and name untouched', async () => {
    const { studio, owner } = await ownerStudio();
    const elsewhere = await createStudio(app.knex);
    const person = await createUser(app.knex, { firstName: 'Anna', lastName: 'Original' });
    await addMembership(app.knex, elsewhere, person, { isClient: true });
    const res = await owner.post(api(studio, 'client'), {
      firstName: 'Ania',
      lastName: 'Typed',
      emailAddress: person.email.toUpperCase(),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      client: { id: person.id, firstName: 'Ania', lastName: 'Typed', hasAccount: true },
      linkedExistingAccount: true,
      restored: false,
    });
    const after = await findUser(app.knex, person.id);
    expect(after).toMatchObject({
      firstName: 'Anna',
      lastName: 'Original',
      passwordHash: person.passwordHash,
    });
    expect(
      await app.knex('users').whereRaw('lower(email) = ?', [person.email]).count('*', { as: 'n' }),
    ).toEqual([{ n: 1 }]);
    // They still sign in with their own password.
    await app.signedIn(person.email, TEST_PASSWORD, studio.id);
    // The same email again is a 409 on the field.
    const again = await owner.post(api(studio, 'client'), {
      firstName: 'A',
      lastName: 'B',
      emailAddress: person.email,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.fields).toEqual({
      emailAddress: ['a client with this email address already exists'],
    });
  });

  it('a member of staff added as a client keeps their staff standing', async () => {
    const { studio, owner } = await ownerStudio();
    const staff = await createUser(app.knex, { firstName: 'Ira', lastName: 'Instructor' });
    await addMembership(app.knex, studio, staff, { isMember: true, role: 'instructor' });
    const res = await owner.post(api(studio, 'client'), {
      firstName: 'Ira',
      lastName: 'I',
      emailAddress: staff.email,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client).toMatchObject({ id: staff.id, isMember: true });
    const m = await app.knex('memberships').where({ studioId: studio.id, userId: staff.id }).first();
    expect(m).toMatchObject({ isClient: true, isMember: true, role: 'instructor' });
  });

  it('an archived client added again is restored', async () => {
    const { studio, owner } = await ownerStudio();
    const email = `back-${unique()}@example.com`;
    const id = await seedClient(studio, { email, archived: true });
    const res = await owner.post(api(studio, 'client'), {
      firstName: 'Back',
      lastName: 'Again',
      emailAddress: email,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      client: { id, status: 'active' },
      restored: true,
      linkedExistingAccount: true,
    });
  });

  it('reports clients with the same phone however it is written, and still adds', async () => {
    const { studio, owner } = await ownerStudio();
    const first = await seedClient(studio, {
      firstName: 'Piotr',
      lastName: 'Pierwszy',
      phone: '600-100-200',
    });
    await seedClient(studio, { firstName: 'Other', lastName: 'Number', phone: '+48 600 100 201' });
    const res = await owner.post(api(studio, 'client'), {
      firstName: 'Piotr',
      lastName: 'Drugi',
      phone: '0048 600 100 200',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.possibleDuplicates).toEqual([
      {
        id: first,
        firstName: 'Piotr',
        lastName: 'Pierwszy',
        emailAddress: expect.any(String),
        phone: '600-100-200',
        status: 'active',
      },
    ]);
  });

  it('answers 400 with every invalid field', async () => {
    const { studio, owner } = await ownerStudio();
    const res = await owner.post(api(studio, 'client'), {
      firstName: ' ',
      lastName: 'x'.repeat(101),
      emailAddress: 'not-an-email',
      phone: '12',
      birthDate: '1990-02-30',
      sex: 2,
      extra: true,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(
      ['birthDate', 'emailAddress', 'extra', 'firstName', 'lastName', 'phone', 'sex'].sort(),
    );
    const future = await owner.post(api(studio, 'client'), {
      firstName: 'A',
      lastName: 'B',
      birthDate: '2026-11-23',
    });
    expect(future.status).toBe(400);
    expect(future.body.error.fields).toEqual({ birthDate: ['cannot be in the future'] });
    expect(await app.knex('clients').where({ studioId: studio.id, lastName: 'B' }).first()).toBeUndefined();
  });
});
describe('GET client/check-existence', () => {
  it('finds the studio’s clients by email (any case) or phone, archived included, and says which matched', async () => {
    const { studio, owner } = await ownerStudio();
    const email = `dup-${unique()}@example.com`;
    const byEmail = await seedClient(studio, { firstName: 'E', lastName: 'Mail', email });
    const byPhone = await seedClient(studio, {
      firstName: 'P',
      lastName: 'Hone',
      phone: '+48 511 222 333',
      archived: true,
    });
    const other = await ownerStudio();
    await seedClient(other.studio, { email: `x-${unique()}@example.com`, phone: '511222333' });
    const res = await owner.get(
      api(
        studio,
        `client/check-existence?emailAddress=${encodeURIComponent(email.toUpperCase())}&phone=511%20222%20333`,
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.exists).toBe(true);
    expect(res.body.matches).toEqual([
      expect.objectContaining({ id: byPhone, matchedBy: ['phone'], status: 'archived' }),
      expect.objectContaining({ id: byEmail, matchedBy: ['emailAddress'], status: 'active' }),
    ]);
    const none = await owner.get(api(studio, 'client/check-existence?emailAddress=nobody@example.com'));
    expect(none.body).toEqual({ exists: false, matches: [] });
    const bad = await owner.get(api(studio, 'client/check-existence'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty(['query.emailAddress']);
    const badPhone = await owner.get(api(studio, 'client/check-existence?phone=abc'));
    expect(badPhone.body.error.fields).toHaveProperty(['query.phone']);
  });
});
