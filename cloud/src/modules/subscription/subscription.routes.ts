import type Router from '@koa/router';
import type { SubscriptionCartInput } from '../../../../shared/contracts/api/subscription';
import { SubscriptionApi } from '../../../../shared/contracts/http/subscription';
import type { Knex } from '../../db/knex';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { backOfficePath } from '../../../../shared/contracts/routes';
import { once } from '../sales/index';
import {
  applyPlatformStripeEvent,
  fetchSubscriptionStatus,
  requestSubscriptionPayment,
} from './platform-payments';
import { platformSettings } from './platform-config';
import { AppError } from '../../../../shared/errors';
import { subscriptionInvoicePdf } from './subscription-invoice';
import {
  applySubscriptionOutcome,
  cartStatus,
  checkout,
  listPeriods,
  quote,
  subscriptionInit,
  type PaymentRow,
} from './subscription.service';

/** The request's own scheme and host (where the payer comes back with their session cookie). */
const originOf = (ctx: AppContext) => `${ctx.protocol}://${ctx.host}`;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec §7 studio-subscription init and periods, subscription-period shopping-cart (issue 25). */
export function registerSubscriptionRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...SubscriptionApi.init,
    handle: async ({ db, studio, deps }) => subscriptionInit(db, studio, deps.clock.now()),
  });
  defineRoute(router, {
    ...SubscriptionApi.periods,
    handle: async ({ db, studio, params }) => listPeriods(db, studio, params.studioSubscription),
  });
  defineRoute(router, {
    ...SubscriptionApi.invoice,
    handle: async ({ db, studio, params, ctx }): Promise<Buffer> => {
      const { fileName, pdf } = await subscriptionInvoicePdf(db, studio, params.studioSubscriptionPeriod);
      ctx.attachment(fileName);
      ctx.set('Cache-Control', 'private, no-store');
      return pdf;
    },
  });
  defineRoute(router, {
    ...SubscriptionApi.cartStatus,
    handle: async ({ db, studio, query }) => cartStatus(db, studio, query.studioSubscriptionPeriod),
  });
  defineRoute(router, {
    ...SubscriptionApi.cartPrepare,
    handle: async ({ db, studio, query, deps }) =>
      quote(db, studio, { plan: query.plan ?? null, addOns: query.addOns }, deps.clock.now()),
  });
  defineRoute(router, {
    ...SubscriptionApi.cartCheckout,
    // Once per Idempotency-Key (per studio and user, as client checkouts): a double click or a retry
    // after a lost answer gets the first answer — one period, one payment, one provider session.
    handle: async ({ db, studio, body, auth, deps, ctx }) =>
      once(
        db as Knex.Transaction,
        { studioId: studio.id, userId: auth.user.id },
        ctx.get('idempotency-key') || undefined,
        body,
        () =>
          checkout(
            db as Knex.Transaction,
            studio,
            body as SubscriptionCartInput,
            auth.user.id,
            deps.clock.now(),
          ),
      ),
    // After the commit, holding no lock: the provider's transaction and its page.
    present: async (result, { ctx, deps }) => ({
      ...result,
      redirectUrl: await requestSubscriptionPayment(
        deps.knex,
        result.paymentId,
        originOf(ctx),
        ctx.state.log,
      ),
    }),
  });
}

/**
 * `/app/subscription-return?payment=…`: where the provider sends the studio's manager back. Asks the
 * provider for the state (the notification may be late or lost), applies it, and opens Settings →
 * Subscription on the period, which shows the outcome.
 */
export function registerSubscriptionPageRoutes(router: Router<AppState, AppCustom>): void {
  /**
   * The platform's Stripe webhook (platform-payments.ts `applyPlatformStripeEvent`): outside `/api`,
   * no session — the signature is the check. 404 while `PLATFORM_STRIPE_WEBHOOK_SECRET` is unset.
   */
  router.post('/app/subscription-notification/stripe', async (ctx) => {
    if (!platformSettings().stripeWebhookSecret) throw AppError.notFound('endpoint');
    const signature = ctx.get('stripe-signature');
    const rawBody = (ctx.request as { rawBody?: string }).rawBody ?? '';
    const result = signature
      ? await applyPlatformStripeEvent(ctx.deps.knex, rawBody, signature, ctx.deps.clock.now(), ctx.state.log)
      : null;
    if (!result) throw new AppError('payment.notificationInvalid', { message: 'not a valid notification' });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { received: true, result };
  });

  router.get('/app/subscription-return', async (ctx, next) => {
    const id = ctx.query.payment;
    if (typeof id !== 'string' || !UUID_RE.test(id)) return next();
    const knex = ctx.deps.knex;
    const payment = (await knex('subscription_payments').where({ id }).first()) as PaymentRow | undefined;
    if (!payment) return next();
    if (payment.status === 'pending') {
      const state = await fetchSubscriptionStatus(knex, payment, ctx.query.cancelled === '1');
      if (state && state !== 'pending')
        await knex.transaction((trx) =>
          applySubscriptionOutcome(trx, payment.id, state, ctx.deps.clock.now(), ctx.state.log),
        );
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(
      `${backOfficePath(payment.studioId)}#/settings/subscription?period=${encodeURIComponent(payment.periodId)}`,
    );
  });
}
