import type Stripe from 'stripe';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { registerForeignPaymentHandler, signTransaction, stripeClient, testProvider } from '../sales/index';
import { platformSettings } from './platform-config';
import { applySubscriptionOutcome, type PaymentRow } from './subscription.service';

/**
 * The platform's side of paying a subscription period, through the providers that exist:
 * - `test`: the built-in test bank of the sales module. Its transactions are keyed by the buying
 *   studio (the bank signs its pages and notifications with that studio's test secret); its
 *   notification reaches `/app/payment-notification/test`, which hands transactions that are no
 *   client order's to `applyNotification` below.
 * - `stripe`: a Checkout Session in the platform's own Stripe account (`PLATFORM_STRIPE_SECRET_KEY`),
 *   read back when the payer returns (`/app/subscription-return`).
 * Called after the checkout's transaction committed, holding no lock (as client payments are).
 */
export async function requestSubscriptionPayment(
  knex: Knex,
  paymentId: string,
  origin: string,
  log?: Logger,
): Promise<string> {
  const payment = (await knex('subscription_payments').where({ id: paymentId }).first()) as
    PaymentRow | undefined;
  if (!payment) throw AppError.notFound('payment');
  const stored = payment.redirect as { url: string } | null;
  if (stored) return stored.url;
  const period = await knex('studio_subscription_periods').where({ id: payment.periodId }).first('period');
  const description = `${platformSettings().seller.name} ${period?.period ?? ''}`.trim();
  const returnUrl = `${origin}/app/subscription-return?payment=${paymentId}`;
  let created: { ref: string; url: string };
  try {
    if (payment.provider === 'stripe') {
      const stripe = await stripeClient(platformSettings().stripeSecretKey ?? '');
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: payment.currency.toLowerCase(),
                unit_amount: payment.amount,
                product_data: { name: description },
              },
            },
          ],
          client_reference_id: paymentId,
          metadata: { subscriptionPaymentId: paymentId, studioId: payment.studioId },
          success_url: returnUrl,
          cancel_url: `${returnUrl}&cancelled=1`,
        },
        { idempotencyKey: `subscription:${paymentId}` },
      );
      created = { ref: session.id, url: session.url ?? '' };
    } else {
      const result = await testProvider.createPayment(knex, {
        studioId: payment.studioId,
        paymentId,
        amount: payment.amount,
        currency: payment.currency,
        description,
        returnUrl,
        notifyUrl: `${origin}/app/payment-notification/test`,
      });
      // The bank's page also opens by GET with its signature in the query.
      const sig = await signTransaction(knex, { id: result.providerRef, studioId: payment.studioId });
      created = { ref: result.providerRef, url: `${result.redirect.url}?sig=${encodeURIComponent(sig)}` };
    }
  } catch (err) {
    await knex.transaction((trx) => applySubscriptionOutcome(trx, paymentId, 'failed', new Date(), log));
    log?.error({ err, paymentId }, 'platform payment provider failed');
    throw new AppError('payment.providerError', { message: 'the payment provider did not answer' });
  }
  await knex('subscription_payments')
    .where({ id: paymentId })
    .whereNull('providerRef')
    .update({
      providerRef: created.ref,
      redirect: JSON.stringify({ url: created.url }),
      updatedAt: new Date(),
    });
  const again = (await knex('subscription_payments').where({ id: paymentId }).first('redirect')) as
    { redirect: { url: string } | null } | undefined;
  return again?.redirect?.url ?? created.url;
}

/** The provider's view of a payment (on return: its notification may be late or lost). */
export async function fetchSubscriptionStatus(
  knex: Knex,
  payment: PaymentRow,
  cancelled: boolean,
): Promise<PaymentOutcome | 'pending' | null> {
  if (!payment.providerRef) return null;
  if (payment.provider === 'stripe') {
    const stripe = await stripeClient(platformSettings().stripeSecretKey ?? '');
    let session = await stripe.checkout.sessions.retrieve(payment.providerRef);
    if (cancelled && session.status === 'open') session = await stripe.checkout.sessions.expire(session.id);
    if (session.status === 'complete') return session.payment_status === 'unpaid' ? 'pending' : 'succeeded';
    if (session.status === 'expired') return 'cancelled';
    return 'pending';
  }
  if (cancelled && testProvider.cancelPayment)
    return testProvider.cancelPayment(knex, payment.studioId, payment.providerRef);
  return testProvider.fetchStatus(knex, payment.studioId, payment.providerRef);
}

/** The test bank's notification about a subscription payment (verified by the sales module). */
registerForeignPaymentHandler(async (trx, notification, now, log) => {
  const payment = (await trx('subscription_payments')
    .where({
      studioId: notification.studioId,
      provider: notification.provider,
      providerRef: notification.providerRef,
    })
    .first('id')) as { id: string } | undefined;
  if (!payment) return null;
  const changed = await applySubscriptionOutcome(trx, payment.id, notification.outcome, now, log);
  return changed ? 'applied' : 'ignored';
});

/**
 * The platform's Stripe webhook (`POST /app/subscription-notification/stripe`, the endpoint the
 * platform's staff add in its Stripe dashboard): the event's `Stripe-Signature` checked with
 * `PLATFORM_STRIPE_WEBHOOK_SECRET` as Stripe documents (`webhooks.constructEvent`: HMAC-SHA256 of
 * `<timestamp>.<raw body>`, 5 minutes' tolerance). A Checkout Session completed and paid pays the
 * period; expired (never paid: the payer never came back within Stripe's 24 hours) or an
 * asynchronous payment failed fails it. Applied once: only a pending payment changes, so Stripe's
 * retries and the return page's own check meet harmlessly. Null: the signature does not hold.
 */
export async function applyPlatformStripeEvent(
  knex: Knex,
  rawBody: string,
  signature: string,
  now: Date,
  log?: Logger,
): Promise<'applied' | 'ignored' | 'unknown' | null> {
  const settings = platformSettings();
  if (!settings.stripeWebhookSecret) return null;
  const stripe = await stripeClient(settings.stripeSecretKey ?? 'sk_unused');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, settings.stripeWebhookSecret);
  } catch {
    return null;
  }
  let outcome: PaymentOutcome;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // Completed but unpaid: a delayed method (bank debit); its async_payment_* event decides.
      if (event.data.object.payment_status === 'unpaid') return 'ignored';
      outcome = 'succeeded';
      break;
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      outcome = 'failed';
      break;
    default:
      return 'ignored';
  }
  const session = event.data.object;
  const byMetadata = session.metadata?.subscriptionPaymentId;
  const payment = (await knex('subscription_payments')
    .where({ provider: 'stripe' })
    .andWhere((q) => {
      void q.where({ providerRef: session.id });
      // The process died between creating the session and storing its id: the metadata names it.
      if (byMetadata && UUID_RE.test(byMetadata)) void q.orWhere({ id: byMetadata, providerRef: null });
    })
    .first('id')) as { id: string } | undefined;
  if (!payment) return 'unknown';
  const changed = await knex.transaction((trx) =>
    applySubscriptionOutcome(trx, payment.id, outcome, now, log),
  );
  log?.info({ event: event.id, type: event.type, paymentId: payment.id, changed }, 'platform stripe event');
  return changed ? 'applied' : 'ignored';
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
