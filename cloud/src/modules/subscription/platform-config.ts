import { z } from 'zod';
import {
  ADD_ON_SERVICES,
  type PlatformSeller,
  type SubscriptionAddOn,
  type SubscriptionPlan,
} from '../../../../shared/contracts/api/subscription';

/**
 * The platform's own settings: who sells (its invoices' seller), what it sells (plans and add-ons,
 * their prices), through which payment provider, and what a studio has before it buys (the trial's
 * credits). From the environment, each with a default, read when first needed (README "Platform
 * settings"; the root README's variables table).
 */
export interface PlatformSettings {
  seller: PlatformSeller;
  currency: string;
  /** Basis points. */
  vatRate: number;
  plans: SubscriptionPlan[];
  addOns: SubscriptionAddOn[];
  /** `test`: the built-in test bank; `stripe`: the platform's own Stripe account; null: no buying. */
  paymentProvider: 'test' | 'stripe' | null;
  stripeSecretKey: string | null;
  /** The signing secret of the platform's webhook endpoint in Stripe's dashboard (`whsec_…`). */
  stripeWebhookSecret: string | null;
  trialCredits: { email: number; sms: number };
  /** Place of issue printed on the platform's invoices. */
  invoicePlace: string;
}

const DEFAULT_PLANS: SubscriptionPlan[] = [
  {
    code: 'start',
    name: { en: 'Start', pl: 'Start' },
    price: 9900,
    includedEmail: 500,
    includedSms: 0,
  },
  {
    code: 'pro',
    name: { en: 'Pro', pl: 'Pro' },
    price: 19900,
    includedEmail: 3000,
    includedSms: 100,
  },
];

const DEFAULT_ADD_ONS: SubscriptionAddOn[] = [
  {
    code: 'email-5000',
    service: 'email',
    name: { en: '5,000 e-mails', pl: '5000 e-maili' },
    credits: 5000,
    price: 4900,
  },
  {
    code: 'sms-500',
    service: 'sms',
    name: { en: '500 SMS', pl: '500 SMS' },
    credits: 500,
    price: 7900,
  },
  {
    code: 'sms-2000',
    service: 'sms',
    name: { en: '2,000 SMS', pl: '2000 SMS' },
    credits: 2000,
    price: 27900,
  },
  {
    code: 'premium-apps',
    service: 'premiumApps',
    name: { en: 'Premium mobile apps bundle', pl: 'Pakiet aplikacji mobilnych premium' },
    credits: null,
    price: 14900,
  },
];

const money = z.number().int().min(0).max(100_000_000);
const LocalName = z.object({ en: z.string().min(1).max(80), pl: z.string().min(1).max(80) });
const CodeSchema = z.string().regex(/^[a-z0-9-]{1,40}$/);

/** `PLATFORM_CATALOG`: a JSON object with `plans` and/or `addOns` replacing the defaults. */
const CatalogSchema = z.object({
  plans: z
    .array(
      z.object({
        code: CodeSchema,
        name: LocalName,
        price: money,
        includedEmail: money.default(0),
        includedSms: money.default(0),
      }),
    )
    .min(1)
    .optional(),
  addOns: z
    .array(
      z.object({
        code: CodeSchema,
        service: z.enum(ADD_ON_SERVICES),
        name: LocalName,
        credits: money.nullable().default(null),
        price: money,
      }),
    )
    .optional(),
});

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0`);
  return n;
}

/**
 * Read when this module loads: a Vite build run later inside the same process (the e2e server builds
 * the web apps when stale) sets NODE_ENV=production, which must not switch the test bank off.
 */
const STARTED_IN_PRODUCTION = process.env.NODE_ENV === 'production';

export function loadPlatformSettings(
  env: Record<string, string | undefined> = process.env,
  production = STARTED_IN_PRODUCTION,
): PlatformSettings {
  const catalog = env.PLATFORM_CATALOG ? CatalogSchema.parse(JSON.parse(env.PLATFORM_CATALOG)) : {};
  const provider = env.PLATFORM_PAYMENT_PROVIDER;
  if (provider !== undefined && !['test', 'stripe', 'none', ''].includes(provider))
    throw new Error('PLATFORM_PAYMENT_PROVIDER must be test, stripe or none');
  const stripeSecretKey = env.PLATFORM_STRIPE_SECRET_KEY || null;
  const paymentProvider =
    provider === 'none'
      ? null
      : provider === 'stripe' || (!provider && stripeSecretKey)
        ? 'stripe'
        : provider === 'test' || !production
          ? 'test'
          : null;
  if (paymentProvider === 'stripe' && !stripeSecretKey)
    throw new Error('PLATFORM_PAYMENT_PROVIDER=stripe needs PLATFORM_STRIPE_SECRET_KEY');
  return {
    seller: {
      name: env.PLATFORM_SELLER_NAME || 'Studio Platform sp. z o.o.',
      addressLine: env.PLATFORM_SELLER_ADDRESS || 'ul. Prosta 1',
      postalCode: env.PLATFORM_SELLER_POSTAL_CODE || '00-001',
      city: env.PLATFORM_SELLER_CITY || 'Warszawa',
      country: env.PLATFORM_SELLER_COUNTRY || 'PL',
      taxId: env.PLATFORM_SELLER_TAX_ID || '5250000009',
      iban: env.PLATFORM_SELLER_IBAN || null,
      bankName: env.PLATFORM_SELLER_BANK || '',
    },
    currency: (env.PLATFORM_CURRENCY || 'PLN').toUpperCase(),
    vatRate: intFrom(env.PLATFORM_VAT_RATE, 2300, 'PLATFORM_VAT_RATE'),
    plans: catalog.plans ?? DEFAULT_PLANS,
    addOns: catalog.addOns ?? DEFAULT_ADD_ONS,
    paymentProvider,
    stripeSecretKey,
    stripeWebhookSecret: env.PLATFORM_STRIPE_WEBHOOK_SECRET || null,
    trialCredits: {
      email: intFrom(env.SUBSCRIPTION_TRIAL_EMAIL_CREDITS, 1000, 'SUBSCRIPTION_TRIAL_EMAIL_CREDITS'),
      sms: intFrom(env.SUBSCRIPTION_TRIAL_SMS_CREDITS, 50, 'SUBSCRIPTION_TRIAL_SMS_CREDITS'),
    },
    invoicePlace: env.PLATFORM_SELLER_CITY || 'Warszawa',
  };
}

let cached: PlatformSettings | null = null;

/** The settings of this process (read once; tests may `resetPlatformSettings()` after changing env). */
export function platformSettings(): PlatformSettings {
  cached ??= loadPlatformSettings();
  return cached;
}

export function resetPlatformSettings(): void {
  cached = null;
}
