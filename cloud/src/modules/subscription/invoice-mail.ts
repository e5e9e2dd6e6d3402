import { formatPrice } from '../../../../shared/domain/money';
import type { Db, Knex } from '../../db/knex';
import { tFor } from '../../i18n';
import type { JobContext } from '../../jobs/perform';
import { messageIdFor } from '../../mail/mailer';
import { findStudio, type Studio } from '../identity/index';
import { subscriptionInvoicePdf } from './subscription-invoice';
import type { PeriodRow } from './subscription.service';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Where the platform's invoices go: the studio's billing address (`settings.billingEmail`), else its
 * contact address (`settings.contactEmail` / `settings.email`), else the e-mail of whoever bought
 * the period. Null when none is a valid address.
 */
export async function billingEmailOf(db: Db, studio: Studio, period: PeriodRow): Promise<string | null> {
  for (const key of ['billingEmail', 'contactEmail', 'email']) {
    const value = studio.settings[key];
    if (typeof value === 'string' && EMAIL_RE.test(value.trim())) return value.trim();
  }
  if (!period.createdBy) return null;
  const buyer = (await db('users').where({ id: period.createdBy }).first('email')) as
    { email: string } | undefined;
  return buyer && EMAIL_RE.test(buyer.email) && !buyer.email.endsWith('.invalid') ? buyer.email : null;
}

/**
 * The `subscription.invoice-mail` job: the paid period's invoice PDF e-mailed to the studio's billing
 * address, in the studio's language; `invoice_sent_at` / `invoice_sent_to` recorded with the job's
 * completion. A period not paid (or already sent) sends nothing.
 */
export async function performSubscriptionInvoiceMail(
  periodId: string,
  ctx: JobContext & { key: string },
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const period = (await ctx.knex('studio_subscription_periods').where({ id: periodId }).first()) as
    PeriodRow | undefined;
  if (!period || period.status !== 'paid' || !period.invoiceNumber || period.invoiceSentAt) return;
  const studio = await findStudio(ctx.knex, period.studioId);
  if (!studio) return;
  const to = await billingEmailOf(ctx.knex, studio, period);
  if (!to) {
    ctx.log.warn({ periodId }, 'subscription invoice not e-mailed: the studio has no billing address');
    return;
  }
  const { fileName, pdf } = await subscriptionInvoicePdf(ctx.knex, studio, periodId);
  const locale = studio.defaultLocale === 'en' ? 'en' : 'pl';
  const t = tFor(locale);
  const vars = {
    studio: studio.name,
    number: period.invoiceNumber,
    period: period.period,
    total: formatPrice(period.total, period.currency),
    url: `${ctx.publicUrl()}/${studio.id}/backoffice#/settings/subscription`,
  };
  await ctx.mailer.send({
    to,
    subject: t('subscription:invoiceMail.subject', vars),
    text: `${t('subscription:invoiceMail.body', vars)}\n`,
    language: locale,
    messageId: messageIdFor(ctx.key),
    attachments: [{ filename: fileName, content: pdf, contentType: 'application/pdf' }],
  });
  return {
    record: async (trx) => {
      await trx('studio_subscription_periods')
        .where({ id: periodId })
        .update({ invoiceSentAt: ctx.clock.now(), invoiceSentTo: to });
    },
  };
}
