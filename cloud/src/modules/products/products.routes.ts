import type Router from '@koa/router';
import { z } from 'zod';
import {
  ProductCategoryInputSchema,
  ProductCategoryPatchSchema,
  ProductCreateInputSchema,
  ProductListQuerySchema,
  ProductPatchSchema,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_PRICE_MAX,
  PRODUCT_SKU_MAX,
  PRODUCTS_LIMIT_DEFAULT,
  PRODUCTS_LIMIT_MAX,
  StockMovementInputSchema,
  VoucherCreateInputSchema,
  VoucherListQuerySchema,
  VoucherPatchSchema,
  VoucherRedeemInputSchema,
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

const StudioParams = z.object({ uuid: z.string() });
const ProductParams = z.object({ uuid: z.string(), product: z.uuid() });
const CategoryParams = z.object({ uuid: z.string(), productCategory: z.uuid() });
const VoucherParams = z.object({ uuid: z.string(), voucher: z.uuid() });
const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(PRODUCTS_LIMIT_MAX).default(PRODUCTS_LIMIT_DEFAULT),
  cursor: z.string().max(500).optional(),
});

/**
 * Products, product categories, stock and vouchers. Reading needs `sales.view`, changing the
 * catalog `settings.edit`, redeeming a voucher at a sale `sales.sell`.
 */
export function registerProductRoutes(router: Router<AppState, AppCustom>): void {
  // Fixed paths before `product/:product` and `voucher/:voucher`.

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ProductListQuerySchema,
    handle: async ({ db, studio, query }): Promise<ProductList> => listProducts(db, studio, query),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product/categorized',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<ProductCategorized> => categorizedProducts(db, studio),
  });

  /** What the product form needs: categories, taxes (with the default), limits, stock reasons. */
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio, membership }): Promise<ProductInit> => {
      const [categories, taxes, abilities] = await readAll(db, [
        () =>
          db('product_categories')
            .where('studio_id', studio.id)
            .orderByRaw('position, lower(name), id')
            .select('id', 'name') as Promise<Array<{ id: string; name: string }>>,
        () =>
          db('taxes')
            .where('studio_id', studio.id)
            .orderBy('fiscal_slot')
            .select('id', 'name', 'rate_bp', 'fiscal_slot', 'is_default') as Promise<
            Array<{ id: string; name: string; rateBp: number | null; fiscalSlot: string; isDefault: boolean }>
          >,
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
    method: 'post',
    path: '/v4/:uuid/product',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: ProductCreateInputSchema,
    status: 201,
    handle: async ({ db, studio, auth, body }): Promise<ProductView> =>
      createProduct(db, studio, body, auth.user.id),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product/:product',
    access: 'staff',
    ability: 'sales.view',
    params: ProductParams,
    handle: async ({ db, studio, params }): Promise<ProductView> => productView(db, studio, params.product),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/product/:product',
    access: 'staff',
    ability: 'settings.edit',
    params: ProductParams,
    body: ProductPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<ProductView> =>
      updateProduct(db, studio, params.product, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/product/:product',
    access: 'staff',
    ability: 'settings.edit',
    params: ProductParams,
    status: 204,
    handle: async ({ db, studio, params }): Promise<void> => archiveProduct(db, studio, params.product),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product/:product/stock-movement/collection',
    access: 'staff',
    ability: 'sales.view',
    params: ProductParams,
    query: PageQuery,
    handle: async ({ db, studio, params, query }): Promise<StockMovementList> =>
      listStockMovements(db, studio, params.product, query),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/product/:product/stock-movement',
    access: 'staff',
    ability: 'settings.edit',
    params: ProductParams,
    body: StockMovementInputSchema,
    status: 201,
    handle: async ({ db, studio, params, body, auth }): Promise<StockMovementResult> =>
      recordStockMovement(db, studio, params.product, body, auth.user.id),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/product-category/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<ProductCategoryList> => ({
      items: await listCategories(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/product-category',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: ProductCategoryInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<ProductCategoryView> => createCategory(db, studio.id, body),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/product-category/:productCategory',
    access: 'staff',
    ability: 'settings.edit',
    params: CategoryParams,
    body: ProductCategoryPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<ProductCategoryView> =>
      updateCategory(db, studio.id, params.productCategory, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/product-category/:productCategory',
    access: 'staff',
    ability: 'settings.edit',
    params: CategoryParams,
    status: 204,
    handle: async ({ db, studio, params }): Promise<void> =>
      deleteCategory(db, studio.id, params.productCategory),
  });

  // ---------------------------------------------------------------------------------- vouchers

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/voucher/all',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: VoucherListQuerySchema,
    handle: async ({ db, deps, studio, query }): Promise<VoucherList> =>
      listVouchers(db, studio, query, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/voucher/restriction/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio, membership }): Promise<VoucherRestrictionInit> =>
      restrictionInit(db, studio, can(await abilitiesOf(db, membership), 'settings.edit')),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/voucher',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: VoucherCreateInputSchema,
    status: 201,
    handle: async ({ db, deps, studio, body }): Promise<VoucherView> =>
      createVoucher(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/voucher/:voucher',
    access: 'staff',
    ability: 'sales.view',
    params: VoucherParams,
    handle: async ({ db, deps, studio, params }): Promise<VoucherView> =>
      voucherView(db, studio, params.voucher, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/voucher/:voucher',
    access: 'staff',
    ability: 'settings.edit',
    params: VoucherParams,
    body: VoucherPatchSchema,
    handle: async ({ db, deps, studio, params, body }): Promise<VoucherView> =>
      updateVoucher(db, studio, params.voucher, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/voucher/:voucher',
    access: 'staff',
    ability: 'settings.edit',
    params: VoucherParams,
    status: 204,
    handle: async ({ db, studio, params }): Promise<void> => deleteVoucher(db, studio, params.voucher),
  });

  /** Spec §7 Retail: validates the voucher against the basket and records the redemption. */
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/retail/voucher-redeem',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: VoucherRedeemInputSchema,
    handle: async ({ db, deps, studio, body, auth }): Promise<VoucherRedemption> =>
      redeemVoucher(db, studio, body, auth.user.id, deps.clock.now()),
  });
}
