import { formatPriceIn } from '../../../../shared/domain/money';
import { isLocale } from '../../../../shared/i18n/locales';
import { OrderStatus } from '../../../../shared/enums';
import type { Db, Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import type { JobContext } from '../../jobs/perform';
import { enqueue } from '../../jobs/queue';
import { messageIdFor, type MailMessage } from '../../mail/mailer';
import { formatDate } from '../../../../shared/i18n/dates';

interface DueReceipt {
  id: string;
  orderId: string;
  donorName: string;
  donorEmail: string;
  message: string;
  anonymous: boolean;
  amount: number;
  currency: string;
  paidAt: Date;
  studioName: string;
  studioLocale: string;
  timeZone: string;
}

/** The receipt e-mail: in the studio's language (the donor may have no account to hold one). */
export function donationReceiptEmail(receipt: DueReceipt): MailMessage {
  const locale = isLocale(receipt.studioLocale) ? receipt.studioLocale : 'en';
  const t = tFor(locale);
  const vars = {
    name: receipt.donorName || receipt.donorEmail,
    studio: receipt.studioName,
    amount: formatPriceIn(locale, receipt.amount, receipt.currency),
    date: formatDate(receipt.paidAt, locale, receipt.timeZone),
    reference: receipt.orderId.slice(-8).toUpperCase(),
  };
  const lines = [t('donation:receiptMail.body', vars)];
  if (receipt.message) lines.push(t('donation:receiptMail.message', { message: receipt.message }));
  if (receipt.anonymous) lines.push(t('donation:receiptMail.anonymous'));
  lines.push(t('donation:receiptMail.footer', vars));
  return {
    to: receipt.donorEmail,
    subject: t('donation:receiptMail.subject', vars),
    text: `${lines.join('\n\n')}\n`,
  };
}

/**
 * A paid donation's receipt is a `donation.receipt` job, enqueued by the order's fulfilment in the
 * transaction that marks it paid; its key is the donation, so a donation paid again (after a
 * chargeback was reversed) never gets a second receipt.
 */
export async function enqueueDonationReceipt(trx: Db, orderId: string): Promise<string | null> {
  const donation = (await trx('donations').where({ orderId }).first('id')) as { id: string } | undefined;
  if (!donation) return null;
  await enqueue(
    trx,
    'donation.receipt',
    { donationId: donation.id },
    { key: `donation.receipt:${donation.id}` },
  );
  return donation.id;
}

/**
 * Sends a donation's receipt (the job's handler) if its order is still paid and none went out yet:
 * a donation charged back or refunded before its receipt left gets none. `receipt_sent_at` is
 * recorded with the job's completion.
 */
export async function performDonationReceipt(
  donationId: string,
  ctx: JobContext & { key: string },
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const receipt = (await ctx
    .knex('donations as d')
    .join('client_orders as o', 'o.id', 'd.order_id')
    .join('studios as s', 's.id', 'd.studio_id')
    .where({ 'd.id': donationId, 'o.status': OrderStatus.paid })
    .whereNull('d.receiptSentAt')
    .first(
      'd.id',
      'd.orderId',
      'd.donorName',
      'd.donorEmail',
      'd.message',
      'd.anonymous',
      'o.total as amount',
      'o.currency',
      'o.paidAt',
      's.name as studioName',
      's.defaultLocale as studioLocale',
      's.timeZone',
    )) as DueReceipt | undefined;
  if (!receipt) return;
  await ctx.mailer.send({ ...donationReceiptEmail(receipt), messageId: messageIdFor(ctx.key) });
  return {
    record: async (trx) => {
      await trx('donations').where({ id: donationId }).update({ receiptSentAt: ctx.clock.now() });
    },
  };
}
