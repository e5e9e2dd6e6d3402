import type Router from '@koa/router';
import type { MyVisitView } from '../../../../shared/contracts/api/bookings';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { myVisitsByIds } from './bookings-views.service';
import { deskCoveringOptions, payVisitWithHeldPass, visitPayOptions } from './visit-payment.service';
import { VisitPaymentApi } from '../../../../shared/contracts/http/visit-payment';

/**
 * The front office paying a visit booked to pay at the desk (README "Paying a visit online"): what
 * would pay it, and paying it with a pass the client holds. Buying a pass for it goes through the
 * cart (`shopping-cart/prepare` with `forVisitId`).
 */
export function registerVisitPaymentRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...VisitPaymentApi.postClientVisitsPayOptions,
    handle: ({ db, studio, body, auth, deps }) =>
      visitPayOptions(db, studio, auth.user.id, body.clientVisitId, deps.clock.now()),
  });
  defineRoute(router, {
    ...VisitPaymentApi.postClientVisitsPayWithPass,
    handle: ({ db, studio, body, auth, deps }) =>
      payVisitWithHeldPass(
        db,
        studio,
        auth.user.id,
        body.clientVisitId,
        body.clientPricingOptionId,
        deps.clock.now(),
      ),
    present: async (id, { db, studio, deps }): Promise<MyVisitView> =>
      (await myVisitsByIds(db, studio, [id], deps.clock.now()))[0]!,
  });
  // Issue 26: enrolling at the desk refused for want of a pass offers to sell a covering one.
  defineRoute(router, {
    ...VisitPaymentApi.getScheduleEventCoveringPricingOptions,
    handle: ({ db, studio, params, query, deps }) =>
      deskCoveringOptions(db, studio, params.scheduleEvent, query.clientId, deps.clock.now()),
  });
}
