import { z } from 'zod';

/**
 * The studio's subscription to the platform (issue 25, spec §3 "Subscription": a monthly plan with a
 * period identifier; add-ons: e-mail service, SMS service, premium mobile apps bundle; §7
 * studio-subscription init and periods, subscription-period shopping-cart status, prepare, checkout).
 * The platform sells, the studio buys. Amounts in minor units of the platform's currency, net of VAT
 * where named `net`/`unitPrice`.
 */

/** A period identifier: the calendar month the period covers, `YYYY-MM`. */
export const PERIOD_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

export const ADD_ON_SERVICES = ['email', 'sms', 'premiumApps'] as const;
export type AddOnService = (typeof ADD_ON_SERVICES)[number];

const LocalName = z.object({ en: z.string(), pl: z.string() });

export const SubscriptionPlanSchema = z.object({
  code: z.string(),
  name: LocalName,
  /** Net price of one month. */
  price: z.number(),
  /** E-mail credits a paid month of the plan brings. */
  includedEmail: z.number(),
  includedSms: z.number(),
});
export type SubscriptionPlan = z.infer<typeof SubscriptionPlanSchema>;

export const SubscriptionAddOnSchema = z.object({
  code: z.string(),
  service: z.enum(ADD_ON_SERVICES),
  name: LocalName,
  /** Credits the add-on brings (e-mail, SMS); null for the premium apps bundle (a month's use). */
  credits: z.number().nullable(),
  price: z.number(),
});
export type SubscriptionAddOn = z.infer<typeof SubscriptionAddOnSchema>;

export const PlatformSellerSchema = z.object({
  name: z.string(),
  addressLine: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  taxId: z.string().nullable(),
  iban: z.string().nullable(),
  bankName: z.string(),
});
export type PlatformSeller = z.infer<typeof PlatformSellerSchema>;

export const SubscriptionCreditsSchema = z.object({ email: z.number(), sms: z.number() });

export const SubscriptionInitSchema = z.object({
  seller: PlatformSellerSchema,
  currency: z.string(),
  /** Basis points (2300 = 23%). */
  vatRate: z.number(),
  plans: z.array(SubscriptionPlanSchema),
  addOns: z.array(SubscriptionAddOnSchema),
  /** Null until the studio first buys: it is on the trial and its credits are the trial's. */
  subscription: z
    .object({
      id: z.string(),
      planCode: z.string(),
    })
    .nullable(),
  status: z.enum(['trial', 'active', 'expired']),
  /** The month it is in the studio's time zone. */
  currentPeriod: z.string(),
  /** The last month a paid renewal covers (null: none). */
  paidThrough: z.string().nullable(),
  premiumApps: z.boolean(),
  credits: SubscriptionCreditsSchema,
  /** The provider the platform takes payments through; null: buying is off on this installation. */
  paymentProvider: z.enum(['test', 'stripe']).nullable(),
});
export type SubscriptionInit = z.infer<typeof SubscriptionInitSchema>;

export const SubscriptionLineSchema = z.object({
  code: z.string(),
  kind: z.enum(['plan', 'addOn']),
  name: LocalName,
  quantity: z.number(),
  unitPrice: z.number(),
  net: z.number(),
});
export type SubscriptionLine = z.infer<typeof SubscriptionLineSchema>;

export const PERIOD_STATUSES = ['awaiting', 'paid', 'failed', 'cancelled'] as const;
export type SubscriptionPeriodStatus = (typeof PERIOD_STATUSES)[number];

export const SubscriptionPeriodSchema = z.object({
  id: z.string(),
  /** The period identifier (`YYYY-MM`). */
  period: z.string(),
  kind: z.enum(['renewal', 'addOns']),
  planCode: z.string().nullable(),
  startsOn: z.string(),
  endsOn: z.string(),
  lines: z.array(SubscriptionLineSchema),
  net: z.number(),
  vat: z.number(),
  total: z.number(),
  currency: z.string(),
  status: z.enum(PERIOD_STATUSES),
  paidAt: z.string().nullable(),
  invoice: z.object({ number: z.string(), date: z.string(), downloadPath: z.string() }).nullable(),
  createdAt: z.string(),
});
export type SubscriptionPeriodView = z.infer<typeof SubscriptionPeriodSchema>;

export const SubscriptionPeriodListSchema = z.object({
  items: z.array(SubscriptionPeriodSchema),
  next: z.string().nullable(),
});

const code = () => z.string().trim().min(1).max(40);

/** The cart: the plan for the next unpaid month (renewal) and/or add-ons. */
export const SubscriptionCartInputSchema = z.strictObject({
  plan: code().nullable().optional(),
  addOns: z.array(code()).max(10).default([]),
});
export type SubscriptionCartInput = z.infer<typeof SubscriptionCartInputSchema>;

/** GET prepare: the same cart in the query string (`addOns` comma-separated). */
export const SubscriptionCartQuerySchema = z.strictObject({
  plan: code().optional(),
  addOns: z
    .string()
    .max(500)
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    )
    .pipe(z.array(code()).max(10)),
});

export const SubscriptionQuoteSchema = z.object({
  period: z.string(),
  kind: z.enum(['renewal', 'addOns']),
  startsOn: z.string(),
  endsOn: z.string(),
  lines: z.array(SubscriptionLineSchema),
  net: z.number(),
  vat: z.number(),
  total: z.number(),
  currency: z.string(),
  paymentProvider: z.enum(['test', 'stripe']).nullable(),
});
export type SubscriptionQuote = z.infer<typeof SubscriptionQuoteSchema>;

export const SubscriptionCartStatusQuerySchema = z.strictObject({
  studioSubscriptionPeriod: z.uuid('invalid id'),
});

export const SubscriptionCartStatusSchema = z.object({
  period: SubscriptionPeriodSchema,
  payment: z
    .object({ id: z.string(), status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']) })
    .nullable(),
  credits: SubscriptionCreditsSchema,
});
export type SubscriptionCartStatus = z.infer<typeof SubscriptionCartStatusSchema>;

export const SubscriptionCheckoutResultSchema = z.object({
  periodId: z.string(),
  paymentId: z.string(),
  /** Where the browser goes to pay (the provider's page through `/app/subscription-pay`). */
  redirectUrl: z.string(),
});
