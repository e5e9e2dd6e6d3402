import type Router from '@koa/router';
import {
  EXPIRATION_TYPES,
  PRICING_OPTION_SERVICE_TYPES,
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
import type { Studio } from '../identity/index';
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
import { CatalogApi } from '../../../../shared/contracts/http/catalog';

/** What a pass can be narrowed to: the studio's services, locations and client tags. */
async function restrictionInit(
  db: Db,
  studio: Studio,
  locale: string | null,
): Promise<PricingOptionRestrictionInit> {
  const [services, locations, tags] = await readAll(db, [
    () =>
      db('class_services').where({ studioId: studio.id }).select('id', 'name', 'service_type').limit(1000),
    () => db('locations').where({ studioId: studio.id }).orderBy('name').select('id', 'name').limit(1000),
    () =>
      db('tags')
        .where({ studioId: studio.id, type: TagType.client })
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
    ...CatalogApi.getTaxCollection,
    handle: async ({ db, studio }): Promise<TaxList> => ({
      items: await listTaxes(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogApi.postTax,
    handle: async ({ db, studio, body }): Promise<TaxView> => createTax(db, studio.id, body),
  });

  defineRoute(router, {
    ...CatalogApi.patchTax,
    handle: async ({ db, studio, params, body }): Promise<TaxView> =>
      updateTax(db, studio.id, params.tax, body),
  });

  defineRoute(router, {
    ...CatalogApi.deleteTax,
    handle: async ({ db, studio, params }) => {
      await deleteTax(db, studio.id, params.tax);
    },
  });
}

function registerPricingOptionRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------ categories

  defineRoute(router, {
    ...CatalogApi.getPricingOptionCategoryAll,
    handle: async ({ db, studio }): Promise<PricingOptionCategoryList> => ({
      items: await listCategories(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogApi.postPricingOptionCategory,
    handle: async ({ db, studio, body }): Promise<PricingOptionCategoryView> =>
      createCategory(db, studio.id, body),
  });

  defineRoute(router, {
    ...CatalogApi.patchPricingOptionCategory,
    handle: async ({ db, studio, params, body }): Promise<PricingOptionCategoryView> =>
      updateCategory(db, studio.id, params.category, body),
  });

  // ------------------------------------------------------------------------- pricing options
  // Fixed paths before `pricing-option/:pricingOption`.

  defineRoute(router, {
    ...CatalogApi.getPricingOptionAll,
    handle: async ({ db, studio, query, deps }): Promise<PricingOptionList> => ({
      items: await listPricingOptions(db, studio, query, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogApi.getPricingOptionCategorized,
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
    ...CatalogApi.getPricingOptionRestrictionInit,
    handle: async ({ db, studio, auth }): Promise<PricingOptionRestrictionInit> =>
      restrictionInit(db, studio, auth.user.locale),
  });

  defineRoute(router, {
    ...CatalogApi.getPricingOptionInit,
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
    ...CatalogApi.postPricingOption,
    handle: async ({ db, studio, body, deps }): Promise<PricingOptionView> =>
      createPricingOption(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogApi.getPricingOption,
    handle: async ({ db, studio, params, deps }): Promise<PricingOptionView> =>
      getPricingOption(db, studio, params.pricingOption, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogApi.patchPricingOption,
    handle: async ({ db, studio, params, body, deps }): Promise<PricingOptionView> =>
      updatePricingOption(db, studio, params.pricingOption, body, deps.clock.now()),
  });

  // ------------------------------------------------------------------------------ promotions

  defineRoute(router, {
    ...CatalogApi.getPricingOptionPromotionInit,
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
    ...CatalogApi.postPricingOptionPromotion,
    handle: async ({ db, studio, params, body }): Promise<PromotionView> =>
      createPromotion(db, studio, params.pricingOption, body),
  });

  defineRoute(router, {
    ...CatalogApi.deletePricingOptionPromotion,
    handle: async ({ db, studio, params }) => {
      await deletePromotion(db, studio.id, params.pricingOption, params.promotion);
    },
  });
}

function registerClientPricingOptionRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CatalogApi.getClientClientPricingOptionAll,
    handle: async ({ db, studio, params, deps }): Promise<ClientPricingOptionList> => ({
      items: await listClientPasses(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogApi.getClientClientPricingOptionSharedForMe,
    handle: async ({ db, studio, params, deps }): Promise<ClientPricingOptionList> => ({
      items: await passesSharedWith(db, studio, params.user, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    ...CatalogApi.getClientPricingOptionInit,
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
    ...CatalogApi.patchClientPricingOption,
    handle: async ({ db, studio, auth, params, body, deps }): Promise<ClientPricingOptionView> =>
      changePass(db, studio, auth.user.id, params.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogApi.postClientPricingOptionShare,
    handle: async ({ db, studio, auth, params, body, deps }): Promise<ClientPricingOptionView> =>
      sharePass(db, studio, auth.user.id, params.id, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...CatalogApi.postManagerToolsClientPricingOptionBulkChange,
    handle: async ({ db, studio, auth, body, deps }): Promise<BulkChangeResult> =>
      bulkChangePasses(db, studio, auth.user.id, body, deps.clock.now()),
  });

  /** Spec §7 private v2: sell (or give) a pass to a client at the desk. */
  defineRoute(router, {
    ...CatalogApi.postClientsClientPricingOptions,
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
