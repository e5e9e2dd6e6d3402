import type Router from '@koa/router';
import { PRICING_OPTION_SERVICE_TYPES } from '../../../../shared/contracts/api/catalog';
import {
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
import { findStudio } from '../identity/index';
import { ContractsApi } from '../../../../shared/contracts/http/contracts';
import { listTaxes } from '../catalog/index';
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
import { studioOfApiKey } from '../identity/index';

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
    ...ContractsApi.getContractAll,
    handle: async ({ db, studio, query }): Promise<ContractList> => listContracts(db, studio, query),
  });

  defineRoute(router, {
    ...ContractsApi.getContractInit,
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
    ...ContractsApi.postContract,
    handle: async ({ db, studio, body }): Promise<ContractView> => createContract(db, studio, body),
  });

  defineRoute(router, {
    ...ContractsApi.getContract,
    handle: async ({ db, studio, params }): Promise<ContractView> => getContract(db, studio, params.contract),
  });

  defineRoute(router, {
    ...ContractsApi.patchContract,
    handle: async ({ db, studio, params, body }): Promise<ContractView> =>
      updateContract(db, studio, params.contract, body),
  });

  defineRoute(router, {
    ...ContractsApi.deleteContract,
    handle: async ({ db, studio, params }) => {
      await archiveContract(db, studio, params.contract);
    },
  });

  // ----------------------------------------------------------------------- client contracts
  defineRoute(router, {
    ...ContractsApi.getClientContractAll,
    handle: async ({ db, studio, params, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  /** Sell a contract at the desk: the client contract, its schedule, and orders for what is due today. */
  defineRoute(router, {
    ...ContractsApi.postClientContract,
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
    ...ContractsApi.getClientContract,
    handle: async ({ db, studio, params, deps }): Promise<ClientContractDetail> =>
      clientContractDetail(db, studio, params.clientContract, deps.clock.now()),
  });

  defineRoute(router, {
    ...ContractsApi.patchClientContract,
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
    ...ContractsApi.postPricingContracts,
    handle: async ({ db, params, auth, ctx }): Promise<PublicContractPriceList> => {
      const studio = await findStudio(db, params.uuid);
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
    ...ContractsApi.getMyContracts,
    handle: async ({ db, studio, auth, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, studio, auth.user.id, deps.clock.now()),
      next: null,
    }),
  });

  // ----------------------------------------------------------------------------- public API
  defineRoute(router, {
    ...ContractsApi.getPublicContractAll,
    handle: async ({ db, ctx, query }): Promise<ContractList> =>
      listContracts(db, await studioOfApiKey(ctx, db), query),
  });

  defineRoute(router, {
    ...ContractsApi.getPublicClientContracts,
    handle: async ({ db, ctx, params, deps }): Promise<ClientContractList> => ({
      items: await listClientContracts(db, await studioOfApiKey(ctx, db), params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    ...ContractsApi.postPublicTerminate,
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
    ...ContractsApi.postPublicInstalmentSuspend,
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
    ...ContractsApi.postPublicInstalmentResume,
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
    ...ContractsApi.postPublicCheckout,
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
