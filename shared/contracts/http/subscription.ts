import { z } from 'zod';
import {
  SubscriptionCartInputSchema,
  SubscriptionCartQuerySchema,
  SubscriptionCartStatusQuerySchema,
  SubscriptionCartStatusSchema,
  SubscriptionCheckoutResultSchema,
  SubscriptionInitSchema,
  SubscriptionPeriodListSchema,
  SubscriptionQuoteSchema,
} from '../api/subscription';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });

/**
 * The studio's subscription to the platform (issue 25; cloud/src/modules/subscription/README.md).
 * Staff with `settings.view` see it; `settings.edit` buys (checkout).
 */
export const SubscriptionApi = contractGroup('subscription', {
  init: {
    method: 'get',
    path: '/v4/:uuid/studio-subscription/init',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: SubscriptionInitSchema,
  },
  periods: {
    method: 'get',
    path: '/v4/:uuid/studio-subscription/:studioSubscription/periods',
    access: 'staff',
    ability: 'settings.view',
    params: z.object({ uuid: z.string(), studioSubscription: z.uuid() }),
    response: SubscriptionPeriodListSchema,
  },
  invoice: {
    method: 'get',
    path: '/v4/:uuid/studio-subscription-period/:studioSubscriptionPeriod/invoice',
    access: 'staff',
    ability: 'settings.view',
    params: z.object({ uuid: z.string(), studioSubscriptionPeriod: z.uuid() }),
    responseKind: 'file',
    contentType: 'application/pdf',
  },
  cartStatus: {
    method: 'get',
    path: '/v4/:uuid/subscription-period/shopping-cart/status',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: SubscriptionCartStatusQuerySchema,
    response: SubscriptionCartStatusSchema,
  },
  cartPrepare: {
    method: 'get',
    path: '/v4/:uuid/subscription-period/shopping-cart/prepare',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: SubscriptionCartQuerySchema,
    response: SubscriptionQuoteSchema,
  },
  cartCheckout: {
    method: 'post',
    path: '/v4/:uuid/subscription-period/shopping-cart/checkout',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: SubscriptionCartInputSchema,
    status: 201,
    response: SubscriptionCheckoutResultSchema,
  },
});
