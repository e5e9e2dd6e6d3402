import type Router from '@koa/router';
import { z } from 'zod';
import { PRICING_OPTION_SERVICE_TYPES } from '../../../../shared/contracts/api/catalog';
import {
  ClientContractPatchSchema,
  ClientContractSaleSchema,
  ContractInitQuerySchema,
  ContractInputSchema,
  ContractListQuerySchema,
  ContractPatchSchema,
  PublicContractCheckoutSchema,
  PublicContractPriceListInputSchema,
  PublicInstalmentActionSchema,
  PublicTerminateSchema,
  type ClientContractDetail,
  type ClientContractList,
  type ClientContractView,
  type ContractInit,
  type ContractList,
  type ContractView,
  type PublicContractPriceList,
} from '../../../../shared/contracts/api/contracts';
import { CONTRACT_PERIOD_UNITS } from '../../../../shared/domain/contracts';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { ContractActivationType } from '../../../../shared/enums/pricing-options';
import { AppError } from '../../../../shared/errors';
import { isLocale, negotiateLocale } from '../../../../shared/i18n/locales';
// Registers contracts in the shopping cart and their fulfilment once paid.
import './contract-cart';
import type { Db } from '../../db/knex';
import { assertAbility } from '../../http/abilities';
import { LOCALE_COOKIE } from '../../http/cookies';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { Studio } from '../identity/studio.model';
import { listTaxes } from '../catalog/taxes.service';
import {
  changeClientContract,
  clientContractDetail,
  getClientContract,
  listClientContracts,
  sellContract,
} from './client-contracts.service';
import {
  archiveContract,
  createContract,
  getContract,
  listContracts,
  publicContractPriceList,
  restrictionChoices,
  updateContract,
} from './contracts.service';
import { studioOfApiKey } from '../identity/public-api-key';

const StudioParams = z.object({ uuid: z.string() });
const ContractParams = z.object({ uuid: z.string(), contract: z.uuid() });
const ClientParams = z.object({ uuid: z.string(), user: z.uuid() });
const ClientContractParams = z.object({ uuid: z.string(), clientContract: z.uuid() });
const PublicUserParams = z.object({ user: z.uuid() });
const PublicClientContractParams = z.object({ clientContract: z.uuid() });
const PublicInstalmentParams = z.object({ clientContractInstalment: z.uuid() });

/** The client contract an instalment belongs to, in the key's studio (404 otherwise). */
async function clientContractOfInstalment(db: Db, studioId: string, instalmentId: string): Promise<string> {
  const row = (await db('client_contract_instalments')
    .where({ studioId, id: instalmentId })
    .first('client_contract_id')) as { clientContractId: string } | undefined;
  if (!row) throw AppError.notFound('instalment');
  return row.clientContractId;
}

/**
 * Abilities (decision, like passes): reading contracts `sales.view`, changing them `settings.edit`;
 * a client's contracts `clients.view`; selling `sales.sell`; terminate / suspend / resume
 * `clients.edit`, and shortening the notice `settings.edit`.
 */
export function registerContractRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------ contracts
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/contract/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ContractListQuerySchema,
    handle: async ({ db, studio, query }): Promise<ContractList> => listContracts(db, studio, query),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/contract/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ContractInitQuerySchema,
    handle: async ({ db, studio, auth, query }): Promise<ContractInit> => ({
      contract: query.contract ? await getContract(db, studio, query.contract) : null,
      taxes: await listTaxes(db, studio.id),
      currency: studio.currency,
      activationTypes: Object.values(ContractActivationType).map((value) => ({
        value,
        labelKey: `enums:contractActivationType.${value}`,
      })),
      periodUnits: CONTRACT_PERIOD_UNITS,
      serviceTypes: PRICING_OPTION_SERVICE_TYPES.map((value) => ({
        value,
        labelKey: `enums:pricingOptionServiceType.${value}`,
      })),
      restrictions: await restrictionChoices(db, studio, auth.user.locale),
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/contract',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: ContractInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<ContractView> => createContract(db, studio, body),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'sales.view',
    params: ContractParams,
    handle: async ({ db, studio, params }): Promise<ContractView> => getContract(db, studio, params.contract),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'settings.edit',
    params: ContractParams,
    body: ContractPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<ContractView> =>
      updateContract(db, studio, params.contract, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/contract/:contract',
    access: 'staff',
    ability: 'settings.edit',
    params: ContractParams,
    status: 204,
    handle: async ({ db, studio, params }) => {
      await archiveContract(db, studio, params.contract);
    },
  });

  // ----------------------------------------------------------------------- client contracts
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-contract/all',
    access: 'staff',
    ability: 'clients.view',
    params: ClientParams,
    handle: async ({ db, studio, params, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  /** Sell a contract at the desk: the client contract, its schedule, and orders for what is due today. */
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/client/:user/client-contract',
    access: 'staff',
    ability: 'sales.sell',
    params: ClientParams,
    body: ClientContractSaleSchema,
    status: 201,
    handle: async ({ db, studio, auth, params, body, deps }): Promise<ClientContractView> =>
      sellContract(
        db,
        studio,
        { userId: auth.user.id, via: 'staff' },
        params.user,
        body.contractId,
        'desk',
        deps.clock.now(),
        body.note,
      ),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client-contract/:clientContract',
    access: 'staff',
    ability: 'clients.view',
    params: ClientContractParams,
    handle: async ({ db, studio, params, deps }): Promise<ClientContractDetail> =>
      clientContractDetail(db, studio, params.clientContract, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/client-contract/:clientContract',
    access: 'staff',
    ability: 'clients.edit',
    params: ClientContractParams,
    body: ClientContractPatchSchema,
    handle: async ({ db, studio, membership, auth, params, body, deps }): Promise<ClientContractView> => {
      if (body.action === 'terminate' && body.noticePeriods !== undefined)
        await assertAbility(db, membership, 'settings.edit');
      return changeClientContract(
        db,
        studio,
        { userId: auth.user.id, via: 'staff' },
        params.clientContract,
        body,
        deps.clock.now(),
      );
    },
  });

  // --------------------------------------------------------------------------- front office
  // Anyone may read the price list (a visitor decides whether to buy by looking at it).
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/pricing/contracts',
    access: 'public',
    params: z.object({ uuid: z.uuid() }),
    body: PublicContractPriceListInputSchema,
    handle: async ({ db, params, auth, ctx }): Promise<PublicContractPriceList> => {
      const studio = await Studio.query(db).findById(params.uuid);
      if (!studio) throw AppError.notFound('studio');
      // Names in the page's language: the switch's cookie, else the user's, else the browser's.
      const chosen = ctx.cookies.get(LOCALE_COOKIE);
      const locale = isLocale(chosen)
        ? chosen
        : (auth?.user.locale ?? negotiateLocale(ctx.get('accept-language')) ?? null);
      return publicContractPriceList(db, studio, locale);
    },
  });

  /** The signed-in client's own contracts (front office "contracts"). */
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/contracts',
    access: 'client',
    params: StudioParams,
    handle: async ({ db, studio, auth, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, studio, auth.user.id, deps.clock.now()),
      next: null,
    }),
  });

  // ----------------------------------------------------------------------------- public API
  defineRoute(router, {
    method: 'get',
    path: '/v2/public/contract/all',
    access: 'public',
    query: ContractListQuerySchema,
    handle: async ({ db, ctx, query }): Promise<ContractList> =>
      listContracts(db, await studioOfApiKey(ctx, db), query),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v2/public/client/:user/contracts',
    access: 'public',
    params: PublicUserParams,
    handle: async ({ db, ctx, params, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, await studioOfApiKey(ctx, db), params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v2/public/client-contract/:clientContract/terminate',
    access: 'public',
    params: PublicClientContractParams,
    body: PublicTerminateSchema,
    handle: async ({ db, ctx, params, body, deps }): Promise<ClientContractView> =>
      changeClientContract(
        db,
        await studioOfApiKey(ctx, db),
        { userId: null, via: 'api' },
        params.clientContract,
        { action: 'terminate', requestedOn: body.requestedOn, note: body.note },
        deps.clock.now(),
      ),
  });

  /** Suspends the contract from this instalment's period on (the instalment and all later ones). */
  defineRoute(router, {
    method: 'post',
    path: '/v2/public/client-contract-instalment/:clientContractInstalment/suspend',
    access: 'public',
    params: PublicInstalmentParams,
    body: PublicInstalmentActionSchema,
    handle: async ({ db, ctx, params, body, deps }): Promise<ClientContractView> => {
      const studio = await studioOfApiKey(ctx, db);
      const clientContractId = await clientContractOfInstalment(
        db,
        studio.id,
        params.clientContractInstalment,
      );
      const instalment = (await db('client_contract_instalments')
        .where({ id: params.clientContractInstalment })
        .first('period_starts_on', 'kind', 'status')) as {
        periodStartsOn: Date | null;
        kind: string;
        status: string;
      };
      if (instalment.kind !== 'period' || instalment.status !== 'scheduled')
        throw new AppError('clientContract.nothingToSuspend', {
          message: 'this instalment cannot be suspended',
        });
      const current = await getClientContract(db, studio, clientContractId, deps.clock.now());
      const from = current.instalments.find((i) => i.id === params.clientContractInstalment)!.periodStartsOn!;
      const today = localDateOf(deps.clock.now(), studio.timeZone);
      return changeClientContract(
        db,
        studio,
        { userId: null, via: 'api' },
        clientContractId,
        { action: 'suspend', from: from < today ? today : from, note: body.note },
        deps.clock.now(),
      );
    },
  });

  /** Resumes the contract the suspended instalment belongs to (billing restarts at the next boundary). */
  defineRoute(router, {
    method: 'post',
    path: '/v2/public/client-contract-instalment/:clientContractInstalment/resume',
    access: 'public',
    params: PublicInstalmentParams,
    body: PublicInstalmentActionSchema,
    handle: async ({ db, ctx, params, body, deps }): Promise<ClientContractView> => {
      const studio = await studioOfApiKey(ctx, db);
      const clientContractId = await clientContractOfInstalment(
        db,
        studio.id,
        params.clientContractInstalment,
      );
      return changeClientContract(
        db,
        studio,
        { userId: null, via: 'api' },
        clientContractId,
        { action: 'resume', note: body.note },
        deps.clock.now(),
      );
    },
  });

  /** Contracts checkout: an integration sells a contract to one of the studio's clients. */
  defineRoute(router, {
    method: 'post',
    path: '/v2/public/contracts/checkout',
    access: 'public',
    body: PublicContractCheckoutSchema,
    status: 201,
    handle: async ({ db, ctx, body, deps }): Promise<ClientContractView> =>
      sellContract(
        db,
        await studioOfApiKey(ctx, db),
        { userId: null, via: 'api' },
        body.userId,
        body.contractId,
        'api',
        deps.clock.now(),
      ),
  });
}
