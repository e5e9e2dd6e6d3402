import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldSearchText, parseCsv } from '../../../../shared/domain/clients';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';

let app: TestApp;
const NOW = new Date('2026-11-22T12:00:00Z');
const clock = new ManualClock(NOW);

beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-12);

/** A studio with its owner signed in. */
async function ownerStudio() {
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  return { ...scenario, owner };
}

/** A member of staff of the studio with a role key, signed in. */
async function staffWithRole(studio: Studio, role: string): Promise<HttpClient> {
  const user = await createUser(app.knex, { firstName: 'Staff', lastName: role });
  await addMembership(app.knex, studio, user, { isMember: true, role });
  return app.signedIn(user.email, user.password);
}

interface SeedClient {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  phone?: string | null;
  birthDate?: string | null;
  sex?: number | null;
  createdAt?: Date;
  archived?: boolean;
}

/** A client made the way other modules make them (user + client membership): the trigger adds the record. */
async function seedClient(studio: Studio, seed: SeedClient = {}): Promise<string> {
  const user = await createUser(app.knex, {
    firstName: seed.firstName ?? 'Seed',
    lastName: seed.lastName ?? 'Client',
    email: seed.email ?? `client-${unique()}@example.com`,
    phone: seed.phone ?? null,
    password: null,
  });
  await addMembership(app.knex, studio, user, { isClient: true });
  const patch: Record<string, unknown> = {};
  if (seed.email === null) patch.email = null;
  if (seed.birthDate !== undefined) patch.birth_date = seed.birthDate;
  if (seed.sex !== undefined) patch.sex = seed.sex;
  if (seed.createdAt) patch.created_at = seed.createdAt;
  if (seed.archived) patch.archived_at = NOW;
  if (Object.keys(patch).length)
    await app.knex('clients').where({ studioId: studio.id, userId: user.id }).update(patch);
  return user.id;
}

async function createTag(owner: HttpClient, studio: Studio, name: string, type = 0): Promise<string> {
  const res = await owner.post(api(studio, 'tag'), { name, type });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function givePass(studio: Studio, userId: string, pass: { status: number; expiresAt: Date | null }) {
  const option = uuidv7();
  await app.knex('pricing_options').insert({
    id: option,
    studioId: studio.id,
    name: { en: { value: '10 entries' } },
    price: 10000,
  });
  await app.knex('client_pricing_options').insert({
    id: uuidv7(),
    studioId: studio.id,
    clientId: userId,
    pricingOptionId: option,
    status: pass.status,
    expiresAt: pass.expiresAt,
  });
}

/** Every page of a list, following `next`. */
async function allPages(client: HttpClient, url: string): Promise<any[]> {
  const items: any[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res: { status: number; text: string; body: any } = await client.get(
      `${url}${next ? `${sep}cursor=${encodeURIComponent(next)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    next = res.body.next;
    expect(++pages).toBeLessThan(100);
  } while (next);
  return items;
}

const names = (items: Array<{ firstName: string; lastName: string }>) =>
  items.map((i) => `${i.firstName} ${i.lastName}`);

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
    const user = await app.knex('users').where({ id: userId }).first();
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
    const user = await app.knex('users').where({ id: res.body.client.id }).first();
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
    const after = await app.knex('users').where({ id: person.id }).first();
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

describe('GET client/{user}, init and profile; PATCH; DELETE', () => {
  it('shows a client with tags, valid pass and notes; 404 for staff-only and unknown users', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const id = await seedClient(studio, {
      firstName: 'Olga',
      lastName: 'Pass',
      birthDate: '1985-01-31',
      sex: 1,
    });
    const tag = await createTag(owner, studio, 'VIP');
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [id] });
    await givePass(studio, id, { status: 1, expiresAt: new Date('2026-12-31T00:00:00Z') });
    const detail = await owner.get(api(studio, `client/${id}`));
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body).toMatchObject({
      id,
      firstName: 'Olga',
      birthDate: '1985-01-31',
      sex: 1,
      tags: [{ id: tag, name: 'VIP' }],
      hasValidPass: true,
    });
    const init = await owner.get(api(studio, `client/${id}/init`));
    expect(init.body).toMatchObject({
      client: { id },
      sexOptions: [
        { value: 0, labelKey: 'enums:userSex.0' },
        { value: 1, labelKey: 'enums:userSex.1' },
      ],
      tags: [{ id: tag, name: 'VIP' }],
      abilities: { canEdit: true, canDelete: true, canExport: true },
    });
    const profile = await owner.get(api(studio, `client/${id}/profile`));
    expect(profile.body.validPasses).toMatchObject([
      { name: { en: { value: '10 entries' } }, expiresAt: '2026-12-31T00:00:00.000Z' },
    ]);
    const instructor = await staffWithRole(studio, 'instructor');
    const asInstructor = await instructor.get(api(studio, `client/${id}/profile`));
    expect(asInstructor.body.abilities).toMatchObject({ canView: true, canEdit: false });

    expect((await owner.get(api(studio, `client/${manager.id}`))).status).toBe(404);
    expect((await owner.get(api(studio, `client/${uuidv7()}`))).status).toBe(404);
    expect((await owner.get(api(studio, 'client/not-a-uuid'))).status).toBe(404);
  });

  it('edits the record; a person only this studio manages follows, an account elsewhere does not', async () => {
    const { studio, owner } = await ownerStudio();
    const created = await owner.post(api(studio, 'client'), { firstName: 'Ola', lastName: 'Nowa' });
    const managed = created.body.client.id;
    const res = await owner.patch(api(studio, `client/${managed}`), {
      lastName: 'Nowak',
      emailAddress: `ola-${unique()}@example.com`,
      phone: '601 000 000',
      birthDate: '2000-02-29',
      sex: 1,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      lastName: 'Nowak',
      phone: '601 000 000',
      birthDate: '2000-02-29',
      sex: 1,
    });
    expect(await app.knex('users').where({ id: managed }).first()).toMatchObject({
      lastName: 'Nowak',
      email: res.body.emailAddress,
      phone: '601 000 000',
    });

    const withAccount = await createUser(app.knex, { firstName: 'Has', lastName: 'Password' });
    await addMembership(app.knex, studio, withAccount, { isClient: true });
    const edit = await owner.patch(api(studio, `client/${withAccount.id}`), {
      firstName: 'Renamed',
      emailAddress: `changed-${unique()}@example.com`,
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.firstName).toBe('Renamed');
    expect(await app.knex('users').where({ id: withAccount.id }).first()).toMatchObject({
      firstName: 'Has',
      email: withAccount.email,
    });

    const clash = await owner.patch(api(studio, `client/${managed}`), {
      emailAddress: edit.body.emailAddress,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toHaveProperty('emailAddress');
    const bad = await owner.patch(api(studio, `client/${managed}`), {
      firstName: '',
      sex: 'x',
      archived: true,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['archived', 'firstName', 'sex']);
  });

  it('archives (204, idempotent) and restores with archived: false; ?erase=true is refused', async () => {
    const { studio, owner } = await ownerStudio();
    const id = await seedClient(studio, { firstName: 'Arch', lastName: 'Ived' });
    const erase = await owner.delete(api(studio, `client/${id}?erase=true`));
    expect(erase.status).toBe(400);
    expect(erase.body.error.fields).toEqual({ 'query.erase': ['erasing a client is not available yet'] });
    expect((await owner.delete(api(studio, `client/${id}`))).status).toBe(204);
    expect((await owner.delete(api(studio, `client/${id}`))).status).toBe(204);
    const detail = await owner.get(api(studio, `client/${id}`));
    expect(detail.body).toMatchObject({ status: 'archived', archivedAt: NOW.toISOString() });
    // The person keeps their sign-in standing.
    expect(await app.knex('memberships').where({ studioId: studio.id, userId: id }).first()).toMatchObject({
      archivedAt: null,
    });
    const active = await owner.get(api(studio, 'client/collection'));
    expect(active.body.items.map((i: { id: string }) => i.id)).not.toContain(id);
    const restored = await owner.patch(api(studio, `client/${id}`), { archived: false });
    expect(restored.body).toMatchObject({ status: 'active', archivedAt: null });
  });
});

// ------------------------------------------------------------------------------------ list & search

describe('GET client/collection', () => {
  it('pages by name with ties, in both directions, each client exactly once', async () => {
    const { studio, owner } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW }); // the scenario's own
    const ties: string[] = [];
    for (let i = 0; i < 9; i++)
      ties.push(await seedClient(studio, { firstName: 'Anna', lastName: 'Kowalska' }));
    for (const [first, last] of [
      ['Łukasz', 'Żak'],
      ['Zofia', 'Adamska'],
      ['Adam', 'Adamski'],
      ['Bartek', 'Kowalski'],
      ['Ewa', 'Zielińska'],
    ])
      await seedClient(studio, { firstName: first!, lastName: last! });
    ties.push(await seedClient(studio, { firstName: 'anna', lastName: 'kowalska' }));
    const asc = await allPages(owner, api(studio, 'client/collection?limit=4'));
    expect(names(asc).map((n) => n.toLowerCase())).toEqual([
      'zofia adamska',
      'adam adamski',
      ...Array<string>(10).fill('anna kowalska'),
      'bartek kowalski',
      'łukasz żak',
      'ewa zielińska',
    ]);
    // Equal names in the order of their records' ids, across page boundaries.
    expect(asc.slice(2, 12).map((i) => i.id)).toEqual(ties);
    const desc = await allPages(owner, api(studio, 'client/collection?limit=3&sort=-name'));
    expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
    // A narrowing filter cuts pages from its matches (another plan): the same pages.
    const narrowed = await allPages(owner, api(studio, 'client/collection?limit=4&createdFrom=2000-01-01'));
    expect(narrowed.map((i) => i.id)).toEqual(asc.map((i) => i.id));
    const narrowedDesc = await allPages(owner, api(studio, 'client/collection?limit=5&sort=-name&q=a'));
    expect(narrowedDesc.map((i) => i.id)).toEqual(
      asc
        .filter((i) => [i.firstName, i.lastName].some((w) => foldSearchText(w).startsWith('a')))
        .map((i) => i.id)
        .reverse(),
    );
  });

  it('pages by creation with equal timestamps, in both directions', async () => {
    const { studio, owner, client } = await ownerStudio();
    await app
      .knex('clients')
      .where({ studioId: studio.id })
      .update({ createdAt: new Date('2026-01-01T00:00:00Z') });
    const same = new Date('2026-02-01T10:00:00.123Z');
    for (let i = 0; i < 7; i++) await seedClient(studio, { firstName: `Same${i}`, createdAt: same });
    await seedClient(studio, { firstName: 'Later', createdAt: new Date('2026-03-01T00:00:00Z') });
    // Microseconds the JS Date cannot hold must not break the pages.
    await app.knex.raw(
      `update clients set created_at = created_at + interval '1 microsecond' where studio_id = ? and first_name = 'Same3'`,
      [studio.id],
    );
    const asc = await allPages(owner, api(studio, 'client/collection?sort=created&limit=2'));
    expect(asc.length).toBe(9);
    expect(asc[0].id).toBe(client.id);
    expect(asc[8].firstName).toBe('Later');
    expect(asc[7].firstName).toBe('Same3');
    expect(new Set(asc.map((i) => i.id)).size).toBe(9);
    const desc = await allPages(owner, api(studio, 'client/collection?sort=-created&limit=3'));
    expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
  });

  it('refuses bad queries and foreign cursors with field errors', async () => {
    const { studio, owner } = await ownerStudio();
    await seedClient(studio);
    await seedClient(studio);
    const first = await owner.get(api(studio, 'client/collection?limit=1'));
    expect(first.body.next).toEqual(expect.any(String));
    const wrongSort = await owner.get(
      api(studio, `client/collection?sort=created&cursor=${first.body.next}`),
    );
    expect(wrongSort.status).toBe(400);
    expect(wrongSort.body.error.fields).toHaveProperty(['query.cursor']);
    const res = await owner.get(
      api(
        studio,
        'client/collection?limit=0&sort=age&status=gone&birthdayFrom=02-30&tagIds=x&hasValidPass=maybe&createdFrom=2026-13-01',
      ),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(
      [
        'query.birthdayFrom',
        'query.createdFrom',
        'query.hasValidPass',
        'query.limit',
        'query.sort',
        'query.status',
        'query.tagIds.0',
      ].sort(),
    );
    const half = await owner.get(api(studio, 'client/collection?birthdayFrom=01-01'));
    expect(half.body.error.fields).toEqual({ 'query.birthdayTo': ['give both ends of the birthday range'] });
  });

  it('filters by status, tags (any / all), valid pass, birthday and creation day', async () => {
    const { studio, owner, client } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW }); // the scenario's own
    const yoga = await createTag(owner, studio, 'Yoga');
    const pilates = await createTag(owner, studio, 'Pilates');
    const a = await seedClient(studio, {
      firstName: 'A',
      birthDate: '1990-11-05',
      createdAt: new Date('2026-11-01T22:59:59Z'),
    });
    const b = await seedClient(studio, {
      firstName: 'B',
      birthDate: '1991-12-28',
      createdAt: new Date('2026-11-01T23:00:00Z'),
    });
    const c = await seedClient(studio, {
      firstName: 'C',
      birthDate: '1992-01-03',
      createdAt: new Date('2026-11-10T12:00:00Z'),
    });
    const d = await seedClient(studio, { firstName: 'D', archived: true });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [yoga], userIds: [a, b] });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [pilates], userIds: [b, c] });
    await givePass(studio, a, { status: 1, expiresAt: new Date('2026-11-23T00:00:00Z') });
    await givePass(studio, b, { status: 1, expiresAt: new Date('2026-11-22T11:59:59Z') }); // expired
    await givePass(studio, c, { status: 0, expiresAt: new Date('2027-01-01T00:00:00Z') }); // inactive
    await givePass(studio, d, { status: 1, expiresAt: null }); // never expires

    const ids = async (query: string) =>
      (await allPages(owner, api(studio, `client/collection?${query}`))).map((i) => i.id).sort();
    expect(await ids('')).toEqual([a, b, c].sort());
    expect(await ids('status=archived')).toEqual([client.id, d].sort());
    expect(await ids('status=all')).toEqual([client.id, a, b, c, d].sort());
    expect(await ids(`tagIds=${yoga},${pilates}`)).toEqual([a, b, c].sort());
    expect(await ids(`tagIds=${yoga}&tagIds=${pilates}&tagMode=all`)).toEqual([b]);
    expect(await ids(`tagIds=${uuidv7()}`)).toEqual([]);
    expect(await ids('hasValidPass=true&status=all')).toEqual([a, d].sort());
    expect(await ids('hasValidPass=false')).toEqual([b, c].sort());
    expect(await ids('birthday=thisMonth')).toEqual([a]);
    expect(await ids('birthdayFrom=12-20&birthdayTo=01-10')).toEqual([b, c].sort());
    expect(await ids('birthdayFrom=11-05&birthdayTo=11-05')).toEqual([a]);
    // Creation days are the studio's (Warsaw, UTC+1): 22:59:59Z on 1 Nov is still 1 Nov there.
    expect(await ids('createdFrom=2026-11-02')).toEqual([b, c].sort());
    expect(await ids('createdTo=2026-11-01')).toEqual([a]);
    expect(await ids('createdFrom=2026-11-02&createdTo=2026-11-09')).toEqual([b]);
    expect(await ids(`tagIds=${yoga}&hasValidPass=true&birthday=thisMonth`)).toEqual([a]);

    const page = await owner.get(api(studio, `client/collection?tagIds=${yoga}`));
    expect(page.body.items.find((i: { id: string }) => i.id === a)).toMatchObject({
      tags: [{ id: yoga, name: 'Yoga' }],
      hasValidPass: true,
    });
  });
});

describe('searching clients', () => {
  let studio: Studio;
  let owner: HttpClient;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    ({ studio, owner } = await ownerStudio());
    id.lukasz = await seedClient(studio, {
      firstName: 'Łukasz',
      lastName: 'Wiśniewski',
      email: `lw-${unique()}@example.com`,
      phone: '+48 600 100 200',
    });
    id.anna = await seedClient(studio, {
      firstName: 'Anna',
      lastName: 'Kowalska',
      email: 'anna.k@poczta.example',
      phone: '511-222-333',
    });
    id.annette = await seedClient(studio, {
      firstName: 'Annette',
      lastName: 'Brown',
      email: `ab-${unique()}@example.com`,
    });
    id.old = await seedClient(studio, { firstName: 'Anastazja', lastName: 'Dawna', archived: true });
    id.odd = await seedClient(studio, { firstName: 'Per%cent', lastName: 'Under_score' });
  });

  const search = async (q: string, extra = '') => {
    const res = await owner.get(api(studio, `client/search?q=${encodeURIComponent(q)}${extra}`));
    expect(res.status, res.text).toBe(200);
    return res.body.items.map((i: { id: string }) => i.id);
  };

  it.each([
    ['first-name prefix, any case', 'ANN', ['annette', 'anna']],
    ['diacritics folded', 'lukasz', ['lukasz']],
    ['diacritics typed', 'Wiśn', ['lukasz']],
    ['first and last name', 'anna kow', ['anna']],
    ['last name first', 'kowalska anna', ['anna']],
    ['email prefix', 'anna.k@pocz', ['anna']],
    ['phone as typed elsewhere', '600100', ['lukasz']],
    ['phone with the country code', '+48 600 1', ['lukasz']],
    ['phone with 00', '0048600100', ['lukasz']],
    ['phone with dashes', '511-222', ['anna']],
    ['no match', 'zzzz', []],
    ['wildcards are literal', 'per%', ['odd']],
    ['underscore is literal', 'under_', ['odd']],
  ])('%s: %s', async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected.map((k) => id[k]));
  });

  it('archived clients only when asked', async () => {
    expect(await search('anastazja')).toEqual([]);
    expect(await search('anastazja', '&status=all')).toEqual([id.old]);
  });

  it('pages with a cursor', async () => {
    const first = await owner.get(api(studio, 'client/search?q=an&limit=1'));
    expect(first.body.items).toHaveLength(1);
    const second = await owner.get(api(studio, `client/search?q=an&limit=1&cursor=${first.body.next}`));
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it('contains-search where trigrams are available', async () => {
    const trigram = await app.knex.raw(`select to_regclass('clients_search_trgm') is not null as ok`);
    const found = await search('niewski');
    expect(found).toEqual(trigram.rows[0].ok ? [id.lukasz] : []);
  });

  it('POST backoffice/search finds clients (archived too); a role without clients.view gets none', async () => {
    const res = await owner.post(api(studio, 'backoffice/search'), { queryString: 'anastazja' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.clients).toEqual([
      {
        id: id.old,
        firstName: 'Anastazja',
        lastName: 'Dawna',
        emailAddress: expect.any(String),
        phone: null,
        status: 'archived',
      },
    ]);
    const auditor = await staffWithRole(studio, 'auditor');
    expect((await auditor.post(api(studio, 'backoffice/search'), { queryString: 'anna' })).body).toEqual({
      clients: [],
    });
    const bad = await owner.post(api(studio, 'backoffice/search'), { queryString: ' ', more: 1 });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['more', 'queryString']);
    expect((await owner.get(api(studio, 'client/search?q='))).body.error.fields).toHaveProperty(['query.q']);
  });

  it('the database folds names the way the query is folded', async () => {
    const samples = ['Łucja Żółć', 'ĄĆĘŁŃÓŚŹŻ', 'Dvořák Šťastný', 'Müller Çelik', 'Anna-Maria', 'Ørsted'];
    for (const value of samples) {
      const userId = await seedClient(studio, { firstName: value, lastName: value });
      const row = await app.knex('clients').where({ studioId: studio.id, userId }).first('first_key');
      expect(row.firstKey, value).toBe(foldSearchText(value));
      await app.knex('clients').where({ studioId: studio.id, userId }).update({ archivedAt: NOW });
    }
  });
});

describe('GET client-list/init, client/add/init, client/bulk', () => {
  it('tells the screens their filters, sorts, options and the caller’s actions', async () => {
    const { studio, owner } = await ownerStudio();
    const tag = await createTag(owner, studio, 'Morning');
    await createTag(owner, studio, 'Staff only', 1);
    const init = await owner.get(api(studio, 'client-list/init'));
    expect(init.status).toBe(200);
    expect(init.body).toMatchObject({
      statuses: ['active', 'archived', 'all'],
      sortOptions: ['name', '-name', 'created', '-created'],
      tags: [{ id: tag, name: 'Morning' }],
      bulkActions: ['tag', 'untag', 'message', 'export'],
      exportFormats: ['csv', 'xlsx'],
    });
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.get(api(studio, 'client-list/init'))).body.bulkActions).toEqual([
      'tag',
      'untag',
      'message',
    ]);
    expect((await frontDesk.get(api(studio, 'client/bulk'))).body).toEqual({
      actions: ['tag', 'untag', 'message'],
      tags: [{ id: tag, name: 'Morning' }],
      maxClients: 5000,
    });
    const add = await owner.get(api(studio, 'client/add/init'));
    expect(add.body).toMatchObject({ fields: { firstName: { required: true } }, country: 'PL' });
  });
});

// --------------------------------------------------------------------------------------- export & bulk

describe('exports', () => {
  it('streams the filtered list as CSV with a BOM, parsed back intact', async () => {
    const { studio, owner } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW });
    const tag = await createTag(owner, studio, 'Evening; late');
    const a = await seedClient(studio, {
      firstName: 'Żaneta',
      lastName: 'O"Brien, Jr',
      phone: '+48 600 100 200',
      birthDate: '1990-01-02',
      sex: 1,
    });
    const b = await seedClient(studio, { firstName: '=HYPERLINK("x")', lastName: 'Zed' });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [a] });
    const res = await owner.post(api(studio, 'client/export'), { sort: 'name' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="clients-2026-11-22.csv"');
    // fetch's text() drops a byte order mark: read the bytes.
    const raw = await fetch(app.url + api(studio, 'client/export'), {
      method: 'POST',
      headers: { ...owner.headers(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(res.text, ';'); // a Polish studio: ';'
    expect(rows[0]).toEqual([
      'id',
      'firstName',
      'lastName',
      'emailAddress',
      'phone',
      'birthDate',
      'sex',
      'status',
      'tags',
      'hasValidPass',
      'createdAt',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        a,
        'Żaneta',
        'O"Brien, Jr',
        expect.any(String),
        '+48 600 100 200',
        '1990-01-02',
        'female',
        'active',
        'Evening; late',
        'false',
        expect.any(String),
      ],
      [
        b,
        `'=HYPERLINK("x")`,
        'Zed',
        expect.any(String),
        '',
        '',
        '',
        'active',
        '',
        'false',
        expect.any(String),
      ],
    ]);
    const comma = await owner.post(api(studio, 'client/export'), { delimiter: ',', q: 'zed' });
    expect(parseCsv(comma.text, ',').map((r) => r[0])).toEqual(['id', b]);
    const bad = await owner.post(api(studio, 'client/export'), { format: 'pdf', delimiter: '|' });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['delimiter', 'format']);
  });

  it('exports every page of a larger list; each way of cutting a page gives the same pages', async () => {
    const { studio, owner } = await ownerStudio();
    // 1000 clients that sort first (the whole window of the first cutting step), then 2100 more.
    const make = (count: number, first: (i: number) => string, last: string) =>
      Array.from({ length: count }, (_, i) => ({
        id: uuidv7(),
        email: `${last.toLowerCase()}-${i}-${unique()}@example.com`,
        first_name: first(i),
        last_name: last,
      }));
    const early = make(1000, (i) => `Aardvark${String(i).padStart(4, '0')}`, 'Aaa');
    const users = make(2100, (i) => `Bulk${String(i).padStart(4, '0')}`, 'Export');
    for (const batch of [early, users]) {
      await app.knex.batchInsert('users', batch, 500);
      await app.knex.batchInsert(
        'memberships',
        batch.map((u) => ({ id: uuidv7(), studio_id: studio.id, user_id: u.id, is_client: true })),
        500,
      );
    }
    const res = await owner.post(api(studio, 'client/export'), { q: 'bulk', delimiter: ',' });
    const parsed = parseCsv(res.text, ',');
    expect(parsed.length).toBe(2101);
    expect(new Set(parsed.slice(1).map((r) => r[0])).size).toBe(2100);
    expect(parsed.slice(1).map((r) => r[1])).toEqual(users.map((u) => u.first_name));
    const firstNames = async (q: string) =>
      (await owner.get(api(studio, `client/search?q=${q}&limit=100`))).body.items.map(
        (i: { firstName: string }) => i.firstName,
      );
    // Matches inside the window.
    expect(await firstNames('aardvark')).toEqual(early.slice(0, 100).map((u) => u.first_name));
    // None in the window, 1000 candidates.
    expect(await firstNames('bulk1')).toEqual(
      users
        .filter((u) => u.first_name.startsWith('Bulk1'))
        .slice(0, 100)
        .map((u) => u.first_name),
    );
    // None in the window, more candidates than the cap: the unbounded walk.
    expect(await firstNames('bulk')).toEqual(users.slice(0, 100).map((u) => u.first_name));
  });
});

describe('POST client/bulk', () => {
  it('tags, untags, records a message and exports chosen clients', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const a = await seedClient(studio, { firstName: 'Bulk', lastName: 'One' });
    const b = await seedClient(studio, { firstName: 'Bulk', lastName: 'Two' });
    const tag = await createTag(owner, studio, 'Promo');
    const tagged = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a, b, a],
      tagIds: [tag],
    });
    expect(tagged.body).toEqual({ action: 'tag', clients: 2, changed: 2 });
    const again = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a, b],
      tagIds: [tag],
    });
    expect(again.body.changed).toBe(0);
    const untagged = await owner.post(api(studio, 'client/bulk'), {
      action: 'untag',
      clientIds: [a],
      tagIds: [tag],
    });
    expect(untagged.body).toEqual({ action: 'untag', clients: 1, changed: 1 });

    const frontDesk = await staffWithRole(studio, 'front_desk');
    const message = await frontDesk.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: [a, b],
      subject: 'Closed on Monday',
      content: 'See you Tuesday',
    });
    expect(message.status, message.text).toBe(200);
    expect(message.body).toMatchObject({ action: 'message', recipients: 2, status: 'recorded' });
    const recorded = await app.knex('client_message_requests').where({ id: message.body.requestId }).first();
    expect(recorded).toMatchObject({ studioId: studio.id, subject: 'Closed on Monday', recipientCount: 2 });
    expect([...(recorded!.recipientIds as string[])].sort()).toEqual([a, b].sort());

    const exported = await owner.post(api(studio, 'client/bulk'), {
      action: 'export',
      clientIds: [b],
      delimiter: ',',
    });
    expect(parseCsv(exported.text, ',').map((r) => r[0])).toEqual(['id', b]);
    expect(
      (await frontDesk.post(api(studio, 'client/bulk'), { action: 'export', clientIds: [b] })).status,
    ).toBe(403);

    const memberTag = await createTag(owner, studio, 'Team', 1);
    const wrongKind = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a],
      tagIds: [memberTag],
    });
    expect(wrongKind.status).toBe(400);
    const notClient = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [manager.id],
      tagIds: [tag],
    });
    expect(notClient.status).toBe(404);
    const bad = await owner.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: [],
      subject: '',
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['clientIds', 'content', 'subject']);
    const unknownAction = await owner.post(api(studio, 'client/bulk'), { action: 'delete', clientIds: [a] });
    expect(unknownAction.status).toBe(400);
  });
});

// ------------------------------------------------------------------------------------------ tags

describe('tags', () => {
  it('creates, lists with usage, renames, replaces and deletes; names unique per studio in any case', async () => {
    const { studio, owner } = await ownerStudio();
    const created = await owner.post(api(studio, 'tag'), { name: ' Morning Yoga ', type: 0 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Morning Yoga', type: 0, usageCount: 0 });
    const clash = await owner.post(api(studio, 'tag'), { name: 'MORNING yoga', type: 1 });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toEqual({ name: ['a tag with this name already exists'] });
    // Another studio may use the name.
    const other = await ownerStudio();
    expect((await other.owner.post(api(other.studio, 'tag'), { name: 'Morning Yoga', type: 0 })).status).toBe(
      201,
    );

    const id = created.body.id;
    const client = await seedClient(studio);
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [id], userIds: [client] });
    const staffTag = await createTag(owner, studio, 'Coaches', 1);
    const list = await owner.get(api(studio, 'tag/all'));
    expect(list.body.items.map((t: { name: string; usageCount: number }) => [t.name, t.usageCount])).toEqual([
      ['Coaches', 0],
      ['Morning Yoga', 1],
    ]);
    expect(
      (await owner.get(api(studio, 'tag/all?type=1'))).body.items.map((t: { id: string }) => t.id),
    ).toEqual([staffTag]);
    // An instructor sees client tags (clients.view) but not staff tags (staff.view).
    const instructor = await staffWithRole(studio, 'instructor');
    expect(
      (await instructor.get(api(studio, 'tag/all'))).body.items.map((t: { id: string }) => t.id),
    ).toEqual([id]);

    const renamed = await owner.patch(api(studio, `tag/${id}`), { name: 'Sunrise' });
    expect(renamed.body).toMatchObject({ id, name: 'Sunrise', type: 0, usageCount: 1 });
    const sameName = await owner.patch(api(studio, `tag/${staffTag}`), { name: 'sunrise' });
    expect(sameName.status).toBe(409);
    const typeInUse = await owner.request('PUT', api(studio, `tag/${id}`), { name: 'Sunrise', type: 1 });
    expect(typeInUse.status).toBe(409);
    expect(typeInUse.body.error.fields).toHaveProperty('type');
    const replaced = await owner.request('PUT', api(studio, `tag/${staffTag}`), {
      name: 'Trainers',
      type: 0,
    });
    expect(replaced.body).toMatchObject({ name: 'Trainers', type: 0 });
    const partialPut = await owner.request('PUT', api(studio, `tag/${staffTag}`), { name: 'Only name' });
    expect(partialPut.body.error.fields).toHaveProperty('type');
    const bad = await owner.post(api(studio, 'tag'), { name: 'x'.repeat(51), type: 2, color: 'red' });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['color', 'name', 'type']);

    expect((await owner.delete(api(studio, `tag/${id}`))).status).toBe(204);
    expect(await app.knex('user_tags').where({ tagId: id })).toEqual([]);
    expect((await owner.delete(api(studio, `tag/${id}`))).status).toBe(404);
  });

  it('member tags need the staff area; user-tag add and remove count what changed', async () => {
    const { studio, owner } = await ownerStudio();
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.post(api(studio, 'tag'), { name: 'Team', type: 1 })).status).toBe(403);
    const clientTag = (await frontDesk.post(api(studio, 'tag'), { name: 'Regulars', type: 0 })).body.id;
    const memberTag = await createTag(owner, studio, 'Team', 1);
    const c1 = await seedClient(studio);
    const c2 = await seedClient(studio);
    const staff = await createUser(app.knex);
    await addMembership(app.knex, studio, staff, { isMember: true, role: 'instructor' });

    const add = await frontDesk.post(api(studio, 'user-tag/add'), { tagIds: [clientTag], userIds: [c1, c2] });
    expect(add.body).toEqual({ changed: 2 });
    expect(
      (await frontDesk.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [staff.id] }))
        .status,
    ).toBe(403);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [staff.id] })).body,
    ).toEqual({
      changed: 1,
    });
    // A client tag is for clients, a member tag for staff.
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [clientTag], userIds: [staff.id] })).status,
    ).toBe(404);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [c1] })).status,
    ).toBe(404);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [uuidv7()], userIds: [c1] })).status,
    ).toBe(404);
    const remove = await frontDesk.post(api(studio, 'user-tag/remove'), {
      tagIds: [clientTag],
      userIds: [c1, c2],
    });
    expect(remove.body).toEqual({ changed: 2 });
    const bad = await owner.post(api(studio, 'user-tag/add'), { tagIds: [], userIds: ['x'] });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['tagIds', 'userIds.0']);
  });
});

// ----------------------------------------------------------------------------------------- notes

describe('client notes', () => {
  it('creates (PUT), edits, lists newest first on the profile, and deletes', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const client = await seedClient(studio, { firstName: 'Noted' });
    const first = await owner.request('PUT', api(studio, 'client-note'), {
      userId: client,
      type: 'private',
      content: ' Knee injury ',
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      userId: client,
      type: 'private',
      content: 'Knee injury',
      author: { id: manager.id, firstName: 'Maria', lastName: 'Manager' },
    });
    const frontDesk = await staffWithRole(studio, 'front_desk');
    const second = await frontDesk.request('PUT', api(studio, 'client-note'), {
      userId: client,
      type: 'public',
      content: 'Welcome back!',
    });
    expect(second.status).toBe(201);
    const edited = await frontDesk.patch(api(studio, `client-note/${first.body.id}`), {
      type: 'public',
      content: 'Healed',
    });
    expect(edited.body).toMatchObject({ id: first.body.id, type: 'public', content: 'Healed' });
    const profile = await owner.get(api(studio, `client/${client}/profile`));
    expect(profile.body.notes.map((n: { content: string }) => n.content)).toEqual([
      'Welcome back!',
      'Healed',
    ]);

    const bad = await owner.request('PUT', api(studio, 'client-note'), {
      userId: 'x',
      type: 'secret',
      content: '',
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['content', 'type', 'userId']);
    const staffOnly = await owner.request('PUT', api(studio, 'client-note'), {
      userId: manager.id,
      type: 'private',
      content: 'Not a client',
    });
    expect(staffOnly.status).toBe(404);
    expect((await owner.delete(api(studio, `client-note/${first.body.id}`))).status).toBe(204);
    expect((await owner.patch(api(studio, `client-note/${first.body.id}`), { content: 'x' })).status).toBe(
      404,
    );
    expect((await owner.get(api(studio, `client/${client}/profile`))).body.notes).toHaveLength(1);
  });
});

// -------------------------------------------------------------------------------- records & triggers

describe('the studio’s client records', () => {
  it('follow a person’s own changes where the studio kept the old value', async () => {
    const { studio, owner } = await ownerStudio();
    const person = await createUser(app.knex, { firstName: 'Self', lastName: 'Managed', phone: '600000001' });
    await addMembership(app.knex, studio, person, { isClient: true });
    await owner.patch(api(studio, `client/${person.id}`), { lastName: 'Studio-Typed' });
    await app
      .knex('users')
      .update({ firstName: 'Selma', lastName: 'Changed', phone: '600000002' })
      .where({ id: person.id });
    const detail = await owner.get(api(studio, `client/${person.id}`));
    expect(detail.body).toMatchObject({ firstName: 'Selma', lastName: 'Studio-Typed', phone: '600000002' });
  });

  it('follow the membership: archived with it, brought back with it unless the studio archived them', async () => {
    const { studio } = await ownerStudio();
    const a = await seedClient(studio, { firstName: 'Member', lastName: 'Archived' });
    const b = await seedClient(studio, { firstName: 'Studio', lastName: 'Archived', archived: true });
    const record = (userId: string) =>
      app.knex('clients').where({ studioId: studio.id, userId }).first('archived_at');
    const memberships = () =>
      app.knex('memberships').where({ studioId: studio.id }).whereIn('user_id', [a, b]);
    const gone = new Date('2026-10-01T00:00:00Z');
    await memberships().update({ archivedAt: gone });
    expect((await record(a)).archivedAt).toEqual(gone);
    expect((await record(b)).archivedAt).toEqual(NOW);
    await memberships().update({ archivedAt: null });
    expect((await record(a)).archivedAt).toBeNull();
    expect((await record(b)).archivedAt).toEqual(NOW);
  });

  it('an account erasure empties the studio’s record, its notes and tags', async () => {
    const { studio, owner, client } = await ownerStudio();
    const tag = await createTag(owner, studio, 'Gone');
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [client.id] });
    await owner.request('PUT', api(studio, 'client-note'), {
      userId: client.id,
      type: 'private',
      content: 'Private',
    });
    await owner.patch(api(studio, `client/${client.id}`), { birthDate: '1980-05-05', phone: '600 600 600' });
    const asClient = await app.signedIn(client.email, client.password, studio.id);
    const erased = await asClient.delete(api(studio, 'account'), { password: client.password });
    expect(erased.status, erased.text).toBe(204);
    const record = await app.knex('clients').where({ studioId: studio.id, userId: client.id }).first();
    expect(record).toMatchObject({ firstName: '', lastName: '', email: null, phone: null, birthDate: null });
    expect(record!.archivedAt).not.toBeNull();
    expect(await app.knex('client_notes').where({ clientId: client.id })).toEqual([]);
    expect(await app.knex('user_tags').where({ userId: client.id })).toEqual([]);
  });
});
