import { v7 as uuidv7 } from 'uuid';
import {
  CampaignContentSchema,
  CampaignFilterSchema,
  CampaignStopReasonSchema,
  type CampaignStopReason,
  CampaignStatus,
  CampaignType,
  SMS_MAX_SEGMENTS,
  type CampaignAction,
  type CampaignAttachment,
  type CampaignContent,
  type CampaignCost,
  type CampaignFilter,
  type CampaignListItem,
  type CampaignView,
} from '../../../../shared/contracts/api/communication';
import { AppError } from '../../../../shared/errors';
import type { CampaignsRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import { enqueue } from '../../jobs/queue';
import { findStudio, type Studio } from '../identity/index';
import {
  creditShortfall,
  creditsError,
  registerCreditReservations,
  type CreditShortfall,
} from '../subscription/index';
import { findRecipients } from './recipients';
import { SMS_SEGMENT_PRICE, smsLength } from './sms';

/** A campaign row with its jsonb columns parsed. */
export interface Campaign extends Omit<CampaignsRow, 'filter' | 'content' | 'attachment' | 'type'> {
  type: CampaignType;
  filter: CampaignFilter;
  content: CampaignContent;
  attachment: StoredAttachment | null;
}

export interface StoredAttachment {
  key: string;
  name: string;
  type: string;
  size: number;
}

export function asCampaign(row: CampaignsRow): Campaign {
  const filter = CampaignFilterSchema.safeParse(row.filter);
  const content = CampaignContentSchema.safeParse(row.content);
  return {
    ...row,
    type: (row.type as CampaignType) ?? CampaignType.email,
    filter: filter.success ? filter.data : {},
    content: content.success ? content.data : {},
    attachment: (row.attachment as StoredAttachment | null) ?? null,
  };
}

/** The studio's campaign, or 404 (an unknown id and another studio's look the same). */
export async function findCampaign(db: Db, studioId: string, id: string, lock = false): Promise<Campaign> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw AppError.notFound('campaign');
  const q = db('campaigns').where({ studioId, id }).whereNull('deletedAt').first();
  const row = await (lock ? q.forUpdate() : q);
  if (!row) throw AppError.notFound('campaign');
  return asCampaign(row);
}

export const attachmentUrl = (publicUrl: string, campaign: Pick<Campaign, 'id'>) =>
  `${publicUrl}/api/v4/campaign-file/${campaign.id}`;

function presentAttachment(publicUrl: string, c: Campaign): CampaignAttachment | null {
  return c.attachment
    ? {
        name: c.attachment.name,
        type: c.attachment.type,
        size: c.attachment.size,
        url: attachmentUrl(publicUrl, c),
      }
    : null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function stats(c: Campaign) {
  return {
    recipients: c.recipientCount,
    sent: c.sentCount,
    failed: c.failedCount,
    pending: Math.max(0, c.recipientCount - c.sentCount - c.failedCount),
    unsubscribed: c.unsubscribedCount,
  };
}

const stopReasonOf = (c: Campaign): CampaignStopReason | null =>
  CampaignStopReasonSchema.safeParse(c.stopReason).data ?? null;

export function presentCampaign(c: Campaign, publicUrl: string): CampaignView {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    status: c.status,
    filter: c.filter,
    content: c.content,
    attachment: presentAttachment(publicUrl, c),
    scheduledAt: iso(c.scheduledAt),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    stopReason: stopReasonOf(c),
    stats: stats(c),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function presentListItem(c: Campaign): CampaignListItem {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    status: c.status,
    scheduledAt: iso(c.scheduledAt),
    finishedAt: iso(c.finishedAt),
    stopReason: stopReasonOf(c),
    stats: stats(c),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export async function listCampaigns(
  db: Db,
  studioId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: CampaignListItem[]; next: string | null }> {
  const q = db('campaigns')
    .where({ studioId })
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (cursor) q.where('id', '<', cursor);
  const rows = (await q).map(asCampaign);
  const page = rows.slice(0, limit);
  return { items: page.map(presentListItem), next: rows.length > limit ? page[page.length - 1]!.id : null };
}

export async function createCampaign(
  db: Db,
  studioId: string,
  userId: string,
  input: { name: string; type: CampaignType; filter: CampaignFilter; content: CampaignContent },
  now: Date,
): Promise<Campaign> {
  const [row] = await db('campaigns')
    .insert({
      id: uuidv7(),
      studioId,
      name: input.name,
      type: input.type,
      status: CampaignStatus.draft,
      filter: JSON.stringify(input.filter),
      content: JSON.stringify(input.content),
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning('*');
  return asCampaign(row!);
}

const EDITABLE: number[] = [CampaignStatus.draft, CampaignStatus.scheduled];
const wrongStatus = (message: string) => new AppError('campaign.wrongStatus', { message });

/** Edits a draft (or a scheduled campaign, which stays scheduled). */
export async function editCampaign(
  db: Db,
  campaign: Campaign,
  changes: { name?: string; type?: CampaignType; filter?: CampaignFilter; content?: CampaignContent },
  now: Date,
): Promise<Campaign> {
  if (!EDITABLE.includes(campaign.status))
    throw wrongStatus('only a draft or scheduled campaign can be edited');
  const [row] = await db('campaigns')
    .where({ id: campaign.id })
    .update({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.type !== undefined ? { type: changes.type } : {}),
      ...(changes.filter !== undefined ? { filter: JSON.stringify(changes.filter) } : {}),
      ...(changes.content !== undefined ? { content: JSON.stringify(changes.content) } : {}),
      updatedAt: now,
    })
    .returning('*');
  return asCampaign(row!);
}

/** The text every recipient's language falls back to must be there before sending. */
function assertSendable(campaign: Campaign, studio: Studio): void {
  const fallback = studio.defaultLocale === 'en' ? 'en' : 'pl';
  const main = campaign.content[fallback] ?? campaign.content.pl ?? campaign.content.en;
  const needsSubject = campaign.type !== CampaignType.sms;
  if (!main || !main.body || (needsSubject && !main.subject))
    throw new AppError('campaign.contentMissing', {
      message: `write the ${needsSubject ? 'subject and text' : 'text'} in the studio's language first`,
    });
  if (campaign.type === CampaignType.sms) {
    for (const c of Object.values(campaign.content))
      if (c && smsLength(c.body).segments > SMS_MAX_SEGMENTS)
        throw new AppError('campaign.smsTooLong', {
          message: `an SMS has at most ${SMS_MAX_SEGMENTS} parts`,
        });
  }
}

/**
 * The platform credits one message of a campaign takes (modules/subscription): an e-mail one e-mail
 * credit, an SMS its parts in the longest language (as the cost); push and inbox none.
 */
export function creditsPerMessage(
  campaign: Pick<Campaign, 'type' | 'content'>,
): { service: 'email' | 'sms'; units: number } | null {
  if (campaign.type === CampaignType.email) return { service: 'email', units: 1 };
  if (campaign.type !== CampaignType.sms) return null;
  const parts = Object.values(campaign.content)
    .filter((c): c is NonNullable<typeof c> => Boolean(c))
    .map((c) => smsLength(c.body).segments);
  return { service: 'sms', units: Math.max(1, ...parts) };
}

/**
 * What the studio's started campaigns of a channel (in progress or paused) still have to send, in
 * credits: the subscription module counts it before it lets another campaign start.
 */
async function reservedCredits(
  db: Db,
  studioId: string,
  service: 'email' | 'sms',
  exceptCampaignId: string | null,
): Promise<number> {
  const q = db('campaigns')
    .where({ studioId, type: service === 'sms' ? CampaignType.sms : CampaignType.email })
    .whereIn('status', [CampaignStatus.inProgress, CampaignStatus.paused])
    .whereNotNull('startedAt')
    .whereNull('deletedAt');
  if (exceptCampaignId) void q.whereNot({ id: exceptCampaignId });
  const others = (await q.select('*')) as CampaignsRow[];
  return others
    .map(asCampaign)
    .reduce(
      (sum, c) =>
        sum +
        Math.max(0, c.recipientCount - c.sentCount - c.failedCount) * (creditsPerMessage(c)?.units ?? 0),
      0,
    );
}
registerCreditReservations(reservedCredits);

/** The credits a campaign's sending to `messages` recipients needs, or null when they are left. */
export async function campaignCreditShortfall(
  db: Db,
  studio: Studio,
  campaign: Pick<Campaign, 'id' | 'type' | 'content'>,
  messages: number,
): Promise<CreditShortfall | null> {
  const per = creditsPerMessage(campaign);
  if (!per) return null;
  return creditShortfall(db, studio.id, per.service, messages * per.units, campaign.id);
}

/**
 * Sending is refused with the reason when the studio's credits do not cover it (409
 * `subscription.smsCreditsExhausted` / `emailCreditsExhausted`), counting what the studio's other
 * started campaigns of the channel still have to send.
 */
async function assertCredits(db: Db, studio: Studio, campaign: Campaign, messages: number): Promise<void> {
  const shortfall = await campaignCreditShortfall(db, studio, campaign, messages);
  if (shortfall) throw creditsError(shortfall);
}

/** The next batch job of a campaign's run: its key makes a job enqueued twice run once. */
export async function enqueueBatch(db: Db, campaignId: string, run: number, seq: number, startAfter?: Date) {
  await enqueue(
    db,
    'campaign.batch',
    { campaignId, run, seq },
    { key: `campaign.batch:${campaignId}:${run}:${seq}`, ...(startAfter ? { startAfter } : {}) },
  );
}

/** send, schedule, unschedule, pause, resume (README "Campaign states"). */
export async function actOnCampaign(
  db: Db,
  studio: Studio,
  campaign: Campaign,
  action: CampaignAction,
  scheduledAt: Date | undefined,
  now: Date,
): Promise<Campaign> {
  const s = campaign.status;
  const update = async (
    patch: Partial<Pick<CampaignsRow, 'status' | 'scheduledAt' | 'run' | 'stopReason'>>,
  ) => {
    const [row] = await db('campaigns')
      .where({ id: campaign.id })
      .update({ ...patch, updatedAt: now })
      .returning('*');
    return asCampaign(row!);
  };
  switch (action) {
    case 'send':
    case 'schedule': {
      if (!EDITABLE.includes(s)) throw wrongStatus('only a draft or scheduled campaign can be sent');
      assertSendable(campaign, studio);
      const when = action === 'schedule' ? scheduledAt! : now;
      if (action === 'schedule' && when.getTime() <= now.getTime())
        throw new AppError('campaign.scheduleInPast', {
          message: 'choose a time in the future',
          fields: { scheduledAt: ['choose a time in the future'] },
        });
      const reach = await findRecipients(db, studio, campaign.type, campaign.filter, now);
      if (reach.reachable === 0)
        throw new AppError('campaign.noRecipients', { message: 'the filter reaches nobody' });
      await assertCredits(db, studio, campaign, reach.reachable);
      const run = campaign.run + 1;
      const next = await update({
        status: action === 'send' ? CampaignStatus.inProgress : CampaignStatus.scheduled,
        scheduledAt: action === 'schedule' ? when : null,
        stopReason: null,
        run,
      });
      await enqueueBatch(db, campaign.id, run, 0, action === 'schedule' ? when : undefined);
      return next;
    }
    case 'unschedule':
      if (s !== CampaignStatus.scheduled) throw wrongStatus('the campaign is not scheduled');
      // The scheduled batch finds the campaign a draft and does nothing.
      return update({ status: CampaignStatus.draft, scheduledAt: null, run: campaign.run + 1 });
    case 'pause':
      if (s !== CampaignStatus.inProgress) throw wrongStatus('only a campaign being sent can be paused');
      return update({ status: CampaignStatus.paused, run: campaign.run + 1 });
    case 'resume': {
      if (s !== CampaignStatus.paused) throw wrongStatus('the campaign is not paused');
      await assertCredits(
        db,
        studio,
        campaign,
        Math.max(0, campaign.recipientCount - campaign.sentCount - campaign.failedCount),
      );
      const run = campaign.run + 1;
      const next = await update({ status: CampaignStatus.inProgress, run });
      await enqueueBatch(db, campaign.id, run, 0);
      return next;
    }
  }
}

export async function deleteCampaign(db: Db, campaign: Campaign, now: Date): Promise<void> {
  if (campaign.status === CampaignStatus.inProgress)
    throw wrongStatus('pause the campaign before deleting it');
  if (campaign.startedAt)
    await db('campaigns')
      .where({ id: campaign.id })
      .update({ deletedAt: now, run: campaign.run + 1 });
  else await db('campaigns').where({ id: campaign.id }).delete();
}

/** A new draft with the same name (marked a copy), channel, filter, content and attachment. */
export async function replicateCampaign(
  db: Db,
  campaign: Campaign,
  userId: string,
  copySuffix: string,
  now: Date,
): Promise<Campaign> {
  const [row] = await db('campaigns')
    .insert({
      id: uuidv7(),
      studioId: campaign.studioId,
      name: `${campaign.name} ${copySuffix}`.slice(0, 120),
      type: campaign.type,
      status: CampaignStatus.draft,
      filter: JSON.stringify(campaign.filter),
      content: JSON.stringify(campaign.content),
      attachment: campaign.attachment ? JSON.stringify(campaign.attachment) : null,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning('*');
  return asCampaign(row!);
}

/** What sending will cost: e-mail, push and inbox nothing; SMS its segments at the gateway's price. */
export async function campaignCost(
  db: Db,
  studio: Studio,
  campaign: Campaign,
  now: Date,
): Promise<CampaignCost> {
  const recipients =
    campaign.status === CampaignStatus.draft || campaign.status === CampaignStatus.scheduled
      ? (await findRecipients(db, studio, campaign.type, campaign.filter, now)).reachable
      : campaign.recipientCount;
  if (campaign.type !== CampaignType.sms)
    return { type: campaign.type, recipients, sms: null, unitPrice: 0, total: 0, currency: studio.currency };
  const lengths = Object.values(campaign.content)
    .filter((c): c is NonNullable<typeof c> => Boolean(c))
    .map((c) => smsLength(c.body));
  const longest = lengths.sort((a, b) => b.segments - a.segments)[0] ?? smsLength('');
  return {
    type: campaign.type,
    recipients,
    sms: longest,
    unitPrice: SMS_SEGMENT_PRICE,
    total: recipients * longest.segments * SMS_SEGMENT_PRICE,
    currency: studio.currency,
  };
}

/**
 * The client list's bulk message (`client_message_requests`): an e-mail campaign to the chosen
 * clients in the studio's language, started at once. Its job's record step writes it, so a job run
 * twice makes one campaign.
 */
export async function performBulkMessage(
  requestId: string,
  ctx: { knex: Knex },
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const request = await ctx.knex('client_message_requests').where({ id: requestId }).first();
  if (!request) return;
  const studio = await findStudio(ctx.knex, request.studioId);
  if (!studio) return;
  const clientIds = Array.isArray(request.recipientIds) ? (request.recipientIds as string[]) : [];
  const locale = studio.defaultLocale === 'en' ? 'en' : 'pl';
  return {
    async record(trx) {
      const [row] = await trx('campaigns')
        .insert({
          id: uuidv7(),
          studioId: studio.id,
          name: request.subject.slice(0, 120),
          type: CampaignType.email,
          status: CampaignStatus.inProgress,
          filter: JSON.stringify({ status: 'all', clientIds }),
          content: JSON.stringify({ [locale]: { subject: request.subject, body: request.content } }),
          run: 1,
          createdBy: request.requestedBy,
          createdAt: request.createdAt,
          updatedAt: request.createdAt,
        })
        .returning('id');
      await enqueueBatch(trx, row!.id, 1, 0);
    },
  };
}
