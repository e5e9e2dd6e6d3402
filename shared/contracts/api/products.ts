import { z } from 'zod';
import { VoucherType } from '../../enums/payments';
import { checkBarcode } from '../../domain/products/barcode';
import {
  MANUAL_STOCK_REASONS,
  STOCK_MOVEMENT_MAX,
  STOCK_MOVEMENT_REASONS,
} from '../../domain/products/stock';
import {
  isVoucherCode,
  normalizeVoucherCode,
  PERCENTAGE_MAX_BP,
  VOUCHER_CODE_MAX,
  VOUCHER_DISCOUNT_TYPES,
} from '../../domain/vouchers';
import { requiredText, text, uuid, calendarDate } from './common';

/**
 * Products, product categories, stock movements and vouchers (spec §7 `product/collection`,
 * `/categorized`, `/init`, `product-category/collection`, `voucher/all`, `voucher/restriction/init`,
 * Retail `voucher-redeem`), under `/api/v4/{uuid}/...`. Money is integer minor units of the studio's
 * currency; percentages are basis points (1000 = 10 %).
 */

export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 2000;
export const PRODUCT_PRICE_MAX = 100_000_000;
export const PRODUCT_SKU_MAX = 64;
export const CATEGORY_NAME_MAX = 100;
export const VOUCHER_DESCRIPTION_MAX = 500;
export const VOUCHER_AMOUNT_MAX = 100_000_000;
export const VOUCHER_USAGE_LIMIT_MAX = 1_000_000;
export const VOUCHER_TARGETS_MAX = 500;
export const REDEEM_LINES_MAX = 200;
export const LINE_QUANTITY_MAX = 999;
export const PRODUCTS_LIMIT_DEFAULT = 50;
export const PRODUCTS_LIMIT_MAX = 200;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const int = (min: number, max: number) =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number')
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`);
const price = () => int(0, PRODUCT_PRICE_MAX);
const barcode = () =>
  z.preprocess(
    blankToNull,
    z
      .string()
      .max(40)
      .transform((v, ctx) => {
        const check = checkBarcode(v);
        if (check.valid) return check.barcode;
        ctx.addIssue({
          code: 'custom',
          message:
            check.reason === 'checkDigit'
              ? 'the check digit is wrong'
              : 'a barcode is 8, 12 or 13 digits (EAN-8, UPC-A, EAN-13)',
        });
        return z.NEVER;
      })
      .nullable(),
  );
const sku = () => z.preprocess(blankToNull, text(PRODUCT_SKU_MAX).nullable());
const calendarDay = () => z.preprocess(blankToNull, calendarDate().nullable());
const boolQuery = () => z.enum(['true', 'false'], { error: 'true or false' }).transform((v) => v === 'true');
const ids = () => z.array(uuid()).max(VOUCHER_TARGETS_MAX, `at most ${VOUCHER_TARGETS_MAX}`);

// -------------------------------------------------------------------------------------- products

export const ProductStatusSchema = z.enum(['active', 'archived']);
export type ProductStatus = z.infer<typeof ProductStatusSchema>;

export const ProductTaxSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Basis points; null = VAT-exempt. */
  rateBp: z.number().nullable(),
  fiscalSlot: z.string(),
});

export const ProductViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.object({ id: z.string(), name: z.string() }).nullable(),
  price: z.number(),
  currency: z.string(),
  tax: ProductTaxSchema,
  trackStock: z.boolean(),
  /** The sum of the stock movements; null when stock is not tracked. */
  stock: z.number().nullable(),
  barcode: z.string().nullable(),
  sku: z.string().nullable(),
  status: ProductStatusSchema,
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductView = z.infer<typeof ProductViewSchema>;

export const ProductListSchema = z.object({ items: z.array(ProductViewSchema), next: z.string().nullable() });
export type ProductList = z.infer<typeof ProductListSchema>;

export const ProductCategoryViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number(),
  /** Active products in the category. */
  productCount: z.number(),
});
export type ProductCategoryView = z.infer<typeof ProductCategoryViewSchema>;
export const ProductCategoryListSchema = z.object({
  items: z.array(ProductCategoryViewSchema),
  next: z.null(),
});
export type ProductCategoryList = z.infer<typeof ProductCategoryListSchema>;

export const ProductCategorizedSchema = z.object({
  categories: z.array(z.object({ id: z.string(), name: z.string(), products: z.array(ProductViewSchema) })),
  uncategorized: z.array(ProductViewSchema),
});
export type ProductCategorized = z.infer<typeof ProductCategorizedSchema>;

export const ProductInitSchema = z.object({
  currency: z.string(),
  categories: z.array(z.object({ id: z.string(), name: z.string() })),
  taxes: z.array(ProductTaxSchema.extend({ isDefault: z.boolean() })),
  defaultTaxId: z.string().nullable(),
  stockReasons: z.array(z.enum(MANUAL_STOCK_REASONS)),
  fields: z.object({
    name: z.object({ maxLength: z.number() }),
    description: z.object({ maxLength: z.number() }),
    sku: z.object({ maxLength: z.number() }),
    price: z.object({ min: z.number(), max: z.number() }),
  }),
  abilities: z.object({ edit: z.boolean() }),
});
export type ProductInit = z.infer<typeof ProductInitSchema>;

export const ProductListQuerySchema = z.strictObject({
  /** Name (contains, any case), or an exact barcode or SKU. */
  q: text(100).optional(),
  /** A category id, or "none" for products without one. */
  categoryId: z.union([uuid(), z.literal('none')]).optional(),
  status: z.enum(['active', 'archived', 'all']).default('active'),
  /** Only tracked products at or below zero stock (true) or above it (false). */
  outOfStock: boolQuery().optional(),
  limit: z.coerce.number().pipe(int(1, PRODUCTS_LIMIT_MAX)).default(PRODUCTS_LIMIT_DEFAULT),
  cursor: z.string().max(500).optional(),
});
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;

export const ProductCreateInputSchema = z.strictObject({
  name: requiredText(PRODUCT_NAME_MAX),
  description: text(PRODUCT_DESCRIPTION_MAX).optional(),
  categoryId: uuid().nullable().optional(),
  price: price(),
  /** Omitted: the studio's default tax. */
  taxId: uuid().optional(),
  trackStock: z.boolean().optional(),
  /** Tracked products only: the stock on the shelf now (an "initial" movement). */
  initialStock: int(0, STOCK_MOVEMENT_MAX).optional(),
  barcode: barcode().optional(),
  sku: sku().optional(),
});
export type ProductCreateInput = z.infer<typeof ProductCreateInputSchema>;

export const ProductPatchSchema = z.strictObject({
  name: requiredText(PRODUCT_NAME_MAX).optional(),
  description: text(PRODUCT_DESCRIPTION_MAX).optional(),
  categoryId: uuid().nullable().optional(),
  price: price().optional(),
  taxId: uuid().optional(),
  /** Turning tracking off keeps the movements; turning it on starts from their sum. */
  trackStock: z.boolean().optional(),
  barcode: barcode().optional(),
  sku: sku().optional(),
  /** false restores an archived product. */
  archived: z.boolean().optional(),
});
export type ProductPatch = z.infer<typeof ProductPatchSchema>;

export const ProductCategoryInputSchema = z.strictObject({
  name: requiredText(CATEGORY_NAME_MAX),
  position: int(0, 10_000).optional(),
});
export type ProductCategoryInput = z.infer<typeof ProductCategoryInputSchema>;
export const ProductCategoryPatchSchema = ProductCategoryInputSchema.partial();
export type ProductCategoryPatch = z.infer<typeof ProductCategoryPatchSchema>;

export const StockMovementInputSchema = z.strictObject({
  /** Signed: a delivery adds, a loss takes away. */
  quantity: int(-STOCK_MOVEMENT_MAX, STOCK_MOVEMENT_MAX).refine((v) => v !== 0, 'must not be zero'),
  reason: z.enum(MANUAL_STOCK_REASONS, { error: 'delivery, adjustment or loss' }),
  note: text(500).optional(),
});
export type StockMovementInput = z.infer<typeof StockMovementInputSchema>;

export const StockMovementViewSchema = z.object({
  id: z.string(),
  quantity: z.number(),
  reason: z.enum(STOCK_MOVEMENT_REASONS),
  note: z.string(),
  createdBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
});
export type StockMovementView = z.infer<typeof StockMovementViewSchema>;
export const StockMovementResultSchema = z.object({
  product: ProductViewSchema,
  movement: StockMovementViewSchema,
});
export type StockMovementResult = z.infer<typeof StockMovementResultSchema>;
export const StockMovementListSchema = z.object({
  items: z.array(StockMovementViewSchema),
  next: z.string().nullable(),
});
export type StockMovementList = z.infer<typeof StockMovementListSchema>;
export const StockMovementListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(PRODUCTS_LIMIT_MAX).default(PRODUCTS_LIMIT_DEFAULT),
  cursor: z.string().max(500).optional(),
});

// -------------------------------------------------------------------------------------- vouchers

export const VOUCHER_APPLIES_TO = ['all', 'selected'] as const;
export const VOUCHER_STATUSES = ['active', 'scheduled', 'expired', 'usedUp', 'archived'] as const;

const voucherType = () =>
  z.union([z.literal(VoucherType.singleUse), z.literal(VoucherType.multiUse)], {
    error: '0 (single use) or 1 (multi use)',
  });
const voucherCode = () =>
  z
    .string()
    .max(VOUCHER_CODE_MAX + 20)
    .transform(normalizeVoucherCode)
    .refine(isVoucherCode, 'letters, digits and hyphens, 4 to 32 characters');

export const VoucherTargetsSchema = z.object({
  productCategoryIds: z.array(z.string()),
  productIds: z.array(z.string()),
  pricingOptionIds: z.array(z.string()),
});
export type VoucherTargets = z.infer<typeof VoucherTargetsSchema>;

export const VoucherViewSchema = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string(),
  /** Spec §3: 0 single use, 1 multi use. */
  type: z.number(),
  discountType: z.enum(VOUCHER_DISCOUNT_TYPES),
  /** Minor units (amount) or basis points (percentage). */
  value: z.number(),
  currency: z.string(),
  usageLimitTotal: z.number().nullable(),
  usageLimitPerClient: z.number().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  appliesTo: z.enum(VOUCHER_APPLIES_TO),
  targets: VoucherTargetsSchema,
  usesTotal: z.number(),
  /** Uses left (single use: 1 − uses), null for unlimited. */
  usesLeft: z.number().nullable(),
  status: z.enum(VOUCHER_STATUSES),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VoucherView = z.infer<typeof VoucherViewSchema>;
export const VoucherListSchema = z.object({ items: z.array(VoucherViewSchema), next: z.string().nullable() });
export type VoucherList = z.infer<typeof VoucherListSchema>;

export const VoucherListQuerySchema = z.strictObject({
  /** Code (starts with, any case) or description (contains). */
  q: text(100).optional(),
  /** `current` = active and scheduled (the default); `all` includes archived. */
  status: z.enum(['current', ...VOUCHER_STATUSES, 'all']).default('current'),
  type: z
    .enum(['0', '1'], { error: '0 or 1' })
    .transform((v) => Number(v))
    .optional(),
  limit: z.coerce.number().pipe(int(1, PRODUCTS_LIMIT_MAX)).default(PRODUCTS_LIMIT_DEFAULT),
  cursor: z.string().max(500).optional(),
});
export type VoucherListQuery = z.infer<typeof VoucherListQuerySchema>;

const voucherFields = {
  /** Omitted or blank: generated (XXXXX-XXXXX). Stored upper-cased; unique per studio in any case. */
  code: z.preprocess(blankToNull, voucherCode().nullable()).optional(),
  description: text(VOUCHER_DESCRIPTION_MAX).optional(),
  type: voucherType(),
  discountType: z.enum(VOUCHER_DISCOUNT_TYPES, { error: 'amount or percentage' }),
  value: int(1, VOUCHER_AMOUNT_MAX),
  /** Multi use only (single use is one use); null = unlimited. */
  usageLimitTotal: int(1, VOUCHER_USAGE_LIMIT_MAX).nullable().optional(),
  usageLimitPerClient: int(1, VOUCHER_USAGE_LIMIT_MAX).nullable().optional(),
  validFrom: calendarDay().optional(),
  validTo: calendarDay().optional(),
  appliesTo: z.enum(VOUCHER_APPLIES_TO, { error: 'all or selected' }),
  productCategoryIds: ids().optional(),
  productIds: ids().optional(),
  pricingOptionIds: ids().optional(),
};

type VoucherShape = {
  type?: number;
  discountType?: string;
  value?: number;
  usageLimitTotal?: number | null;
  validFrom?: string | null;
  validTo?: string | null;
  appliesTo?: string;
  productCategoryIds?: string[];
  productIds?: string[];
  pricingOptionIds?: string[];
};

/** The rules between fields, for a whole voucher (create, or a patch merged onto the stored one). */
export function voucherFieldProblems(v: VoucherShape): Record<string, string> {
  const problems: Record<string, string> = {};
  if (v.discountType === 'percentage' && v.value !== undefined && v.value > PERCENTAGE_MAX_BP)
    problems.value = 'a percentage is at most 10000 basis points (100 %)';
  if (v.type === VoucherType.singleUse && v.usageLimitTotal != null && v.usageLimitTotal !== 1)
    problems.usageLimitTotal = 'a single-use voucher is used once';
  if (v.validFrom && v.validTo && v.validFrom > v.validTo)
    problems.validTo = 'the last day is before the first day';
  const targets =
    (v.productCategoryIds?.length ?? 0) + (v.productIds?.length ?? 0) + (v.pricingOptionIds?.length ?? 0);
  if (v.appliesTo === 'selected' && targets === 0)
    problems.appliesTo = 'choose at least one category, product or pricing option';
  return problems;
}

const addProblems = (v: VoucherShape, ctx: z.RefinementCtx) => {
  for (const [path, message] of Object.entries(voucherFieldProblems(v)))
    ctx.addIssue({ code: 'custom', path: [path], message });
};

export const VoucherCreateInputSchema = z.strictObject(voucherFields).superRefine(addProblems);
export type VoucherCreateInput = z.infer<typeof VoucherCreateInputSchema>;

export const VoucherPatchSchema = z
  .strictObject({
    ...voucherFields,
    code: voucherCode().optional(),
    type: voucherType().optional(),
    discountType: voucherFields.discountType.optional(),
    value: voucherFields.value.optional(),
    appliesTo: voucherFields.appliesTo.optional(),
    /** false restores an archived voucher. */
    archived: z.boolean().optional(),
  })
  .superRefine(addProblems);
export type VoucherPatch = z.infer<typeof VoucherPatchSchema>;

export const VoucherRestrictionInitSchema = z.object({
  currency: z.string(),
  voucherTypes: z.array(z.object({ value: z.number(), labelKey: z.string() })),
  discountTypes: z.array(z.enum(VOUCHER_DISCOUNT_TYPES)),
  appliesTo: z.array(z.enum(VOUCHER_APPLIES_TO)),
  productCategories: z.array(z.object({ id: z.string(), name: z.string() })),
  products: z.array(z.object({ id: z.string(), name: z.string(), categoryId: z.string().nullable() })),
  /** Names are locale texts ({ en: { value } }): the screen resolves them in its language. */
  pricingOptions: z.array(z.object({ id: z.string(), name: z.record(z.string(), z.unknown()) })),
  abilities: z.object({ edit: z.boolean() }),
});
export type VoucherRestrictionInit = z.infer<typeof VoucherRestrictionInitSchema>;

// ------------------------------------------------------------------------------------ redemption

export const VoucherRedeemLineSchema = z
  .strictObject({
    productId: uuid().optional(),
    pricingOptionId: uuid().optional(),
    quantity: int(1, LINE_QUANTITY_MAX).default(1),
  })
  .superRefine((line, ctx) => {
    if ((line.productId === undefined) === (line.pricingOptionId === undefined))
      ctx.addIssue({ code: 'custom', path: ['productId'], message: 'one of productId or pricingOptionId' });
  });

/** POST retail/voucher-redeem: prices come from the catalog, not from the request. */
export const VoucherRedeemInputSchema = z.strictObject({
  code: z
    .string()
    .max(VOUCHER_CODE_MAX + 20)
    .transform(normalizeVoucherCode)
    .pipe(z.string().min(1, 'required')),
  /** The client buying (USER id); needed when the voucher limits uses per client. */
  clientId: uuid().nullable().optional(),
  lines: z.array(VoucherRedeemLineSchema).min(1, 'at least one line').max(REDEEM_LINES_MAX),
  /** The sale's own reference (receipt or order number), kept with the redemption. */
  reference: text(100).optional(),
});
export type VoucherRedeemInput = z.infer<typeof VoucherRedeemInputSchema>;

export const VoucherRedemptionSchema = z.object({
  id: z.string(),
  voucher: z.object({
    id: z.string(),
    code: z.string(),
    type: z.number(),
    discountType: z.enum(VOUCHER_DISCOUNT_TYPES),
    value: z.number(),
  }),
  useNumber: z.number(),
  usesLeft: z.number().nullable(),
  basketTotal: z.number(),
  eligibleTotal: z.number(),
  discount: z.number(),
  totalAfterDiscount: z.number(),
  currency: z.string(),
  clientId: z.string().nullable(),
  createdAt: z.string(),
});
export type VoucherRedemption = z.infer<typeof VoucherRedemptionSchema>;
