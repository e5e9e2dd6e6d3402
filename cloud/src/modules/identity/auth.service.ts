import type { Db } from '../../db/knex';
import type { Clock } from '../../clock';
import { AppError } from '../../../../shared/errors';
import { resetPasswordPath } from '../../../../shared/contracts/routes';
import { isLocale } from '../../../../shared/i18n/locales';
import { tFor } from '../../i18n';
import type { MailMessage } from '../../mail/mailer';
import { markEmailVerified } from './email-verification.service';
import { v7 as uuidv7 } from 'uuid';
import { findLiveMembership, type Studio, type User } from './rows';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { revokeAllSessions } from './sessions.service';
import { newSecret, sha256 } from './tokens';
import { findUserByEmail } from './users.service';

export const RESET_TOKEN_TTL_HOURS = 24;
export const WELCOME_TOKEN_TTL_HOURS = 72;

/**
 * Checks an email and password. With `studioId`, the user must also belong to that studio. Every
 * failure is the same 401 and takes the same time, so sign-in does not reveal which accounts exist.
 */
export async function authenticate(
  db: Db,
  emailAddress: string,
  password: string,
  studioId?: string,
): Promise<User> {
  const user = await findUserByEmail(db, emailAddress);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !user.passwordHash || !ok) throw invalidCredentials();
  if (studioId) {
    const membership = await findLiveMembership(db, studioId, user.id);
    if (!membership) throw invalidCredentials();
  }
  return user;
}

const invalidCredentials = () =>
  new AppError('auth.invalidCredentials', {
    message: 'wrong email address or password',
    fields: { password: ['wrong email address or password'] },
  });

/** Issues a single-use reset token; returns the secret to put in the emailed link. */
export async function issueResetToken(
  trx: Db,
  clock: Clock,
  userId: string,
  studioId: string | null,
  ttlHours = RESET_TOKEN_TTL_HOURS,
): Promise<string> {
  const secret = newSecret();
  await trx('password_reset_tokens').insert({
    id: uuidv7(),
    userId,
    studioId,
    tokenHash: sha256(secret),
    expiresAt: new Date(clock.now().getTime() + ttlHours * 3600_000),
  });
  return secret;
}

/**
 * Spends every outstanding reset link of the account: once the password is set (by a link or by the
 * person while signed in), an older link still lying in a mailbox must not set it again.
 */
export async function invalidateResetTokens(trx: Db, userId: string, now: Date): Promise<void> {
  await trx('password_reset_tokens')
    .update({ usedAt: now, updatedAt: new Date() })
    .where({ userId })
    .whereNull('usedAt');
}

export function recoveryEmail(user: User, studio: Studio, baseUrl: string, token: string): MailMessage {
  const t = tFor(
    isLocale(user.locale) ? user.locale : isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en',
  );
  const vars = {
    name: user.firstName || user.email,
    studio: studio.name,
    hours: RESET_TOKEN_TTL_HOURS,
    link: `${baseUrl}${resetPasswordPath(studio.id, token)}`,
  };
  return { to: user.email, subject: t('mail:recovery.subject', vars), text: t('mail:recovery.body', vars) };
}

/**
 * Sets a new password from a reset token: the token must be live and unused; it is spent with every
 * other outstanding reset token of the account, and every other session of the user is revoked (whoever had the old password is signed out).
 */
export async function resetPassword(
  trx: Db,
  clock: Clock,
  token: string,
  password: string,
  studioId: string,
): Promise<string> {
  const row = await trx('password_reset_tokens')
    .where({ tokenHash: sha256(token) })
    .forUpdate()
    .first();
  const now = clock.now();
  if (!row || row.usedAt || row.expiresAt <= now || (row.studioId && row.studioId !== studioId)) {
    throw new AppError('auth.resetTokenInvalid', {
      message: 'this link is invalid or has expired',
      fields: { token: ['this link is invalid or has expired'] },
    });
  }
  await invalidateResetTokens(trx, row.userId, now);
  // The link reached the mailbox: the account now proves its address.
  await trx('users')
    .update({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where({ id: row.userId });
  await markEmailVerified(trx, row.userId, now);
  await revokeAllSessions(trx, clock, row.userId);
  return row.userId;
}
