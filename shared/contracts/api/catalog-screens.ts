import { z } from 'zod';
import {
  ClientPricingOptionViewSchema,
  PricingOptionCategoryViewSchema,
  PricingOptionViewSchema,
} from './catalog';
import { uuid } from './common';

/**
 * Calls the catalog screens need beyond the catalog API of `catalog.ts`: the front office's price
 * list and "my passes" (spec §7 front office `pricing/pricing-options`, `passes`), the visits a pass
 * paid for, the manager tool's pass finder and a voucher's redemptions.
 */

// ------------------------------------------------------------------------- front office

/** POST `pricing/pricing-options`: no filters yet; an empty body (or none). */
export const PublicPriceListInputSchema = z.strictObject({
  categoryId: uuid().optional(),
});

/**
 * What a visitor sees of a pricing option: its terms and price, nothing internal (position, tax id,
 * per-client limit counters, restriction ids).
 */
export const PublicPricingOptionSchema = PricingOptionViewSchema.pick({
  id: true,
  name: true,
  description: true,
  categoryId: true,
  price: true,
  currentPrice: true,
  currency: true,
  entries: true,
  expirationType: true,
  validityCount: true,
  validityUnit: true,
  validUntil: true,
  serviceTypes: true,
  limitPerClient: true,
  shareable: true,
}).extend({
  /** The running promotion's last day when `currentPrice` is a promotional price. */
  promotionEndsOn: z.string().nullable(),
});
export type PublicPricingOption = z.infer<typeof PublicPricingOptionSchema>;

export const PublicPriceListSchema = z.object({
  currency: z.string(),
  categories: z.array(
    z.object({
      category: PricingOptionCategoryViewSchema.pick({ id: true, name: true, position: true }),
      items: z.array(PublicPricingOptionSchema),
    }),
  ),
  uncategorized: z.array(PublicPricingOptionSchema),
});
export type PublicPriceList = z.infer<typeof PublicPriceListSchema>;

/** POST `passes`: the signed-in client's passes and those linked accounts shared with them. */
export const MyPassesSchema = z.object({
  /** `shareable`: its option lets the owner share it (with linked accounts, up to its limit). */
  own: z.array(ClientPricingOptionViewSchema.extend({ shareable: z.boolean() })),
  sharedWithMe: z.array(
    ClientPricingOptionViewSchema.extend({
      owner: z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() }),
    }),
  ),
  /** The client's linked accounts that are clients here: whom a pass may be shared with. */
  shareCandidates: z.array(z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() })),
});
export type MyPasses = z.infer<typeof MyPassesSchema>;

// ------------------------------------------------------------------------- back office

/** A visit that holds (or held) an entry of a pass. */
export const PassVisitViewSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  /** Spec §3 client visit status. */
  status: z.number(),
  /** The class's name in the caller's language, when the visit belongs to a class. */
  name: z.string().nullable(),
  /** Whether the visit holds an entry (early cancellations and the waiting list give it back). */
  usesEntry: z.boolean(),
});
export type PassVisitView = z.infer<typeof PassVisitViewSchema>;
export const PassVisitListSchema = z.object({ items: z.array(PassVisitViewSchema), next: z.null() });
export type PassVisitList = z.infer<typeof PassVisitListSchema>;

export const MANAGER_PASS_STATUSES = ['active', 'notActivated', 'inactive', 'all'] as const;
export const ManagerPassQuerySchema = z.object({
  pricingOptionId: uuid().optional(),
  status: z.enum(MANAGER_PASS_STATUSES).default('active'),
});
export type ManagerPassQuery = z.infer<typeof ManagerPassQuerySchema>;

/** GET `manager-tools/client-pricing-option/collection`: passes to pick for a bulk change. */
export const ManagerPassListSchema = z.object({
  items: z.array(
    ClientPricingOptionViewSchema.extend({
      client: z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() }),
    }),
  ),
  /** True when more passes matched than the list holds (the list stops at the bulk maximum). */
  truncated: z.boolean(),
  next: z.null(),
});
export type ManagerPassList = z.infer<typeof ManagerPassListSchema>;

export const VoucherRedemptionRowSchema = z.object({
  id: z.string(),
  useNumber: z.number(),
  client: z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  redeemedBy: z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  basketTotal: z.number(),
  eligibleTotal: z.number(),
  discount: z.number(),
  currency: z.string(),
  reference: z.string().nullable(),
  createdAt: z.string(),
});
export type VoucherRedemptionRow = z.infer<typeof VoucherRedemptionRowSchema>;
export const VoucherRedemptionListSchema = z.object({
  items: z.array(VoucherRedemptionRowSchema),
  next: z.string().nullable(),
});
export type VoucherRedemptionList = z.infer<typeof VoucherRedemptionListSchema>;
export const VoucherRedemptionQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** The last id of the previous page (ids are UUIDv7: newest first). */
  cursor: uuid().optional(),
});
