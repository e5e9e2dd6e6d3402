import type Router from '@koa/router';
import type {
  ManagerPassList,
  MyPasses,
  PassVisitList,
  PublicPriceList,
  VoucherRedemptionList,
} from '../../../../shared/contracts/api/catalog-screens';
import { CatalogScreensApi } from '../../../../shared/contracts/http/catalog-screens';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio } from '../identity/index';
import {
  managerPassList,
  myPasses,
  passVisits,
  publicPriceList,
  voucherRedemptions,
} from './catalog-screens.service';
import { shareMyPass } from './client-pricing-options.service';

/**
 * What the catalog screens need beyond the catalog API: the front office's price list and "my
 * passes", a pass's visits, the manager tool's pass finder and a voucher's redemptions.
 */
export function registerCatalogScreenRoutes(router: Router<AppState, AppCustom>): void {
  // Anyone may read the price list (a visitor decides whether to buy by looking at it).
  defineRoute(router, {
    ...CatalogScreensApi.postPricingPricingOptions,
    handle: async ({ db, params, body, deps }): Promise<PublicPriceList> => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      return publicPriceList(db, studio, body, deps.clock.now());
    },
  });

  defineRoute(router, {
    ...CatalogScreensApi.postPasses,
    handle: async ({ db, studio, auth, deps }): Promise<MyPasses> =>
      myPasses(db, studio, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogScreensApi.postPassShare,
    handle: async ({ db, studio, auth, params, body, deps }) =>
      shareMyPass(db, studio, auth.user.id, params.clientPricingOption, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogScreensApi.getClientPricingOptionVisitCollection,
    handle: async ({ db, studio, auth, params }): Promise<PassVisitList> => ({
      items: await passVisits(db, studio, params.id, auth.user.locale),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogScreensApi.getManagerToolsClientPricingOptionCollection,
    handle: async ({ db, studio, query, deps }): Promise<ManagerPassList> =>
      managerPassList(db, studio, query, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogScreensApi.getVoucherRedemptionCollection,
    handle: async ({ db, studio, params, query }): Promise<VoucherRedemptionList> =>
      voucherRedemptions(db, studio, params.voucher, query),
  });
}
