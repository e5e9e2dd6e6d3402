import type Router from '@koa/router';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { registerDonationGuards } from './donations.limits';
import { deliverDueDonationReceipts } from './donations.receipts';

/**
 * The donation module's layers in front of the sales module's routes (registered before them in
 * `app.ts`, so they run first and hand on): the checkout's rate limits, and receipt delivery after
 * the requests where a payment's outcome becomes known.
 */
async function deliverAfter(ctx: AppContext, next: () => Promise<unknown>) {
  await next();
  try {
    await deliverDueDonationReceipts(ctx.deps.knex, ctx.deps.mailer, ctx.state.log);
  } catch (err) {
    // Never fail the payer's page or the provider's webhook over a receipt: it stays due.
    ctx.state.log.error({ err }, 'donation receipt delivery failed');
  }
}

/**
 * Where a payment's outcome becomes known — the provider's return page and its notifications (sales
 * pages) — and where the donor's payment-status page polls (API), the due receipts are delivered
 * after the request has done its work. Registered before the sales module's own routes.
 */
export function registerDonationPageHooks(router: Router<AppState, AppCustom>): void {
  router.all('/app/return', async (ctx, next) =>
    ctx.query.payment === undefined ? next() : deliverAfter(ctx, next),
  );
  router.post('/app/payment-notification/:provider', deliverAfter);
}

/** API: rate limits on `donation/checkout`; receipts delivered when the payment-status page polls. */
export function registerDonationApiHooks(router: Router<AppState, AppCustom>): void {
  registerDonationGuards(router);
  router.get('/v4/:uuid/donation/payment-status', deliverAfter);
}
