import type Router from '@koa/router';
import {
  CampaignType,
  channelOf,
  type UnsubscribeView,
} from '../../../../shared/contracts/api/communication';
import { CommunicationApi } from '../../../../shared/contracts/http/communication';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { safeEqual } from '../identity/index';
import { receiveFeedback } from './mail-feedback';

async function recipientOf(db: Db, token: string) {
  const row = await db('campaign_recipients as r')
    .join('campaigns as c', 'c.id', 'r.campaign_id')
    .join('studios as s', 's.id', 'c.studio_id')
    .where('r.token', token)
    .first('r.campaign_id', 'r.user_id', 'c.studio_id', 'c.type', 's.name');
  if (!row) throw AppError.notFound('unsubscribe link');
  const channel = channelOf((row.type as CampaignType) ?? CampaignType.email);
  return { ...row, channel };
}

/**
 * One-click unsubscribe (RFC 8058): `List-Unsubscribe: <…/api/v4/unsubscribe/<token>>` with
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. The mail provider POSTs without a session or
 * CSRF token (the token is the authority; `csrfMiddleware` lets this path through); the footer's
 * link opens the front office's page, which reads GET and confirms with the same POST.
 */
export function registerUnsubscribeRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CommunicationApi.getUnsubscribe,
    handle: async ({ db, params }): Promise<UnsubscribeView> => {
      const r = await recipientOf(db, params.token);
      const out = await db('communication_opt_outs')
        .where({ studioId: r.studioId, userId: r.userId, channel: r.channel })
        .first('userId');
      return { studioName: r.name, channel: r.channel, unsubscribed: Boolean(out) };
    },
  });

  defineRoute(router, {
    ...CommunicationApi.postUnsubscribe,
    handle: async ({ db, params, deps }): Promise<UnsubscribeView> => {
      const r = await recipientOf(db, params.token);
      const inserted = await db('communication_opt_outs')
        .insert({
          studioId: r.studioId,
          userId: r.userId,
          channel: r.channel,
          campaignId: r.campaignId,
          createdAt: deps.clock.now(),
        })
        .onConflict(['studioId', 'userId', 'channel'])
        .ignore()
        .returning('userId');
      if (inserted.length > 0)
        await db('campaigns').where({ id: r.campaignId }).increment('unsubscribedCount', 1);
      return { studioName: r.name, channel: r.channel, unsubscribed: true };
    },
  });

  /**
   * Later bounces and complaints. Off (404) until MAIL_FEEDBACK_TOKEN is set; the caller (the mail
   * server's bounce pipe, a provider's webhook) sends it as a bearer token.
   */
  defineRoute(router, {
    ...CommunicationApi.postMailFeedback,
    handle: async ({ db, body, deps, ctx }) => {
      const expected = process.env.MAIL_FEEDBACK_TOKEN;
      if (!expected) throw AppError.notFound();
      const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
      if (!safeEqual(given, expected))
        throw new AppError('auth.required', { message: 'a valid feedback token is required' });
      return receiveFeedback(db, body, deps.clock.now());
    },
  });
}
