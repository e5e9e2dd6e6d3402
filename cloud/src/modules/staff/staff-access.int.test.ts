import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { staffFixtures, type Method, type Scenario } from './staff-fixtures';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const { staffStudio, signIn } = staffFixtures(() => app);

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
    name: 'GET member-list/init',
    ability: 'staff.view',
    request: (s) => ({ method: 'GET', path: `${s.base}/member-list/init` }),
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
