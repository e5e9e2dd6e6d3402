import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, StudioIamRole } from '../../../../shared/contracts/api/staff';
import {
  ALL_ABILITIES,
  DEFAULT_ROLE_KEYS,
  DEFAULT_ROLES,
  type DefaultRoleKey,
} from '../../../../shared/policies/abilities';
import { addMembership, createStudio, createUser } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { ensureDefaultRoles } from './staff.service';
import { staffFixtures } from './staff-fixtures';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const { staffStudio, signIn, memberWithRole } = staffFixtures(() => app);

// -----------------------------------------------------------------------------------------------------
// Default roles

describe('default roles (ensureDefaultRoles and the role resolution of every request)', () => {
  it('a new studio gets its five roles on first use, once, even when asked concurrently', async () => {
    const studio = await createStudio(app.knex);
    const owner = await createUser(app.knex);
    const cashier = await createUser(app.knex);
    await addMembership(app.knex, studio, owner, { isMember: true, role: 'owner' });
    await addMembership(app.knex, studio, cashier, { isMember: true, role: 'front_desk' });
    expect(await app.knex('studio_iam_roles').where({ studioId: studio.id })).toHaveLength(0);

    await Promise.all([1, 2, 3, 4].map(() => ensureDefaultRoles(app.knex, studio.id)));
    await ensureDefaultRoles(app.knex, studio.id);
    const roles = await app.knex('studio_iam_roles').where({ studioId: studio.id });
    expect(roles.map((r) => r.key).sort()).toEqual([...DEFAULT_ROLE_KEYS].sort());
    expect(roles.filter((r) => r.isOwner).map((r) => r.key)).toEqual(['owner']);
    for (const role of roles)
      expect(new Set(role.abilities as string[])).toEqual(new Set(DEFAULT_ROLES[role.key as DefaultRoleKey]));
    // Staff are mapped by their role key.
    const memberships = await app.knex('memberships').where({ studioId: studio.id });
    for (const m of memberships) expect(m.iamRoleId).toBe(roles.find((r) => r.key === m.role)!.id);

    // A member added later by key (sign-up, another module) is mapped on the next use.
    const late = await createUser(app.knex);
    await addMembership(app.knex, studio, late, { isMember: true, role: 'instructor' });
    await ensureDefaultRoles(app.knex, studio.id);
    const lateMembership = await app
      .knex('memberships')
      .where({ studioId: studio.id, userId: late.id })
      .first();
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
    const stored = await app.knex('studio_iam_roles').where({ id: role.id }).first();
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
    expect(await app.knex('studio_iam_roles').where({ id: created.body.uuid }).first()).toBeUndefined();
    expect((await s.asOwner.delete(`${s.base}/studio-iam-role/${created.body.uuid}`)).status).toBe(404);
  });

  it('a role held only by former staff can go (their archived memberships keep no role)', async () => {
    const s = await staffStudio();
    const { user, role } = await memberWithRole(s, ['clients.view'], 'Seasonal');
    expect((await s.asOwner.delete(`${s.base}/member/${user.id}`)).status).toBe(204);
    expect((await s.asOwner.delete(`${s.base}/studio-iam-role/${role.id}`)).status).toBe(204);
    const m = await app.knex('memberships').where({ studioId: s.studio.id, userId: user.id }).first();
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
