import { z } from 'zod';
import { ORDER_STATUS_ACTIONS } from '../../domain/orders/order-actions';
import { ORDER_LINE_KINDS, ORDER_SOURCES } from '../../domain/orders/order-lines';
import { ClientOrderRefundError, ClientOrderRefundStatus, OrderStatus, PaymentMethod } from '../../enums';
import {
  CHECKOUT_METHODS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  type BulkChargeResult,
  type CartView,
  type CheckoutResult,
  type ClientWalletInit,
  type DonationInit,
  type DonationStatusView,
  type OrderDetail,
  type OrderList,
  type OrderStatusView,
  type PaymentCardView,
  type PaymentOptionView,
  type PaymentProviderTestResult,
  type PaymentProviderView,
  type PurchasesView,
  type RefundView,
  type WalletEntryView,
} from './sales';

/**
 * The sales answers as zod schemas (the route contracts' response schemas). The interfaces in
 * `sales.ts` stay what services and screens type against; the checks at the end keep each schema and
 * its interface the same shape (a field added to one and not the other does not compile).
 */

/** A schema of one of an enum's numbers (`OrderStatus`). */
export const oneOf = <T extends number>(values: Record<string, T>) =>
  z.union(Object.values(values).map((v) => z.literal(v)) as unknown as [z.ZodLiteral<T>, z.ZodLiteral<T>]);
const orderStatus = oneOf(OrderStatus);
const paymentMethod = oneOf(PaymentMethod);
const paymentStatus = z.enum(PAYMENT_STATUSES);
const provider = z.enum(PAYMENT_PROVIDERS);
const refundError = z.enum(
  Object.values(ClientOrderRefundError) as [ClientOrderRefundError, ...ClientOrderRefundError[]],
);

const OrderLineViewSchema = z.object({
  id: z.string(),
  kind: z.enum(ORDER_LINE_KINDS),
  refId: z.string().nullable(),
  name: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  vatRate: z.string(),
  total: z.number(),
  fulfilled: z.boolean(),
  fulfilledRefId: z.string().nullable(),
});
const OrderClientViewSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
});
const OrderViewSchema = z.object({
  id: z.string(),
  reference: z.string(),
  status: orderStatus,
  source: z.enum(ORDER_SOURCES),
  sourceId: z.string().nullable(),
  client: OrderClientViewSchema.nullable(),
  currency: z.string(),
  subtotal: z.number(),
  discount: z.number(),
  total: z.number(),
  paid: z.number(),
  refunded: z.number(),
  paymentReminder: z.boolean(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  summary: z.string(),
});
const PaymentViewSchema = z.object({
  id: z.string(),
  method: paymentMethod,
  amount: z.number(),
  currency: z.string(),
  status: paymentStatus,
  provider: z.string().nullable(),
  providerRef: z.string().nullable(),
  failureReason: z.string().nullable(),
  refunded: z.number(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export const RefundViewSchema = z.object({
  id: z.string(),
  paymentId: z.string(),
  amount: z.number(),
  status: z.enum(
    Object.values(ClientOrderRefundStatus) as [ClientOrderRefundStatus, ...ClientOrderRefundStatus[]],
  ),
  error: refundError.nullable(),
  reason: z.string(),
  createdAt: z.string(),
});
export const OrderDetailSchema = OrderViewSchema.extend({
  note: z.string(),
  lines: z.array(OrderLineViewSchema),
  payments: z.array(PaymentViewSchema),
  refunds: z.array(RefundViewSchema),
  actions: z.array(z.enum(ORDER_STATUS_ACTIONS)),
  refundable: z.number(),
  abilities: z.object({ refund: z.boolean(), changeStatus: z.boolean() }),
});
export const OrderListSchema = z.object({ items: z.array(OrderViewSchema), next: z.string().nullable() });
export const OrderStatusViewSchema = z.object({
  id: z.string(),
  status: orderStatus,
  paymentReminder: z.boolean(),
  total: z.number(),
  paid: z.number(),
  payment: z.object({ id: z.string(), status: paymentStatus, method: paymentMethod }).nullable(),
});
export const BulkChargeResultSchema = z.object({
  charged: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), key: z.string() })),
});
export const PaymentProviderViewSchema = z.object({
  provider,
  method: paymentMethod,
  enabled: z.boolean(),
  settings: z.object({ refundError: refundError.nullable() }),
  needsCredentials: z.boolean(),
  configured: z.boolean(),
  secretKeyHint: z.string().nullable(),
  webhookPath: z.string(),
});
export const PaymentProviderListSchema = z.object({
  items: z.array(PaymentProviderViewSchema),
  next: z.null(),
});
export const PaymentProviderTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  reason: z.enum(['noCredentials', 'invalidKey', 'unreachable', 'error']).nullable(),
  livemode: z.boolean().optional(),
});
const PaymentOptionViewSchema = z.object({
  method: paymentMethod,
  online: z.boolean(),
  provider: provider.nullable(),
});
export const PaymentOptionListSchema = z.object({ items: z.array(PaymentOptionViewSchema), next: z.null() });
export const PaymentOptionInitSchema = z.object({
  currency: z.string(),
  options: z.array(PaymentOptionViewSchema),
  onlineMethods: z.array(paymentMethod),
});
const WalletEntryViewSchema = z.object({
  id: z.string(),
  amount: z.number(),
  currency: z.string(),
  kind: z.enum(['top_up', 'payment', 'refund', 'chargeback']),
  orderId: z.string().nullable(),
  createdAt: z.string(),
});
export const WalletEntryListSchema = z.object({ items: z.array(WalletEntryViewSchema), next: z.null() });
export const WalletViewSchema = z.object({
  balance: z.number(),
  currency: z.string(),
  entries: z.array(WalletEntryViewSchema),
  topUpAmounts: z.array(z.number()),
  minTopUp: z.number(),
  maxTopUp: z.number(),
  onlinePayment: z.boolean(),
});
export const ClientWalletInitSchema = z.object({ client: OrderClientViewSchema, wallet: WalletViewSchema });
export const CartViewSchema = z.object({
  items: z.array(
    z.object({
      type: z.enum(['pricingOption', 'product', 'contract', 'videoService']),
      id: z.string(),
      name: z.string(),
      quantity: z.number(),
      unitPrice: z.number(),
      total: z.number(),
      vatRate: z.string(),
      problem: z.string().nullable(),
      forVisit: z.object({ id: z.string(), className: z.string(), startsAt: z.string() }).optional(),
    }),
  ),
  currency: z.string(),
  subtotal: z.number(),
  discount: z.number(),
  total: z.number(),
  voucher: z.object({ code: z.string(), discount: z.number(), problem: z.string().nullable() }).nullable(),
  walletBalance: z.number(),
  paymentMethods: z.array(z.enum(CHECKOUT_METHODS)),
  canSaveCard: z.boolean(),
  canCheckout: z.boolean(),
});
export const CheckoutResultSchema = z.object({
  orderId: z.string(),
  status: orderStatus,
  redirectUrl: z.string().nullable(),
});
export const PurchasesViewSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      reference: z.string(),
      status: orderStatus,
      total: z.number(),
      currency: z.string(),
      createdAt: z.string(),
      lines: z.array(
        z.object({
          kind: z.enum(ORDER_LINE_KINDS),
          name: z.string(),
          quantity: z.number(),
          total: z.number(),
        }),
      ),
      payment: z.object({ method: paymentMethod, status: paymentStatus }).nullable(),
    }),
  ),
  next: z.string().nullable(),
});
export const DonationInitSchema = z.object({
  studio: z.object({ id: z.string(), name: z.string(), logoUrl: z.string().nullable() }),
  currency: z.string(),
  amounts: z.array(z.number()),
  min: z.number(),
  max: z.number(),
  available: z.boolean(),
  donor: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
});
export const DonationStatusViewSchema = z.object({
  orderId: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: paymentStatus,
});
export const VisitPayResultSchema = z.object({ orderId: z.string() });

export const PaymentCardViewSchema = z.object({
  id: z.string(),
  provider,
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number(),
  expYear: z.number(),
  createdAt: z.string(),
});
export const PaymentCardListSchema = z.object({ items: z.array(PaymentCardViewSchema), next: z.null() });

// ------------------------------------------------------------------ schema ⇔ interface, both ways
/** `same<Same<A, B>>()` compiles only when A and B are the same type (a schema and its interface). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const same = <_ extends true>() => undefined;
same<Same<z.infer<typeof OrderDetailSchema>, OrderDetail>>();
same<Same<z.infer<typeof OrderListSchema>, OrderList>>();
same<Same<z.infer<typeof OrderStatusViewSchema>, OrderStatusView>>();
same<Same<z.infer<typeof RefundViewSchema>, RefundView>>();
same<Same<z.infer<typeof BulkChargeResultSchema>, BulkChargeResult>>();
same<Same<z.infer<typeof PaymentProviderViewSchema>, PaymentProviderView>>();
same<Same<z.infer<typeof PaymentProviderTestResultSchema>, PaymentProviderTestResult>>();
same<Same<z.infer<typeof PaymentOptionViewSchema>, PaymentOptionView>>();
same<Same<z.infer<typeof WalletEntryViewSchema>, WalletEntryView>>();
same<Same<z.infer<typeof ClientWalletInitSchema>, ClientWalletInit>>();
same<Same<z.infer<typeof CartViewSchema>, CartView>>();
same<Same<z.infer<typeof CheckoutResultSchema>, CheckoutResult>>();
same<Same<z.infer<typeof PurchasesViewSchema>, PurchasesView>>();
same<Same<z.infer<typeof DonationInitSchema>, DonationInit>>();
same<Same<z.infer<typeof DonationStatusViewSchema>, DonationStatusView>>();
same<Same<z.infer<typeof PaymentCardViewSchema>, PaymentCardView>>();
