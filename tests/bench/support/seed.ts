import { v7 as uuidv7 } from 'uuid';
import type { Knex } from '../../../cloud/src/db/knex';

/** A user who owns the studio (a member with the owner role): their id. */
export async function addStudioOwner(
  knex: Knex,
  studioId: string,
  user: { email: (id: string) => string; firstName: string; lastName?: string },
): Promise<string> {
  const ownerId = uuidv7();
  await knex('users').insert({
    id: ownerId,
    email: user.email(ownerId),
    firstName: user.firstName,
    ...(user.lastName === undefined ? {} : { lastName: user.lastName }),
  });
  await knex('memberships').insert({
    id: uuidv7(),
    studioId,
    userId: ownerId,
    isMember: true,
    role: 'owner',
  });
  return ownerId;
}
