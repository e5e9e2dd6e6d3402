import { z } from 'zod';
import {
  PingEchoSchema,
  PingInputSchema,
  PingSchema,
  PlatformCheckinResultSchema,
  PlatformCheckinSchema,
} from '../api/integrations';
import { ProductListQuerySchema } from '../api/products';
import {
  PublicClientCreatedSchema,
  PublicClientCreateSchema,
  PublicClientListQuerySchema,
  PublicClientListSchema,
  PublicClientPassesSchema,
  PublicGraphInputSchema,
  PublicGraphSchema,
  PublicLoginResultSchema,
  PublicLoginSchema,
  PublicMemberListSchema,
  PublicPricingOptionListSchema,
  PublicProductListSchema,
  PublicRetailCheckoutResultSchema,
  PublicRetailCheckoutSchema,
  PublicUserSchema,
  PublicWalletInputSchema,
  PublicWalletLinkSchema,
} from '../api/public-api';
import { contractGroup } from './define';

const UserParams = z.object({ user: z.uuid() });

/**
 * The public API's calls of issue 24 (spec §7): the studio comes from the `x-api-key` header (the
 * integrations module's gate: 401 without a live key, 403 for a read key writing, per-key rate
 * limits). The calls that existed before live with the module that owns their data.
 */
export const PublicApi = contractGroup('publicApi', {
  ping: { method: 'get', path: '/v2/public/ping', access: 'public', response: PingSchema },
  pingPost: {
    method: 'post',
    path: '/v2/public/ping',
    access: 'public',
    body: PingInputSchema,
    response: PingEchoSchema,
  },
  listClients: {
    method: 'get',
    path: '/v2/public/client/all',
    access: 'public',
    query: PublicClientListQuerySchema,
    response: PublicClientListSchema,
  },
  createClient: {
    method: 'post',
    path: '/v2/public/client',
    access: 'public',
    body: PublicClientCreateSchema,
    response: PublicClientCreatedSchema,
    status: 201,
  },
  clientPricingOptions: {
    method: 'get',
    path: '/v2/public/client/:user/pricing-options',
    access: 'public',
    params: UserParams,
    response: PublicClientPassesSchema,
  },
  listMembers: {
    method: 'get',
    path: '/v2/public/member/all',
    access: 'public',
    response: PublicMemberListSchema,
  },
  listPricingOptions: {
    method: 'get',
    path: '/v2/public/pricing-option/all',
    access: 'public',
    response: PublicPricingOptionListSchema,
  },
  listProducts: {
    method: 'get',
    path: '/v2/public/product/all',
    access: 'public',
    query: ProductListQuerySchema,
    response: PublicProductListSchema,
  },
  getUser: {
    method: 'get',
    path: '/v2/public/user/:user',
    access: 'public',
    params: UserParams,
    response: PublicUserSchema,
  },
  login: {
    method: 'post',
    path: '/v2/public/user/login',
    access: 'public',
    body: PublicLoginSchema,
    response: PublicLoginResultSchema,
  },
  addPaymentCard: {
    method: 'post',
    path: '/v2/public/wallet/payment-card/add',
    access: 'public',
    body: PublicWalletInputSchema,
    response: PublicWalletLinkSchema,
  },
  addSepa: {
    method: 'post',
    path: '/v2/public/wallet/sepa/add',
    access: 'public',
    body: PublicWalletInputSchema,
    response: PublicWalletLinkSchema,
  },
  retailCheckout: {
    method: 'post',
    path: '/v2/public/retail/orders/checkout',
    access: 'public',
    body: PublicRetailCheckoutSchema,
    response: PublicRetailCheckoutResultSchema,
    status: 201,
  },
  /** Spec §7 "POST platform/checkin": an access-control platform's check-in (README). */
  platformCheckin: {
    method: 'post',
    path: '/v2/public/platform/checkin',
    access: 'public',
    body: PlatformCheckinSchema,
    response: PlatformCheckinResultSchema,
  },
  graph: {
    method: 'post',
    path: '/v2/public/:uuid/graph',
    access: 'public',
    params: z.object({ uuid: z.uuid() }),
    body: PublicGraphInputSchema,
    response: PublicGraphSchema,
  },
});
