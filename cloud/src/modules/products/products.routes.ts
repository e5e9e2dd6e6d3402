import type Router from '@koa/router';
import {
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_PRICE_MAX,
  PRODUCT_SKU_MAX,
  type ProductCategorized,
  type ProductCategoryList,
  type ProductCategoryView,
  type ProductInit,
  type ProductList,
  type ProductView,
  type StockMovementList,
  type StockMovementResult,
  type VoucherList,
  type VoucherRedemption,
  type VoucherRestrictionInit,
  type VoucherView,
} from '../../../../shared/contracts/api/products';
import { ProductsApi } from '../../../../shared/contracts/http/products';
import { MANUAL_STOCK_REASONS } from '../../../../shared/domain/products';
import { can } from '../../../../shared/policies/abilities';
import { abilitiesOf } from '../../http/abilities';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  archiveProduct,
  categorizedProducts,
  createCategory,
  createProduct,
  deleteCategory,
  listCategories,
  listProducts,
  listStockMovements,
  productView,
  recordStockMovement,
  updateCategory,
  updateProduct,
} from './products.service';
import {
  createVoucher,
  deleteVoucher,
  listVouchers,
  redeemVoucher,
  restrictionInit,
  updateVoucher,
  voucherView,
} from './vouchers.service';
import { readAll } from '../../db/read-all';

/**
 * Products, product categories, stock and vouchers. Reading needs `sales.view`, changing the
 * catalog `settings.edit`, redeeming a voucher at a sale `sales.sell`.
 */
export function registerProductRoutes(router: Router<AppState, AppCustom>): void {
  // Fixed paths before `product/:product` and `voucher/:voucher`.

  defineRoute(router, {
    ...ProductsApi.getProductCollection,
    handle: async ({ db, studio, query }): Promise<ProductList> => listProducts(db, studio, query),
  });

  defineRoute(router, {
    ...ProductsApi.getProductCategorized,
    handle: async ({ db, studio }): Promise<ProductCategorized> => categorizedProducts(db, studio),
  });

  /** What the product form needs: categories, taxes (with the default), limits, stock reasons. */
  defineRoute(router, {
    ...ProductsApi.getProductInit,
    handle: async ({ db, studio, membership }): Promise<ProductInit> => {
      const [categories, taxes, abilities] = await readAll(db, [
        () =>
          db('product_categories')
            .where('studioId', studio.id)
            .orderByRaw('position, lower(name), id')
            .select('id', 'name'),
        () =>
          db('taxes')
            .where('studioId', studio.id)
            .orderBy('fiscalSlot')
            .select('id', 'name', 'rateBp', 'fiscalSlot', 'isDefault'),
        () => abilitiesOf(db, membership),
      ]);
      return {
        currency: studio.currency,
        categories,
        taxes,
        defaultTaxId: (taxes.find((t) => t.isDefault) ?? taxes[0])?.id ?? null,
        stockReasons: [...MANUAL_STOCK_REASONS],
        fields: {
          name: { maxLength: PRODUCT_NAME_MAX },
          description: { maxLength: PRODUCT_DESCRIPTION_MAX },
          sku: { maxLength: PRODUCT_SKU_MAX },
          price: { min: 0, max: PRODUCT_PRICE_MAX },
        },
        abilities: { edit: can(abilities, 'settings.edit') },
      };
    },
  });

  defineRoute(router, {
    ...ProductsApi.postProduct,
    handle: async ({ db, studio, auth, body }): Promise<ProductView> =>
      createProduct(db, studio, body, auth.user.id),
  });

  defineRoute(router, {
    ...ProductsApi.getProduct,
    handle: async ({ db, studio, params }): Promise<ProductView> => productView(db, studio, params.product),
  });

  defineRoute(router, {
    ...ProductsApi.patchProduct,
    handle: async ({ db, studio, params, body }): Promise<ProductView> =>
      updateProduct(db, studio, params.product, body),
  });

  defineRoute(router, {
    ...ProductsApi.deleteProduct,
    handle: async ({ db, studio, params }): Promise<void> => archiveProduct(db, studio, params.product),
  });

  defineRoute(router, {
    ...ProductsApi.getProductStockMovementCollection,
    handle: async ({ db, studio, params, query }): Promise<StockMovementList> =>
      listStockMovements(db, studio, params.product, query),
  });

  defineRoute(router, {
    ...ProductsApi.postProductStockMovement,
    handle: async ({ db, studio, params, body, auth }): Promise<StockMovementResult> =>
      recordStockMovement(db, studio, params.product, body, auth.user.id),
  });

  defineRoute(router, {
    ...ProductsApi.getProductCategoryCollection,
    handle: async ({ db, studio }): Promise<ProductCategoryList> => ({
      items: await listCategories(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    ...ProductsApi.postProductCategory,
    handle: async ({ db, studio, body }): Promise<ProductCategoryView> => createCategory(db, studio.id, body),
  });

  defineRoute(router, {
    ...ProductsApi.patchProductCategory,
    handle: async ({ db, studio, params, body }): Promise<ProductCategoryView> =>
      updateCategory(db, studio.id, params.productCategory, body),
  });

  defineRoute(router, {
    ...ProductsApi.deleteProductCategory,
    handle: async ({ db, studio, params }): Promise<void> =>
      deleteCategory(db, studio.id, params.productCategory),
  });

  // ---------------------------------------------------------------------------------- vouchers

  defineRoute(router, {
    ...ProductsApi.getVoucherAll,
    handle: async ({ db, deps, studio, query }): Promise<VoucherList> =>
      listVouchers(db, studio, query, deps.clock.now()),
  });

  defineRoute(router, {
    ...ProductsApi.getVoucherRestrictionInit,
    handle: async ({ db, studio, membership }): Promise<VoucherRestrictionInit> =>
      restrictionInit(db, studio, can(await abilitiesOf(db, membership), 'settings.edit')),
  });

  defineRoute(router, {
    ...ProductsApi.postVoucher,
    handle: async ({ db, deps, studio, body }): Promise<VoucherView> =>
      createVoucher(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...ProductsApi.getVoucher,
    handle: async ({ db, deps, studio, params }): Promise<VoucherView> =>
      voucherView(db, studio, params.voucher, deps.clock.now()),
  });

  defineRoute(router, {
    ...ProductsApi.patchVoucher,
    handle: async ({ db, deps, studio, params, body }): Promise<VoucherView> =>
      updateVoucher(db, studio, params.voucher, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...ProductsApi.deleteVoucher,
    handle: async ({ db, studio, params }): Promise<void> => deleteVoucher(db, studio, params.voucher),
  });

  /** Spec §7 Retail: validates the voucher against the basket and records the redemption. */
  defineRoute(router, {
    ...ProductsApi.postRetailVoucherRedeem,
    handle: async ({ db, deps, studio, body, auth }): Promise<VoucherRedemption> =>
      redeemVoucher(db, studio, body, auth.user.id, deps.clock.now()),
  });
}
