import { z } from 'zod';
import { ClientPricingOptionStatus, PricingOptionExpirationType } from '../../enums/pricing-options';
import { PricingOptionServiceType } from '../../enums/services';
import type { PASS_REJECTIONS } from '../../domain/entitlements/pass-choice';
import { VALIDITY_UNITS } from '../../domain/entitlements/pass-validity';
import { requiredText, text, uuid, calendarDate } from './common';

/**
 * The back-office catalog API (spec §7 "Payments and catalog", `tax/collection`, pricing options,
 * client pricing options, manager tools), under `/api/v4/{uuid}/...`. Money is integer minor units
 * of the studio's currency; tax rates are basis points (2300 = 23 %), null for VAT-exempt.
 */

// ---------------------------------------------------------------------------------------- taxes

export const FISCAL_SLOTS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type FiscalSlot = (typeof FISCAL_SLOTS)[number];
export const TAX_NAME_MAX = 100;

export const TaxViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Basis points (2300 = 23 %); null = exempt from VAT. */
  rateBp: z.number().int().nullable(),
  fiscalSlot: z.enum(FISCAL_SLOTS),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type TaxView = z.infer<typeof TaxViewSchema>;
export const TaxListSchema = z.object({ items: z.array(TaxViewSchema), next: z.null() });
export type TaxList = z.infer<typeof TaxListSchema>;

const rateBp = () =>
  z
    .number({ error: 'a number is required' })
    .int('a whole number of basis points')
    .min(0, 'must not be negative')
    .max(10000, 'at most 100 %')
    .nullable();

export const TaxInputSchema = z.strictObject({
  name: requiredText(TAX_NAME_MAX),
  rateBp: rateBp(),
  fiscalSlot: z.enum(FISCAL_SLOTS, { error: 'a fiscal slot A to G' }),
  isDefault: z.boolean().optional(),
});
export type TaxInput = z.infer<typeof TaxInputSchema>;

export const TaxPatchSchema = TaxInputSchema.partial();
export type TaxPatch = z.infer<typeof TaxPatchSchema>;

// ------------------------------------------------------------------------- shared pieces

export const LOCALES = ['en', 'pl'] as const;
export const PRICING_OPTION_NAME_MAX = 120;
export const PRICING_OPTION_DESCRIPTION_MAX = 2000;
export const PRICE_MAX = 100_000_000; // 1 000 000.00 in minor units
export const ENTRIES_MAX = 10_000;
export const VALIDITY_COUNT_MAX = 3650;
export const RESTRICTION_IDS_MAX = 200;
export const BULK_CHANGE_MAX = 5000;

/** A text the studio types per language: `{ en: { value }, pl: { value } }`, at least one filled. */
const localeText = (max: number, required = true) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => !required || Object.values(v).some((t) => t && t.value !== ''), 'required');
export type LocaleTextInput = { en?: { value: string }; pl?: { value: string } };

const localDate = () => calendarDate();
const ids = () => z.array(uuid()).max(RESTRICTION_IDS_MAX, `at most ${RESTRICTION_IDS_MAX}`);
const price = () =>
  z
    .number({ error: 'a number is required' })
    .int('in minor units (grosze, cents)')
    .min(0, 'must not be negative')
    .max(PRICE_MAX, 'too large');

export const EXPIRATION_TYPES = Object.values(PricingOptionExpirationType);
const expirationType = () =>
  z.union(
    EXPIRATION_TYPES.map((v) => z.literal(v)),
    { error: 'invalid value' },
  );
export const PRICING_OPTION_SERVICE_TYPES = Object.values(PricingOptionServiceType);

// ------------------------------------------------------------------------------ categories

export const PricingOptionCategoryViewSchema = z.object({
  id: z.string(),
  name: z.record(z.string(), z.object({ value: z.string() })),
  position: z.number(),
  archived: z.boolean(),
});
export type PricingOptionCategoryView = z.infer<typeof PricingOptionCategoryViewSchema>;

export const PricingOptionCategoryInputSchema = z.strictObject({
  name: localeText(PRICING_OPTION_NAME_MAX),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type PricingOptionCategoryInput = z.infer<typeof PricingOptionCategoryInputSchema>;
export const PricingOptionCategoryPatchSchema = PricingOptionCategoryInputSchema.partial().extend({
  archived: z.boolean().optional(),
});
export type PricingOptionCategoryPatch = z.infer<typeof PricingOptionCategoryPatchSchema>;

// ------------------------------------------------------------------------- pricing options

export const TimeWindowSchema = z
  .strictObject({
    weekdays: z
      .array(z.number().int().min(0).max(6))
      .min(1, 'choose at least one day')
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'a day twice'),
    fromMinutes: z.number().int().min(0).max(1439),
    toMinutes: z.number().int().min(1).max(1440),
  })
  .refine((w) => w.fromMinutes < w.toMinutes, { message: 'must end after it starts', path: ['toMinutes'] });

export const RestrictionsSchema = z.strictObject({
  classServiceIds: ids().default([]),
  locationIds: ids().default([]),
  timeWindows: z.array(TimeWindowSchema).max(28).default([]),
  tagIds: ids().default([]),
});
export type Restrictions = z.infer<typeof RestrictionsSchema>;

const pricingOptionFields = {
  name: localeText(PRICING_OPTION_NAME_MAX),
  description: localeText(PRICING_OPTION_DESCRIPTION_MAX, false).optional(),
  categoryId: uuid().nullable().optional(),
  price: price(),
  taxId: uuid().nullable().optional(),
  /** null = unlimited. */
  entries: z.number().int().min(1, 'at least 1').max(ENTRIES_MAX).nullable(),
  expirationType: expirationType(),
  validityCount: z.number().int().min(1, 'at least 1').max(VALIDITY_COUNT_MAX).nullable().optional(),
  validityUnit: z.enum(VALIDITY_UNITS).nullable().optional(),
  validUntil: localDate().nullable().optional(),
  serviceTypes: z
    .array(z.enum(PRICING_OPTION_SERVICE_TYPES as [string, ...string[]]))
    .min(1, 'choose at least one kind of service')
    .max(PRICING_OPTION_SERVICE_TYPES.length),
  restrictions: RestrictionsSchema.optional(),
  sellAtDesk: z.boolean().optional(),
  sellOnline: z.boolean().optional(),
  limitPerClient: z.number().int().min(1).max(1000).nullable().optional(),
  shareable: z.boolean().optional(),
  /** How many linked accounts a pass may be shared with; null = any number. */
  shareLimit: z.number().int().min(1).max(20).nullable().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
};

type ValidityFields = {
  expirationType?: number;
  validityCount?: number | null;
  validityUnit?: string | null;
  validUntil?: string | null;
};
/** The validity fields each expiration type needs (every missing one reported). */
export function validityIssues(v: ValidityFields): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  const t = v.expirationType;
  if (t === PricingOptionExpirationType.saleDate || t === PricingOptionExpirationType.firstVisit) {
    if (v.validityCount == null) issues.push({ path: 'validityCount', message: 'required' });
    if (v.validityUnit == null) issues.push({ path: 'validityUnit', message: 'required' });
  }
  if (t === PricingOptionExpirationType.specificDate && v.validUntil == null)
    issues.push({ path: 'validUntil', message: 'required' });
  return issues;
}

export const PricingOptionInputSchema = z.strictObject(pricingOptionFields).superRefine((v, ctx) => {
  for (const issue of validityIssues(v))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type PricingOptionInput = z.infer<typeof PricingOptionInputSchema>;

export const PricingOptionPatchSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(pricingOptionFields).map(([k, s]) => [k, s.optional()])),
  archived: z.boolean().optional(),
}) as unknown as z.ZodType<Partial<PricingOptionInput> & { archived?: boolean }>;
export type PricingOptionPatch = Partial<PricingOptionInput> & { archived?: boolean };

export const PromotionViewSchema = z.object({
  id: z.string(),
  price: z.number(),
  startsOn: z.string(),
  endsOn: z.string(),
});
export type PromotionView = z.infer<typeof PromotionViewSchema>;

export const PricingOptionViewSchema = z.object({
  id: z.string(),
  name: z.record(z.string(), z.object({ value: z.string() })),
  description: z.record(z.string(), z.object({ value: z.string() })),
  categoryId: z.string().nullable(),
  price: z.number(),
  /** The price today: a running promotion's, else `price`. */
  currentPrice: z.number(),
  currency: z.string(),
  taxId: z.string().nullable(),
  taxRateBp: z.number().nullable(),
  entries: z.number().nullable(),
  expirationType: z.number(),
  validityCount: z.number().nullable(),
  validityUnit: z.enum(VALIDITY_UNITS).nullable(),
  validUntil: z.string().nullable(),
  serviceTypes: z.array(z.string()),
  restrictions: z.object({
    classServiceIds: z.array(z.string()),
    locationIds: z.array(z.string()),
    timeWindows: z.array(
      z.object({ weekdays: z.array(z.number()), fromMinutes: z.number(), toMinutes: z.number() }),
    ),
    tagIds: z.array(z.string()),
  }),
  sellAtDesk: z.boolean(),
  sellOnline: z.boolean(),
  limitPerClient: z.number().nullable(),
  shareable: z.boolean(),
  shareLimit: z.number().nullable(),
  position: z.number(),
  archived: z.boolean(),
  promotions: z.array(PromotionViewSchema),
});
export type PricingOptionView = z.infer<typeof PricingOptionViewSchema>;
export const PricingOptionListSchema = z.object({ items: z.array(PricingOptionViewSchema), next: z.null() });
export type PricingOptionList = z.infer<typeof PricingOptionListSchema>;
export const PricingOptionCategoryListSchema = z.object({
  items: z.array(PricingOptionCategoryViewSchema),
  next: z.null(),
});
export type PricingOptionCategoryList = z.infer<typeof PricingOptionCategoryListSchema>;
export const PricingOptionCategorizedSchema = z.object({
  categories: z.array(
    z.object({ category: PricingOptionCategoryViewSchema, items: z.array(PricingOptionViewSchema) }),
  ),
  uncategorized: z.array(PricingOptionViewSchema),
});
export type PricingOptionCategorized = z.infer<typeof PricingOptionCategorizedSchema>;

export const PricingOptionListQuerySchema = z.object({
  categoryId: uuid().optional(),
  archived: z.enum(['include', 'only', 'exclude']).default('exclude'),
  channel: z.enum(['desk', 'online']).optional(),
});

const ChoiceSchema = z.object({ id: z.string(), name: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;
/** `pricing-option/restriction/init`: what a pass can be narrowed to. */
export const PricingOptionRestrictionInitSchema = z.object({
  classServices: z.array(
    ChoiceSchema.extend({ serviceType: z.string(), pricingOptionServiceType: z.string() }),
  ),
  locations: z.array(ChoiceSchema),
  tags: z.array(ChoiceSchema),
  weekdays: z.array(z.number()),
});
export type PricingOptionRestrictionInit = z.infer<typeof PricingOptionRestrictionInitSchema>;
/** `pricing-option/init`: the form's choices, and the option being edited when `?pricingOption=` names one. */
export const PricingOptionInitSchema = z.object({
  pricingOption: PricingOptionViewSchema.nullable(),
  categories: z.array(PricingOptionCategoryViewSchema),
  taxes: z.array(TaxViewSchema),
  currency: z.string(),
  expirationTypes: z.array(z.object({ value: z.number(), labelKey: z.string() })),
  validityUnits: z.array(z.string()).readonly(),
  serviceTypes: z.array(z.object({ value: z.string(), labelKey: z.string() })),
  restrictions: PricingOptionRestrictionInitSchema,
});
export type PricingOptionInit = z.infer<typeof PricingOptionInitSchema>;
export const PricingOptionInitQuerySchema = z.object({ pricingOption: uuid().optional() });

export const PromotionInputSchema = z
  .strictObject({ price: price(), startsOn: localDate(), endsOn: localDate() })
  .refine((p) => p.startsOn <= p.endsOn, { message: 'must not end before it starts', path: ['endsOn'] });
export type PromotionInput = z.infer<typeof PromotionInputSchema>;
export const PromotionInitSchema = z.object({
  pricingOptionId: z.string(),
  price: z.number(),
  currentPrice: z.number(),
  currency: z.string(),
  promotions: z.array(PromotionViewSchema),
});
export type PromotionInit = z.infer<typeof PromotionInitSchema>;

// ------------------------------------------------------------------- client pricing options

export const ClientPricingOptionViewSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  pricingOptionId: z.string(),
  name: z.record(z.string(), z.object({ value: z.string() })),
  status: z.union(Object.values(ClientPricingOptionStatus).map((v) => z.literal(v))),
  inactiveReason: z.enum(['expired', 'noEntriesLeft']).nullable(),
  soldAt: z.string(),
  pricePaid: z.number().nullable(),
  activatedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  lastValidDate: z.string().nullable(),
  expirationType: z.number(),
  entriesTotal: z.number().nullable(),
  entriesUsed: z.number(),
  entriesLeft: z.number().nullable(),
  frozenNow: z.boolean(),
  freezes: z.array(z.object({ from: z.string(), to: z.string() })),
  serviceTypes: z.array(z.string()),
  sharedWith: z.array(z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() })),
  /** Only from the desk station offline: sold or used there, the cloud has not confirmed it yet. */
  provisional: z.boolean().optional(),
});
export type ClientPricingOptionView = z.infer<typeof ClientPricingOptionViewSchema>;
export const ClientPricingOptionListSchema = z.object({
  items: z.array(ClientPricingOptionViewSchema),
  next: z.null(),
});
export type ClientPricingOptionList = z.infer<typeof ClientPricingOptionListSchema>;

export const ClientPricingOptionChangeViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['extend', 'freeze', 'entries']),
  payload: z.record(z.string(), z.unknown()),
  note: z.string(),
  actor: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  bulk: z.boolean(),
  createdAt: z.string(),
});
export type ClientPricingOptionChangeView = z.infer<typeof ClientPricingOptionChangeViewSchema>;
export const ClientPricingOptionInitSchema = z.object({
  clientPricingOption: ClientPricingOptionViewSchema,
  changes: z.array(ClientPricingOptionChangeViewSchema),
  /** Accounts linked to the owner who are clients of the studio: whom the pass can be shared with. */
  shareCandidates: z.array(z.object({ userId: z.string(), firstName: z.string(), lastName: z.string() })),
  canEdit: z.boolean(),
});
export type ClientPricingOptionInit = z.infer<typeof ClientPricingOptionInitSchema>;

/** A staff change: any of extend, freeze and entries at once; each becomes its own audit row. */
const changeFields = {
  extendDays: z.number().int().min(1, 'at least 1').max(VALIDITY_COUNT_MAX).optional(),
  freeze: z
    .strictObject({ from: localDate(), to: localDate() })
    .refine((f) => f.from <= f.to, { message: 'must not end before it starts', path: ['to'] })
    .optional(),
  entriesDelta: z
    .number()
    .int()
    .min(-ENTRIES_MAX)
    .max(ENTRIES_MAX)
    .refine((n) => n !== 0, 'must not be 0')
    .optional(),
  note: text(500).optional(),
};
const someChange = (v: { extendDays?: unknown; freeze?: unknown; entriesDelta?: unknown }) =>
  v.extendDays !== undefined || v.freeze !== undefined || v.entriesDelta !== undefined;

export const ClientPricingOptionPatchSchema = z
  .strictObject(changeFields)
  .refine(someChange, { message: 'choose a change: extend, freeze or entries', path: ['extendDays'] });
export type ClientPricingOptionPatch = z.infer<typeof ClientPricingOptionPatchSchema>;

export const ClientPricingOptionShareSchema = z.strictObject({
  userId: uuid(),
  /** false withdraws a share. */
  shared: z.boolean().default(true),
});
export type ClientPricingOptionShareInput = z.infer<typeof ClientPricingOptionShareSchema>;

export const ClientPricingOptionSaleSchema = z.strictObject({
  /** Staff may sell below the list price (a discount); default the current price. */
  price: price().optional(),
});

export const BulkChangeInputSchema = z
  .strictObject({
    clientPricingOptionIds: z.array(uuid()).min(1, 'choose at least one pass').max(BULK_CHANGE_MAX),
    ...changeFields,
  })
  .refine(someChange, { message: 'choose a change: extend, freeze or entries', path: ['extendDays'] });
export type BulkChangeInput = z.infer<typeof BulkChangeInputSchema>;
export const BulkChangeResultSchema = z.object({ changed: z.number(), bulkId: z.string() });
export type BulkChangeResult = z.infer<typeof BulkChangeResultSchema>;

export type PassChoiceReason = 'noPasses' | (typeof PASS_REJECTIONS)[number];
