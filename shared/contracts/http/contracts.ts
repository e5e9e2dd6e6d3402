import { z } from 'zod';
import {
  ClientContractDetailSchema,
  ClientContractListSchema,
  ClientContractPatchSchema,
  ClientContractSaleSchema,
  ClientContractViewSchema,
  ContractInitQuerySchema,
  ContractInitSchema,
  ContractInputSchema,
  ContractListQuerySchema,
  ContractListSchema,
  ContractPatchSchema,
  ContractViewSchema,
  PublicContractCheckoutSchema,
  PublicContractPriceListInputSchema,
  PublicContractPriceListSchema,
  PublicInstalmentActionSchema,
  PublicTerminateSchema,
} from '../api/contracts';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const ContractParams = studioParams('contract');
const ClientParams = studioParams('user');
const ClientContractParams = studioParams('clientContract');
/** The price list is public: a malformed studio id is a 400 there, not the pipeline's 404. */
const PricingParams = z.object({ uuid: z.uuid() });
const PublicUserParams = z.object({ user: z.uuid() });
const PublicClientContractParams = z.object({ clientContract: z.uuid() });
const PublicInstalmentParams = z.object({ clientContractInstalment: z.uuid() });

/**
 * Contracts (memberships, spec §5): the studio's contracts, a client's contracts (sell, terminate,
 * suspend, resume), the front office's offer and the client's own, and the public API's calls (API key).
 */
export const ContractsApi = contractGroup('contracts', {
  getContractAll: {
    method: 'get',
    path: '/v4/:uuid/contract/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ContractListQuerySchema,
    response: ContractListSchema,
  },
  getContractInit: {
    method: 'get',
    path: '/v4/:uuid/contract/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ContractInitQuerySchema,
    response: ContractInitSchema,
  },
  postContract: {
    method: 'post',
    path: '/v4/:uuid/contract',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: ContractInputSchema,
    status: 201,
    response: ContractViewSchema,
  },
  getContract: {
    method: 'get',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'sales.view',
    params: ContractParams,
    response: ContractViewSchema,
  },
  patchContract: {
    method: 'patch',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'settings.edit',
    params: ContractParams,
    body: ContractPatchSchema,
    response: ContractViewSchema,
  },
  deleteContract: {
    method: 'delete',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'settings.edit',
    params: ContractParams,
    status: 204,
    responseKind: 'empty',
  },
  getClientContractAll: {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-contract/all',
    access: 'staff',
    ability: 'clients.view',
    params: ClientParams,
    response: ClientContractListSchema,
  },
  postClientContract: {
    method: 'post',
    path: '/v4/:uuid/client/:user/client-contract',
    access: 'staff',
    ability: 'sales.sell',
    params: ClientParams,
    body: ClientContractSaleSchema,
    status: 201,
    response: ClientContractViewSchema,
  },
  getClientContract: {
    method: 'get',
    path: '/v4/:uuid/client-contract/:clientContract',
    access: 'staff',
    ability: 'clients.view',
    params: ClientContractParams,
    response: ClientContractDetailSchema,
  },
  patchClientContract: {
    method: 'patch',
    path: '/v4/:uuid/client-contract/:clientContract',
    access: 'staff',
    ability: 'clients.edit',
    params: ClientContractParams,
    body: ClientContractPatchSchema,
    response: ClientContractViewSchema,
  },
  postPricingContracts: {
    method: 'post',
    path: '/v4/:uuid/pricing/contracts',
    access: 'public',
    params: PricingParams,
    body: PublicContractPriceListInputSchema,
    response: PublicContractPriceListSchema,
  },
  getMyContracts: {
    method: 'get',
    path: '/v4/:uuid/contracts',
    access: 'client',
    params: StudioParams,
    response: ClientContractListSchema,
  },
  getPublicContractAll: {
    method: 'get',
    path: '/v2/public/contract/all',
    access: 'public',
    query: ContractListQuerySchema,
    response: ContractListSchema,
  },
  getPublicClientContracts: {
    method: 'get',
    path: '/v2/public/client/:user/contracts',
    access: 'public',
    params: PublicUserParams,
    response: ClientContractListSchema,
  },
  postPublicTerminate: {
    method: 'post',
    path: '/v2/public/client-contract/:clientContract/terminate',
    access: 'public',
    params: PublicClientContractParams,
    body: PublicTerminateSchema,
    response: ClientContractViewSchema,
  },
  postPublicInstalmentSuspend: {
    method: 'post',
    path: '/v2/public/client-contract-instalment/:clientContractInstalment/suspend',
    access: 'public',
    params: PublicInstalmentParams,
    body: PublicInstalmentActionSchema,
    response: ClientContractViewSchema,
  },
  postPublicInstalmentResume: {
    method: 'post',
    path: '/v2/public/client-contract-instalment/:clientContractInstalment/resume',
    access: 'public',
    params: PublicInstalmentParams,
    body: PublicInstalmentActionSchema,
    response: ClientContractViewSchema,
  },
  postPublicCheckout: {
    method: 'post',
    path: '/v2/public/contracts/checkout',
    access: 'public',
    body: PublicContractCheckoutSchema,
    status: 201,
    response: ClientContractViewSchema,
  },
});
