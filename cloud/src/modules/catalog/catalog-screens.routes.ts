import type Router from '@koa/router';
import { z } from 'zod';
import {
  ManagerPassQuerySchema,
  PublicPriceListInputSchema,
  VoucherRedemptionQuerySchema,
  type ManagerPassList,
  type MyPasses,
  type PassVisitList,
  type PublicPriceList,
  type VoucherRedemptionList,
} from '../../../../shared/contracts/api/catalog-screens';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio } from '../identity/rows';
import {
  managerPassList,
  myPasses,
  passVisits,
  publicPriceList,
  voucherRedemptions,
} from './catalog-screens.service';

const StudioParams = z.object({ uuid: z.string() });
const PublicStudioParams = z.object({ uuid: z.uuid() });
const PassParams = z.object({ uuid: z.string(), id: z.uuid() });
const VoucherParams = z.object({ uuid: z.string(), voucher: z.uuid() });

/**
 * What the catalog screens need beyond the catalog API: the front office's price list and "my
 * passes", a pass's visits, the manager tool's pass finder and a voucher's redemptions.
 */
export function registerCatalogScreenRoutes(router: Router<AppState, AppCustom>): void {
  // Anyone may read the price list (a visitor decides whether to buy by looking at it).
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/pricing/pricing-options',
    access: 'public',
    params: PublicStudioParams,
    body: PublicPriceListInputSchema,
    handle: async ({ db, params, body, deps }): Promise<PublicPriceList> => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      return publicPriceList(db, studio, body, deps.clock.now());
    },
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/passes',
    access: 'client',
    params: StudioParams,
    handle: async ({ db, studio, auth, deps }): Promise<MyPasses> =>
      myPasses(db, studio, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client-pricing-option/:id/visit/collection',
    access: 'staff',
    ability: 'clients.view',
    params: PassParams,
    handle: async ({ db, studio, auth, params }): Promise<PassVisitList> => ({
      items: await passVisits(db, studio, params.id, auth.user.locale),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/manager-tools/client-pricing-option/collection',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    query: ManagerPassQuerySchema,
    handle: async ({ db, studio, query, deps }): Promise<ManagerPassList> =>
      managerPassList(db, studio, query, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/voucher/:voucher/redemption/collection',
    access: 'staff',
    ability: 'sales.view',
    params: VoucherParams,
    query: VoucherRedemptionQuerySchema,
    handle: async ({ db, studio, params, query }): Promise<VoucherRedemptionList> =>
      voucherRedemptions(db, studio, params.voucher, query),
  });
}
