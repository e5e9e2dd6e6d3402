import { OrderStatus } from '../../enums';

const CHANGEABLE_TO_UNPAID: ReadonlySet<OrderStatus> = new Set([
  OrderStatus.paid,
  OrderStatus.void,
  OrderStatus.scheduled,
  OrderStatus.authorizationAllowed,
  OrderStatus.chargeback,
]);

const PAYMENT_REMINDER_ENABLEABLE: ReadonlySet<OrderStatus> = new Set([
  OrderStatus.unpaid,
  OrderStatus.scheduled,
]);

const MARKABLE_AS_PAID: ReadonlySet<OrderStatus> = new Set([
  OrderStatus.authorizationAllowed,
  OrderStatus.scheduled,
]);

/** Spec §4: an order can be changed to unpaid from paid, void, scheduled, authorization allowed, chargeback. */
export function canChangeToUnpaid(status: OrderStatus): boolean {
  return CHANGEABLE_TO_UNPAID.has(status);
}

/** Spec §4: a payment reminder can be enabled from unpaid and scheduled. */
export function canEnablePaymentReminder(status: OrderStatus): boolean {
  return PAYMENT_REMINDER_ENABLEABLE.has(status);
}

/** Spec §4: an order can be marked as paid from authorization allowed and scheduled. */
export function canMarkAsPaid(status: OrderStatus): boolean {
  return MARKABLE_AS_PAID.has(status);
}
