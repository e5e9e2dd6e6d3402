import type { StudioIamRolesRow } from '../../db/generated/tables';
import {
  DEFAULT_ROLE_KEYS,
  isAbility,
  type Ability,
  type DefaultRoleKey,
} from '../../../../shared/policies/abilities';

/**
 * A studio's role (`studio_iam_roles`): the five defaults every studio starts with (`key` set) and
 * the ones it creates or replicates (`key` null). `abilities` is a jsonb array of ability names;
 * the owner role (`isOwner`) holds every ability whatever is stored.
 */
export type StudioIamRole = Omit<StudioIamRolesRow, 'key' | 'abilities'> & {
  key: DefaultRoleKey | null;
  abilities: Ability[];
};

const isDefaultRoleKey = (key: string | null): key is DefaultRoleKey =>
  (DEFAULT_ROLE_KEYS as readonly (string | null)[]).includes(key);

/**
 * The row (or the columns of it a query selected) as the code reads it: a key that is no default
 * role's is none, and stored ability names the catalogue no longer knows are dropped.
 */
export function asRole<R extends Pick<StudioIamRolesRow, 'key' | 'abilities'>>(
  row: R,
): Omit<R, 'key' | 'abilities'> & Pick<StudioIamRole, 'key' | 'abilities'> {
  return {
    ...row,
    key: isDefaultRoleKey(row.key) ? row.key : null,
    abilities: Array.isArray(row.abilities) ? row.abilities.filter(isAbility) : [],
  };
}
