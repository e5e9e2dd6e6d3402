import type { Db } from '../db/knex';
import { AppError } from '../../../shared/errors';
import { findStudioWithMembership, type Membership, type Studio } from '../modules/identity/index';
import type { AppContext } from './context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves `{uuid}` and the caller's membership in it. Another studio's id answers 404, exactly like
 * an unknown one, so a session never learns what other studios hold; a membership without the needed
 * standing (a client on a staff route) answers 403.
 */
export async function loadStudioScope(
  ctx: AppContext,
  db: Db,
  uuid: string | undefined,
  access: 'studio' | 'staff' | 'client',
): Promise<{ studio: Studio; membership: Membership }> {
  const userId = ctx.state.auth?.user.id;
  if (!uuid || !userId) throw AppError.notFound('studio');
  // A malformed id is no studio (the column is a uuid: PostgreSQL would refuse the comparison).
  if (!UUID.test(uuid)) throw AppError.notFound('studio');
  // Read with the session when the path named this studio (auth.ts), else now.
  const preread = ctx.state.studioScope;
  const found =
    preread && preread.userId === userId && preread.studioId.toLowerCase() === uuid.toLowerCase()
      ? preread.found
      : await findStudioWithMembership(db, uuid, userId);
  if (!found?.membership) throw AppError.notFound('studio');
  const { studio, membership } = found;
  if (access === 'staff' && !membership.isMember)
    throw new AppError('auth.forbidden', { message: 'staff only' });
  if (access === 'client' && !membership.isClient)
    throw new AppError('auth.forbidden', { message: 'clients only' });
  ctx.state.studio = studio;
  ctx.state.membership = membership;
  return { studio, membership };
}
