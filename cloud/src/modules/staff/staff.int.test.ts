import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, StudioIamRole } from '../../../../shared/contracts/api/staff';
import { ALL_ABILITIES, DEFAULT_ROLES, type Ability } from '../../../../shared/policies/abilities';
import {
  addMembership,
  createStudio,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { Membership } from '../identity/membership.model';
import { User } from '../identity/user.model';
import { StudioIamRole as StudioIamRoleModel } from './iam-role.model';
import { ensureDefaultRoles } from './staff.service';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A studio with an owner, a manager, a front desk and an instructor (all default roles, by key, the
 * way sign-up and the demo seed create them), a client, and the owner signed in.
 */
async function staffStudio() {
  const { studio, manager: owner, client } = await createStudioScenario(app.knex);
  const member = async (firstName: string, lastName: string, role: string) => {
    const user = await createUser(app.knex, { firstName, lastName });
    await addMembership(app.knex, studio, user, { isMember: true, role });
    return user;
  };
  const manager = await member('Marek', 'Manager', 'manager');
  const frontDesk = await member('Fiona', 'Desk', 'front_desk');
  const instructor = await member('Igor', 'Instructor', 'instructor');
  const asOwner = await app.signedIn(owner.email, TEST_PASSWORD);
  const base = `/api/v4/${studio.id}`;
  const roles = (await asOwner.get(`${base}/studio-iam-role/all`)).body.items as StudioIamRole[];
  const roleId = (key: string) => roles.find((r) => r.key === key)!.uuid;
  return { studio, owner, client, manager, frontDesk, instructor, asOwner, base, roles, roleId };
}

type Scenario = Awaited<ReturnType<typeof staffStudio>>;

const signIn = (user: { email: string }) => app.signedIn(user.email, TEST_PASSWORD);

/** A custom role made directly in the database (abilities exactly as given). */
async function customRole(studioId: string, name: string, abilities: readonly Ability[]) {
  return StudioIamRoleModel.query(app.knex).insertAndFetch({
    studioId,
    key: null,
    name,
    abilities: [...abilities],
    isOwner: false,
  });
}

/** Gives a member a role directly in the database. */
async function giveRole(studioId: string, userId: string, role: { id: string; key: string | null }) {
  await Membership.query(app.knex).patch({ iamRoleId: role.id, role: role.key }).where({ studioId, userId });
}

/** A member of staff with a custom role, signed in. */
async function memberWithRole(s: Scenario, abilities: readonly Ability[], name = 'Custom') {
  const user = await createUser(app.knex, { firstName: 'Cora', lastName: name });
  await addMembership(app.knex, s.studio, user, { isMember: true, role: null });
  const role = await customRole(s.studio.id, name, abilities);
  await giveRole(s.studio.id, user.id, role);
  return { user, role, client: await signIn(user) };
}

// -----------------------------------------------------------------------------------------------------
// Every route: 401 anonymous, 403 for a role without the ability, 404 for another studio

interface RouteCase {
  name: string;
  /** The ability the route needs: the instructor holds no staff ability; the manager lacks staff.roles. */
  ability: 'staff.view' | 'staff.edit' | 'staff.roles';
  request(s: Scenario): { method: Method; path: string; body?: unknown };
}

const ROUTES: RouteCase[] = [
  {
    name: 'GET studio-iam-role/all',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/studio-iam-role/all` }),
  },
  {
    name: 'PUT studio-iam-role',
    ability: 'staff.roles',
    request: (s) => ({
      method: 'PUT',
      path: `${s.base}/studio-iam-role`,
      body: { name: 'Reception', abilities: ['clients.view'] },
    }),
  },
  {
    name: 'PATCH studio-iam-role/{studioIamRole}',
    ability: 'staff.roles',
    request: (s) => ({
      method: 'PATCH',
      path: `${s.base}/studio-iam-role/${s.roleId('accountant')}`,
      body: { name: 'Books' },
    }),
  },
  {
    name: 'DELETE studio-iam-role/{studioIamRole}',
    ability: 'staff.roles',
    request: (s) => ({ method: 'DELETE', path: `${s.base}/studio-iam-role/${s.roleId('accountant')}` }),
  },
  {
    name: 'GET studio-iam-role/{studioIamRole}/mapping',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/studio-iam-role/${s.roleId('manager')}/mapping` }),
  },
  {
    name: 'POST studio-iam-role/{studioIamRole}/replicate',
    ability: 'staff.roles',
    request: (s) => ({
      method: 'POST',
      path: `${s.base}/studio-iam-role/${s.roleId('front_desk')}/replicate`,
      body: {},
    }),
  },
  {
    name: 'GET member/collection',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/collection` }),
  },
  {
    name: 'GET member/add/init',
    ability: 'staff.edit',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/add/init` }),
  },
  {
    name: 'GET member/{user}',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/${s.frontDesk.id}` }),
  },
  {
    name: 'GET member/{user}/init',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/${s.frontDesk.id}/init` }),
  },
  {
    name: 'GET member/{user}/profile',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/${s.frontDesk.id}/profile` }),
  },
  {
    name: 'GET member/{user}/iam/init',
    ability: 'staff.edit',
    request: (s) => ({ method: 'GET', path: `${s.base}/member/${s.frontDesk.id}/iam/init` }),
  },
  {
    name: 'POST member',
    ability: 'staff.edit',
    request: (s) => ({
      method: 'POST',
      path: `${s.base}/member`,
      body: {
        emailAddress: 'new.staff@example.com',
        firstName: 'Nina',
        lastName: 'New',
        studioIamRole: s.roleId('instructor'),
      },
    }),
  },
  {
    name: 'PATCH member/{user}',
    ability: 'staff.edit',
    request: (s) => ({
      method: 'PATCH',
      path: `${s.base}/member/${s.frontDesk.id}`,
      body: { phone: '+48 1' },
    }),
  },
  {
    name: 'DELETE member/{user}',
    ability: 'staff.edit',
    request: (s) => ({ method: 'DELETE', path: `${s.base}/member/${s.frontDesk.id}` }),
  },
  {
    name: 'PATCH member/{user}/iam',
    ability: 'staff.edit',
    request: (s) => ({
      method: 'PATCH',
      path: `${s.base}/member/${s.frontDesk.id}/iam`,
      body: { studioIamRole: s.roleId('instructor') },
    }),
  },
];

describe('every staff route', () => {
  it.each(ROUTES.map((r) => [r.name, r] as const))(
    '%s: 401 anonymous, 403 without the ability, 404 for another studio, nothing changed',
    async (_name, route) => {
      const s = await staffStudio();
      const request = route.request(s);
      const snapshot = async () =>
        JSON.stringify([
          await app.knex('memberships').where({ studioId: s.studio.id }).orderBy('id'),
          await app.knex('studio_iam_roles').where({ studioId: s.studio.id }).orderBy('id'),
          await app.knex('users').whereIn('id', [s.frontDesk.id]).select('phone'),
        ]);
      const before = await snapshot();

      const anonymous = await app.anonymous();
      const unauthenticated = await anonymous.request(request.method, request.path, request.body);
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body.error.key).toBe('auth.required');

      const asClient = await signIn(s.client);
      expect((await asClient.request(request.method, request.path, request.body)).status).toBe(403);

      const asInstructor = await signIn(s.instructor);
      const forbidden = await asInstructor.request(request.method, request.path, request.body);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error).toMatchObject({
        key: 'auth.forbidden',
        message: 'you have no permission to perform this action',
      });
      if (route.ability === 'staff.roles') {
        const asManager = await signIn(s.manager);
        expect((await asManager.request(request.method, request.path, request.body)).status).toBe(403);
      }

      await expectHiddenFromOtherStudio(app, request, [s.studio.name, s.frontDesk.email]);
      expect(await snapshot()).toBe(before);
    },
  );

  it('ids in the path that are not uuids, unknown ids and another studio’s ids answer 404', async () => {
    const s = await staffStudio();
    const other = await staffStudio();
    for (const path of [
      `${s.base}/member/not-a-uuid`,
      `${s.base}/member/12345/profile`,
      `${s.base}/member/01900000-0000-7000-8000-000000000000`,
      `${s.base}/member/${other.frontDesk.id}`,
      `${s.base}/member/${s.client.id}`,
      `${s.base}/studio-iam-role/not-a-uuid/mapping`,
      `${s.base}/studio-iam-role/01900000-0000-7000-8000-000000000000/mapping`,
      `${s.base}/studio-iam-role/${other.roleId('manager')}/mapping`,
    ]) {
      const res = await s.asOwner.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.key).toBe('resource.notFound');
    }
    expect(
      (await s.asOwner.patch(`${s.base}/studio-iam-role/${other.roleId('manager')}`, { name: 'Mine now' }))
        .status,
    ).toBe(404);
    expect((await s.asOwner.delete(`${s.base}/member/${other.frontDesk.id}`)).status).toBe(404);
    expect(
      (await s.asOwner.patch(`${s.base}/member/xyz/iam`, { studioIamRole: s.roleId('manager') })).status,
    ).toBe(404);
  });

  it('GET routes refuse unknown query parameters with a field error', async () => {
    const s = await staffStudio();
    for (const path of [
      `${s.base}/studio-iam-role/all?x=1`,
      `${s.base}/studio-iam-role/${s.roleId('owner')}/mapping?x=1`,
      `${s.base}/member/add/init?x=1`,
      `${s.base}/member/${s.manager.id}?x=1`,
      `${s.base}/member/${s.manager.id}/init?x=1`,
      `${s.base}/member/${s.manager.id}/profile?x=1`,
      `${s.base}/member/${s.manager.id}/iam/init?x=1`,
    ]) {
      const res = await s.asOwner.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.fields).toEqual({ 'query.x': ['unknown field'] });
    }
  });
});

// -----------------------------------------------------------------------------------------------------
// Default roles

describe('default roles (ensureDefaultRoles and the role resolution of every request)', () => {
  it('a new studio gets its five roles on first use, once, even when asked concurrently', async () => {
    const studio = await createStudio(app.knex);
    const owner = await createUser(app.knex);
    const cashier = await createUser(app.knex);
    await addMembership(app.knex, studio, owner, { isMember: true, role: 'owner' });
    await addMembership(app.knex, studio, cashier, { isMember: true, role: 'front_desk' });
    expect(await StudioIamRoleModel.query(app.knex).where({ studioId: studio.id })).toHaveLength(0);

    await Promise.all([1, 2, 3, 4].map(() => ensureDefaultRoles(app.knex, studio.id)));
    await ensureDefaultRoles(app.knex, studio.id);
    const roles = await StudioIamRoleModel.query(app.knex).where({ studioId: studio.id });
    expect(roles.map((r) => r.key).sort()).toEqual([
      'accountant',
      'front_desk',
      'instructor',
      'manager',
      'owner',
    ]);
    expect(roles.filter((r) => r.isOwner).map((r) => r.key)).toEqual(['owner']);
    for (const role of roles) expect(new Set(role.abilities)).toEqual(new Set(DEFAULT_ROLES[role.key!]));
    // Staff are mapped by their role key.
    const memberships = await Membership.query(app.knex).where({ studioId: studio.id });
    for (const m of memberships) expect(m.iamRoleId).toBe(roles.find((r) => r.key === m.role)!.id);

    // A member added later by key (sign-up, another module) is mapped on the next use.
    const late = await createUser(app.knex);
    await addMembership(app.knex, studio, late, { isMember: true, role: 'instructor' });
    await ensureDefaultRoles(app.knex, studio.id);
    const lateMembership = await Membership.query(app.knex).findOne({ studioId: studio.id, userId: late.id });
    expect(lateMembership!.iamRoleId).toBe(roles.find((r) => r.key === 'instructor')!.id);
  });

  it('lists the defaults first, in order, unnamed (translated by key), with their member counts', async () => {
    const s = await staffStudio();
    expect(s.roles.map((r) => [r.key, r.name, r.isOwner, r.memberCount])).toEqual([
      ['owner', null, true, 1],
      ['manager', null, false, 1],
      ['front_desk', null, false, 1],
      ['instructor', null, false, 1],
      ['accountant', null, false, 0],
    ]);
    expect(s.roles[0]!.abilities).toEqual([...ALL_ABILITIES]);
    expect(s.roles[2]!.abilities).toEqual([...DEFAULT_ROLES.front_desk]);
    // Made by the staff module: viewing them as the manager works too (staff.view).
    const asManager = await signIn(s.manager);
    expect((await asManager.get(`${s.base}/studio-iam-role/all`)).body.items).toHaveLength(5);
  });

  it('a deleted default role does not come back, and its key no longer grants anything', async () => {
    const s = await staffStudio();
    expect((await s.asOwner.delete(`${s.base}/studio-iam-role/${s.roleId('accountant')}`)).status).toBe(204);
    await ensureDefaultRoles(app.knex, s.studio.id);
    const keys = (await s.asOwner.get(`${s.base}/studio-iam-role/all`)).body.items.map(
      (r: StudioIamRole) => r.key,
    );
    expect(keys).toEqual(['owner', 'manager', 'front_desk', 'instructor']);
    const bookkeeper = await createUser(app.knex);
    await addMembership(app.knex, s.studio, bookkeeper, { isMember: true, role: 'accountant' });
    const init = await (await signIn(bookkeeper)).post(`${s.base}/backoffice/init`);
    expect(init.status).toBe(200);
    expect(init.body.member.abilities).toEqual([]);
  });

  it('every request acts with the studio role: edited abilities take effect at once', async () => {
    const s = await staffStudio();
    const asInstructor = await signIn(s.instructor);
    expect((await asInstructor.get(`${s.base}/member/collection`)).status).toBe(403);
    const patched = await s.asOwner.patch(`${s.base}/studio-iam-role/${s.roleId('instructor')}`, {
      abilities: [...DEFAULT_ROLES.instructor, 'staff.view'],
    });
    expect(patched.status).toBe(200);
    expect((await asInstructor.get(`${s.base}/member/collection`)).status).toBe(200);
    expect((await asInstructor.get(`${s.base}/member/add/init`)).status).toBe(403);
    const init = await asInstructor.post(`${s.base}/backoffice/init`);
    expect(init.body.member).toMatchObject({ role: 'instructor', roleName: null });
    expect(init.body.member.abilities).toContain('staff.view');
  });

  it('backoffice/init names a custom role and its abilities', async () => {
    const s = await staffStudio();
    const { client } = await memberWithRole(s, ['clients.view', 'staff.view'], 'Reception');
    const init = await client.post(`${s.base}/backoffice/init`);
    expect(init.status).toBe(200);
    expect(init.body.member).toMatchObject({ role: null, roleName: 'Reception' });
    expect(init.body.member.abilities).toEqual(['clients.view', 'staff.view']);
  });
});

// -----------------------------------------------------------------------------------------------------
// Roles

describe('PUT /api/v4/{uuid}/studio-iam-role', () => {
  it('creates a role (abilities deduplicated, in catalogue order)', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.request('PUT', `${s.base}/studio-iam-role`, {
      name: '  Reception lead ',
      abilities: ['staff.view', 'clients.view', 'clients.view'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      key: null,
      name: 'Reception lead',
      isOwner: false,
      abilities: ['clients.view', 'staff.view'],
      memberCount: 0,
    });
    const list = (await s.asOwner.get(`${s.base}/studio-iam-role/all`)).body.items as StudioIamRole[];
    expect(list.at(-1)!.uuid).toBe(res.body.uuid);
  });

  it('answers 400 with every invalid field', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.request('PUT', `${s.base}/studio-iam-role`, {
      name: ' ',
      abilities: ['clients.view', 'clients.fly'],
      isOwner: true,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['abilities.1', 'isOwner', 'name']);
    const missing = await s.asOwner.request('PUT', `${s.base}/studio-iam-role`, {});
    expect(Object.keys(missing.body.error.fields).sort()).toEqual(['abilities', 'name']);
  });

  it('a role editor with fewer abilities cannot mint a stronger role (403)', async () => {
    const s = await staffStudio();
    const { client } = await memberWithRole(s, ['staff.view', 'staff.roles', 'clients.view']);
    const above = await client.request('PUT', `${s.base}/studio-iam-role`, {
      name: 'Stronger',
      abilities: ['clients.view', 'sales.refund'],
    });
    expect(above.status).toBe(403);
    const within = await client.request('PUT', `${s.base}/studio-iam-role`, {
      name: 'Viewer',
      abilities: ['clients.view'],
    });
    expect(within.status).toBe(201);
  });
});

describe('PATCH /api/v4/{uuid}/studio-iam-role/{studioIamRole}', () => {
  it('renames and changes abilities', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.patch(`${s.base}/studio-iam-role/${s.roleId('front_desk')}`, {
      name: 'Reception',
      abilities: ['clients.view', 'schedule.checkIn'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: 'front_desk',
      name: 'Reception',
      abilities: ['clients.view', 'schedule.checkIn'],
      memberCount: 1,
    });
  });

  it('answers 400 for nothing to change and for unknown abilities', async () => {
    const s = await staffStudio();
    const path = `${s.base}/studio-iam-role/${s.roleId('manager')}`;
    const empty = await s.asOwner.patch(path, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({ '': ['nothing to change'] });
    const bad = await s.asOwner.patch(path, { abilities: 'all', name: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['abilities', 'name']);
  });

  it('the owner role keeps every ability (409) but may be renamed', async () => {
    const s = await staffStudio();
    const path = `${s.base}/studio-iam-role/${s.roleId('owner')}`;
    const less = await s.asOwner.patch(path, {
      abilities: ALL_ABILITIES.filter((a) => a !== 'sales.refund'),
    });
    expect(less.status).toBe(409);
    expect(less.body.error.key).toBe('staff.ownerRoleLocked');
    const renamed = await s.asOwner.patch(path, { name: 'Founder' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Founder', isOwner: true, abilities: [...ALL_ABILITIES] });
  });

  it('a member cannot raise their own role (403), nor edit a role above them', async () => {
    const s = await staffStudio();
    const { client, role } = await memberWithRole(s, ['staff.view', 'staff.roles', 'clients.view']);
    const raise = await client.patch(`${s.base}/studio-iam-role/${role.id}`, {
      abilities: ['staff.view', 'staff.roles', 'clients.view', 'clients.export'],
    });
    expect(raise.status).toBe(403);
    const lowerManager = await client.patch(`${s.base}/studio-iam-role/${s.roleId('manager')}`, {
      abilities: ['clients.view'],
    });
    expect(lowerManager.status).toBe(403);
    const stored = await StudioIamRoleModel.query(app.knex).findById(role.id);
    expect(stored!.abilities).toEqual(['staff.view', 'staff.roles', 'clients.view']);
  });
});

describe('DELETE /api/v4/{uuid}/studio-iam-role/{studioIamRole}', () => {
  it('deletes a role nobody holds; 409 while members hold it; never the owner role', async () => {
    const s = await staffStudio();
    const held = await s.asOwner.delete(`${s.base}/studio-iam-role/${s.roleId('manager')}`);
    expect(held.status).toBe(409);
    expect(held.body.error).toMatchObject({ key: 'staff.roleInUse' });
    expect(held.body.error.message).toMatch(/1 member/);
    const owner = await s.asOwner.delete(`${s.base}/studio-iam-role/${s.roleId('owner')}`);
    expect(owner.status).toBe(409);
    expect(owner.body.error.key).toBe('staff.ownerRoleLocked');
    const created = await s.asOwner.request('PUT', `${s.base}/studio-iam-role`, {
      name: 'Temp',
      abilities: [],
    });
    const gone = await s.asOwner.delete(`${s.base}/studio-iam-role/${created.body.uuid}`);
    expect(gone.status).toBe(204);
    expect(await StudioIamRoleModel.query(app.knex).findById(created.body.uuid)).toBeUndefined();
    expect((await s.asOwner.delete(`${s.base}/studio-iam-role/${created.body.uuid}`)).status).toBe(404);
  });

  it('a role held only by former staff can go (their archived memberships keep no role)', async () => {
    const s = await staffStudio();
    const { user, role } = await memberWithRole(s, ['clients.view'], 'Seasonal');
    expect((await s.asOwner.delete(`${s.base}/member/${user.id}`)).status).toBe(204);
    expect((await s.asOwner.delete(`${s.base}/studio-iam-role/${role.id}`)).status).toBe(204);
    const m = await Membership.query(app.knex).findOne({ studioId: s.studio.id, userId: user.id });
    expect(m).toMatchObject({ iamRoleId: null, isMember: false });
  });
});

describe('GET /api/v4/{uuid}/studio-iam-role/{studioIamRole}/mapping', () => {
  it('lists the active staff holding the role', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.get(`${s.base}/studio-iam-role/${s.roleId('front_desk')}/mapping`);
    expect(res.status).toBe(200);
    expect(res.body.next).toBeNull();
    expect(res.body.items.map((m: Member) => m.uuid)).toEqual([s.frontDesk.id]);
    expect(res.body.items[0]).toMatchObject({
      firstName: 'Fiona',
      emailAddress: s.frontDesk.email,
      role: { uuid: s.roleId('front_desk'), key: 'front_desk', isOwner: false },
    });
    const empty = await s.asOwner.get(`${s.base}/studio-iam-role/${s.roleId('accountant')}/mapping`);
    expect(empty.body.items).toEqual([]);
  });
});

describe('POST /api/v4/{uuid}/studio-iam-role/{studioIamRole}/replicate', () => {
  it('copies a role under the given name, or "(copy)" in the studio’s language', async () => {
    const s = await staffStudio();
    const named = await s.asOwner.post(`${s.base}/studio-iam-role/${s.roleId('front_desk')}/replicate`, {
      name: 'Evening desk',
    });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({
      key: null,
      name: 'Evening desk',
      abilities: [...DEFAULT_ROLES.front_desk],
      memberCount: 0,
    });
    // The test studio speaks Polish.
    const unnamed = await s.asOwner.post(`${s.base}/studio-iam-role/${s.roleId('manager')}/replicate`, {});
    expect(unnamed.body.name).toBe('Menedżer (kopia)');
    const ofCopy = await s.asOwner.post(`${s.base}/studio-iam-role/${named.body.uuid}/replicate`);
    expect(ofCopy.body.name).toBe('Evening desk (kopia)');
  });

  it('a replica of the owner role holds every ability but makes nobody an owner', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.post(`${s.base}/studio-iam-role/${s.roleId('owner')}/replicate`, {
      name: 'Co-owner',
    });
    expect(res.body).toMatchObject({ isOwner: false, key: null, abilities: [...ALL_ABILITIES] });
  });

  it('answers 400 for a bad name', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.post(`${s.base}/studio-iam-role/${s.roleId('manager')}/replicate`, {
      name: 'x'.repeat(101),
      key: 'owner',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['key', 'name']);
  });

  it('a limited role editor cannot replicate a role above them (403)', async () => {
    const s = await staffStudio();
    const { client } = await memberWithRole(s, ['staff.view', 'staff.roles']);
    expect((await client.post(`${s.base}/studio-iam-role/${s.roleId('manager')}/replicate`, {})).status).toBe(
      403,
    );
  });
});

// -----------------------------------------------------------------------------------------------------
// Members

describe('GET /api/v4/{uuid}/member/collection', () => {
  it('lists active staff by name, keyset-paginated, with role and search filters', async () => {
    const s = await staffStudio();
    const all = await s.asOwner.get(`${s.base}/member/collection`);
    expect(all.status).toBe(200);
    expect(all.body.next).toBeNull();
    // Clients are not staff; sorted by last name.
    expect(all.body.items.map((m: Member) => m.lastName)).toEqual([
      'Desk',
      'Instructor',
      'Manager',
      'Manager',
    ]);
    expect(all.body.items.map((m: Member) => m.role?.key)).toEqual([
      'front_desk',
      'instructor',
      'manager',
      'owner',
    ]);

    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const query: string = next ? `?limit=3&cursor=${next}` : '?limit=3';
      const page = await s.asOwner.get(`${s.base}/member/collection${query}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((m: Member) => m.uuid));
      next = page.body.next;
      pages++;
    } while (next);
    expect(pages).toBe(2);
    expect(seen).toEqual(all.body.items.map((m: Member) => m.uuid));

    const byRole = await s.asOwner.get(`${s.base}/member/collection?role=${s.roleId('instructor')}`);
    expect(byRole.body.items.map((m: Member) => m.uuid)).toEqual([s.instructor.id]);
    const byName = await s.asOwner.get(`${s.base}/member/collection?search=${encodeURIComponent('fiona d')}`);
    expect(byName.body.items.map((m: Member) => m.uuid)).toEqual([s.frontDesk.id]);
    const byEmail = await s.asOwner.get(`${s.base}/member/collection?search=${s.manager.email.slice(0, 12)}`);
    expect(byEmail.body.items.map((m: Member) => m.uuid)).toEqual([s.manager.id]);
    const wildcard = await s.asOwner.get(`${s.base}/member/collection?search=%25`);
    expect(wildcard.body.items).toEqual([]);
  });

  it('answers 400 for bad filters, a bad cursor and unknown parameters', async () => {
    const s = await staffStudio();
    const bad = await s.asOwner.get(`${s.base}/member/collection?limit=0&role=nope&sort=name`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['query.limit', 'query.role', 'query.sort']);
    const cursor = await s.asOwner.get(`${s.base}/member/collection?cursor=garbage`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.fields).toEqual({ 'query.cursor': ['invalid cursor'] });
  });
});

describe('GET /api/v4/{uuid}/member/add/init', () => {
  it('offers every role, marking the ones the caller may give', async () => {
    const s = await staffStudio();
    const asManager = await signIn(s.manager);
    const res = await asManager.get(`${s.base}/member/add/init`);
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: { key: string; assignable: boolean }) => [r.key, r.assignable])).toEqual([
      ['owner', false],
      ['manager', true],
      ['front_desk', true],
      ['instructor', true],
      ['accountant', true],
    ]);
  });
});

describe('GET /api/v4/{uuid}/member/{user} (and /init, /profile, /iam/init)', () => {
  it('shows a member, their profile, and what the caller may do', async () => {
    const s = await staffStudio();
    await User.query(app.knex)
      .patch({ phone: '+48 600 100 200', locale: 'pl' })
      .where({ id: s.frontDesk.id });
    const member = await s.asOwner.get(`${s.base}/member/${s.frontDesk.id}`);
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({
      uuid: s.frontDesk.id,
      firstName: 'Fiona',
      lastName: 'Desk',
      emailAddress: s.frontDesk.email,
      phone: '+48 600 100 200',
      isClient: false,
      role: { key: 'front_desk', name: null, isOwner: false },
    });
    const profile = await s.asOwner.get(`${s.base}/member/${s.frontDesk.id}/profile`);
    expect(profile.body).toEqual({
      uuid: s.frontDesk.id,
      firstName: 'Fiona',
      lastName: 'Desk',
      emailAddress: s.frontDesk.email,
      phone: '+48 600 100 200',
      locale: 'pl',
    });
    const init = await s.asOwner.get(`${s.base}/member/${s.frontDesk.id}/init`);
    expect(init.body.permissions).toEqual({ editProfile: true, changeRole: true, remove: true });
    expect(init.body.member.uuid).toBe(s.frontDesk.id);

    // The manager, about the owner: may look, not touch.
    const asManager = await signIn(s.manager);
    const ofOwner = await asManager.get(`${s.base}/member/${s.owner.id}/init`);
    expect(ofOwner.body.permissions).toEqual({ editProfile: false, changeRole: false, remove: false });
    // The sole owner about themselves: profile yes, own role no, leaving no (last owner).
    const self = await s.asOwner.get(`${s.base}/member/${s.owner.id}/init`);
    expect(self.body.permissions).toEqual({ editProfile: true, changeRole: false, remove: false });
  });

  it('iam/init offers the roles the caller may give this member', async () => {
    const s = await staffStudio();
    const asManager = await signIn(s.manager);
    const res = await asManager.get(`${s.base}/member/${s.frontDesk.id}/iam/init`);
    expect(res.status).toBe(200);
    expect(res.body.canChange).toBe(true);
    expect(res.body.member.uuid).toBe(s.frontDesk.id);
    expect(res.body.roles.find((r: { key: string }) => r.key === 'owner').assignable).toBe(false);
    expect(res.body.roles.find((r: { key: string }) => r.key === 'instructor').assignable).toBe(true);
    const self = await asManager.get(`${s.base}/member/${s.manager.id}/iam/init`);
    expect(self.body.canChange).toBe(false);
    expect(self.body.roles.every((r: { assignable: boolean }) => !r.assignable)).toBe(true);
  });
});

describe('POST /api/v4/{uuid}/member', () => {
  it('adds a new user as staff (no password yet) and an existing client, who stays a client', async () => {
    const s = await staffStudio();
    const email = `Nowa.Osoba.${Date.now()}@Example.com`;
    const res = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: email,
      firstName: 'Nowa',
      lastName: 'Osoba',
      phone: '+48 500 000 000',
      studioIamRole: s.roleId('instructor'),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      emailAddress: email.toLowerCase(),
      firstName: 'Nowa',
      phone: '+48 500 000 000',
      role: { key: 'instructor' },
      isClient: false,
    });
    const user = await User.query(app.knex).findById(res.body.uuid);
    expect(user!.passwordHash).toBeNull();
    // Invited by email (in the studio's language) to set a password; the link signs them in.
    await app.drainJobs();
    const invites = app.mail.filter((m) => m.to === email.toLowerCase());
    expect(invites).toHaveLength(1);
    expect(invites[0]!.subject).toBe(`Dołączono Cię do zespołu ${s.studio.name}`);
    expect(invites[0]!.text).toContain(`/${s.studio.id}/backoffice`);
    const token = decodeURIComponent(/[?&]token=([^\s&]+)/.exec(invites[0]!.text)![1]!);
    const invited = await app.anonymous();
    const reset = await invited.post(`${s.base}/account/reset`, { token, password: 'a good password 1' });
    expect(reset.status, reset.text).toBe(200);
    const asNew = await app.signedIn(email, 'a good password 1', s.studio.id);
    const init = await asNew.post(`${s.base}/backoffice/init`);
    expect(init.status).toBe(200);
    expect(init.body.member).toMatchObject({ role: 'instructor', abilities: [...DEFAULT_ROLES.instructor] });

    const asClient = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: s.client.email,
      firstName: 'Ignored',
      lastName: 'Names',
      studioIamRole: s.roleId('front_desk'),
    });
    expect(asClient.status).toBe(201);
    expect(asClient.body).toMatchObject({ uuid: s.client.id, firstName: 'Kamil', isClient: true });
    await app.drainJobs();
    expect(app.mail.filter((m) => m.to === s.client.email)).toEqual([]);
    expect((await signIn(s.client)).session).toBeTruthy();
  });

  it('answers 409 for someone already on the staff and 400 for bad fields or an unknown role', async () => {
    const s = await staffStudio();
    const again = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: s.frontDesk.email,
      firstName: 'F',
      lastName: 'D',
      studioIamRole: s.roleId('instructor'),
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      key: 'staff.alreadyMember',
      fields: { emailAddress: expect.any(Array) },
    });

    const bad = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: 'not an email',
      firstName: '',
      studioIamRole: 'owner',
      role: 'owner',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'emailAddress',
      'firstName',
      'lastName',
      'role',
      'studioIamRole',
    ]);
    const other = await staffStudio();
    const foreignRole = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: 'someone.else@example.com',
      firstName: 'Some',
      lastName: 'One',
      studioIamRole: other.roleId('manager'),
    });
    expect(foreignRole.status).toBe(400);
    expect(foreignRole.body.error.fields).toEqual({ studioIamRole: ['unknown role'] });
  });

  it('nobody adds a member with more abilities than their own (403)', async () => {
    const s = await staffStudio();
    const asManager = await signIn(s.manager);
    const res = await asManager.post(`${s.base}/member`, {
      emailAddress: 'would.be.owner@example.com',
      firstName: 'Would',
      lastName: 'Be',
      studioIamRole: s.roleId('owner'),
    });
    expect(res.status).toBe(403);
    expect(await User.query(app.knex).whereRaw('lower(email) = ?', ['would.be.owner@example.com'])).toEqual(
      [],
    );
  });

  it('brings back a former member of staff', async () => {
    const s = await staffStudio();
    expect((await s.asOwner.delete(`${s.base}/member/${s.instructor.id}`)).status).toBe(204);
    const back = await s.asOwner.post(`${s.base}/member`, {
      emailAddress: s.instructor.email,
      firstName: 'Igor',
      lastName: 'Instructor',
      studioIamRole: s.roleId('front_desk'),
    });
    expect(back.status).toBe(201);
    expect(back.body.role.key).toBe('front_desk');
    expect((await (await signIn(s.instructor)).post(`${s.base}/backoffice/init`)).status).toBe(200);
  });
});

describe('PATCH /api/v4/{uuid}/member/{user}', () => {
  it('edits names and phone; 400 for bad fields; 403 for a member above the caller', async () => {
    const s = await staffStudio();
    const path = `${s.base}/member/${s.frontDesk.id}`;
    const res = await s.asOwner.patch(path, { firstName: ' Fiona Maria ', phone: '+48 111' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Fiona Maria', lastName: 'Desk', phone: '+48 111' });
    const cleared = await s.asOwner.patch(path, { phone: null });
    expect(cleared.body.phone).toBeNull();

    const bad = await s.asOwner.patch(path, {
      firstName: '',
      lastName: 'x'.repeat(101),
      emailAddress: 'a@b.c',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['emailAddress', 'firstName', 'lastName']);
    expect((await s.asOwner.patch(path, {})).body.error.fields).toEqual({ '': ['nothing to change'] });

    const asManager = await signIn(s.manager);
    expect((await asManager.patch(`${s.base}/member/${s.owner.id}`, { firstName: 'Nope' })).status).toBe(403);
    expect((await asManager.patch(`${s.base}/member/${s.manager.id}`, { firstName: 'Me' })).status).toBe(200);
  });
});

describe('DELETE /api/v4/{uuid}/member/{user}', () => {
  it('ends the staff standing: archived, or still a client', async () => {
    const s = await staffStudio();
    expect((await s.asOwner.delete(`${s.base}/member/${s.instructor.id}`)).status).toBe(204);
    const archived = await Membership.query(app.knex).findOne({
      studioId: s.studio.id,
      userId: s.instructor.id,
    });
    expect(archived).toMatchObject({ isMember: false, iamRoleId: null, role: null });
    expect(archived!.archivedAt).toBeInstanceOf(Date);
    expect((await s.asOwner.get(`${s.base}/member/${s.instructor.id}`)).status).toBe(404);
    expect((await (await signIn(s.instructor)).post(`${s.base}/backoffice/init`)).status).toBe(404);

    await Membership.query(app.knex)
      .patch({ isClient: true })
      .where({ studioId: s.studio.id, userId: s.frontDesk.id });
    expect((await s.asOwner.delete(`${s.base}/member/${s.frontDesk.id}`)).status).toBe(204);
    const client = await Membership.query(app.knex).findOne({
      studioId: s.studio.id,
      userId: s.frontDesk.id,
    });
    expect(client).toMatchObject({ isMember: false, isClient: true, archivedAt: null });
  });

  it('never removes the last owner (409); an owner may leave when another stays', async () => {
    const s = await staffStudio();
    const last = await s.asOwner.delete(`${s.base}/member/${s.owner.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error).toMatchObject({
      key: 'staff.lastOwner',
      message: 'the studio must keep at least one owner: make someone else an owner first',
    });
    // Not even someone with every ability (a replica of the owner role).
    const { client: coOwner } = await memberWithRole(s, ALL_ABILITIES, 'Co-owner');
    expect((await coOwner.delete(`${s.base}/member/${s.owner.id}`)).status).toBe(409);

    expect(
      (await s.asOwner.patch(`${s.base}/member/${s.manager.id}/iam`, { studioIamRole: s.roleId('owner') }))
        .status,
    ).toBe(200);
    expect((await s.asOwner.delete(`${s.base}/member/${s.owner.id}`)).status).toBe(204);
  });

  it('a manager cannot remove an owner (403)', async () => {
    const s = await staffStudio();
    const asManager = await signIn(s.manager);
    expect((await asManager.delete(`${s.base}/member/${s.owner.id}`)).status).toBe(403);
  });
});

describe('PATCH /api/v4/{uuid}/member/{user}/iam', () => {
  it('gives a member another role', async () => {
    const s = await staffStudio();
    const res = await s.asOwner.patch(`${s.base}/member/${s.frontDesk.id}/iam`, {
      studioIamRole: s.roleId('manager'),
    });
    expect(res.status).toBe(200);
    expect(res.body.role).toMatchObject({ uuid: s.roleId('manager'), key: 'manager' });
    const m = await Membership.query(app.knex).findOne({ studioId: s.studio.id, userId: s.frontDesk.id });
    expect(m).toMatchObject({ iamRoleId: s.roleId('manager'), role: 'manager' });
    // And to a studio's own role: the key mirror is cleared.
    const custom = await s.asOwner.request('PUT', `${s.base}/studio-iam-role`, {
      name: 'Desk plus',
      abilities: ['clients.view', 'staff.view'],
    });
    const toCustom = await s.asOwner.patch(`${s.base}/member/${s.frontDesk.id}/iam`, {
      studioIamRole: custom.body.uuid,
    });
    expect(toCustom.body.role).toMatchObject({ key: null, name: 'Desk plus' });
    expect((await (await signIn(s.frontDesk)).get(`${s.base}/member/collection`)).status).toBe(200);
  });

  it('answers 400 for a missing, malformed or unknown role', async () => {
    const s = await staffStudio();
    const path = `${s.base}/member/${s.frontDesk.id}/iam`;
    expect((await s.asOwner.patch(path, {})).body.error.fields).toEqual({ studioIamRole: ['invalid id'] });
    expect((await s.asOwner.patch(path, { studioIamRole: 'manager' })).status).toBe(400);
    const unknown = await s.asOwner.patch(path, { studioIamRole: '01900000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({ studioIamRole: ['unknown role'] });
  });

  it('nobody changes their own role (403), not even an owner', async () => {
    const s = await staffStudio();
    const own = await s.asOwner.patch(`${s.base}/member/${s.owner.id}/iam`, {
      studioIamRole: s.roleId('manager'),
    });
    expect(own.status).toBe(403);
    expect(own.body.error.message).toBe('you cannot change your own role');
    const asDesk = await signIn(s.frontDesk);
    const custom = await memberWithRole(s, ['staff.view', 'staff.edit', 'clients.view'], 'Desk lead');
    const raiseSelf = await custom.client.patch(`${s.base}/member/${custom.user.id}/iam`, {
      studioIamRole: s.roleId('manager'),
    });
    expect(raiseSelf.status).toBe(403);
    expect(
      (await asDesk.patch(`${s.base}/member/${s.frontDesk.id}/iam`, { studioIamRole: s.roleId('manager') }))
        .status,
    ).toBe(403);
  });

  it('nobody raises a member above their own abilities (403), nor demotes a member above them', async () => {
    const s = await staffStudio();
    const asManager = await signIn(s.manager);
    const toOwner = await asManager.patch(`${s.base}/member/${s.frontDesk.id}/iam`, {
      studioIamRole: s.roleId('owner'),
    });
    expect(toOwner.status).toBe(403);
    const demoteOwner = await asManager.patch(`${s.base}/member/${s.owner.id}/iam`, {
      studioIamRole: s.roleId('instructor'),
    });
    expect(demoteOwner.status).toBe(403);
    const within = await asManager.patch(`${s.base}/member/${s.frontDesk.id}/iam`, {
      studioIamRole: s.roleId('instructor'),
    });
    expect(within.status).toBe(200);
  });

  it('never demotes the last owner (409)', async () => {
    const s = await staffStudio();
    const { client: coOwner } = await memberWithRole(s, ALL_ABILITIES, 'Co-owner');
    const res = await coOwner.patch(`${s.base}/member/${s.owner.id}/iam`, {
      studioIamRole: s.roleId('manager'),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.key).toBe('staff.lastOwner');
    const m = await Membership.query(app.knex).findOne({ studioId: s.studio.id, userId: s.owner.id });
    expect(m!.iamRoleId).toBe(s.roleId('owner'));
  });

  const ownerCount = async (studioId: string) => {
    const row = await app
      .knex('memberships as m')
      .join('studio_iam_roles as r', 'r.id', 'm.iam_role_id')
      .where({ 'm.studio_id': studioId, 'r.is_owner': true, 'm.is_member': true })
      .whereNull('m.archived_at')
      .count({ n: '*' })
      .first();
    return Number(row!.n);
  };

  it('two owners demoting each other at the same moment leave one owner (row locks)', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await staffStudio();
      const second = await createUser(app.knex, { firstName: 'Olga', lastName: 'Owner' });
      await addMembership(app.knex, s.studio, second, { isMember: true, role: 'owner' });
      const asSecond = await signIn(second);
      const [a, b] = await Promise.all([
        s.asOwner.patch(`${s.base}/member/${second.id}/iam`, { studioIamRole: s.roleId('manager') }),
        asSecond.patch(`${s.base}/member/${s.owner.id}/iam`, { studioIamRole: s.roleId('manager') }),
      ]);
      // The first to take the lock wins; the other acts with the role it has by then (a manager
      // now) and may not touch an owner.
      expect([a.status, b.status].sort()).toEqual([200, 403]);
      expect(await ownerCount(s.studio.id)).toBe(1);
    }
  });

  it('demoting both owners at the same moment demotes one; the last is kept (409)', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await staffStudio();
      const second = await createUser(app.knex, { firstName: 'Olga', lastName: 'Owner' });
      await addMembership(app.knex, s.studio, second, { isMember: true, role: 'owner' });
      const { client: coOwner } = await memberWithRole(s, ALL_ABILITIES, 'Co-owner');
      const [a, b] = await Promise.all([
        coOwner.patch(`${s.base}/member/${second.id}/iam`, { studioIamRole: s.roleId('manager') }),
        coOwner.patch(`${s.base}/member/${s.owner.id}/iam`, { studioIamRole: s.roleId('manager') }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r.status === 409)!.body.error.key).toBe('staff.lastOwner');
      expect(await ownerCount(s.studio.id)).toBe(1);
    }
  });

  it('an owner leaving while the other owner is demoted at the same moment: one owner stays', async () => {
    const s = await staffStudio();
    const second = await createUser(app.knex, { firstName: 'Olga', lastName: 'Owner' });
    await addMembership(app.knex, s.studio, second, { isMember: true, role: 'owner' });
    const asSecond = await signIn(second);
    const [leave, demote] = await Promise.all([
      asSecond.delete(`${s.base}/member/${second.id}`),
      asSecond.patch(`${s.base}/member/${s.owner.id}/iam`, { studioIamRole: s.roleId('manager') }),
    ]);
    // Whichever runs first wins; the other is refused (409, or 404 once the caller is no longer staff).
    expect([leave.status, demote.status].filter((status) => status < 300)).toHaveLength(1);
    expect(await ownerCount(s.studio.id)).toBe(1);
  });
});
