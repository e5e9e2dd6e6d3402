import { v7 as uuidv7 } from 'uuid';
import type { StudioIamRole } from '../../../../shared/contracts/api/staff';
import type { Ability } from '../../../../shared/policies/abilities';
import {
  addMembership,
  createStudioScenario,
  createUser,
  TEST_PASSWORD,
} from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';

/**
 * The staff tests' studio and helpers (the staff int tests are split by area: access, roles, members).
 * `app` is read when a helper runs: each test file starts its own app in beforeAll.
 */
export function staffFixtures(getApp: () => TestApp) {
  /**
   * A studio with an owner, a manager, a front desk and an instructor (all default roles, by key, the
   * way sign-up and the demo seed create them), a client, and the owner signed in.
   */
  async function staffStudio() {
    const { studio, manager: owner, client } = await createStudioScenario(getApp().knex);
    const member = async (firstName: string, lastName: string, role: string) => {
      const user = await createUser(getApp().knex, { firstName, lastName });
      await addMembership(getApp().knex, studio, user, { isMember: true, role });
      return user;
    };
    const manager = await member('Marek', 'Manager', 'manager');
    const frontDesk = await member('Fiona', 'Desk', 'front_desk');
    const instructor = await member('Igor', 'Instructor', 'instructor');
    const asOwner = await getApp().signedIn(owner.email, TEST_PASSWORD);
    const base = `/api/v4/${studio.id}`;
    const roles = (await asOwner.get(`${base}/studio-iam-role/all`)).body.items as StudioIamRole[];
    const roleId = (key: string) => roles.find((r) => r.key === key)!.uuid;
    return { studio, owner, client, manager, frontDesk, instructor, asOwner, base, roles, roleId };
  }

  const signIn = (user: { email: string }) => getApp().signedIn(user.email, TEST_PASSWORD);

  /** A custom role made directly in the database (abilities exactly as given). */
  async function customRole(studioId: string, name: string, abilities: readonly Ability[]) {
    const [role] = await getApp()
      .knex('studio_iam_roles')
      .insert({
        id: uuidv7(),
        studioId,
        key: null,
        name,
        abilities: JSON.stringify(abilities),
        isOwner: false,
      })
      .returning('*');
    return role!;
  }

  /** Gives a member a role directly in the database. */
  async function giveRole(studioId: string, userId: string, role: { id: string; key: string | null }) {
    await getApp()
      .knex('memberships')
      .update({ iamRoleId: role.id, role: role.key })
      .where({ studioId, userId });
  }

  /** A member of staff with a custom role, signed in. */
  async function memberWithRole(
    s: Awaited<ReturnType<typeof staffStudio>>,
    abilities: readonly Ability[],
    name = 'Custom',
  ) {
    const user = await createUser(getApp().knex, { firstName: 'Cora', lastName: name });
    await addMembership(getApp().knex, s.studio, user, { isMember: true, role: null });
    const role = await customRole(s.studio.id, name, abilities);
    await giveRole(s.studio.id, user.id, role);
    return { user, role, client: await signIn(user) };
  }

  return { staffStudio, signIn, customRole, giveRole, memberWithRole };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Scenario = Awaited<ReturnType<ReturnType<typeof staffFixtures>['staffStudio']>>;
