import { z } from 'zod';
import {
  ManagerPassListSchema,
  ManagerPassQuerySchema,
  MyPassesSchema,
  PassVisitListSchema,
  PublicPriceListInputSchema,
  PublicPriceListSchema,
  VoucherRedemptionListSchema,
  VoucherRedemptionQuerySchema,
} from '../api/catalog-screens';
import { ClientPricingOptionShareSchema, ClientPricingOptionViewSchema } from '../api/catalog';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

/**
 * What the catalog screens need beyond the catalog API: the front office's price list (anyone may
 * read it: a visitor decides whether to buy by looking at it) and "my passes", a pass's visits, the
 * manager tool's pass finder and a voucher's redemptions.
 */
export const CatalogScreensApi = contractGroup('catalogScreens', {
  postPricingPricingOptions: {
    method: 'post',
    path: '/v4/:uuid/pricing/pricing-options',
    access: 'public',
    params: z.object({ uuid: z.uuid() }),
    body: PublicPriceListInputSchema,
    response: PublicPriceListSchema,
  },
  postPasses: {
    method: 'post',
    path: '/v4/:uuid/passes',
    access: 'client',
    params: StudioParams,
    response: MyPassesSchema,
  },
  /** The signed-in client shares their own pass with a linked account (or withdraws the share). */
  postPassShare: {
    method: 'post',
    path: '/v4/:uuid/passes/:clientPricingOption/share',
    access: 'client',
    params: studioParams('clientPricingOption'),
    body: ClientPricingOptionShareSchema,
    response: ClientPricingOptionViewSchema,
  },
  getClientPricingOptionVisitCollection: {
    method: 'get',
    path: '/v4/:uuid/client-pricing-option/:id/visit/collection',
    access: 'staff',
    ability: 'clients.view',
    params: studioParams('id'),
    response: PassVisitListSchema,
  },
  getManagerToolsClientPricingOptionCollection: {
    method: 'get',
    path: '/v4/:uuid/manager-tools/client-pricing-option/collection',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    query: ManagerPassQuerySchema,
    response: ManagerPassListSchema,
  },
  getVoucherRedemptionCollection: {
    method: 'get',
    path: '/v4/:uuid/voucher/:voucher/redemption/collection',
    access: 'staff',
    ability: 'sales.view',
    params: studioParams('voucher'),
    query: VoucherRedemptionQuerySchema,
    response: VoucherRedemptionListSchema,
  },
});
