import { v7 as uuidv7 } from 'uuid';
import type { Knex } from '../../db/knex';
import type { JobContext } from '../../jobs/perform';
import { messageIdFor } from '../../mail/mailer';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { CampaignStatus, CampaignType } from '../../../../shared/contracts/api/communication';
import { findStudio, type Studio } from '../identity/index';
import { recordEmailBounce } from '../client-records/index';
import {
  asCampaign,
  attachmentUrl,
  campaignCreditShortfall,
  creditsPerMessage,
  enqueueBatch,
  type Campaign,
} from './campaigns.service';
import { recordCampaignUse } from '../subscription/index';
import { personalise, brandColourOf, renderMail, type RenderedMail } from './mail-template';
import { materialiseRecipients } from './recipients';
import { SmsRejected, smsProviderFromEnv, type SmsProvider } from './sms';
import { sendPush, vapidKeys } from './web-push';

/** One batch of a campaign's sending (`campaign.batch` job); `run` changes on pause/resume. */
export interface CampaignBatchJob {
  campaignId: string;
  run: number;
  seq: number;
}

/**
 * Throttling per channel: a batch of this many, then a pause before the next batch (the job's
 * `startAfter`). Overridable from the environment (the benchmark sends bigger batches).
 */
export function throttleOf(type: CampaignType): { batch: number; pauseMs: number; concurrency: number } {
  const env = (name: string, fallback: number) => {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  if (type === CampaignType.sms)
    return {
      batch: env('CAMPAIGN_SMS_BATCH', 50),
      pauseMs: env('CAMPAIGN_SMS_PAUSE_MS', 2000),
      concurrency: 2,
    };
  if (type === CampaignType.inbox) return { batch: 1000, pauseMs: 0, concurrency: 1 };
  if (type === CampaignType.push)
    return {
      batch: env('CAMPAIGN_PUSH_BATCH', 200),
      pauseMs: env('CAMPAIGN_PUSH_PAUSE_MS', 1000),
      concurrency: 4,
    };
  return {
    batch: env('CAMPAIGN_EMAIL_BATCH', 200),
    pauseMs: env('CAMPAIGN_EMAIL_PAUSE_MS', 1000),
    concurrency: env('CAMPAIGN_EMAIL_CONCURRENCY', 4),
  };
}

interface Recipient {
  userId: string;
  address: string;
  locale: string;
  firstName: string;
  token: string;
}

/** The studio's reply-to: its contact e-mail in the settings, if it set one. */
export function replyToOf(studio: Studio): string | undefined {
  const v = studio.settings.contactEmail ?? studio.settings.email;
  return typeof v === 'string' && v.includes('@') ? v : undefined;
}

export const unsubscribeApiUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/api/v4/unsubscribe/${token}`;
/** The footer's link: the front office's page (which confirms with the same one-click POST). */
export const unsubscribePageUrl = (publicUrl: string, studioId: string, token: string) =>
  `${publicUrl}${frontOfficePath(studioId, `unsubscribe/${token}`)}`;

/** The campaign's mail in one language (its own text, else the studio's language's, else any). */
export async function campaignMail(
  campaign: Campaign,
  studio: Studio,
  locale: string,
  publicUrl: string,
): Promise<RenderedMail> {
  const lang = locale === 'en' || locale === 'pl' ? locale : studio.defaultLocale === 'en' ? 'en' : 'pl';
  const own = campaign.content[lang];
  const fallbackLang = studio.defaultLocale === 'en' ? 'en' : 'pl';
  const chosen = own?.body
    ? lang
    : campaign.content[fallbackLang]?.body
      ? fallbackLang
      : lang === 'en'
        ? 'pl'
        : 'en';
  const content = campaign.content[chosen] ?? { subject: '', body: '' };
  const image = campaign.attachment?.type.startsWith('image/') ? attachmentUrl(publicUrl, campaign) : null;
  const file =
    campaign.attachment && !image
      ? { name: campaign.attachment.name, url: attachmentUrl(publicUrl, campaign) }
      : null;
  return renderMail({
    studioName: studio.name,
    logoUrl: studio.logoUrl,
    primaryColor: brandColourOf(studio),
    locale: chosen,
    subject: content.subject,
    body: content.body,
    imageUrl: image,
    attachment: file,
    unsubscribe: true,
    baseUrl: publicUrl,
  });
}

type Outcome = { status: 'sent' } | { status: 'failed'; error: string; bounce: boolean };

/** An SMTP refusal of the recipient (5xx at RCPT TO): a hard bounce, never retried. */
function smtpBounce(err: unknown): string | null {
  const e = err as { responseCode?: number; code?: string; response?: string };
  if (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.code === 'EENVELOPE')
    return (e.response ?? `SMTP ${e.responseCode}`).slice(0, 200);
  return null;
}

async function sendOne(
  ctx: JobContext,
  campaign: Campaign,
  studio: Studio,
  r: Recipient,
  mails: Map<string, RenderedMail>,
  sms: SmsProvider | null,
): Promise<Outcome> {
  const publicUrl = ctx.publicUrl();
  if (campaign.type === CampaignType.email) {
    let mail = mails.get(r.locale);
    if (!mail) {
      mail = await campaignMail(campaign, studio, r.locale, publicUrl);
      mails.set(r.locale, mail);
    }
    const one = personalise(mail, {
      firstName: r.firstName,
      unsubscribeUrl: unsubscribePageUrl(publicUrl, campaign.studioId, r.token),
    });
    try {
      await ctx.mailer.send({
        to: r.address,
        subject: one.subject,
        text: one.text,
        html: one.html,
        fromName: studio.name,
        ...(replyToOf(studio) ? { replyTo: replyToOf(studio)! } : {}),
        language: r.locale,
        headers: {
          'List-Unsubscribe': `<${unsubscribeApiUrl(publicUrl, r.token)}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'X-Campaign-Id': campaign.id,
        },
        messageId: messageIdFor(`campaign:${campaign.id}:${r.userId}`),
      });
      return { status: 'sent' };
    } catch (err) {
      const bounce = smtpBounce(err);
      if (bounce) return { status: 'failed', error: bounce, bounce: true };
      throw err;
    }
  }
  const lang = r.locale === 'en' ? 'en' : 'pl';
  const content = campaign.content[lang]?.body
    ? campaign.content[lang]!
    : (campaign.content.pl ?? campaign.content.en)!;
  const body = content.body.split('{firstName}').join(r.firstName);
  if (campaign.type === CampaignType.push) return sendPushTo(ctx, campaign, r, content.subject, body);
  if (campaign.type === CampaignType.sms) {
    try {
      await sms!.send({ to: r.address, text: body, id: `${campaign.id.slice(-12)}${r.token.slice(0, 12)}` });
      return { status: 'sent' };
    } catch (err) {
      if (err instanceof SmsRejected)
        return { status: 'failed', error: err.message.slice(0, 200), bounce: false };
      throw err;
    }
  }
  // Inbox: the message and the recipient's mark in one transaction (exactly once).
  await ctx.knex.transaction(async (trx) => {
    const marked = await trx('campaign_recipients')
      .where({ campaignId: campaign.id, userId: r.userId, status: 'pending' })
      .update({ status: 'sent', sentAt: ctx.clock.now() });
    if (marked === 0) return;
    const now = ctx.clock.now();
    await trx('user_messages').insert({
      id: uuidv7(),
      studioId: campaign.studioId,
      userId: r.userId,
      sender: 'studio',
      authorId: campaign.createdBy,
      subject: content.subject.split('{firstName}').join(r.firstName).slice(0, 200),
      content: body,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { status: 'sent' };
}

/**
 * Push: the message to every browser the client subscribed in the studio's front office (the
 * campaign's id as the push topic, so a retried batch replaces an undelivered copy). Failed when
 * none is left (all unsubscribed since).
 */
async function sendPushTo(
  ctx: JobContext,
  campaign: Campaign,
  r: Recipient,
  subject: string,
  body: string,
): Promise<Outcome> {
  const subs = await ctx
    .knex('push_subscriptions')
    .where({ studioId: campaign.studioId, userId: r.userId })
    .select('id', 'endpoint', 'p256dh', 'auth');
  const keys = await vapidKeys(ctx.knex);
  const message = {
    title: subject.split('{firstName}').join(r.firstName).slice(0, 200),
    body: body.slice(0, 1000),
    url: `${ctx.publicUrl()}${frontOfficePath(campaign.studioId)}`,
    tag: campaign.id,
  };
  let sent = 0;
  for (const sub of subs)
    if ((await sendPush(ctx.knex, keys, sub, message, campaign.id.replace(/-/g, ''))) === 'sent') sent += 1;
  return sent > 0 ? { status: 'sent' } : { status: 'failed', error: 'no push subscription', bounce: false };
}

/**
 * Sends one batch: writes the recipients on the first batch of the campaign, sends to the next
 * pending ones (each marked sent right after its message left, so a batch run again — a worker
 * killed, a transient SMTP failure — skips them), then in the job's record step updates the counts
 * and queues the next batch after the channel's pause, or marks the campaign sent.
 */
export async function performCampaignBatch(
  job: CampaignBatchJob,
  ctx: JobContext,
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const row = await ctx.knex('campaigns').where({ id: job.campaignId }).first();
  if (!row || row.run !== job.run) return; // deleted, paused, rescheduled: this job is stale
  let campaign = asCampaign(row);
  if (campaign.status !== CampaignStatus.inProgress && campaign.status !== CampaignStatus.scheduled) return;
  const studio = await findStudio(ctx.knex, campaign.studioId);
  if (!studio) return;
  if (!campaign.startedAt) {
    await ctx.knex.transaction(async (trx) => {
      const locked = asCampaign((await trx('campaigns').where({ id: campaign.id }).forUpdate().first())!);
      if (locked.startedAt || locked.run !== job.run) return;
      const now = ctx.clock.now();
      const count = await materialiseRecipients(trx, studio, locked, now);
      // A campaign scheduled earlier is checked again now that it starts: credits spent since (or
      // other campaigns started) may leave too few. Refused, it goes back to a draft saying why.
      const shortfall =
        locked.status === CampaignStatus.scheduled
          ? await campaignCreditShortfall(trx, studio, locked, count)
          : null;
      if (shortfall) {
        await trx('campaign_recipients').where({ campaignId: locked.id }).delete();
        await trx('campaigns')
          .where({ id: locked.id })
          .update({
            status: CampaignStatus.draft,
            scheduledAt: null,
            run: locked.run + 1,
            stopReason: JSON.stringify({ ...shortfall, at: now.toISOString() }),
            updatedAt: now,
          });
        ctx.log.warn({ campaignId: locked.id, ...shortfall }, 'scheduled campaign refused: credits');
        return;
      }
      await trx('campaigns')
        .where({ id: campaign.id })
        .update({ status: CampaignStatus.inProgress, startedAt: now, recipientCount: count, updatedAt: now });
    });
    campaign = asCampaign((await ctx.knex('campaigns').where({ id: job.campaignId }).first())!);
    if (campaign.run !== job.run) return;
  }
  const throttle = throttleOf(campaign.type);
  const batch: Recipient[] = await ctx
    .knex('campaign_recipients')
    .where({ campaignId: campaign.id, status: 'pending' })
    .orderBy('userId')
    .limit(throttle.batch)
    .select('userId', 'address', 'locale', 'firstName', 'token');
  const mails = new Map<string, RenderedMail>();
  const sms = campaign.type === CampaignType.sms ? smsProviderFromEnv((t) => ctx.log.info(t)) : null;
  let paused = false;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (!paused && next < batch.length) {
      const r = batch[next++]!;
      const outcome = await sendOne(ctx, campaign, studio, r, mails, sms);
      if (campaign.type !== CampaignType.inbox || outcome.status === 'failed') {
        await ctx
          .knex('campaign_recipients')
          .where({ campaignId: campaign.id, userId: r.userId })
          .update(
            outcome.status === 'sent'
              ? { status: 'sent', sentAt: ctx.clock.now() }
              : { status: 'failed', error: outcome.error },
          );
        if (outcome.status === 'failed' && outcome.bounce)
          await ctx
            .knex('mail_suppressions')
            .insert({
              studioId: campaign.studioId,
              address: r.address.toLowerCase(),
              reason: 'bounce',
              detail: outcome.error,
            })
            .onConflict(['studioId', 'address'])
            .ignore();
        // Staff see it on the client's profile too (and clear it once the address is fixed).
        if (outcome.status === 'failed' && outcome.bounce)
          await recordEmailBounce(ctx.knex, campaign.studioId, r.userId, {
            email: r.address,
            reason: 'noMailbox',
            message: outcome.error,
            at: ctx.clock.now(),
          });
      }
      done += 1;
      // Pausing takes effect within a few messages, not at the end of the batch.
      if (done % 25 === 0) {
        const now = await ctx.knex('campaigns').where({ id: campaign.id }).first('run');
        if (!now || now.run !== job.run) paused = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, throttle.concurrency) }, worker));
  return {
    async record(trx) {
      const current = await trx('campaigns').where({ id: campaign.id }).forUpdate().first();
      if (!current) return;
      const counts: Array<{ status: string; n: string | number }> = await trx('campaign_recipients')
        .where({ campaignId: campaign.id })
        .groupBy('status')
        .select('status', trx.raw('count(*) as n'));
      const n = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
      const now = ctx.clock.now();
      const pending = n('pending');
      const running = current.run === job.run && current.status === CampaignStatus.inProgress;
      await trx('campaigns')
        .where({ id: campaign.id })
        .update({
          sentCount: n('sent'),
          failedCount: n('failed'),
          updatedAt: now,
          ...(running && pending === 0 ? { status: CampaignStatus.sent, finishedAt: now } : {}),
        });
      // The platform's credits are spent by what was sent (a failed message costs nothing).
      const per = creditsPerMessage(campaign);
      if (per)
        await recordCampaignUse(trx, campaign.studioId, per.service, campaign.id, n('sent') * per.units, now);
      if (running && pending > 0)
        await enqueueBatch(
          trx,
          campaign.id,
          job.run,
          job.seq + 1,
          new Date(now.getTime() + throttle.pauseMs),
        );
    },
  };
}
