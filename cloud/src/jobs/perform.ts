import type { Clock } from '../clock';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import { messageIdFor, type Mailer } from '../mail/mailer';
import { performKsefSend } from '../modules/invoices/index';
import { performBookingMail } from '../modules/bookings/index';
import { performDonationReceipt } from '../modules/sales/index';
import { performProviderCall } from '../modules/sales/index';
import { performVideoFilesDelete, performVideoTranscode } from '../modules/videos/index';
import type { FileStorage } from '../storage/index';
import { performStudioExport } from '../modules/reports/index';
import {
  performAutomationMail,
  performBulkMessage,
  performCampaignBatch,
  performTransactionalMail,
} from '../modules/communication/index';
import { performWebhookDelivery } from '../modules/integrations/index';
import { performSubscriptionInvoiceMail } from '../modules/subscription/index';
import { performCalendarPush, performCalendarRevoke } from '../modules/appointments/index';
import { bossConnection, statements, type JobName, type JobPayloads } from './queue';

/** What a side-effect handler may use: the worker's process collaborators, never a request's. */
export interface JobContext {
  knex: Knex;
  log: Logger;
  clock: Clock;
  mailer: Mailer;
  /** The public base URL for links (read late: a test server learns its port after start). */
  publicUrl: () => string;
  /** The app's file storage (videos); a context without one cannot run storage jobs. */
  storage?: FileStorage;
}

/**
 * Performs one job's effect (send the mail …). It may return a `record` step: database writes that
 * say the effect happened (a receipt's `receipt_sent_at`), run in the transaction that marks the job
 * delivered. It must not hold a transaction of its own open across the outside call.
 */
export type JobHandler<N extends JobName> = (
  payload: JobPayloads[N],
  ctx: JobContext & { key: string },
) => Promise<void | { record(trx: Knex.Transaction): Promise<void> }>;

export const HANDLERS: { [N in JobName]: JobHandler<N> } = {
  'mail.send': async (message, { mailer, key }) => {
    await mailer.send({ ...message, messageId: messageIdFor(key) });
  },
  'booking.mail': (payload, ctx) => performBookingMail(payload, ctx),
  'donation.receipt': (payload, ctx) => performDonationReceipt(payload.donationId, ctx),
  'sales.provider-call': (payload, ctx) => performProviderCall(payload, ctx),
  'ksef.send': (payload, ctx) => performKsefSend(payload, ctx),
  'video.transcode': (payload, ctx) => performVideoTranscode(payload, ctx),
  'video.delete-files': (payload, ctx) => performVideoFilesDelete(payload, ctx),
  'studio.export': (payload, ctx) => performStudioExport(payload, ctx),
  'campaign.batch': (payload, ctx) => performCampaignBatch(payload, ctx),
  'automation.mail': (payload, ctx) => performAutomationMail(payload, ctx),
  'client.bulk-message': (payload, ctx) => performBulkMessage(payload.requestId, ctx),
  'transactional.mail': (payload, ctx) => performTransactionalMail(payload, ctx),
  'webhook.deliver': (payload, ctx) => performWebhookDelivery(payload, ctx),
  'appointment.calendar-push': async (payload, ctx) => {
    await performCalendarPush(ctx.knex, payload.connectionId, ctx.clock.now());
  },
  'appointment.calendar-revoke': (payload) => performCalendarRevoke(payload.token),
  'subscription.invoice-mail': (payload, ctx) => performSubscriptionInvoiceMail(payload.periodId, ctx),
};

export interface JobToPerform {
  id: string;
  name: string;
  data: unknown;
  singletonKey?: string | null;
}

/**
 * Performs a job at most once per idempotency key (the enqueue's `key`, else the job id): a key
 * already in `job_deliveries` is not performed again; otherwise the handler runs (outside any
 * transaction) and then ONE transaction writes the delivered marker, the handler's record and the
 * job's completion. A process killed before that commit leaves the job active; pg-boss expires it
 * and it runs again. `finish` ends the job in that transaction (the worker: complete).
 */
export async function performJob(
  ctx: JobContext,
  job: JobToPerform,
  finish: (trx: Knex.Transaction) => Promise<unknown> = (trx) =>
    statements.complete(job.name, job.id, {}, { db: bossConnection(trx) }),
): Promise<'performed' | 'duplicate'> {
  const name = job.name as JobName;
  const handler = HANDLERS[name] as JobHandler<JobName> | undefined;
  if (!handler) throw new Error(`no handler for job ${job.name}`);
  const key = job.singletonKey ?? job.id;
  const delivered = await ctx.knex('job_deliveries').where({ key }).first('key');
  const outcome = delivered ? undefined : await handler(job.data as JobPayloads[JobName], { ...ctx, key });
  await ctx.knex.transaction(async (trx) => {
    await trx('job_deliveries').insert({ key, queue: name, jobId: job.id }).onConflict('key').ignore();
    if (outcome) await outcome.record(trx);
    await finish(trx);
  });
  return delivered ? 'duplicate' : 'performed';
}
