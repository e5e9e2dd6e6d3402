import { verifyEmailPath } from '../../../../shared/contracts/routes';
import { AppError } from '../../../../shared/errors';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { tFor } from '../../i18n';
import type { MailMessage } from '../../mail/mailer';
import { v7 as uuidv7 } from 'uuid';
import type { Studio, User } from './rows';
import { newSecret, sha256 } from './tokens';

/**
 * Whether an account has proved that it owns its email address (see README "How accounts and studio
 * clients link"). An account made by a studio (no password) proves it the first time its owner sets
 * a password through a link mailed to the address.
 */
export const EMAIL_VERIFICATION_TTL_HOURS = 72;

export const isEmailVerified = (user: Pick<User, 'emailVerifiedAt'>) => user.emailVerifiedAt !== null;

/** Issues a single-use confirmation link for the user's current address; returns the secret. */
export async function issueEmailVerification(
  trx: Db,
  clock: Clock,
  user: User,
  studioId: string | null,
): Promise<string> {
  const secret = newSecret();
  await trx('email_verification_tokens').insert({
    id: uuidv7(),
    userId: user.id,
    studioId,
    email: user.email.toLowerCase(),
    tokenHash: sha256(secret),
    expiresAt: new Date(clock.now().getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3600_000),
  });
  return secret;
}

export function verificationEmail(
  user: User,
  studio: Studio,
  baseUrl: string,
  token: string,
  locale: Locale,
): MailMessage {
  const t = tFor(locale);
  const vars = {
    name: user.firstName || user.email,
    studio: studio.name,
    hours: EMAIL_VERIFICATION_TTL_HOURS,
    link: `${baseUrl}${verifyEmailPath(studio.id, token)}`,
  };
  return {
    to: user.email,
    subject: t('mail:verifyEmail.subject', vars),
    text: t('mail:verifyEmail.body', vars),
  };
}

/** Marks the address proved (a link mailed to it was used). */
export async function markEmailVerified(trx: Db, userId: string, now: Date): Promise<void> {
  await trx('users')
    .update({ emailVerifiedAt: now, updatedAt: new Date() })
    .where({ id: userId })
    .whereNull('emailVerifiedAt');
}

/**
 * Confirms the address from a mailed link: the link must be live, unused, of this studio, and sent to
 * the address the account still has. Spends every confirmation link of the account.
 */
export async function confirmEmail(trx: Db, clock: Clock, token: string, studioId: string): Promise<string> {
  const row = await trx('email_verification_tokens')
    .where({ tokenHash: sha256(token) })
    .forUpdate()
    .first();
  const now = clock.now();
  const user = row ? await trx('users').where({ id: row.userId }).forUpdate().first() : undefined;
  if (
    !row ||
    !user ||
    row.usedAt ||
    row.expiresAt <= now ||
    (row.studioId && row.studioId !== studioId) ||
    row.email !== user.email.toLowerCase()
  ) {
    throw new AppError('auth.emailVerificationInvalid', {
      message: 'this link is invalid or has expired',
      fields: { token: ['this link is invalid or has expired'] },
    });
  }
  await trx('email_verification_tokens')
    .update({ usedAt: now, updatedAt: new Date() })
    .where({ userId: row.userId })
    .whereNull('usedAt');
  await markEmailVerified(trx, row.userId, now);
  return row.userId;
}

/**
 * A studio is about to link a record to an existing account (staff add a client or a member of staff
 * with its email, or a studio is opened for its address). An account that never proved its address
 * may have been made by anyone who typed it (pre-hijacking): it loses its password and every session
 * before the link, so whoever made it cannot sign in to see what the studio holds; the owner of the
 * mailbox sets a password through "forgot password" (or the invitation), which proves the address.
 * Accounts without a password (made by a studio) and verified accounts are left as they are.
 * Returns whether the account was reset.
 */
export async function claimUnverifiedAccount(trx: Db, now: Date, user: User): Promise<boolean> {
  if (!user.passwordHash || isEmailVerified(user)) return false;
  await trx('users').update({ passwordHash: null, updatedAt: new Date() }).where({ id: user.id });
  user.passwordHash = null;
  await trx('sessions')
    .update({ revokedAt: now, updatedAt: new Date() })
    .where({ userId: user.id })
    .whereNull('revokedAt');
  // Reset and confirmation links already sent went to the mailbox, so they stay valid.
  return true;
}
