import type Router from '@koa/router';
import {
  TERMS_REQUIRED_MESSAGE,
  type AppSearchResult,
  type KioskAuthResult,
  type PreflightStudioResult,
  type PreflightUsernameResult,
  type StudioCreateResult,
} from '../../../../shared/contracts/api/entry';
import { EntryApi } from '../../../../shared/contracts/http/entry';
import { backOfficePath } from '../../../../shared/contracts/routes';
import { AppError } from '../../../../shared/errors';
import { DEFAULT_LOCALE, negotiateLocale } from '../../../../shared/i18n/locales';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { presentStudio } from '../identity/index';
import {
  presentEntryStudio,
  presentKioskAuth,
  presentLoginPreflight,
  presentSignupPreflight,
} from './entry.presenter';
import {
  authenticateKiosk,
  createStudioFromSignup,
  recordClientError,
  searchStudios,
  studiosOfEmail,
  welcomeEmail,
} from './entry.service';
import { enqueue } from '../../jobs/queue';

/** The entry application's calls (spec §7 "Entry calls"); see this module's README for the shapes. */
export function registerEntryRoutes(router: Router<AppState, AppCustom>): void {
  /** Which studios know an email address: the login, delete and sign-up flows. */
  defineRoute(router, {
    ...EntryApi.preflight,
    handle: async ({ ctx, db, deps, body }): Promise<PreflightUsernameResult | PreflightStudioResult> => {
      const emailAddress = body.preflight === 'username' ? body.username : body.emailAddress;
      await deps.rateLimits.consume('lookupPerIp', ctx.ip);
      await deps.rateLimits.consume('lookupPerEmail', emailAddress);
      const studios = await studiosOfEmail(db, emailAddress);
      return body.preflight === 'username'
        ? presentLoginPreflight(studios, deps.config.publicUrl)
        : presentSignupPreflight(studios, deps.config.publicUrl);
    },
  });

  /** Business-account sign-up: a studio, its owner and a welcome email to set the password. */
  defineRoute(router, {
    ...EntryApi.createStudio,
    handle: async ({ ctx, db, deps, body }): Promise<StudioCreateResult> => {
      if (!body.termsOfUseAndPrivacyPolicyAgreement) {
        throw new AppError('studio.termsRequired', {
          message: TERMS_REQUIRED_MESSAGE,
          fields: { termsOfUseAndPrivacyPolicyAgreement: [TERMS_REQUIRED_MESSAGE] },
        });
      }
      await deps.rateLimits.consume('signupPerIp', ctx.ip);
      const locale = body.locale ?? negotiateLocale(ctx.get('accept-language')) ?? DEFAULT_LOCALE;
      const created = await createStudioFromSignup(db, deps.clock, {
        emailAddress: body.emailAddress,
        studioName: body.name,
        firstName: body.firstName,
        lastName: body.lastName,
        locale,
      });
      const baseUrl = deps.config.publicUrl;
      const mail = welcomeEmail(
        created.owner,
        created.studio,
        baseUrl,
        created.welcomeToken,
        locale,
        body.firstName,
      );
      await enqueue(db, 'mail.send', mail);
      return {
        studio: presentStudio(created.studio, baseUrl),
        backofficeUrl: `${baseUrl}${backOfficePath(created.studio.id)}`,
      };
    },
  });

  /** Studio search by name (the /search screen). */
  defineRoute(router, {
    ...EntryApi.search,
    handle: async ({ ctx, db, deps, body }): Promise<AppSearchResult> => {
      await deps.rateLimits.consume('searchPerIp', ctx.ip);
      const studios = await searchStudios(db, body.queryString);
      return { studios: studios.map((s) => presentEntryStudio(s, deps.config.publicUrl)) };
    },
  });

  /** Kiosk sign-in with the studio's uuid and kiosk key. */
  defineRoute(router, {
    ...EntryApi.kiosk,
    handle: async ({ ctx, db, deps, body }): Promise<KioskAuthResult> => {
      await deps.rateLimits.consume('kioskPerIp', ctx.ip);
      return presentKioskAuth(await authenticateKiosk(db, body.uuid, body.kioskKey));
    },
  });

  /** Script errors reported by the web apps. */
  defineRoute(router, {
    ...EntryApi.log,
    handle: async ({ ctx, db, deps, body, auth }) => {
      await deps.rateLimits.consume('logPerIp', ctx.ip);
      await recordClientError(db, body, {
        userAgent: ctx.get('user-agent') || undefined,
        ip: ctx.ip || undefined,
        userId: auth?.user.id ?? null,
      });
    },
  });
}
