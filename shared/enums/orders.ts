/** Spec §3. The transitions between these live in shared/domain/orders. */
export const OrderStatus = {
  pending: 0,
  paid: 1,
  unpaid: 2,
  cancelled: 3,
  rejected: 4,
  awaiting: 5,
  void: 6,
  scheduled: 7,
  failed: 8,
  authorizationAllowed: 9,
  authorizationDisallowed: 10,
  freeOfCharge: 11,
  suspended: 12,
  terminated: 13,
  chargeback: 14,
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

export const RetailItemStatus = {
  payNow: 0,
  unpaid: 1,
  scheduled: 2,
  suspended: 3,
} as const;
export type RetailItemStatus = (typeof RetailItemStatus)[keyof typeof RetailItemStatus];

export const ClientOrderRefundStatus = {
  awaiting: 'awaiting',
  pending: 'pending',
  success: 'success',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;
export type ClientOrderRefundStatus = (typeof ClientOrderRefundStatus)[keyof typeof ClientOrderRefundStatus];

/** Also the refund entries of the spec's error catalogue (§8), so their labels double as error messages. */
export const ClientOrderRefundError = {
  transactionNotFound: 'transactionNotFound',
  cannotRefund: 'cannotRefund',
  exceededAmount: 'exceededAmount',
  insufficientFunds: 'insufficientFunds',
  unknown: 'unknown',
} as const;
export type ClientOrderRefundError = (typeof ClientOrderRefundError)[keyof typeof ClientOrderRefundError];
