import type Router from '@koa/router';
import { IdentityApi } from '../../../../shared/contracts/http/identity';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { eraseClientAccount } from './account-erasure.service';
import { setSessionCookie } from './auth.routes';
import { emailAndIp } from '../../http/rate-limit';

export function registerAccountErasureRoutes(router: Router<AppState, AppCustom>): void {
  /**
   * A client erases their account in this studio (the front office's `profile/delete`), confirming
   * with the current password. 204; the session cookie is cleared once the erasure is committed.
   */
  defineRoute(router, {
    ...IdentityApi.eraseAccount,
    handle: async ({ db, deps, auth, studio, body, ctx }) => {
      // A password check like sign-in: guesses for one address share the sign-in budget, so a
      // stolen session cannot be used to try passwords faster than the login form allows.
      await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(auth.user.email, ctx.ip));
      await deps.rateLimits.consume('loginPerEmail', auth.user.email);
      await eraseClientAccount(db, deps.clock, {
        studioId: studio.id,
        userId: auth.user.id,
        sessionDbId: auth.session.id,
        password: body.password,
      });
    },
    // Signed out only once the erasure committed.
    present: async (_result, { ctx, auth }) => setSessionCookie(ctx, auth.user.id, null),
  });
}
