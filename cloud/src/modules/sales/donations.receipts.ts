import { formatPrice } from '../../../../shared/domain/money';
import { isLocale } from '../../../../shared/i18n/locales';
import { OrderStatus } from '../../../../shared/enums';
import type { Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import type { Logger } from '../../logger';
import type { Mailer, MailMessage } from '../../mail/mailer';

/** At most this many receipts go out per delivery; the rest wait for the next one. */
const BATCH = 20;

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
    amount: formatPrice(receipt.amount, receipt.currency),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: receipt.timeZone }).format(
      receipt.paidAt,
    ),
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
 * Sends the receipts of donations that are paid and have none yet (an outbox: the paid status and
 * the missing `receipt_sent_at` are committed with the payment itself). Each is claimed by one
 * committed update (`skip locked`: parallel deliveries never send one twice) before sending; a send
 * that fails is released again for the next delivery. A donation charged back or refunded before its
 * receipt left is no longer paid and gets none.
 */
export async function deliverDueDonationReceipts(
  knex: Knex,
  mailer: Mailer,
  log: Logger,
): Promise<{ sent: number; failed: number }> {
  const claimed = (await knex.raw(
    `update donations d set receipt_sent_at = now()
      where d.id in (
        select d2.id from donations d2 join client_orders o on o.id = d2.order_id
         where d2.receipt_sent_at is null and o.status = ?
         order by d2.created_at limit ?
         for update of d2 skip locked)
      returning d.id`,
    [OrderStatus.paid, BATCH],
  )) as { rows: { id: string }[] };
  if (claimed.rows.length === 0) return { sent: 0, failed: 0 };
  const due = (await knex('donations as d')
    .join('client_orders as o', 'o.id', 'd.order_id')
    .join('studios as s', 's.id', 'd.studio_id')
    .whereIn(
      'd.id',
      claimed.rows.map((r) => r.id),
    )
    .select(
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
    )) as DueReceipt[];
  let sent = 0;
  let failed = 0;
  for (const receipt of due) {
    try {
      await mailer.send(donationReceiptEmail(receipt));
      sent++;
    } catch (err) {
      failed++;
      await knex('donations').where({ id: receipt.id }).update({ receiptSentAt: null });
      log.error({ err, donationId: receipt.id }, 'donation receipt not sent; it stays due');
    }
  }
  return { sent, failed };
}
