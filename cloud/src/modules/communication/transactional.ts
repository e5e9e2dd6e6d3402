import { frontOfficePath } from '../../../../shared/contracts/routes';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import type { JobContext } from '../../jobs/perform';
import { messageIdFor } from '../../mail/mailer';
import { findStudio } from '../identity/index';
import { automationText } from './automations';
import { replyToOf } from './campaign-send';
import { brandColourOf, renderMail } from './mail-template';
import { formatPriceIn } from '../../../../shared/domain/money';

/**
 * Transactional mail clients expect (issue 23): the purchase confirmation with its receipt (the
 * order's lines and total; the invoice, when one is issued, in "My purchases"), a failed payment
 * with the link to pay again, and "your password was changed". Other modules only enqueue the
 * `transactional.mail` job in their transaction, keyed `transactional:purchase:<order>`,
 * `transactional:payment-failed:<payment>` or `transactional:password:<user>:<at>` (at most once
 * each); the mail is rendered when sent, in the client's language, with the studio as the sender.
 */
export type TransactionalMailJob =
  | { kind: 'purchaseConfirmation'; studioId: string; userId: string; orderId: string }
  | { kind: 'paymentFailed'; studioId: string; userId: string; orderId: string; paymentId: string }
  | { kind: 'passwordChanged'; studioId: string; userId: string; at: string };

export async function performTransactionalMail(
  job: TransactionalMailJob,
  ctx: JobContext & { key: string },
): Promise<void> {
  const studio = await findStudio(ctx.knex, job.studioId);
  const user = await ctx.knex('users').where({ id: job.userId }).first('email', 'firstName', 'locale');
  if (!studio || !user?.email || user.email.endsWith('.invalid')) return;
  const locale =
    user.locale === 'en' || user.locale === 'pl' ? user.locale : studio.defaultLocale === 'en' ? 'en' : 'pl';
  const base = ctx.publicUrl();
  const values: Record<string, unknown> = {};
  let receipt = '';
  if (job.kind === 'purchaseConfirmation' || job.kind === 'paymentFailed') {
    const order = await ctx.knex('client_orders').where({ id: job.orderId, studioId: studio.id }).first();
    if (!order) return;
    values.amount = order.total;
    values.link = `${base}${frontOfficePath(studio.id, 'purchases')}`;
    if (job.kind === 'purchaseConfirmation') {
      const lines = await ctx
        .knex('client_order_lines')
        .where({ orderId: order.id })
        .orderBy('position')
        .select('name', 'nameTexts', 'quantity', 'total');
      const money = {
        format: (amount: number) =>
          formatPriceIn(locale, amount, order.currency, { keepTrailingZeros: true }),
      };
      receipt = [
        '',
        ...lines.map((l) => {
          const name = l.nameTexts
            ? resolveLocaleText(l.nameTexts as LocaleText, locale, studio.defaultLocale) || l.name
            : l.name;
          return `${name}${l.quantity > 1 ? ` × ${l.quantity}` : ''}: ${money.format(l.total)}`;
        }),
        `= ${money.format(order.total)}`,
      ].join('\n');
    }
  } else {
    values.link = `${base}${frontOfficePath(studio.id, 'login')}`;
  }
  const text = automationText(job.kind, locale, studio, user.firstName ?? '', values, base);
  const mail = await renderMail({
    studioName: studio.name,
    logoUrl: studio.logoUrl,
    primaryColor: brandColourOf(studio),
    locale,
    subject: text.subject,
    body: receipt ? `${text.body}\n${receipt}` : text.body,
    unsubscribe: false,
    baseUrl: base,
  });
  const replyTo = replyToOf(studio);
  await ctx.mailer.send({
    to: user.email,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    fromName: studio.name,
    language: locale,
    ...(replyTo ? { replyTo } : {}),
    messageId: messageIdFor(ctx.key),
  });
}
