import type {
  OrderLineView,
  OrderView,
  PaymentStatus,
  PaymentView,
  PurchaseView,
  RefundView,
  WalletEntryView,
} from '../../../../shared/contracts/api/sales';
import type { OrderLineKind, OrderSource } from '../../../../shared/domain/orders';
import { refundHoldsMoney } from '../../../../shared/domain/payments';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import type {
  ClientOrderRefundError,
  ClientOrderRefundStatus,
  OrderStatus,
  PaymentMethod,
} from '../../../../shared/enums';

export interface OrderRow {
  id: string;
  studioId: string;
  clientId: string | null;
  source: OrderSource;
  sourceId: string | null;
  status: OrderStatus;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  paymentReminder: boolean;
  paidAt: Date | null;
  createdBy: string | null;
  note: string;
  createdAt: Date;
  clientFirstName: string | null;
  clientLastName: string | null;
  clientEmail: string | null;
  paid: number | string;
  refunded: number | string;
  summary: string | null;
}

export interface OrderLineRow {
  id: string;
  kind: OrderLineKind;
  refId: string | null;
  name: string;
  /** The name in every language (lines sold since issue 25); null before, or for fees and top-ups. */
  nameTexts?: LocaleText | null;
  quantity: number;
  unitPrice: number;
  vatRate: string;
  total: number;
  fulfilledRefId: string | null;
  fulfilledAt: Date | null;
}

export interface PaymentRow {
  id: string;
  studioId: string;
  orderId: string;
  clientId: string | null;
  method: PaymentMethod;
  amount: number;
  currency: string;
  status: PaymentStatus;
  provider: string | null;
  providerRef: string | null;
  redirectUrl: string | null;
  returnUrl: string | null;
  failureReason: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

export interface RefundRow {
  id: string;
  orderId: string;
  paymentId: string;
  amount: number;
  status: ClientOrderRefundStatus;
  error: ClientOrderRefundError | null;
  reason: string;
  createdAt: Date;
}

export const iso = (d: Date | string | null): string | null =>
  d === null ? null : new Date(d).toISOString();

/** The short reference people read out: the UUIDv7's random tail. */
export const orderReference = (id: string) => id.slice(-8).toUpperCase();

export function presentOrder(row: OrderRow): OrderView {
  return {
    id: row.id,
    reference: orderReference(row.id),
    status: row.status,
    source: row.source,
    sourceId: row.sourceId,
    client: row.clientId
      ? {
          id: row.clientId,
          firstName: row.clientFirstName ?? '',
          lastName: row.clientLastName ?? '',
          email: row.clientEmail,
        }
      : null,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discount,
    total: row.total,
    paid: Number(row.paid),
    refunded: Number(row.refunded),
    paymentReminder: row.paymentReminder,
    paidAt: iso(row.paidAt),
    createdAt: iso(row.createdAt)!,
    summary: row.summary ?? '',
  };
}

/** A line kept in several languages (`nameTexts`) is named in the viewer's, else as it was sold. */
export function presentOrderLine(
  row: OrderLineRow,
  locale: string | null = null,
  defaultLocale: string | null = null,
): OrderLineView {
  return {
    id: row.id,
    kind: row.kind,
    refId: row.refId,
    name: (row.nameTexts && resolveLocaleText(row.nameTexts, locale, defaultLocale)) || row.name,
    quantity: row.quantity,
    unitPrice: row.unitPrice,
    vatRate: row.vatRate,
    total: row.total,
    fulfilled: row.fulfilledAt !== null,
    fulfilledRefId: row.fulfilledRefId,
  };
}

export function presentPayment(row: PaymentRow, refunds: RefundRow[]): PaymentView {
  return {
    id: row.id,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    providerRef: row.providerRef,
    failureReason: row.failureReason,
    refunded: refunds.filter((r) => refundHoldsMoney(r.status)).reduce((s, r) => s + r.amount, 0),
    createdAt: iso(row.createdAt)!,
    settledAt: iso(row.settledAt),
  };
}

export function presentRefund(row: RefundRow): RefundView {
  return {
    id: row.id,
    paymentId: row.paymentId,
    amount: row.amount,
    status: row.status,
    error: row.error,
    reason: row.reason,
    createdAt: iso(row.createdAt)!,
  };
}

export function presentWalletEntry(row: {
  id: string;
  amount: number;
  currency: string;
  kind: WalletEntryView['kind'];
  orderId: string | null;
  createdAt: Date;
}): WalletEntryView {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    kind: row.kind,
    orderId: row.orderId,
    createdAt: iso(row.createdAt)!,
  };
}

export function presentPurchase(
  row: OrderRow,
  lines: Array<Pick<OrderLineRow, 'kind' | 'name' | 'quantity' | 'total'>>,
  payment: { method: PaymentMethod; status: PaymentStatus } | null,
): PurchaseView {
  return {
    id: row.id,
    reference: orderReference(row.id),
    status: row.status,
    total: row.total,
    currency: row.currency,
    createdAt: iso(row.createdAt)!,
    lines: lines.map((l) => ({ kind: l.kind, name: l.name, quantity: l.quantity, total: l.total })),
    payment,
  };
}
