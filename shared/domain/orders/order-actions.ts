import { OrderStatus } from '../../enums';
import { canChangeToUnpaid, canEnablePaymentReminder, canMarkAsPaid } from './order-status-rules';

/** The staff actions of spec §4 on an order's status. */
export const ORDER_STATUS_ACTIONS = ['markUnpaid', 'enablePaymentReminder', 'markPaid'] as const;
export type OrderStatusAction = (typeof ORDER_STATUS_ACTIONS)[number];

export interface OrderStatusState {
  status: OrderStatus;
  paymentReminder: boolean;
}

/**
 * The state after an action, or null when spec §4 refuses it from this status. Enabling the
 * payment reminder keeps the status; it is refused when the reminder is already on (nothing changes).
 */
export function applyOrderStatusAction(
  state: OrderStatusState,
  action: OrderStatusAction,
): OrderStatusState | null {
  switch (action) {
    case 'markUnpaid':
      return canChangeToUnpaid(state.status) ? { status: OrderStatus.unpaid, paymentReminder: false } : null;
    case 'enablePaymentReminder':
      return canEnablePaymentReminder(state.status) && !state.paymentReminder
        ? { status: state.status, paymentReminder: true }
        : null;
    case 'markPaid':
      return canMarkAsPaid(state.status) ? { status: OrderStatus.paid, paymentReminder: false } : null;
  }
}

/** Which of the actions the status allows now (the back office shows only these buttons). */
export function allowedOrderStatusActions(state: OrderStatusState): OrderStatusAction[] {
  return ORDER_STATUS_ACTIONS.filter((a) => applyOrderStatusAction(state, a) !== null);
}

/** Statuses in which an order still waits for money (a client may pay it, bulk charge may take it). */
const PAYABLE: ReadonlySet<OrderStatus> = new Set([
  OrderStatus.pending,
  OrderStatus.unpaid,
  OrderStatus.awaiting,
  OrderStatus.scheduled,
  OrderStatus.failed,
  OrderStatus.authorizationAllowed,
]);

export function isOrderPayable(status: OrderStatus): boolean {
  return PAYABLE.has(status);
}
