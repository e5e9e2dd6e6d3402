import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../../../shared/contracts/api/staff';
import { ALL_ABILITIES, DEFAULT_ROLES } from '../../../../shared/policies/abilities';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { staffFixtures } from './staff-fixtures';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const { staffStudio, signIn, memberWithRole } = staffFixtures(() => app);

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

describe('GET /api/v4/{uuid}/member-list/init', () => {
  it('gives the list screen its role and location filters with counts and the viewer abilities', async () => {
    const s = await staffStudio();
    const other = await staffStudio();
    const anonymous = await app.anonymous();
    const gym = { id: crypto.randomUUID(), studioId: s.studio.id, name: 'Gym' };
    const annex = { id: crypto.randomUUID(), studioId: s.studio.id, name: 'Annex' };
    await app.knex('locations').insert([gym, annex]);
    await app.knex('member_locations').insert([
      { studioId: s.studio.id, userId: s.manager.id, locationId: gym.id },
      { studioId: s.studio.id, userId: s.frontDesk.id, locationId: gym.id },
      { studioId: s.studio.id, userId: s.instructor.id, locationId: annex.id },
    ]);

    expect((await anonymous.get(`${s.base}/member-list/init`)).status).toBe(401);
    expect((await (await signIn(s.frontDesk)).get(`${s.base}/member-list/init`)).status).toBe(403);
    expect((await other.asOwner.get(`${s.base}/member-list/init`)).status).toBe(404);
    expect((await s.asOwner.get(`${s.base}/member-list/init?page=2`)).status).toBe(400);

    const init = await s.asOwner.get(`${s.base}/member-list/init`);
    expect(init.status, init.text).toBe(200);
    expect(init.body.total).toBe(4);
    expect(
      Object.fromEntries(
        init.body.roles.map((r: { key: string; memberCount: number }) => [r.key, r.memberCount]),
      ),
    ).toEqual({ owner: 1, manager: 1, front_desk: 1, instructor: 1, accountant: 0 });
    expect(init.body.locations).toEqual([
      { id: annex.id, name: 'Annex', memberCount: 1 },
      { id: gym.id, name: 'Gym', memberCount: 2 },
    ]);
    expect(init.body.abilities).toEqual({
      addMember: true,
      changeRole: true,
      removeMember: true,
      manageRoles: true,
    });
    expect(init.body).toMatchObject({ pageSize: 50, searchDelayMs: 600 });

    // A manager may change the staff but not the roles; the location filter lists who works there.
    const asManager = await signIn(s.manager);
    expect((await asManager.get(`${s.base}/member-list/init`)).body.abilities).toMatchObject({
      addMember: true,
      manageRoles: false,
    });
    const atGym = await s.asOwner.get(`${s.base}/member/collection?location=${gym.id}`);
    expect(atGym.body.items.map((m: Member) => m.lastName)).toEqual(['Desk', 'Manager']);
    expect((await s.asOwner.get(`${s.base}/member/collection?location=nope`)).status).toBe(400);
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
    await app.knex('users').update({ phone: '+48 600 100 200', locale: 'pl' }).where({ id: s.frontDesk.id });
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
    const user = await app.knex('users').where({ id: res.body.uuid }).first();
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
    expect(await app.knex('users').whereRaw('lower(email) = ?', ['would.be.owner@example.com'])).toEqual([]);
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
    const archived = await app
      .knex('memberships')
      .where({
        studioId: s.studio.id,
        userId: s.instructor.id,
      })
      .first();
    expect(archived).toMatchObject({ isMember: false, iamRoleId: null, role: null });
    expect(archived!.archivedAt).toBeInstanceOf(Date);
    expect((await s.asOwner.get(`${s.base}/member/${s.instructor.id}`)).status).toBe(404);
    expect((await (await signIn(s.instructor)).post(`${s.base}/backoffice/init`)).status).toBe(404);

    await app
      .knex('memberships')
      .update({ isClient: true })
      .where({ studioId: s.studio.id, userId: s.frontDesk.id });
    expect((await s.asOwner.delete(`${s.base}/member/${s.frontDesk.id}`)).status).toBe(204);
    const client = await app
      .knex('memberships')
      .where({
        studioId: s.studio.id,
        userId: s.frontDesk.id,
      })
      .first();
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
    const m = await app.knex('memberships').where({ studioId: s.studio.id, userId: s.frontDesk.id }).first();
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
    const m = await app.knex('memberships').where({ studioId: s.studio.id, userId: s.owner.id }).first();
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
