import { z } from 'zod';
import { email } from './common';
import { LOCALES } from '../../i18n/locales';
import { ORDER_STATUS_ACTIONS } from '../../domain/orders/order-actions';
import { type ORDER_LINE_KINDS, ORDER_SOURCES } from '../../domain/orders/order-lines';
import {
  ClientOrderRefundError,
  type ClientOrderRefundStatus,
  OrderStatus,
  PaymentMethod,
} from '../../enums';

/** Orders, payments, refunds, wallet and the front-office shopping cart (spec §3, §4, §7). */

const orderStatusValues = Object.values(OrderStatus) as [number, ...number[]];
const paymentMethodValues = Object.values(PaymentMethod) as [number, ...number[]];

export const OrderStatusSchema = z
  .number()
  .int()
  .refine((v) => orderStatusValues.includes(v), 'unknown order status');
export const PaymentMethodSchema = z
  .number()
  .int()
  .refine((v) => paymentMethodValues.includes(v), 'unknown payment method');

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'chargeback'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Methods staff record at the desk (money that does not go through a provider). */
export const DESK_PAYMENT_METHODS = [
  PaymentMethod.cash,
  PaymentMethod.bankTransfer,
  PaymentMethod.terminal,
  PaymentMethod.other,
  PaymentMethod.gift,
  PaymentMethod.none,
  PaymentMethod.wallet,
] as const;

export interface OrderLineView {
  id: string;
  kind: (typeof ORDER_LINE_KINDS)[number];
  refId: string | null;
  name: string;
  quantity: number;
  unitPrice: number;
  vatRate: string;
  total: number;
  fulfilled: boolean;
  fulfilledRefId: string | null;
}

export interface OrderClientView {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

export interface OrderView {
  id: string;
  /** Short reference shown to people: the last 8 characters of the id, upper-cased. */
  reference: string;
  status: OrderStatus;
  source: (typeof ORDER_SOURCES)[number];
  sourceId: string | null;
  client: OrderClientView | null;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  paid: number;
  refunded: number;
  paymentReminder: boolean;
  paidAt: string | null;
  createdAt: string;
  summary: string;
}

export interface PaymentView {
  id: string;
  method: PaymentMethod;
  amount: number;
  currency: string;
  status: PaymentStatus;
  provider: string | null;
  providerRef: string | null;
  failureReason: string | null;
  refunded: number;
  createdAt: string;
  settledAt: string | null;
}

export interface RefundView {
  id: string;
  paymentId: string;
  amount: number;
  status: ClientOrderRefundStatus;
  error: ClientOrderRefundError | null;
  reason: string;
  createdAt: string;
}

export interface OrderDetail extends OrderView {
  note: string;
  lines: OrderLineView[];
  payments: PaymentView[];
  refunds: RefundView[];
  /** The §4 actions the status allows now. */
  actions: Array<(typeof ORDER_STATUS_ACTIONS)[number]>;
  /** What may still be refunded, in minor units. */
  refundable: number;
  abilities: { refund: boolean; changeStatus: boolean };
}

export interface OrderList {
  items: OrderView[];
  next: string | null;
}

export const OrderListQuerySchema = z.strictObject({
  status: z.coerce.number().int().min(0).max(14).optional(),
  source: z.enum(ORDER_SOURCES).optional(),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.uuid().optional(),
});
export type OrderListQuery = z.infer<typeof OrderListQuerySchema>;

export const ClientOrderListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.uuid().optional(),
});

export const OrderStatusActionSchema = z.strictObject({ action: z.enum(ORDER_STATUS_ACTIONS) });
export type OrderStatusActionInput = z.infer<typeof OrderStatusActionSchema>;

export interface OrderStatusView {
  id: string;
  status: OrderStatus;
  paymentReminder: boolean;
  total: number;
  paid: number;
  /** The newest payment's state (the return page polls this until it is no longer pending). */
  payment: { id: string; status: PaymentStatus; method: PaymentMethod } | null;
}

/** Public API PATCH client-order/{clientOrder}: the §4 changes written as the target state. */
export const OrderPatchSchema = z
  .strictObject({
    status: z.union([z.literal(OrderStatus.paid), z.literal(OrderStatus.unpaid)]).optional(),
    paymentReminder: z.literal(true).optional(),
  })
  .refine((v) => v.status !== undefined || v.paymentReminder !== undefined, {
    message: 'give status or paymentReminder',
    path: ['status'],
  });
export type OrderPatchInput = z.infer<typeof OrderPatchSchema>;

export const BulkChargeSchema = z.strictObject({
  orderIds: z.array(z.uuid()).min(1).max(100),
});
export type BulkChargeInput = z.infer<typeof BulkChargeSchema>;
export interface BulkChargeResult {
  charged: string[];
  failed: Array<{ id: string; key: string }>;
}

export const VisitPaySchema = z.strictObject({
  userId: z.uuid(),
  visitIds: z.array(z.uuid()).min(1).max(50),
  /** Price of one visit in minor units (a drop-in price: the spec names none). */
  unitPrice: z.number().int().min(0).max(100_000_00),
  vatRate: z.string().trim().max(10).default('2300'),
  method: z.union(DESK_PAYMENT_METHODS.map((m) => z.literal(m)) as unknown as [z.ZodLiteral<number>]),
});
export type VisitPayInput = z.infer<typeof VisitPaySchema>;

export const RefundSchema = z.strictObject({
  paymentId: z.uuid(),
  amount: z.number().int().min(1).max(100_000_000),
  reason: z.string().trim().max(500).default(''),
});
export type RefundInput = z.infer<typeof RefundSchema>;

/** A payment staff record at the desk against an order. */
export const DeskPaymentSchema = z.strictObject({
  method: z.union(DESK_PAYMENT_METHODS.map((m) => z.literal(m)) as unknown as [z.ZodLiteral<number>]),
  amount: z.number().int().min(1).max(100_000_000).optional(),
});
export type DeskPaymentInput = z.infer<typeof DeskPaymentSchema>;

// ----------------------------------------------------------------------------- payment providers

/** Real providers first: a studio that set one up pays through it rather than the test bank. */
export const PAYMENT_PROVIDERS = ['stripe', 'test'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export interface PaymentProviderView {
  provider: PaymentProviderName;
  method: PaymentMethod;
  enabled: boolean;
  /** Sandbox behaviour the test provider simulates on refunds. */
  settings: { refundError: ClientOrderRefundError | null };
  /** Whether the provider needs keys, whether they are saved, and a hint of which (never the keys). */
  needsCredentials: boolean;
  configured: boolean;
  secretKeyHint: string | null;
  /** Where the provider should post its notifications (the studio enters it in the provider's dashboard). */
  webhookPath: string;
}

/** A Stripe account's keys: the secret (or restricted) API key and the webhook endpoint's signing secret. */
export const StripeCredentialsSchema = z.strictObject({
  secretKey: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,200}$/, 'not a Stripe secret key (sk_test_…, sk_live_…)'),
  webhookSecret: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9+/=]{8,200}$/, 'not a webhook signing secret (whsec_…)'),
});
export type StripeCredentialsInput = z.infer<typeof StripeCredentialsSchema>;

export const PaymentProviderTestSchema = z.strictObject({
  provider: z.enum(PAYMENT_PROVIDERS),
  /** Keys typed but not saved yet; without them the saved ones are tried. */
  credentials: StripeCredentialsSchema.optional(),
});
export const PaymentProviderUpdateSchema = z.strictObject({
  enabled: z.boolean().optional(),
  refundError: z
    .enum(Object.values(ClientOrderRefundError) as [string, ...string[]])
    .nullable()
    .optional(),
  credentials: StripeCredentialsSchema.optional(),
});

export interface PaymentProviderTestResult {
  ok: boolean;
  message: string;
  /** Stable reason to translate: null when ok. */
  reason: 'noCredentials' | 'invalidKey' | 'unreachable' | 'error' | null;
  livemode?: boolean;
}

/** A card a client saved with the provider (spec §7 `me/payment-cards`): what to show, never the number. */
export interface PaymentCardView {
  id: string;
  provider: PaymentProviderName;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}
export type PaymentProviderUpdateInput = z.infer<typeof PaymentProviderUpdateSchema>;

export interface PaymentOptionView {
  method: PaymentMethod;
  online: boolean;
  provider: PaymentProviderName | null;
}

// ----------------------------------------------------------------------------- wallet

export interface WalletEntryView {
  id: string;
  amount: number;
  currency: string;
  kind: 'top_up' | 'payment' | 'refund' | 'chargeback';
  orderId: string | null;
  createdAt: string;
}

export interface WalletView {
  balance: number;
  currency: string;
  entries: WalletEntryView[];
  /** Top-up choices shown as buttons (minor units); any amount within the limits may be typed. */
  topUpAmounts: number[];
  minTopUp: number;
  maxTopUp: number;
  onlinePayment: boolean;
}

export const WALLET_MIN_TOP_UP = 10_00;
export const WALLET_MAX_TOP_UP = 5_000_00;

export const ReturnPathSchema = z
  .string()
  .max(500)
  .regex(/^\/[^/\\]/, 'a path on this site');

/**
 * The language the client pays in (issue 26): the return from the payment page comes back in it
 * (`lang=` on the return path, and the locale cookie set by `/app/return`). Default: the request's.
 */
const PaymentLocaleSchema = z.enum(LOCALES).optional();

export const WalletTopUpSchema = z.strictObject({
  amount: z.number().int().min(WALLET_MIN_TOP_UP).max(WALLET_MAX_TOP_UP),
  returnPath: ReturnPathSchema.optional(),
  locale: PaymentLocaleSchema,
});
export type WalletTopUpInput = z.infer<typeof WalletTopUpSchema>;

export interface ClientWalletInit {
  client: OrderClientView;
  wallet: WalletView;
}

// ----------------------------------------------------------------------------- cart

export const CartItemInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('pricingOption'),
    id: z.uuid(),
    /** Pay this visit (booked to pay at the desk) with the pass once the order is paid. */
    forVisitId: z.uuid().optional(),
  }),
  z.strictObject({ type: z.literal('product'), id: z.uuid(), quantity: z.number().int().min(1).max(99) }),
  z.strictObject({ type: z.literal('contract'), id: z.uuid() }),
  /** A video course bought on its own (one-off purchase, issue 22). */
  z.strictObject({ type: z.literal('videoService'), id: z.uuid() }),
]);
export type CartItemInput = z.infer<typeof CartItemInputSchema>;

export const CartPrepareSchema = z.strictObject({
  items: z.array(CartItemInputSchema).max(20),
});
export type CartPrepareInput = z.infer<typeof CartPrepareSchema>;

export const CartVoucherSchema = z.strictObject({
  /** Empty or null takes the voucher off the cart. */
  code: z.string().trim().max(40).nullable(),
});

export const CHECKOUT_METHODS = ['online', 'wallet'] as const;
export const CheckoutSchema = z.strictObject({
  paymentMethod: z.enum(CHECKOUT_METHODS),
  returnPath: ReturnPathSchema.optional(),
  locale: PaymentLocaleSchema,
  /** Keep the card for later payments (providers that can; ignored by the others). */
  saveCard: z.boolean().optional(),
});
export type CheckoutInput = z.infer<typeof CheckoutSchema>;

export interface CartItemView {
  type: CartItemInput['type'];
  id: string;
  name: string;
  quantity: number;
  unitPrice: number;
  total: number;
  vatRate: string;
  /** Null when it can be bought; else the i18n key of why not. */
  problem: string | null;
  /** The visit the pass will pay (a pricing option bought from "My visits"): class name and start. */
  forVisit?: { id: string; className: string; startsAt: string };
}

export interface CartView {
  items: CartItemView[];
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  voucher: { code: string; discount: number; problem: string | null } | null;
  walletBalance: number;
  paymentMethods: Array<(typeof CHECKOUT_METHODS)[number]>;
  /** The studio's online provider can keep the card for later payments: checkout offers `saveCard`. */
  canSaveCard: boolean;
  canCheckout: boolean;
}

export interface CheckoutResult {
  orderId: string;
  status: OrderStatus;
  /** Where the browser goes to pay (the form redirect), or null when it is paid already. */
  redirectUrl: string | null;
}

export interface PurchaseView {
  id: string;
  reference: string;
  status: OrderStatus;
  total: number;
  currency: string;
  createdAt: string;
  lines: Array<{ kind: OrderLineView['kind']; name: string; quantity: number; total: number }>;
  payment: { method: PaymentMethod; status: PaymentStatus } | null;
}

export interface PurchasesView {
  items: PurchaseView[];
  next: string | null;
}

export const PurchasesQuerySchema = z.strictObject({
  limit: z.number().int().min(1).max(50).default(20),
  cursor: z.uuid().optional(),
});

// ----------------------------------------------------------------------------- donations

export const DONATION_MIN = 5_00;
export const DONATION_MAX = 10_000_00;

export interface DonationInit {
  studio: { id: string; name: string; logoUrl: string | null };
  currency: string;
  /** Suggested amounts shown as buttons (minor units); any amount within the limits may be typed. */
  amounts: number[];
  min: number;
  max: number;
  /** False when the studio takes no online payment: the page says so instead of showing the form. */
  available: boolean;
  /** The signed-in donor, to prefill the form. */
  donor: { name: string; email: string | null } | null;
}

export const DonationCheckoutSchema = z.strictObject({
  amount: z.number().int().min(DONATION_MIN).max(DONATION_MAX),
  name: z.string().trim().max(200).default(''),
  email: email(),
  message: z.string().trim().max(500).default(''),
  anonymous: z.boolean().default(false),
  /** Where the bank sends the donor back (default: the donation app's payment-status page). */
  returnPath: ReturnPathSchema.optional(),
  /** The donor's language: the return from the bank comes back in it (issue 26). */
  locale: PaymentLocaleSchema,
});
export type DonationCheckoutInput = z.infer<typeof DonationCheckoutSchema>;

export const DonationStatusQuerySchema = z.strictObject({ payment: z.uuid() });

export interface DonationStatusView {
  orderId: string;
  amount: number;
  currency: string;
  /** The payment's state: the payment-status page polls until it is no longer pending. */
  status: PaymentStatus;
}
