import type Router from '@koa/router';
import {
  CampaignType,
  type CampaignCost,
  type CampaignList,
  type CampaignView,
  type Recipients,
  type TemplatePreview,
} from '../../../../shared/contracts/api/communication';
import { CommunicationApi } from '../../../../shared/contracts/http/communication';
import type { Locale } from '../../../../shared/i18n/locales';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { enqueue } from '../../jobs/queue';
import { serverI18n } from '../../i18n';
import { fileStorage } from '../../storage/index';
import { openCampaignFile, uploadCampaignFile } from './campaign-files';
import { campaignMail, replyToOf } from './campaign-send';
import {
  actOnCampaign,
  campaignCost,
  createCampaign,
  deleteCampaign,
  editCampaign,
  findCampaign,
  listCampaigns,
  presentCampaign,
  replicateCampaign,
} from './campaigns.service';
import { personalise, brandColourOf, renderMail } from './mail-template';
import { findRecipients } from './recipients';
import { smsLength } from './sms';
import { starterTemplate } from './starter-templates';

const t = (locale: Locale) => serverI18n().instance.getFixedT(locale, 'communication');

/** Campaigns and marketing templates (issue 23; contracts in `shared/contracts/http/communication.ts`). */
export function registerCampaignRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CommunicationApi.getCampaignAll,
    handle: async ({ db, studio, query }): Promise<CampaignList> =>
      listCampaigns(db, studio.id, query.limit, query.cursor),
  });

  defineRoute(router, {
    ...CommunicationApi.getFindRecipients,
    handle: async ({ db, studio, query, deps }): Promise<Recipients> =>
      findRecipients(db, studio, query.type, query.filter, deps.clock.now()),
  });

  defineRoute(router, {
    ...CommunicationApi.postCampaign,
    handle: async ({ db, studio, auth, body, deps }): Promise<CampaignView> =>
      presentCampaign(
        await createCampaign(db, studio.id, auth.user.id, body, deps.clock.now()),
        deps.config.publicUrl,
      ),
  });

  defineRoute(router, {
    ...CommunicationApi.postCampaignUpload,
    handle: async ({ db, studio, body, deps }) =>
      uploadCampaignFile(db, fileStorage(deps.config), studio.id, body, deps.clock.now()),
    // Committed: the replaced file goes unless a copy of the campaign (replicate) still uses it.
    present: async ({ campaign, replaced }, { db, deps, ctx }): Promise<CampaignView> => {
      if (replaced) {
        const used = await db('campaigns').whereRaw(`attachment->>'key' = ?`, [replaced]).first('id');
        if (!used)
          await fileStorage(deps.config)
            .delete(replaced)
            .catch((err: unknown) => ctx.state.log.error({ err }, 'replaced campaign file not removed'));
      }
      return presentCampaign(campaign, deps.config.publicUrl);
    },
  });

  /** The image or PDF the mails show or link: inline, its own type, no scripts (sandboxed). */
  defineRoute(router, {
    ...CommunicationApi.getCampaignFile,
    handle: async ({ db, params, deps, ctx }) => {
      const { attachment, bytes } = await openCampaignFile(db, fileStorage(deps.config), params.campaign);
      ctx.type = attachment.type;
      ctx.set('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(attachment.name)}`);
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      return bytes;
    },
  });

  defineRoute(router, {
    ...CommunicationApi.getCampaign,
    handle: async ({ db, studio, params, deps }): Promise<CampaignView> =>
      presentCampaign(await findCampaign(db, studio.id, params.campaign), deps.config.publicUrl),
  });

  defineRoute(router, {
    ...CommunicationApi.getCampaignCost,
    handle: async ({ db, studio, params, deps }): Promise<CampaignCost> =>
      campaignCost(db, studio, await findCampaign(db, studio.id, params.campaign), deps.clock.now()),
  });

  /** Edits a draft, or acts on the campaign (send, schedule, unschedule, pause, resume). */
  defineRoute(router, {
    ...CommunicationApi.patchCampaign,
    handle: async ({ db, studio, params, body, deps }): Promise<CampaignView> => {
      const now = deps.clock.now();
      let campaign = await findCampaign(db, studio.id, params.campaign, true);
      const { action, scheduledAt, ...changes } = body;
      if (Object.keys(changes).length > 0) campaign = await editCampaign(db, campaign, changes, now);
      if (action)
        campaign = await actOnCampaign(
          db,
          studio,
          campaign,
          action,
          scheduledAt ? new Date(scheduledAt) : undefined,
          now,
        );
      return presentCampaign(campaign, deps.config.publicUrl);
    },
  });

  defineRoute(router, {
    ...CommunicationApi.deleteCampaign,
    handle: async ({ db, studio, params, deps }): Promise<void> =>
      deleteCampaign(db, await findCampaign(db, studio.id, params.campaign, true), deps.clock.now()),
  });

  defineRoute(router, {
    ...CommunicationApi.postCampaignReplicate,
    handle: async ({ db, studio, params, auth, deps }): Promise<CampaignView> => {
      const source = await findCampaign(db, studio.id, params.campaign);
      const copy = await replicateCampaign(
        db,
        source,
        auth.user.id,
        t(studio.defaultLocale === 'en' ? 'en' : 'pl')('copySuffix'),
        deps.clock.now(),
      );
      return presentCampaign(copy, deps.config.publicUrl);
    },
  });

  defineRoute(router, {
    ...CommunicationApi.patchCampaignContent,
    handle: async ({ db, studio, params, body, deps }): Promise<CampaignView> => {
      const campaign = await findCampaign(db, studio.id, params.campaign, true);
      return presentCampaign(
        await editCampaign(db, campaign, { content: body }, deps.clock.now()),
        deps.config.publicUrl,
      );
    },
  });

  /** The text as a client would get it: the e-mail (HTML and plain) or the SMS with its length. */
  defineRoute(router, {
    ...CommunicationApi.postTemplatePreview,
    handle: async ({ studio, body, deps }): Promise<TemplatePreview> => {
      if (body.type === CampaignType.email) {
        const mail = await renderMail({
          baseUrl: deps.config.publicUrl,
          studioName: studio.name,
          logoUrl: studio.logoUrl,
          primaryColor: brandColourOf(studio),
          locale: body.locale,
          subject: body.subject,
          body: body.body,
          unsubscribe: true,
        });
        return { subject: mail.subject, html: mail.html, text: mail.text, sms: null };
      }
      return {
        subject: body.subject,
        html: null,
        text: body.body,
        sms: body.type === CampaignType.sms ? smsLength(body.body) : null,
      };
    },
  });

  /** Sends the campaign's e-mail in one language to the caller, subject marked as a test. */
  defineRoute(router, {
    ...CommunicationApi.postTemplateTest,
    handle: async ({ db, studio, auth, body, deps }) => {
      const campaign = await findCampaign(db, studio.id, body.campaignId);
      // The footer's link leads to the studio's page: a test recipient has nothing to unsubscribe from.
      const mail = personalise(await campaignMail(campaign, studio, body.locale, deps.config.publicUrl), {
        firstName: auth.user.firstName,
        unsubscribeUrl: deps.config.publicUrl,
      });
      const replyTo = replyToOf(studio);
      await enqueue(db, 'mail.send', {
        to: auth.user.email,
        subject: `${t(body.locale)('testMarker')} ${mail.subject}`,
        text: mail.text,
        html: mail.html,
        fromName: studio.name,
        language: body.locale,
        ...(replyTo ? { replyTo } : {}),
      });
      return { sentTo: auth.user.email };
    },
  });

  defineRoute(router, {
    ...CommunicationApi.postTemplateLoad,
    handle: async ({ studio, body }) => ({
      template: body.template,
      content: starterTemplate(body.template, body.locale, studio.name),
    }),
  });
}
