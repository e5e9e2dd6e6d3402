import { ALL_ABILITIES, type Ability } from './abilities';

/**
 * Who may change staff standing and studio roles. Pure predicates over abilities, shared by the cloud
 * (which enforces them) and the back office (which hides what it would refuse). Every decision says
 * why it refuses, so the server can answer with the right status (403 forbidden, 409 conflict).
 */

/** A studio role as the rules see it: the owner role holds every ability, whatever is stored. */
export interface RoleShape {
  isOwner: boolean;
  abilities: Iterable<Ability>;
}

/** The member acting: who they are and what their role lets them do. */
export interface StaffActor {
  userId: string;
  abilities: ReadonlySet<Ability>;
}

export type StaffRefusal =
  /** 403: nobody changes their own role (they could only raise it or lock themselves out). */
  | 'ownRole'
  /** 403: the role (or the member's current one) holds abilities the actor does not. */
  | 'aboveActor'
  /** 403: editing role definitions needs staff.roles. */
  | 'rolesNotAllowed'
  /** 409: the studio would be left without an owner. */
  | 'lastOwner'
  /** 409: the owner role always holds every ability and is never deleted. */
  | 'ownerRoleLocked';

export type StaffDecision = { ok: true } | { ok: false; reason: StaffRefusal };

const allow: StaffDecision = { ok: true };
const refuse = (reason: StaffRefusal): StaffDecision => ({ ok: false, reason });

/** The abilities a role grants. The owner role grants all of them, even ones added after it was stored. */
export function roleAbilities(role: RoleShape): ReadonlySet<Ability> {
  return new Set(role.isOwner ? ALL_ABILITIES : role.abilities);
}

/** True when the actor holds every one of `abilities`: nobody hands out more than they hold. */
export function holdsAll(actor: StaffActor, abilities: Iterable<Ability>): boolean {
  for (const ability of abilities) if (!actor.abilities.has(ability)) return false;
  return true;
}

/** Role definitions (create, edit, replicate, delete) are for holders of staff.roles. */
export function mayEditRoles(actor: StaffActor): boolean {
  return actor.abilities.has('staff.roles');
}

/**
 * Creating or replicating a role: staff.roles, and the new role may not hold anything the actor does
 * not (otherwise a member could mint a stronger role and have it assigned).
 */
export function mayCreateRole(actor: StaffActor, abilities: Iterable<Ability>): StaffDecision {
  if (!mayEditRoles(actor)) return refuse('rolesNotAllowed');
  if (!holdsAll(actor, abilities)) return refuse('aboveActor');
  return allow;
}

/**
 * Editing a role: staff.roles; the role as it is and as it will be must both lie within the actor's
 * abilities (a member never raises their own role, nor edits a role above them); the owner role keeps
 * every ability (only its name changes).
 */
export function mayEditRole(
  actor: StaffActor,
  role: RoleShape,
  nextAbilities: Iterable<Ability> | undefined,
): StaffDecision {
  if (!mayEditRoles(actor)) return refuse('rolesNotAllowed');
  if (!holdsAll(actor, roleAbilities(role))) return refuse('aboveActor');
  if (nextAbilities === undefined) return allow;
  const next = new Set(nextAbilities);
  if (role.isOwner) return ALL_ABILITIES.every((a) => next.has(a)) ? allow : refuse('ownerRoleLocked');
  if (!holdsAll(actor, next)) return refuse('aboveActor');
  return allow;
}

/** Deleting a role: staff.roles, never the owner role (whether members still hold it is the service's check). */
export function mayDeleteRole(actor: StaffActor, role: RoleShape): StaffDecision {
  if (!mayEditRoles(actor)) return refuse('rolesNotAllowed');
  if (role.isOwner) return refuse('ownerRoleLocked');
  if (!holdsAll(actor, roleAbilities(role))) return refuse('aboveActor');
  return allow;
}

/** The member whose standing changes, with the studio's owner count at the time (read under a lock). */
export interface StaffTarget {
  userId: string;
  /** The member's current role; null for a member without one. */
  role: RoleShape | null;
  /** Active owners of the studio, this member included when they are one. */
  ownerCount: number;
}

/** Adding a member of staff with a role: they may not get more than the actor holds. */
export function mayAddMember(actor: StaffActor, role: RoleShape): StaffDecision {
  return holdsAll(actor, roleAbilities(role)) ? allow : refuse('aboveActor');
}

/**
 * Giving a member another role: never one's own; never a member above the actor; never a role above
 * the actor; never demoting the last owner.
 */
export function maySetMemberRole(actor: StaffActor, target: StaffTarget, nextRole: RoleShape): StaffDecision {
  if (actor.userId === target.userId) return refuse('ownRole');
  if (target.role && !holdsAll(actor, roleAbilities(target.role))) return refuse('aboveActor');
  if (!holdsAll(actor, roleAbilities(nextRole))) return refuse('aboveActor');
  if (target.role?.isOwner && !nextRole.isOwner && target.ownerCount <= 1) return refuse('lastOwner');
  return allow;
}

/**
 * Ending a member's staff standing: a member may leave themselves; otherwise never a member above the
 * actor; never the last owner (whoever asks).
 */
export function mayRemoveMember(actor: StaffActor, target: StaffTarget): StaffDecision {
  if (actor.userId !== target.userId && target.role && !holdsAll(actor, roleAbilities(target.role)))
    return refuse('aboveActor');
  if (target.role?.isOwner && target.ownerCount <= 1) return refuse('lastOwner');
  return allow;
}

/** Editing a member's profile (names, phone): one's own always; another's if they are not above the actor. */
export function mayEditMemberProfile(
  actor: StaffActor,
  target: Pick<StaffTarget, 'userId' | 'role'>,
): StaffDecision {
  if (actor.userId === target.userId) return allow;
  if (target.role && !holdsAll(actor, roleAbilities(target.role))) return refuse('aboveActor');
  return allow;
}
