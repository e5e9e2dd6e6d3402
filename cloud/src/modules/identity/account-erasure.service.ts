import type { Db } from '../../db/knex';
import type { Clock } from '../../clock';
import { AppError } from '../../../../shared/errors';
import { AccountErasure } from './account-erasure.model';
import { Membership } from './membership.model';
import { verifyPassword } from './passwords';
import { PasswordResetToken, Session } from './session.model';
import { revokeAllSessions, revokeSession } from './sessions.service';
import { User } from './user.model';

/** The address an anonymised user row keeps: unique (the email index), unroutable (RFC 2606 .invalid). */
export const erasedEmail = (userId: string) => `erased-${userId}@erased.invalid`;

export interface ErasureRequest {
  studioId: string;
  userId: string;
  /** The database id of the session that asked: revoked even when the user row is kept. */
  sessionDbId: string;
  password: string;
}

/**
 * Erases a client's account in one studio (run inside the request's transaction):
 * - the client standing ends (the membership is archived, never deleted: financial and entitlement
 *   rows such as client_pricing_options, and later orders and invoices, keep pointing at the user);
 * - with no live membership left in any studio, the user row is anonymised and every session ends;
 *   otherwise the user row stays for the other studios and only the asking session ends;
 * - an `account_erasures` row records when it happened.
 * Staff cannot erase themselves this way: their standing is the owner's to end (409).
 */
export async function eraseClientAccount(
  trx: Db,
  clock: Clock,
  request: ErasureRequest,
): Promise<AccountErasure> {
  const { studioId, userId } = request;
  // Lock the user first, then the membership: two erasures of the same person in two studios at once
  // must not both see the other membership as live and both skip the anonymisation.
  const user = await User.query(trx).findById(userId).forUpdate();
  const membership = await Membership.query(trx)
    .findOne({ studioId, userId })
    .whereNull('archivedAt')
    .forUpdate();
  // A concurrent erasure got here first: the studio no longer knows this person.
  if (!user || !membership) throw AppError.notFound('studio');
  if (membership.isMember) {
    throw new AppError('resource.conflict', {
      message:
        'you are also a member of staff of this studio: the studio owner must remove you from the staff before your account can be deleted',
    });
  }
  if (!(await verifyPassword(request.password, user.passwordHash))) {
    throw AppError.invalid({ password: ['wrong password'] }, 'wrong password');
  }

  const now = clock.now();
  await Membership.query(trx).patch({ archivedAt: now }).where({ id: membership.id });
  // A reset link for this studio would otherwise still sign the person in after the erasure.
  await PasswordResetToken.query(trx).delete().where({ userId, studioId });

  const otherLive = await Membership.query(trx).where({ userId }).whereNull('archivedAt').resultSize();
  const anonymised = otherLive === 0;
  if (anonymised) {
    await User.query(trx)
      .patch({
        email: erasedEmail(userId),
        firstName: '',
        lastName: '',
        phone: null,
        passwordHash: null,
        locale: null,
      })
      .where({ id: userId });
    await revokeAllSessions(trx, clock, userId);
    // Where and with what the person signed in is personal data too; the session rows stay as
    // (anonymous) evidence that they were revoked.
    await Session.query(trx).patch({ userAgent: null, ip: null }).where({ userId });
    await PasswordResetToken.query(trx).delete().where({ userId });
    // Script-error reports are diagnostics, not records the law asks us to keep: detach them.
    await trx('client_error_logs').where({ userId }).update({ userId: null, ip: null, userAgent: null });
  } else {
    await revokeSession(trx, clock, request.sessionDbId);
  }

  return AccountErasure.query(trx).insertAndFetch({ studioId, userId, erasedAt: now, anonymised });
}
