import type Router from '@koa/router';
import { IdentityApi } from '../../../../shared/contracts/http/identity';
import { isLocale } from '../../../../shared/i18n/locales';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { enqueue } from '../../jobs/queue';
import {
  confirmEmail,
  isEmailVerified,
  issueEmailVerification,
  verificationEmail,
} from './email-verification.service';
import { findStudio } from './rows';

/** Confirming the email address (identity README "How accounts and studio clients link"). */
export function registerEmailVerificationRoutes(router: Router<AppState, AppCustom>): void {
  /** The link of the confirmation mail: public (it may be opened on another device, signed out). */
  defineRoute(router, {
    ...IdentityApi.verifyEmail,
    handle: async ({ db, deps, params, body }) => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      await confirmEmail(db, deps.clock, body.token, studio.id);
      return { verified: true };
    },
  });

  /** Sends a new confirmation link to the signed-in account's address (the front office's banner). */
  defineRoute(router, {
    ...IdentityApi.sendEmailVerification,
    handle: async ({ db, deps, studio, auth }) => {
      if (isEmailVerified(auth.user)) return { sent: false, verified: true };
      await deps.rateLimits.consume('recoveryPerEmail', auth.user.email);
      const token = await issueEmailVerification(db, deps.clock, auth.user, studio.id);
      const locale = isLocale(auth.user.locale)
        ? auth.user.locale
        : isLocale(studio.defaultLocale)
          ? studio.defaultLocale
          : 'en';
      const message = verificationEmail(auth.user, studio, deps.config.publicUrl, token, locale);
      await enqueue(db, 'mail.send', message);
      return { sent: true, verified: false };
    },
  });
}
