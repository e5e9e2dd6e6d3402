import type Router from '@koa/router';
import { MEMBER_PAGE_SIZE, MEMBER_SEARCH_DELAY_MS } from '../../../../shared/contracts/api/staff';
import type {
  Member,
  MemberAddInit,
  MemberIamInit,
  MemberInit,
  MemberList,
  MemberListInit,
  MemberProfile,
  StudioIamRole,
  StudioIamRoleList,
} from '../../../../shared/contracts/api/staff';
import { StaffApi } from '../../../../shared/contracts/http/staff';
import type { Ability } from '../../../../shared/policies/abilities';
import { mayAddMember, maySetMemberRole } from '../../../../shared/policies/staff';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { issueResetToken, WELCOME_TOKEN_TTL_HOURS } from '../identity/index';
import { presentAssignableRole, presentMember, presentMemberProfile, presentRole } from './staff.presenter';
import {
  actorOf,
  addMember,
  countMembers,
  createRole,
  deleteRole,
  findMember,
  listMembers,
  listRoles,
  memberPermissions,
  membersOfRole,
  removeMember,
  replicateRole,
  roleShapeOf,
  setMemberRole,
  staffInviteEmail,
  staffLocations,
  updateMemberProfile,
  updateRole,
} from './staff.service';
import { readAll } from '../../db/read-all';
import { enqueue } from '../../jobs/queue';

/**
 * Members of staff and studio IAM roles (spec §7 "member…", "studio-iam-role…"). Every route is for
 * staff of the `:uuid` studio holding the named ability; the rules beyond abilities (own role, members
 * above the caller, last owner) are in shared/policies/staff.ts. See this module's README.
 */
export function registerStaffRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------------------------
  // Roles

  defineRoute(router, {
    ...StaffApi.roles,
    handle: async ({ db, studio }): Promise<StudioIamRoleList> => ({
      items: (await listRoles(db, studio.id)).map(presentRole),
      next: null,
    }),
  });

  defineRoute(router, {
    ...StaffApi.createRole,
    handle: async ({ db, studio, membership, body }): Promise<StudioIamRole> =>
      presentRole(await createRole(db, studio.id, await actorOf(db, membership), body)),
  });

  defineRoute(router, {
    ...StaffApi.updateRole,
    handle: async ({ db, studio, membership, params, body }): Promise<StudioIamRole> =>
      presentRole(await updateRole(db, studio.id, await actorOf(db, membership), params.studioIamRole, body)),
  });

  defineRoute(router, {
    ...StaffApi.deleteRole,
    handle: async ({ db, studio, membership, params }) => {
      await deleteRole(db, studio.id, await actorOf(db, membership), params.studioIamRole);
    },
  });

  defineRoute(router, {
    ...StaffApi.roleMembers,
    handle: async ({ db, studio, params }): Promise<MemberList> => ({
      items: (await membersOfRole(db, studio.id, params.studioIamRole)).map(presentMember),
      next: null,
    }),
  });

  defineRoute(router, {
    ...StaffApi.replicateRole,
    handle: async ({ db, studio, membership, params, body }): Promise<StudioIamRole> =>
      presentRole(
        await replicateRole(db, studio, await actorOf(db, membership), params.studioIamRole, body.name),
      ),
  });

  // ------------------------------------------------------------------------------------------------
  // Members

  defineRoute(router, {
    ...StaffApi.members,
    handle: async ({ db, studio, query }): Promise<MemberList> => {
      const { rows, next } = await listMembers(db, studio.id, query);
      return { items: rows.map(presentMember), next };
    },
  });

  defineRoute(router, {
    ...StaffApi.memberListInit,
    handle: async ({ db, studio, membership }): Promise<MemberListInit> => {
      const actor = await actorOf(db, membership);
      const [roles, total, locations] = await readAll(db, [
        () => listRoles(db, studio.id),
        () => countMembers(db, studio.id),
        () => staffLocations(db, studio.id),
      ]);
      const may = (ability: Ability) => actor.abilities.has(ability);
      return {
        total,
        roles: roles.map(({ role, memberCount }) => ({
          uuid: role.id,
          key: role.key,
          name: role.name,
          isOwner: role.isOwner,
          memberCount,
        })),
        locations,
        abilities: {
          addMember: may('staff.edit'),
          changeRole: may('staff.edit'),
          removeMember: may('staff.edit'),
          manageRoles: may('staff.roles'),
        },
        pageSize: MEMBER_PAGE_SIZE,
        searchDelayMs: MEMBER_SEARCH_DELAY_MS,
      };
    },
  });

  defineRoute(router, {
    ...StaffApi.memberAddInit,
    handle: async ({ db, studio, membership }): Promise<MemberAddInit> => {
      const actor = await actorOf(db, membership);
      const roles = await listRoles(db, studio.id);
      return { roles: roles.map(({ role }) => presentAssignableRole(role, mayAddMember(actor, role))) };
    },
  });

  defineRoute(router, {
    ...StaffApi.member,
    handle: async ({ db, studio, params }): Promise<Member> =>
      presentMember(await findMember(db, studio.id, params.user)),
  });

  defineRoute(router, {
    ...StaffApi.memberInit,
    handle: async ({ db, studio, membership, params }): Promise<MemberInit> => {
      const target = await findMember(db, studio.id, params.user);
      const { ownerCount: _, ...permissions } = await memberPermissions(
        db,
        studio.id,
        await actorOf(db, membership),
        target,
      );
      return { member: presentMember(target), profile: presentMemberProfile(target), permissions };
    },
  });

  defineRoute(router, {
    ...StaffApi.memberProfile,
    handle: async ({ db, studio, params }): Promise<MemberProfile> =>
      presentMemberProfile(await findMember(db, studio.id, params.user)),
  });

  defineRoute(router, {
    ...StaffApi.memberIamInit,
    handle: async ({ db, studio, membership, params }): Promise<MemberIamInit> => {
      const target = await findMember(db, studio.id, params.user);
      const actor = await actorOf(db, membership);
      const [roles, permissions] = await readAll(db, [
        () => listRoles(db, studio.id),
        () => memberPermissions(db, studio.id, actor, target),
      ]);
      const shape = { userId: target.userId, role: roleShapeOf(target), ownerCount: permissions.ownerCount };
      return {
        member: presentMember(target),
        roles: roles.map(({ role }) => presentAssignableRole(role, maySetMemberRole(actor, shape, role))),
        canChange: permissions.changeRole,
      };
    },
  });

  defineRoute(router, {
    ...StaffApi.addMember,
    handle: async ({ db, deps, studio, membership, body }): Promise<Member> => {
      const added = await addMember(db, studio.id, await actorOf(db, membership), body, deps.clock.now());
      if (added.invite) {
        const token = await issueResetToken(
          db,
          deps.clock,
          added.user.id,
          studio.id,
          WELCOME_TOKEN_TTL_HOURS,
        );
        await enqueue(db, 'mail.send', staffInviteEmail(added.user, studio, deps.config.publicUrl, token));
      }
      return presentMember(added.row);
    },
  });

  defineRoute(router, {
    ...StaffApi.updateMember,
    handle: async ({ db, studio, membership, params, body }): Promise<Member> =>
      presentMember(
        await updateMemberProfile(db, studio.id, await actorOf(db, membership), params.user, body),
      ),
  });

  defineRoute(router, {
    ...StaffApi.removeMember,
    handle: async ({ db, deps, studio, membership, params }) => {
      await removeMember(db, deps.clock, studio.id, await actorOf(db, membership), params.user);
    },
  });

  defineRoute(router, {
    ...StaffApi.setMemberRole,
    handle: async ({ db, studio, membership, params, body }): Promise<Member> =>
      presentMember(
        await setMemberRole(db, studio.id, await actorOf(db, membership), params.user, body.studioIamRole),
      ),
  });
}
