import { v7 as uuidv7 } from 'uuid';
import type { EmailBounce } from '../../../../shared/contracts/api/client-records';
import type { EmailBounceReason } from '../../../../shared/enums/users';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { assertClient } from './client-fields.service';
import { presentBounce } from './client-records.presenter';

/**
 * The bounce state of a client's email address in a studio. Mail delivery (a provider's webhook,
 * later) calls `recordEmailBounce`; staff see it on the profile and clear it once the address is
 * fixed or confirmed. A bounce belongs to an address: when the studio's record holds another address
 * now, there is no bounce to show.
 */
export async function recordEmailBounce(
  trx: Db,
  studioId: string,
  userId: string,
  bounce: { email: string; reason: EmailBounceReason; message?: string | null; at: Date },
): Promise<void> {
  const row = {
    email: bounce.email.toLowerCase(),
    reason: bounce.reason,
    message: bounce.message?.slice(0, 500) ?? null,
    bouncedAt: bounce.at,
  };
  await trx('client_email_bounces')
    .insert({ id: uuidv7(), studioId, clientId: userId, ...row })
    .onConflict(['studio_id', 'client_id'])
    .merge({ ...row, updatedAt: trx.fn.now() });
}

/** The bounce of the client's current address, or null. For the profile: `emailBounce`. */
export async function emailBounceOf(db: Db, studioId: string, userId: string): Promise<EmailBounce | null> {
  const row = (await db('client_email_bounces as b')
    .join('clients as c', (j) => j.on('c.studio_id', 'b.studio_id').andOn('c.user_id', 'b.client_id'))
    .where({ 'b.studio_id': studioId, 'b.client_id': userId })
    .whereRaw('lower(c.email) = b.email')
    .first('b.reason', 'b.bounced_at', 'b.message', 'b.email')) as
    Parameters<typeof presentBounce>[0] | undefined;
  return row ? presentBounce(row) : null;
}

/** Staff clear the state (the address was fixed or works again). 404 when there is none. */
export async function clearEmailBounce(trx: Db, studioId: string, userId: string): Promise<void> {
  await assertClient(trx, studioId, userId);
  const deleted = await trx('client_email_bounces').where({ studioId, clientId: userId }).delete();
  if (deleted === 0) throw AppError.notFound('email bounce');
}
