import type {
  AssignableRole,
  Member,
  MemberProfile,
  StudioIamRole as StudioIamRoleView,
} from '../../../../shared/contracts/api/staff';
import { ALL_ABILITIES, isAbility } from '../../../../shared/policies/abilities';
import { roleAbilities, type StaffDecision } from '../../../../shared/policies/staff';
import type { StudioIamRole } from './iam-role';
import type { RoleWithCount, StaffRow } from './staff.service';

const iso = (value: Date | string): string => new Date(value).toISOString();

export function presentRole({ role, memberCount }: RoleWithCount): StudioIamRoleView {
  return {
    uuid: role.id,
    key: role.key,
    name: role.name,
    isOwner: role.isOwner,
    abilities: role.isOwner ? [...ALL_ABILITIES] : role.abilities.filter(isAbility),
    memberCount,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
  };
}

/** A role in a picker, with whether the signed-in member may give it (see shared/policies/staff.ts). */
export function presentAssignableRole(role: StudioIamRole, decision: StaffDecision): AssignableRole {
  return {
    uuid: role.id,
    key: role.key,
    name: role.name,
    isOwner: role.isOwner,
    abilities: [...roleAbilities(role)],
    assignable: decision.ok,
  };
}

export function presentMember(row: StaffRow): Member {
  return {
    uuid: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.email,
    phone: row.phone,
    role: row.roleId
      ? { uuid: row.roleId, key: row.roleKey, name: row.roleName, isOwner: Boolean(row.roleIsOwner) }
      : null,
    isClient: row.isClient,
    since: iso(row.since),
  };
}

export function presentMemberProfile(row: StaffRow): MemberProfile {
  return {
    uuid: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    emailAddress: row.email,
    phone: row.phone,
    locale: row.locale,
  };
}
