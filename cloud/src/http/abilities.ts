import { AppError } from '../../../shared/errors';
import { can, defaultAbilitiesOf, type Ability } from '../../../shared/policies/abilities';
import type { Db } from '../db/knex';
import type { Membership } from '../modules/identity/membership.model';

/**
 * The abilities of a staff membership. Today from the default role of the membership's role key;
 * the people module resolves a studio's own (editable) roles here.
 */
export async function abilitiesOf(_db: Db, membership: Membership): Promise<ReadonlySet<Ability>> {
  if (!membership.isMember) return new Set();
  return defaultAbilitiesOf(membership.role);
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
