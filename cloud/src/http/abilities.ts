import { AppError } from '../../../shared/errors';
import {
  ALL_ABILITIES,
  can,
  defaultAbilitiesOf,
  type Ability,
  type DefaultRoleKey,
} from '../../../shared/policies/abilities';
import type { Db } from '../db/knex';
import type { Membership } from '../modules/identity/index';
import { asRole } from '../modules/staff/index';

/** The role a staff membership acts with, resolved once per request. */
export interface ResolvedRole {
  /** The studio role's id; null when the studio has no roles stored yet (defaults by key). */
  id: string | null;
  key: DefaultRoleKey | null;
  name: string | null;
  isOwner: boolean;
  abilities: ReadonlySet<Ability>;
}

const NO_ROLE: ResolvedRole = { id: null, key: null, name: null, isOwner: false, abilities: new Set() };

// Per request: loadStudioScope loads a fresh Membership object for every request, so a membership
// object never outlives the request that loaded it and its role is read at most once.
const resolved = new WeakMap<RoleHolder, Promise<ResolvedRole>>();

/** What a role is resolved from: a membership (the model, or a `memberships` row read with knex). */
export type RoleHolder = Pick<Membership, 'studioId' | 'isMember' | 'archivedAt' | 'iamRoleId' | 'role'>;

/**
 * The studio role of a staff membership, in one indexed query and without writing anything:
 * by `iam_role_id`; else by the role key among the studio's roles; else, when the studio has no roles
 * stored yet (the staff module creates them lazily), the default role of that key. A studio that has
 * its roles but none for this key (a deleted default) grants nothing.
 */
export function resolveRole(db: Db, membership: RoleHolder): Promise<ResolvedRole> {
  if (!membership.isMember || membership.archivedAt) return Promise.resolve(NO_ROLE);
  let found = resolved.get(membership);
  if (!found) {
    found = loadRole(db, membership);
    resolved.set(membership, found);
  }
  return found;
}

async function loadRole(db: Db, membership: RoleHolder): Promise<ResolvedRole> {
  // At most three rows: the mapped role, the role of the key, and the owner role (which every studio
  // with stored roles has: it cannot be deleted) — the last only tells that roles are stored.
  const rows = await db('studio_iam_roles')
    .where({ studioId: membership.studioId })
    .andWhere((q) => {
      if (membership.iamRoleId) q.orWhere({ id: membership.iamRoleId });
      else if (membership.role) q.orWhere({ key: membership.role });
      q.orWhere({ isOwner: true });
    })
    .select('id', 'key', 'name', 'abilities', 'isOwner');
  const found = membership.iamRoleId
    ? rows.find((r) => r.id === membership.iamRoleId)
    : rows.find((r) => membership.role !== null && r.key === membership.role);
  if (found) {
    const row = asRole(found);
    return {
      id: row.id,
      key: row.key,
      name: row.name,
      isOwner: row.isOwner,
      abilities: new Set(row.isOwner ? ALL_ABILITIES : row.abilities),
    };
  }
  if (rows.length > 0) return NO_ROLE;
  const abilities = defaultAbilitiesOf(membership.role);
  if (abilities.size === 0) return NO_ROLE;
  return {
    id: null,
    key: membership.role as DefaultRoleKey,
    name: null,
    isOwner: membership.role === 'owner',
    abilities,
  };
}

/** The abilities of a staff membership (none for a client or an archived membership). */
export async function abilitiesOf(db: Db, membership: RoleHolder): Promise<ReadonlySet<Ability>> {
  return (await resolveRole(db, membership)).abilities;
}

export async function assertAbility(
  db: Db,
  membership: Membership | undefined,
  ability: Ability,
): Promise<void> {
  if (!membership || !can(await abilitiesOf(db, membership), ability)) {
    throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
  }
}
