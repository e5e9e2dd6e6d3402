/** Spec §3. Values 7–10 are unused by the spec; the gap is kept so stored numbers stay stable. */
export const PaymentMethod = {
  online: 0,
  bankTransfer: 1,
  cash: 2,
  other: 3,
  gift: 4,
  none: 5,
  paymentCard: 6,
  test: 11,
  terminal: 12,
  wallet: 13,
} as const;
export type PaymentMethod = (typeof PaymentMethod)[keyof typeof PaymentMethod];

const ONLINE_PAYMENT_METHODS: ReadonlySet<number> = new Set([
  PaymentMethod.online,
  PaymentMethod.paymentCard,
]);

/** Spec §3: online and payment card count as online methods, i.e. settled through the payment provider. */
export function isOnlinePaymentMethod(method: PaymentMethod): boolean {
  return ONLINE_PAYMENT_METHODS.has(method);
}

export const VoucherType = {
  singleUse: 0,
  multiUse: 1,
} as const;
export type VoucherType = (typeof VoucherType)[keyof typeof VoucherType];
