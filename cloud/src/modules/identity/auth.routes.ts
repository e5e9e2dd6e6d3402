import type { Db } from '../../db/knex';
import type Router from '@koa/router';
import type { LoginResult } from '../../../../shared/contracts/api/auth';
import { IdentityApi } from '../../../../shared/contracts/http/identity';
import type { BackofficeInit } from '../../../../shared/contracts/api/studio';
import { AppError } from '../../../../shared/errors';
import { resolveRole } from '../../http/abilities';
import { csrfTokenFor } from '../../http/auth';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { LOCALE_COOKIE, SESSION_COOKIE } from '../../http/cookies';
import { defineRoute } from '../../http/route';
import { authenticate, issueResetToken, recoveryEmail, resetPassword } from './auth.service';
import { registerEmailVerificationRoutes } from './email-verification.routes';
import { presentMe, presentStudio } from './identity.presenter';
import { findLiveMembership, findStudio, findUser, type User } from './rows';
import { openSession, revokeSession } from './sessions.service';
import { findUserByEmail } from './users.service';
import { enqueue } from '../../jobs/queue';
import { emailAndIp } from '../../http/rate-limit';

/** Sets the HttpOnly session cookie, or clears it when `sessionId` is null (sign-out, erasure). */
export function setSessionCookie(
  ctx: AppContext,
  userId: string,
  sessionId: string | null,
  maxAgeMs = 0,
): void {
  ctx.cookies.set(SESSION_COOKIE, sessionId ? encodeURIComponent(`${userId}:${sessionId}`) : null, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.deps.config.COOKIE_SECURE,
    ...(sessionId ? { maxAge: maxAgeMs } : {}),
    overwrite: true,
  });
}

async function signIn(ctx: AppContext, trx: Db, user: User): Promise<LoginResult> {
  const { clock, config } = ctx.deps;
  const { session, sessionId } = await openSession(trx, clock, user.id, config.SESSION_TTL_HOURS, {
    userAgent: ctx.get('user-agent'),
    ip: ctx.ip,
  });
  setSessionCookie(ctx, user.id, sessionId, config.SESSION_TTL_HOURS * 3600_000);
  return { sessionId, userId: user.id, token: session.csrfToken, me: await presentMe(trx, user) };
}

export function registerAuthRoutes(router: Router<AppState, AppCustom>): void {
  registerEmailVerificationRoutes(router);
  /** A CSRF token for clients that did not load a page (native shells, tests). */
  defineRoute(router, {
    ...IdentityApi.csrf,
    handle: async ({ ctx }) => ({ token: csrfTokenFor(ctx) }),
  });

  defineRoute(router, {
    ...IdentityApi.login,
    handle: async ({ ctx, body, db, deps }) => {
      await deps.rateLimits.consume('loginPerIp', ctx.ip);
      await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(body.emailAddress, ctx.ip));
      await deps.rateLimits.consume('loginPerEmail', body.emailAddress);
      if (body.studioUuid && !(await findStudio(db, body.studioUuid))) throw AppError.notFound('studio');
      const user = await authenticate(db, body.emailAddress, body.password, body.studioUuid);
      return signIn(ctx, db, user);
    },
  });

  defineRoute(router, {
    ...IdentityApi.logout,
    handle: async ({ ctx, db, deps, auth }) => {
      await revokeSession(db, deps.clock, auth.session.id);
      setSessionCookie(ctx, auth.user.id, null);
    },
  });

  defineRoute(router, {
    ...IdentityApi.me,
    handle: async ({ db, auth }) => presentMe(db, auth.user),
  });

  /** Saves the signed-in user's language (the page context prefers it on every device). */
  defineRoute(router, {
    ...IdentityApi.updateMe,
    handle: async ({ ctx, db, auth, body }) => {
      await db('users').update({ locale: body.locale, updatedAt: new Date() }).where({ id: auth.user.id });
      ctx.cookies.set(LOCALE_COOKIE, body.locale, {
        httpOnly: false,
        sameSite: 'lax',
        maxAge: 365 * 24 * 3600_000,
      });
      return presentMe(db, { ...auth.user, locale: body.locale });
    },
  });

  /**
   * Emails a reset link when the address belongs to someone in this studio. The answer is the same
   * either way, so the call cannot be used to find out who has an account.
   */
  defineRoute(router, {
    ...IdentityApi.recovery,
    handle: async ({ ctx, db, deps, params, body }) => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      await deps.rateLimits.consume('lookupPerIp', ctx.ip);
      await deps.rateLimits.consume('recoveryPerEmail', body.emailAddress);
      const user = await findUserByEmail(db, body.emailAddress);
      const member = user && (await findLiveMembership(db, studio.id, user.id));
      if (user && member) {
        const token = await issueResetToken(db, deps.clock, user.id, studio.id);
        await enqueue(db, 'mail.send', recoveryEmail(user, studio, deps.config.publicUrl, token));
      }
      return { sent: true };
    },
  });

  /** Sets the new password and signs the user in. */
  defineRoute(router, {
    ...IdentityApi.reset,
    handle: async ({ ctx, db, deps, params, body }) => {
      const trx = db;
      const studio = await findStudio(trx, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      const userId = await resetPassword(trx, deps.clock, body.token, body.password, studio.id);
      // "Your password was changed" (modules/communication): the owner hears of it if it was not them.
      const at = deps.clock.now().toISOString();
      await enqueue(
        trx,
        'transactional.mail',
        { kind: 'passwordChanged', studioId: studio.id, userId, at },
        { key: `transactional:password:${userId}:${at}` },
      );
      const user = await findUser(trx, userId);
      if (!user) throw AppError.notFound('user');
      return signIn(ctx, trx, user);
    },
  });

  defineRoute(router, {
    ...IdentityApi.backofficeInit,
    handle: async ({ db, studio, membership, auth, deps }): Promise<BackofficeInit> => {
      // Read-only: the studio's roles may not be stored yet (the staff module creates them lazily).
      const role = await resolveRole(db, membership);
      return {
        studio: presentStudio(studio, deps.config.publicUrl),
        member: {
          userId: auth.user.id,
          firstName: auth.user.firstName,
          lastName: auth.user.lastName,
          emailAddress: auth.user.email,
          role: membership.role,
          roleName: role.name,
          abilities: [...role.abilities],
        },
      };
    },
  });
}
