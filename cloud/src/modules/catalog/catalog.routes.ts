import type Router from '@koa/router';
import { z } from 'zod';
import {
  BulkChangeInputSchema,
  ClientPricingOptionPatchSchema,
  ClientPricingOptionSaleSchema,
  ClientPricingOptionShareSchema,
  EXPIRATION_TYPES,
  PRICING_OPTION_SERVICE_TYPES,
  PricingOptionCategoryInputSchema,
  PricingOptionCategoryPatchSchema,
  PricingOptionInitQuerySchema,
  PricingOptionInputSchema,
  PricingOptionListQuerySchema,
  PricingOptionPatchSchema,
  PromotionInputSchema,
  TaxInputSchema,
  TaxPatchSchema,
  type BulkChangeResult,
  type ClientPricingOptionInit,
  type ClientPricingOptionList,
  type ClientPricingOptionView,
  type PricingOptionCategorized,
  type PricingOptionCategoryList,
  type PricingOptionCategoryView,
  type PricingOptionInit,
  type PricingOptionList,
  type PricingOptionRestrictionInit,
  type PricingOptionView,
  type PromotionInit,
  type PromotionView,
  type TaxList,
  type TaxView,
} from '../../../../shared/contracts/api/catalog';
import { VALIDITY_UNITS } from '../../../../shared/domain/entitlements/pass-validity';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { TagType } from '../../../../shared/enums/clients';
import { pricingOptionServiceTypeOf, type ServiceType } from '../../../../shared/enums/services';
import { can } from '../../../../shared/policies/abilities';
import type { Db } from '../../db/knex';
import { abilitiesOf } from '../../http/abilities';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import type { Studio } from '../identity/studio.model';
import {
  bulkChangePasses,
  changePass,
  listClientPasses,
  passesSharedWith,
  passInit,
  sellPass,
  sharePass,
} from './client-pricing-options.service';
import {
  createCategory,
  createPricingOption,
  createPromotion,
  deletePromotion,
  getPricingOption,
  listCategories,
  listPricingOptions,
  updateCategory,
  updatePricingOption,
} from './pricing-options.service';
import { createTax, deleteTax, listTaxes, updateTax } from './taxes.service';
import { registerCatalogScreenRoutes } from './catalog-screens.routes';
import { readAll } from '../../db/read-all';

const StudioParams = z.object({ uuid: z.string() });
const TaxParams = z.object({ uuid: z.string(), tax: z.uuid() });
const CategoryParams = z.object({ uuid: z.string(), category: z.uuid() });
const OptionParams = z.object({ uuid: z.string(), pricingOption: z.uuid() });
const PromotionParams = z.object({ uuid: z.string(), pricingOption: z.uuid(), promotion: z.uuid() });
const ClientParams = z.object({ uuid: z.string(), user: z.uuid() });
const PassParams = z.object({ uuid: z.string(), id: z.uuid() });
const SaleParams = z.object({ uuid: z.string(), userGuid: z.uuid(), pricingOptionGuid: z.uuid() });

/** What a pass can be narrowed to: the studio's services, locations and client tags. */
async function restrictionInit(
  db: Db,
  studio: Studio,
  locale: string | null,
): Promise<PricingOptionRestrictionInit> {
  const [services, locations, tags] = await readAll(db, [
    () =>
      db('class_services').where({ studio_id: studio.id }).select('id', 'name', 'service_type').limit(1000),
    () => db('locations').where({ studio_id: studio.id }).orderBy('name').select('id', 'name').limit(1000),
    () =>
      db('tags')
        .where({ studio_id: studio.id, type: TagType.client })
        .orderByRaw('lower(name)')
        .select('id', 'name')
        .limit(1000),
  ]);
  return {
    classServices: (services as Array<{ id: string; name: LocaleText; serviceType: ServiceType }>)
      .map((s) => ({
        id: s.id,
        name: resolveLocaleText(s.name, locale, studio.defaultLocale),
        serviceType: s.serviceType,
        pricingOptionServiceType: pricingOptionServiceTypeOf(s.serviceType),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    locations: locations as Array<{ id: string; name: string }>,
    tags: tags as Array<{ id: string; name: string }>,
    weekdays: [1, 2, 3, 4, 5, 6, 0],
  };
}

/**
 * Abilities: reading the catalog needs `sales.view` (the front desk sells from it), changing it
 * `settings.edit`; staff changes on a client's pass need `clients.edit`.
 */
export function registerCatalogRoutes(router: Router<AppState, AppCustom>): void {
  registerPricingOptionRoutes(router);
  registerClientPricingOptionRoutes(router);
  registerCatalogScreenRoutes(router);
  // ---------------------------------------------------------------------------------------- taxes

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/tax/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<TaxList> => ({
      items: await listTaxes(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/tax',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: TaxInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<TaxView> => createTax(db, studio.id, body),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/tax/:tax',
    access: 'staff',
    ability: 'settings.edit',
    params: TaxParams,
    body: TaxPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<TaxView> =>
      updateTax(db, studio.id, params.tax, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/tax/:tax',
    access: 'staff',
    ability: 'settings.edit',
    params: TaxParams,
    status: 204,
    handle: async ({ db, studio, params }) => {
      await deleteTax(db, studio.id, params.tax);
    },
  });
}

function registerPricingOptionRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------ categories

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option-category/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<PricingOptionCategoryList> => ({
      items: await listCategories(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/pricing-option-category',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: PricingOptionCategoryInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<PricingOptionCategoryView> =>
      createCategory(db, studio.id, body),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/pricing-option-category/:category',
    access: 'staff',
    ability: 'settings.edit',
    params: CategoryParams,
    body: PricingOptionCategoryPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<PricingOptionCategoryView> =>
      updateCategory(db, studio.id, params.category, body),
  });

  // ------------------------------------------------------------------------- pricing options
  // Fixed paths before `pricing-option/:pricingOption`.

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: PricingOptionListQuerySchema,
    handle: async ({ db, studio, query, deps }): Promise<PricingOptionList> => ({
      items: await listPricingOptions(db, studio, query, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/categorized',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: PricingOptionListQuerySchema,
    handle: async ({ db, studio, query, deps }): Promise<PricingOptionCategorized> => {
      const [categories, options] = await readAll(db, [
        () => listCategories(db, studio.id, query.archived !== 'exclude'),
        () => listPricingOptions(db, studio, query, deps.clock.now()),
      ]);
      const known = new Set(categories.map((c) => c.id));
      return {
        categories: categories.map((category) => ({
          category,
          items: options.filter((o) => o.categoryId === category.id),
        })),
        uncategorized: options.filter((o) => o.categoryId === null || !known.has(o.categoryId)),
      };
    },
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/restriction/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio, auth }): Promise<PricingOptionRestrictionInit> =>
      restrictionInit(db, studio, auth.user.locale),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: PricingOptionInitQuerySchema,
    handle: async ({ db, studio, auth, query, deps }): Promise<PricingOptionInit> => ({
      pricingOption: query.pricingOption
        ? await getPricingOption(db, studio, query.pricingOption, deps.clock.now())
        : null,
      categories: await listCategories(db, studio.id, false),
      taxes: await listTaxes(db, studio.id),
      currency: studio.currency,
      expirationTypes: EXPIRATION_TYPES.map((value) => ({
        value,
        labelKey: `enums:pricingOptionExpirationType.${value}`,
      })),
      validityUnits: VALIDITY_UNITS,
      serviceTypes: PRICING_OPTION_SERVICE_TYPES.map((value) => ({
        value,
        labelKey: `enums:pricingOptionServiceType.${value}`,
      })),
      restrictions: await restrictionInit(db, studio, auth.user.locale),
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/pricing-option',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: PricingOptionInputSchema,
    status: 201,
    handle: async ({ db, studio, body, deps }): Promise<PricingOptionView> =>
      createPricingOption(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/:pricingOption',
    access: 'staff',
    ability: 'sales.view',
    params: OptionParams,
    handle: async ({ db, studio, params, deps }): Promise<PricingOptionView> =>
      getPricingOption(db, studio, params.pricingOption, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/pricing-option/:pricingOption',
    access: 'staff',
    ability: 'settings.edit',
    params: OptionParams,
    body: PricingOptionPatchSchema,
    handle: async ({ db, studio, params, body, deps }): Promise<PricingOptionView> =>
      updatePricingOption(db, studio, params.pricingOption, body, deps.clock.now()),
  });

  // ------------------------------------------------------------------------------ promotions

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/pricing-option/:pricingOption/promotion/init',
    access: 'staff',
    ability: 'sales.view',
    params: OptionParams,
    handle: async ({ db, studio, params, deps }): Promise<PromotionInit> => {
      const option = await getPricingOption(db, studio, params.pricingOption, deps.clock.now());
      return {
        pricingOptionId: option.id,
        price: option.price,
        currentPrice: option.currentPrice,
        currency: option.currency,
        promotions: option.promotions,
      };
    },
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/pricing-option/:pricingOption/promotion',
    access: 'staff',
    ability: 'settings.edit',
    params: OptionParams,
    body: PromotionInputSchema,
    status: 201,
    handle: async ({ db, studio, params, body }): Promise<PromotionView> =>
      createPromotion(db, studio, params.pricingOption, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/pricing-option/:pricingOption/promotion/:promotion',
    access: 'staff',
    ability: 'settings.edit',
    params: PromotionParams,
    status: 204,
    handle: async ({ db, studio, params }) => {
      await deletePromotion(db, studio.id, params.pricingOption, params.promotion);
    },
  });
}

function registerClientPricingOptionRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-pricing-option/all',
    access: 'staff',
    ability: 'clients.view',
    params: ClientParams,
    handle: async ({ db, studio, params, deps }): Promise<ClientPricingOptionList> => ({
      items: await listClientPasses(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-pricing-option/shared-for-me',
    access: 'staff',
    ability: 'clients.view',
    params: ClientParams,
    handle: async ({ db, studio, params, deps }): Promise<ClientPricingOptionList> => ({
      items: await passesSharedWith(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/client-pricing-option/:id/init',
    access: 'staff',
    ability: 'clients.view',
    params: PassParams,
    handle: async ({ db, studio, membership, params, deps }): Promise<ClientPricingOptionInit> =>
      passInit(
        db,
        studio,
        params.id,
        deps.clock.now(),
        can(await abilitiesOf(db, membership), 'clients.edit'),
      ),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/client-pricing-option/:id',
    access: 'staff',
    ability: 'clients.edit',
    params: PassParams,
    body: ClientPricingOptionPatchSchema,
    handle: async ({ db, studio, auth, params, body, deps }): Promise<ClientPricingOptionView> =>
      changePass(db, studio, auth.user.id, params.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/client-pricing-option/:id/share',
    access: 'staff',
    ability: 'clients.edit',
    params: PassParams,
    body: ClientPricingOptionShareSchema,
    handle: async ({ db, studio, auth, params, body, deps }): Promise<ClientPricingOptionView> =>
      sharePass(db, studio, auth.user.id, params.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/manager-tools/client-pricing-option-bulk-change',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: BulkChangeInputSchema,
    handle: async ({ db, studio, auth, body, deps }): Promise<BulkChangeResult> =>
      bulkChangePasses(db, studio, auth.user.id, body, deps.clock.now()),
  });

  /** Spec §7 private v2: sell (or give) a pass to a client at the desk. */
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/clients/:userGuid/client-pricing-options/:pricingOptionGuid',
    access: 'staff',
    ability: 'sales.sell',
    params: SaleParams,
    body: ClientPricingOptionSaleSchema,
    status: 201,
    handle: async ({ db, studio, auth, membership, params, body, deps }): Promise<ClientPricingOptionView> =>
      sellPass(
        db,
        studio,
        auth.user.id,
        params.userGuid,
        params.pricingOptionGuid,
        body.price,
        deps.clock.now(),
        'desk',
        // Another price than the list price is a discount (or a surcharge): `sales.discount` only.
        can(await abilitiesOf(db, membership), 'sales.discount'),
      ),
  });
}
