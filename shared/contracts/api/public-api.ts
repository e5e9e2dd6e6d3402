import { z } from 'zod';
import { ClientPricingOptionListSchema, PricingOptionListSchema } from './catalog';
import { ClientCreateInputSchema } from './clients';
import { email, password } from './common';
import { ProductListSchema } from './products';
import { OrderDetailSchema } from './sales-views';
import { ClassServiceListSchema, LocationListSchema } from './schedule';

/**
 * The public API's calls of issue 24 that had none (spec §7): clients, staff members, users, the
 * price list and products, the user login check, the wallet's card and SEPA links, the graph.
 */

export const PUBLIC_LIST_LIMIT = { default: 100, max: 500 } as const;

export const PublicClientSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  birthDate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicClient = z.infer<typeof PublicClientSchema>;

export const PublicClientListQuerySchema = z.strictObject({
  /** Clients changed at or after this instant (ISO 8601): for a partner's incremental sync. */
  updatedSince: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(PUBLIC_LIST_LIMIT.max).default(PUBLIC_LIST_LIMIT.default),
  /** The `next` of the previous page. */
  cursor: z.uuid().optional(),
});
export const PublicClientListSchema = z.object({
  items: z.array(PublicClientSchema),
  next: z.string().nullable(),
});

/** POST client: what the staff's form takes, without the private note (a partner writes none). */
export const PublicClientCreateSchema = ClientCreateInputSchema.omit({ note: true });
export const PublicClientCreatedSchema = z.object({
  client: PublicClientSchema,
  /** The email belonged to an existing account: it became a client here, nothing of it changed. */
  linkedExistingAccount: z.boolean(),
  /** The person was an archived client of the studio and is active again. */
  restored: z.boolean(),
});

export const PublicMemberSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  /** The staff role's key (owner, manager, front_desk, instructor, accountant) or a custom role's name. */
  role: z.string().nullable(),
});
export const PublicMemberListSchema = z.object({ items: z.array(PublicMemberSchema), next: z.null() });

export const PublicUserSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  isClient: z.boolean(),
  isMember: z.boolean(),
});

export const PublicLoginSchema = z.strictObject({ emailAddress: email(), password: password() });
/** A client's own credentials checked for the studio's website: who they are, no session is opened. */
export const PublicLoginResultSchema = PublicUserSchema;

export const PublicPricingOptionListSchema = PricingOptionListSchema;
export const PublicClientPassesSchema = ClientPricingOptionListSchema;
export const PublicProductListSchema = ProductListSchema;

/** Wallet: cards and SEPA mandates are entered by the client on the platform's page, never sent through the API. */
export const PublicWalletInputSchema = z.strictObject({ userId: z.uuid() });
export const PublicWalletLinkSchema = z.object({
  /** The client's wallet page, where they add the card or the mandate after signing in. */
  url: z.string(),
  method: z.enum(['card', 'sepa']),
});

export const GRAPH_PARTS = [
  'studio',
  'locations',
  'classServices',
  'pricingOptions',
  'products',
  'members',
] as const;
/** POST /{uuid}/graph: several reads in one round trip. */
export const PublicGraphInputSchema = z.strictObject({
  include: z.array(z.enum(GRAPH_PARTS)).min(1).max(GRAPH_PARTS.length),
});
export const PublicGraphSchema = z.object({
  studio: z
    .object({ id: z.uuid(), name: z.string(), timeZone: z.string(), currency: z.string(), city: z.string() })
    .optional(),
  locations: LocationListSchema.shape.items.optional(),
  classServices: ClassServiceListSchema.shape.items.optional(),
  pricingOptions: PricingOptionListSchema.shape.items.optional(),
  products: ProductListSchema.shape.items.optional(),
  members: z.array(PublicMemberSchema).optional(),
});

// ------------------------------------------------------------------------ retail orders checkout

export const PUBLIC_CHECKOUT_PAYMENTS = ['online', 'external'] as const;

/**
 * POST retail/orders/checkout: a partner's shop sells the studio's products and passes (those sold
 * online) to one of its clients. `online`: the order waits for the client to pay at `paymentUrl` (the
 * studio's own payment provider); `external`: the partner took the money, the order is recorded as
 * paid (method "other") and handed over at once. `reference` (the partner's order number) makes the
 * call idempotent: the same reference answers the order it made the first time.
 */
export const PublicRetailCheckoutSchema = z.strictObject({
  userId: z.uuid(),
  items: z
    .array(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('pricingOption'), id: z.uuid() }),
        z.strictObject({
          type: z.literal('product'),
          id: z.uuid(),
          quantity: z.number().int().min(1).max(99).default(1),
        }),
      ]),
    )
    .min(1, 'the basket is empty')
    .max(50),
  payment: z.enum(PUBLIC_CHECKOUT_PAYMENTS).default('online'),
  reference: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:#/-]+$/, 'letters, digits, _ . : # / -')
    .optional(),
});
export type PublicRetailCheckoutInput = z.infer<typeof PublicRetailCheckoutSchema>;

export const PublicRetailCheckoutResultSchema = z.object({
  order: OrderDetailSchema,
  /** `online`: the page where the client pays; null when nothing is left to pay. */
  paymentUrl: z.string().nullable(),
  /** False when `reference` named an order made by an earlier call (nothing new was sold). */
  created: z.boolean(),
});
