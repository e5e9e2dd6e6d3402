import type Router from '@koa/router';
import type {
  Account,
  AccountSettings,
  ClientSignupResult,
  ClientIdentityCollection,
  IdentityReaderResult,
  ClientIdentityView,
  ClientProfile,
  FindMyAccounts,
  LinkedAccount,
  LinkInit,
  MyIdentity,
  StudioAgreementCollection,
  UserMessageList,
  UserMessageView,
  UserNotificationList,
  UserNotificationView,
} from '../../../../shared/contracts/api/client-accounts';
import { ClientAccountsApi } from '../../../../shared/contracts/http/client-accounts';
import { LINK_RELATIONSHIPS } from '../../../../shared/domain/accounts';
import { AppError } from '../../../../shared/errors';
import { DEFAULT_LOCALE, isLocale, negotiateLocale, type Locale } from '../../../../shared/i18n/locales';
import type { Db } from '../../db/knex';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { LOCALE_COOKIE } from '../../http/cookies';
import { defineRoute } from '../../http/route';
import { setSessionCookie } from '../identity/index';
import { presentMe } from '../identity/index';
import { openSession } from '../identity/index';
import { findStudio, findUser, type Studio } from '../identity/index';
import { getAccount, patchAccount } from './account.service';
import {
  changePassword,
  clientWelcomeEmail,
  deleteAvatarFile,
  getProfile,
  getSettings,
  isLiveClient,
  mailLocale,
  readAvatar,
  removeAvatar,
  saveAvatar,
  saveSettings,
  signUpClient,
  updateProfile,
} from './accounts.service';
import { presentAgreement, publishedAgreements } from './agreements.service';
import {
  addCard,
  ensureQrIdentity,
  findClientByIdentity,
  listCards,
  regenerateQr,
  removeCard,
} from './identities.service';
import { fileStorage } from '../../storage';
import {
  createMessage,
  listMessages,
  listNotifications,
  markAllNotificationsRead,
  markMessageRead,
  markNotificationRead,
} from './inbox.service';
import {
  changeRelationship,
  connectLink,
  findMyAccounts,
  listLinks,
  mayActFor,
  removeLink,
} from './links.service';
import { enqueue } from '../../jobs/queue';
import { emailAndIp } from '../../http/rate-limit';
import { isEmailVerified, issueEmailVerification, verificationEmail } from '../identity/index';

/** The reader's language: asked, then their saved one, then the browser's, then the studio's. */
function readerLocale(ctx: AppContext, asked: string | undefined, studio: Studio): Locale {
  if (isLocale(asked)) return asked;
  const saved = ctx.state.auth?.user.locale;
  if (isLocale(saved)) return saved;
  return (
    negotiateLocale(ctx.get('accept-language')) ??
    (isLocale(studio.defaultLocale) ? studio.defaultLocale : DEFAULT_LOCALE)
  );
}

async function publicStudio(db: Db, uuid: string): Promise<Studio> {
  const studio = await findStudio(db, uuid);
  if (!studio) throw AppError.notFound('studio');
  return studio;
}

/** A client of this studio whose records the staff route touches (404 otherwise, other studios too). */
async function assertStudioClient(db: Db, studioId: string, userId: string): Promise<void> {
  const row = await db('clients').where({ studioId, userId }).first('id');
  if (!row) throw AppError.notFound('client');
}

export function registerClientAccountRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------- agreements

  /** The studio's current agreements, for the sign-up form (public: the visitor has no account yet). */
  defineRoute(router, {
    ...ClientAccountsApi.agreements,
    handle: async ({ ctx, db, params, query }): Promise<StudioAgreementCollection> => {
      const studio = await publicStudio(db, params.uuid);
      const locale = readerLocale(ctx, query.locale, studio);
      return {
        items: (await publishedAgreements(db, studio.id)).map((a) => presentAgreement(a, locale, studio)),
      };
    },
  });

  // ---------------------------------------------------------------------------------- sign-up

  /**
   * A client signs up at the studio (front office `signup`). Signs them in (like login) and sends a
   * welcome email after commit. Rate-limited per address and, like sign-in, per email.
   */
  defineRoute(router, {
    ...ClientAccountsApi.signup,
    handle: async ({ ctx, db, deps, params, body }): Promise<ClientSignupResult> => {
      const studio = await publicStudio(db, params.uuid);
      await deps.rateLimits.consume('signupPerIp', ctx.ip);
      await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(body.emailAddress, ctx.ip));
      await deps.rateLimits.consume('loginPerEmail', body.emailAddress);
      const locale = body.locale ?? readerLocale(ctx, undefined, studio);
      const { user, createdUser } = await signUpClient(db, studio, body, locale, deps.clock.now());
      const { session, sessionId } = await openSession(
        db,
        deps.clock,
        user.id,
        deps.config.SESSION_TTL_HOURS,
        {
          userAgent: ctx.get('user-agent'),
          ip: ctx.ip,
        },
      );
      setSessionCookie(ctx, user.id, sessionId, deps.config.SESSION_TTL_HOURS * 3600_000);
      const mail = clientWelcomeEmail(
        user,
        studio,
        deps.config.publicUrl,
        createdUser ? locale : mailLocale(user, studio),
      );
      await enqueue(db, 'mail.send', mail);
      // The address is not proved by typing it: a confirmation link goes to the mailbox. Until it is
      // used, no record a studio made for this address is linked to the account.
      if (!isEmailVerified(user)) {
        const token = await issueEmailVerification(db, deps.clock, user, studio.id);
        const verify = verificationEmail(
          user,
          studio,
          deps.config.publicUrl,
          token,
          createdUser ? locale : mailLocale(user, studio),
        );
        await enqueue(db, 'mail.send', verify);
      }
      return {
        sessionId,
        userId: user.id,
        token: session.csrfToken,
        me: await presentMe(db, user),
        createdUser,
      };
    },
  });

  // ---------------------------------------------------------------------------------- profile

  /** My profile, or (`?user=`) that of an account I may act for (a linked child) that is a client here. */
  defineRoute(router, {
    ...ClientAccountsApi.profile,
    handle: async ({ db, studio, auth, query }): Promise<ClientProfile> => {
      const target = query.user ?? auth.user.id;
      if (target !== auth.user.id) {
        if (!(await mayActFor(db, auth.user.id, target)) || !(await isLiveClient(db, studio.id, target)))
          throw AppError.notFound('client');
      }
      return getProfile(db, studio, target, target === auth.user.id);
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.updateProfile,
    handle: async ({ db, deps, studio, auth, body }): Promise<ClientProfile> =>
      updateProfile(db, studio, auth.user.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...ClientAccountsApi.uploadAvatar,
    handle: async ({ db, deps, auth, body }) =>
      saveAvatar(db, fileStorage(deps.config), auth.user.id, body.dataUrl, deps.clock.now()),
    // The old file goes once the new one is committed; the profile is read after the commit.
    present: async ({ previousFile }, { db, deps, studio, auth }): Promise<ClientProfile> => {
      await deleteAvatarFile(fileStorage(deps.config), previousFile);
      return getProfile(db, studio, auth.user.id, true);
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.removeAvatar,
    handle: async ({ db, deps, auth }) => removeAvatar(db, auth.user.id, deps.clock.now()),
    present: async ({ previousFile }, { deps }) => deleteAvatarFile(fileStorage(deps.config), previousFile),
  });

  /**
   * The avatar image: the person, someone who may act for them, or the studio's staff (of a client or
   * member of that studio). Served with the session cookie, so an <img> can show it.
   */
  defineRoute(router, {
    ...ClientAccountsApi.avatar,
    handle: async ({ ctx, db, deps, studio, membership, auth, params }) => {
      const target = params.user;
      const allowed =
        (await mayActFor(db, auth.user.id, target)) ||
        (membership.isMember &&
          Boolean(await db('memberships').where({ studioId: studio.id, userId: target }).first('id')));
      if (!allowed) throw AppError.notFound('avatar');
      const avatar = await readAvatar(db, fileStorage(deps.config), target);
      if (!avatar) throw AppError.notFound('avatar');
      ctx.type = avatar.type;
      ctx.set('Cache-Control', 'private, max-age=86400');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return avatar.bytes;
    },
  });

  // --------------------------------------------------------------------------- security, settings

  /** Password change: the current password again; every other session of the person ends. */
  defineRoute(router, {
    ...ClientAccountsApi.changePassword,
    handle: async ({ ctx, db, deps, auth, body, studio }) => {
      await deps.rateLimits.consume('loginPerIp', ctx.ip);
      await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(auth.user.email, ctx.ip));
      await deps.rateLimits.consume('loginPerEmail', auth.user.email);
      await changePassword(
        db,
        deps.clock,
        auth.user,
        auth.session.id,
        body.currentPassword,
        body.newPassword,
      );
      // "Your password was changed" (modules/communication), in this transaction.
      const at = deps.clock.now().toISOString();
      await enqueue(
        db,
        'transactional.mail',
        { kind: 'passwordChanged', studioId: studio.id, userId: auth.user.id, at },
        { key: `transactional:password:${auth.user.id}:${at}` },
      );
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.settings,
    handle: async ({ db, auth }): Promise<AccountSettings> => getSettings(db, auth.user),
  });

  defineRoute(router, {
    ...ClientAccountsApi.saveSettings,
    handle: async ({ ctx, db, deps, auth, body }): Promise<AccountSettings> => {
      const saved = await saveSettings(db, auth.user, body, deps.clock.now());
      ctx.cookies.set(LOCALE_COOKIE, body.locale, {
        httpOnly: false,
        sameSite: 'lax',
        maxAge: 365 * 24 * 3600_000,
      });
      return saved;
    },
  });

  // ----------------------------------------------------------------------------------- account

  defineRoute(router, {
    ...ClientAccountsApi.account,
    handle: async ({ ctx, db, studio, auth }): Promise<Account> =>
      getAccount(db, studio, auth.user, readerLocale(ctx, undefined, studio)),
  });

  /** Front office `PATCH account`: any part of the client's own account, in one transaction. */
  defineRoute(router, {
    ...ClientAccountsApi.patchAccount,
    handle: async ({ ctx, db, deps, studio, auth, body }): Promise<Account> => {
      await patchAccount(db, studio, auth.user, body, deps.clock.now());
      if (body.locale)
        ctx.cookies.set(LOCALE_COOKIE, body.locale, {
          httpOnly: false,
          sameSite: 'lax',
          maxAge: 365 * 24 * 3600_000,
        });
      const user = (await findUser(db, auth.user.id)) ?? auth.user;
      return getAccount(db, studio, user, body.locale ?? readerLocale(ctx, undefined, studio));
    },
  });

  // ---------------------------------------------------------------------------------- identity

  /** The client's QR code payload (made on first use) and the studio's cards of theirs. */
  defineRoute(router, {
    ...ClientAccountsApi.identity,
    handle: async ({ db, studio, auth }): Promise<MyIdentity> => {
      const record = await db('clients')
        .where({ studioId: studio.id, userId: auth.user.id })
        .first('firstName', 'lastName');
      return {
        qrPayload: await ensureQrIdentity(db, studio.id, auth.user.id),
        cards: await listCards(db, studio.id, auth.user.id),
        firstName: record?.firstName ?? auth.user.firstName,
        lastName: record?.lastName ?? auth.user.lastName,
      };
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.identityReader,
    handle: async ({ db, studio, query }): Promise<IdentityReaderResult> => {
      const found = await findClientByIdentity(db, studio.id, query.code);
      if (!found) return { match: null };
      const { userId, firstName, lastName, archived, via } = found;
      return { match: { via, client: { id: userId, firstName, lastName, archived } } };
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.clientIdentities,
    handle: async ({ db, studio, params }): Promise<ClientIdentityCollection> => {
      await assertStudioClient(db, studio.id, params.user);
      return {
        items: await listCards(db, studio.id, params.user),
        qrPayload: await ensureQrIdentity(db, studio.id, params.user),
      };
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.addClientIdentity,
    handle: async ({ db, studio, auth, params, body }): Promise<ClientIdentityView> => {
      await assertStudioClient(db, studio.id, params.user);
      return addCard(db, studio.id, params.user, auth.user.id, body.cardNumber);
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.regenerateQr,
    handle: async ({ db, studio, params }): Promise<{ qrPayload: string }> => {
      await assertStudioClient(db, studio.id, params.user);
      return { qrPayload: await regenerateQr(db, studio.id, params.user) };
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.removeClientIdentity,
    handle: async ({ db, studio, params }) => {
      await removeCard(db, studio.id, params.clientIdentity);
    },
  });

  // --------------------------------------------------------------------------- linked accounts

  defineRoute(router, {
    ...ClientAccountsApi.linkInit,
    handle: async ({ db, studio, auth }): Promise<LinkInit> => ({
      items: await listLinks(db, studio.id, auth.user.id),
      relationships: LINK_RELATIONSHIPS.map((value) => ({
        value,
        labelKey: `enums:userAccountLinkRelationship.${value}`,
      })),
    }),
  });

  defineRoute(router, {
    ...ClientAccountsApi.findMyAccounts,
    handle: async ({ db, auth }): Promise<FindMyAccounts> => findMyAccounts(db, auth.user),
  });

  defineRoute(router, {
    ...ClientAccountsApi.connectLink,
    handle: async ({ ctx, db, deps, studio, auth, body }): Promise<LinkedAccount> => {
      await deps.rateLimits.consume('loginPerIp', ctx.ip);
      if ('emailAddress' in body) {
        await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(body.emailAddress, ctx.ip));
        await deps.rateLimits.consume('loginPerEmail', body.emailAddress);
      }
      return connectLink(db, studio.id, auth.user, body);
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.changeLink,
    handle: async ({ db, studio, auth, params, body }): Promise<LinkedAccount> =>
      changeRelationship(db, studio.id, auth.user.id, params.userAccountLinkRelation, body.relationship),
  });

  defineRoute(router, {
    ...ClientAccountsApi.removeLink,
    handle: async ({ db, auth, params }) => {
      await removeLink(db, auth.user.id, params.userAccountLinkRelation);
    },
  });

  // ------------------------------------------------------------------- messages, notifications

  defineRoute(router, {
    ...ClientAccountsApi.messages,
    handle: async ({ db, studio, auth, query }): Promise<UserMessageList> =>
      listMessages(db, studio.id, auth.user.id, query),
  });

  defineRoute(router, {
    ...ClientAccountsApi.readMessage,
    handle: async ({ db, deps, studio, auth, params }): Promise<UserMessageView> =>
      markMessageRead(db, studio.id, auth.user.id, params.userMessageGuid, deps.clock.now()),
  });

  /** The client writes to the studio (front office `messages`). */
  defineRoute(router, {
    ...ClientAccountsApi.writeToStudio,
    handle: async ({ db, studio, auth, body }): Promise<UserMessageView> =>
      createMessage(db, studio.id, auth.user.id, 'client', auth.user.id, body.subject, body.content),
  });

  /** The studio writes to one client (their inbox, and a notification). */
  defineRoute(router, {
    ...ClientAccountsApi.sendMessage,
    handle: async ({ db, studio, auth, body }): Promise<UserMessageView> => {
      await assertStudioClient(db, studio.id, body.userId);
      return createMessage(db, studio.id, body.userId, 'studio', auth.user.id, body.subject, body.content);
    },
  });

  defineRoute(router, {
    ...ClientAccountsApi.notifications,
    handle: async ({ db, studio, auth, query }): Promise<UserNotificationList> =>
      listNotifications(db, studio.id, auth.user.id, query),
  });

  defineRoute(router, {
    ...ClientAccountsApi.readAllNotifications,
    handle: async ({ db, deps, studio, auth }): Promise<{ changed: number }> => ({
      changed: await markAllNotificationsRead(db, studio.id, auth.user.id, deps.clock.now()),
    }),
  });

  defineRoute(router, {
    ...ClientAccountsApi.readNotification,
    handle: async ({ db, deps, studio, auth, params }): Promise<UserNotificationView> =>
      markNotificationRead(db, studio.id, auth.user.id, params.userNotificationGuid, deps.clock.now()),
  });
}
