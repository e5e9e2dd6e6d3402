import { v7 as uuidv7 } from 'uuid';
import type {
  BulkChargeResult,
  DeskPaymentInput,
  OrderDetail,
  OrderList,
  OrderListQuery,
  OrderPatchInput,
  OrderStatusView,
  PaymentStatus,
  RefundInput,
  RefundView,
  VisitPayInput,
} from '../../../../shared/contracts/api/sales';
import {
  allowedOrderStatusActions,
  applyOrderStatusAction,
  isOrderPayable,
  type OrderStatusAction,
} from '../../../../shared/domain/orders';
import { nextPaymentState, refundRefusal, type PaymentOutcome } from '../../../../shared/domain/payments';
import { canPayFromWallet } from '../../../../shared/domain/wallet';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import {
  type ClientOrderRefundError,
  OrderStatus,
  PaymentMethod,
  isOnlinePaymentMethod,
  type ClientOrderRefundStatus,
} from '../../../../shared/enums';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Studio } from '../identity/rows';
import { fulfilOrder } from './fulfilment';
import { createOrder } from './order-factory';
import type { SavedCard } from './payment-provider';
import { providerFor } from './providers';
import { chargeableCard } from './providers/payment-cards';
import {
  presentOrder,
  presentOrderLine,
  presentPayment,
  presentRefund,
  type OrderRow,
  type PaymentRow,
  type RefundRow,
} from './sales.presenter';
import { readAll } from '../../db/read-all';

type Trx = Knex.Transaction;

// ------------------------------------------------------------------------------------ reading

export function selectOrders(db: Db, studioId: string) {
  return db('client_orders as o')
    .leftJoin('users as u', 'u.id', 'o.client_id')
    .where('o.studio_id', studioId)
    .select(
      'o.*',
      'u.first_name as clientFirstName',
      'u.last_name as clientLastName',
      'u.email as clientEmail',
      db.raw(
        `coalesce((select sum(p.amount) from client_order_payments p where p.order_id = o.id and p.status = 'succeeded'), 0)::int as paid`,
      ),
      db.raw(
        `coalesce((select sum(r.amount) from client_order_refunds r where r.order_id = o.id and r.status in ('awaiting', 'pending', 'success')), 0)::int as refunded`,
      ),
      db.raw(
        `(select string_agg(l.name, ', ' order by l.position) from client_order_lines l where l.order_id = o.id) as summary`,
      ),
    );
}

export async function orderRow(db: Db, studioId: string, id: string, lock = false): Promise<OrderRow> {
  if (lock) {
    const locked = await db('client_orders').where({ studioId, id }).forUpdate().first('id');
    if (!locked) throw AppError.notFound('order');
  }
  const row = (await selectOrders(db, studioId).where('o.id', id).first()) as OrderRow | undefined;
  if (!row) throw AppError.notFound('order');
  return row;
}

export async function listOrders(
  db: Db,
  studio: Studio,
  query: OrderListQuery & { clientId?: string },
): Promise<OrderList> {
  const q = selectOrders(db, studio.id)
    .orderBy('o.id', 'desc')
    .limit(query.limit + 1);
  if (query.clientId) q.where('o.client_id', query.clientId);
  if (query.status !== undefined) q.where('o.status', query.status);
  if (query.source) q.where('o.source', query.source);
  if (query.cursor) q.where('o.id', '<', query.cursor);
  if (query.q) {
    const term = query.q.toLowerCase();
    q.where((w) =>
      w
        .whereRaw(`lower(u.first_name || ' ' || u.last_name) like ?`, [`%${escapeLike(term)}%`])
        .orWhereRaw('lower(u.email) like ?', [`%${escapeLike(term)}%`])
        .orWhereRaw(`upper(right(o.id::text, 8)) = ?`, [term.toUpperCase()]),
    );
  }
  const rows = (await q) as OrderRow[];
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(presentOrder),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function paymentsOf(db: Db, orderId: string): Promise<PaymentRow[]> {
  return (await db('client_order_payments').where({ orderId }).orderBy('id')) as PaymentRow[];
}

async function refundsOf(db: Db, orderId: string): Promise<RefundRow[]> {
  return (await db('client_order_refunds').where({ orderId }).orderBy('id')) as RefundRow[];
}

export async function orderDetail(
  db: Db,
  studio: Studio,
  id: string,
  abilities: { refund: boolean; changeStatus: boolean },
): Promise<OrderDetail> {
  const row = await orderRow(db, studio.id, id);
  const [lines, payments, refunds] = await readAll(db, [
    () => db('client_order_lines').where({ orderId: id }).orderBy('position'),
    () => paymentsOf(db, id),
    () => refundsOf(db, id),
  ]);
  const presentedPayments = payments.map((p) =>
    presentPayment(
      p,
      refunds.filter((r) => r.paymentId === p.id),
    ),
  );
  return {
    ...presentOrder(row),
    note: row.note,
    lines: (lines as Parameters<typeof presentOrderLine>[0][]).map(presentOrderLine),
    payments: presentedPayments,
    refunds: refunds.map(presentRefund),
    actions: allowedOrderStatusActions({ status: row.status, paymentReminder: row.paymentReminder }),
    refundable: payments.reduce(
      (sum, p) =>
        sum +
        (p.status === 'succeeded'
          ? Math.max(
              0,
              p.amount -
                refunds
                  .filter(
                    (r) => r.paymentId === p.id && ['awaiting', 'pending', 'success'].includes(r.status),
                  )
                  .reduce((s, r) => s + r.amount, 0),
            )
          : 0),
      0,
    ),
    abilities,
  };
}

export async function orderStatusView(
  db: Db,
  studioId: string,
  id: string,
  clientId?: string,
): Promise<OrderStatusView> {
  const row = await orderRow(db, studioId, id);
  if (clientId !== undefined && row.clientId !== clientId) throw AppError.notFound('order');
  const payment = (await db('client_order_payments').where({ orderId: id }).orderBy('id', 'desc').first()) as
    PaymentRow | undefined;
  return {
    id: row.id,
    status: row.status,
    paymentReminder: row.paymentReminder,
    total: row.total,
    paid: Number(row.paid),
    payment: payment ? { id: payment.id, status: payment.status, method: payment.method } : null,
  };
}

// ------------------------------------------------------------------------------------ status (§4)

export async function applyStatusAction(
  trx: Trx,
  studio: Studio,
  id: string,
  action: OrderStatusAction,
  now: Date,
  log?: Logger,
): Promise<void> {
  const row = await orderRow(trx, studio.id, id, true);
  const next = applyOrderStatusAction({ status: row.status, paymentReminder: row.paymentReminder }, action);
  if (!next)
    throw new AppError('order.statusActionNotAllowed', {
      message: `cannot ${action} an order in status ${row.status}`,
      fields: { action: ['not allowed in this status'] },
    });
  await trx('client_orders')
    .where({ id })
    .update({
      status: next.status,
      paymentReminder: next.paymentReminder,
      paidAt: next.status === OrderStatus.paid ? now : next.status === OrderStatus.unpaid ? null : row.paidAt,
      updatedAt: now,
    });
  if (next.status === OrderStatus.paid) await fulfilOrder(trx, id, null, now, log);
}

/** Public API PATCH: the target state, turned into the §4 actions it means. */
export async function patchOrder(trx: Trx, studio: Studio, id: string, patch: OrderPatchInput, now: Date) {
  if (patch.status === OrderStatus.unpaid) await applyStatusAction(trx, studio, id, 'markUnpaid', now);
  if (patch.status === OrderStatus.paid) await applyStatusAction(trx, studio, id, 'markPaid', now);
  if (patch.paymentReminder) await applyStatusAction(trx, studio, id, 'enablePaymentReminder', now);
}

// ------------------------------------------------------------------------------------ payments

/**
 * The order is paid once its succeeded payments cover the total: status paid, then its lines are
 * fulfilled (passes created, wallet credited, stock taken). Called after every payment success.
 */
async function settleIfCovered(trx: Trx, orderId: string, paymentId: string | null, now: Date, log?: Logger) {
  const order = (await trx('client_orders').where({ id: orderId }).forUpdate().first())!;
  const [sum] = (await trx('client_order_payments')
    .where({ orderId, status: 'succeeded' })
    .sum({ paid: 'amount' })) as Array<{ paid: number | string | null }>;
  if (Number(sum?.paid ?? 0) < order.total) return;
  if (order.status !== OrderStatus.paid)
    await trx('client_orders')
      .where({ id: orderId })
      .update({ status: OrderStatus.paid, paidAt: now, paymentReminder: false, updatedAt: now });
  await fulfilOrder(trx, orderId, paymentId, now, log);
}

/**
 * Applies what a provider reported about a payment, once: repeats and outcomes that cannot follow
 * the payment's state change nothing. Success settles the order; failure and cancellation mark an
 * order still waiting as failed or cancelled; a chargeback marks the order chargeback (§3 status 14)
 * and takes back a wallet top-up it credited (the balance may go below zero: the bank decided).
 */
export async function applyPaymentOutcome(
  trx: Trx,
  paymentId: string,
  outcome: PaymentOutcome,
  now: Date,
  log?: Logger,
): Promise<{ changed: boolean }> {
  const payment = (await trx('client_order_payments').where({ id: paymentId }).forUpdate().first()) as
    PaymentRow | undefined;
  if (!payment) return { changed: false };
  const next = nextPaymentState(payment.status, outcome);
  if (!next) return { changed: false };
  await trx('client_order_payments')
    .where({ id: paymentId })
    .update({ status: next, settledAt: now, updatedAt: now });
  const order = (await trx('client_orders').where({ id: payment.orderId }).forUpdate().first())!;
  if (next === 'succeeded') {
    await settleIfCovered(trx, order.id, paymentId, now, log);
  } else if (next === 'failed' || next === 'cancelled') {
    if (order.status === OrderStatus.pending || order.status === OrderStatus.awaiting)
      await trx('client_orders')
        .where({ id: order.id })
        .update({ status: next === 'failed' ? OrderStatus.failed : OrderStatus.cancelled, updatedAt: now });
  } else if (next === 'chargeback') {
    await trx('client_orders')
      .where({ id: order.id })
      .update({ status: OrderStatus.chargeback, updatedAt: now });
    const credited = (await trx('client_wallet_payments')
      .where({ paymentId, kind: 'top_up' })
      .first('clientId', 'amount', 'currency')) as
      { clientId: string; amount: number; currency: string } | undefined;
    if (credited)
      await trx('client_wallet_payments').insert({
        id: uuidv7(),
        studioId: order.studioId,
        clientId: credited.clientId,
        amount: -credited.amount,
        currency: credited.currency,
        kind: 'chargeback',
        orderId: order.id,
        paymentId,
      });
  }
  return { changed: true };
}

// ------------------------------------------------------------------------------------ wallet

export async function walletBalanceOf(db: Db, studioId: string, clientId: string): Promise<number> {
  const [row] = (await db('client_wallet_payments')
    .where({ studioId, clientId })
    .sum({ balance: 'amount' })) as Array<{
    balance: number | string | null;
  }>;
  return Number(row?.balance ?? 0);
}

/**
 * Pays what is left of an order from the client's wallet. The client's membership row is locked
 * first, so two wallet payments at once run one after the other and the second sees the first's
 * entry: the balance never goes below zero.
 */
export async function payOrderFromWallet(
  trx: Trx,
  studio: Studio,
  orderId: string,
  createdBy: string | null,
  now: Date,
  log?: Logger,
): Promise<void> {
  const order = await orderRow(trx, studio.id, orderId, true);
  if (!order.clientId) throw new AppError('payment.methodNotAllowed', { message: 'a walk-in has no wallet' });
  if (!isOrderPayable(order.status))
    throw new AppError('order.notPayable', { message: 'this order is not waiting for payment' });
  if (await trx('client_order_lines').where({ orderId, kind: 'top_up' }).first('id'))
    throw new AppError('payment.methodNotAllowed', { message: 'a wallet cannot top itself up' });
  const due = order.total - Number(order.paid);
  if (due <= 0) throw new AppError('order.notPayable', { message: 'nothing left to pay' });
  await trx('memberships').where({ studioId: studio.id, userId: order.clientId }).forUpdate().first('id');
  const balance = await walletBalanceOf(trx, studio.id, order.clientId);
  if (!canPayFromWallet(balance, due))
    throw new AppError('wallet.insufficientFunds', {
      message: 'the wallet balance is too low',
      fields: { paymentMethod: ['the wallet balance is too low'] },
    });
  const paymentId = uuidv7();
  await trx('client_order_payments').insert({
    id: paymentId,
    studioId: studio.id,
    orderId,
    clientId: order.clientId,
    method: PaymentMethod.wallet,
    amount: due,
    currency: order.currency,
    status: 'succeeded',
    createdBy,
    settledAt: now,
  });
  await trx('client_wallet_payments').insert({
    id: uuidv7(),
    studioId: studio.id,
    clientId: order.clientId,
    amount: -due,
    currency: order.currency,
    kind: 'payment',
    orderId,
    paymentId,
    createdBy,
  });
  await settleIfCovered(trx, orderId, paymentId, now, log);
}

/**
 * Charges what is left of an order to the client's saved card (payment method 6, payment card),
 * without the client present. A declined card is 409 `payment.cardDeclined` and nothing is
 * recorded. The provider call carries an idempotency key made of the order, the card and the amount,
 * so if this transaction rolls back after the charge, charging again within the provider's
 * idempotency window does not take the money twice.
 */
export async function payOrderWithSavedCard(
  trx: Trx,
  studio: Studio,
  orderId: string,
  card: SavedCard,
  createdBy: string | null,
  now: Date,
  log?: Logger,
): Promise<void> {
  const order = await orderRow(trx, studio.id, orderId, true);
  if (!order.clientId || order.clientId !== card.clientId)
    throw new AppError('payment.methodNotAllowed', { message: "the card is not this client's" });
  if (!isOrderPayable(order.status))
    throw new AppError('order.notPayable', { message: 'this order is not waiting for payment' });
  const due = order.total - Number(order.paid);
  if (due <= 0) throw new AppError('order.notPayable', { message: 'nothing left to pay' });
  const provider = await providerFor(trx, studio.id, card.provider);
  if (!provider.chargeSavedCard)
    throw new AppError('payment.methodNotAllowed', { message: 'this provider cannot charge saved cards' });
  const paymentId = uuidv7();
  const charged = await provider.chargeSavedCard(trx, {
    card,
    amount: due,
    currency: order.currency,
    paymentId,
    description: `${studio.name} ${order.id.slice(-8).toUpperCase()}`,
    idempotencyKey: `order-charge:${order.id}:${card.id}:${due}`,
  });
  if (charged.status === 'declined')
    throw new AppError('payment.cardDeclined', { message: `the card was declined: ${charged.message}` });
  await trx('client_order_payments').insert({
    id: paymentId,
    studioId: studio.id,
    orderId,
    clientId: order.clientId,
    method: PaymentMethod.paymentCard,
    amount: due,
    currency: order.currency,
    status: 'succeeded',
    provider: provider.name,
    providerRef: charged.providerRef,
    createdBy,
    settledAt: now,
  });
  await settleIfCovered(trx, orderId, paymentId, now, log);
}

/** A payment staff take at the desk (cash, card terminal, transfer …) or from the wallet. */
export async function recordDeskPayment(
  trx: Trx,
  studio: Studio,
  orderId: string,
  input: DeskPaymentInput,
  createdBy: string,
  now: Date,
  log?: Logger,
): Promise<void> {
  if (input.method === PaymentMethod.wallet)
    return payOrderFromWallet(trx, studio, orderId, createdBy, now, log);
  const order = await orderRow(trx, studio.id, orderId, true);
  if (!isOrderPayable(order.status))
    throw new AppError('order.notPayable', { message: 'this order is not waiting for payment' });
  const due = order.total - Number(order.paid);
  const amount = input.amount ?? due;
  if (due <= 0 || amount > due)
    throw new AppError('order.notPayable', {
      message: 'more than is left to pay',
      fields: { amount: ['more than is left to pay'] },
    });
  const paymentId = uuidv7();
  await trx('client_order_payments').insert({
    id: paymentId,
    studioId: studio.id,
    orderId,
    clientId: order.clientId,
    method: input.method,
    amount,
    currency: order.currency,
    status: 'succeeded',
    createdBy,
    settledAt: now,
  });
  await settleIfCovered(trx, orderId, paymentId, now, log);
}

// ------------------------------------------------------------------------------------ refunds

const REFUND_ERROR_KEYS: Record<ClientOrderRefundError, ErrorKey> = {
  transactionNotFound: 'refund.transactionNotFound',
  cannotRefund: 'refund.cannotRefund',
  exceededAmount: 'refund.exceededAmount',
  insufficientFunds: 'refund.insufficientFunds',
  unknown: 'refund.unknown',
};

function refundError(error: ClientOrderRefundError, message: string): AppError {
  return new AppError(REFUND_ERROR_KEYS[error], { message, fields: { amount: [message] } });
}

/**
 * Refunds part or all of a payment. What we can tell ourselves is refused before anything is
 * recorded (409 `refund.cannotRefund` for a payment not settled, `refund.exceededAmount` for more than
 * it still holds, `refund.insufficientFunds` when a wallet top-up's money is spent). What the provider
 * answers is recorded: the refund comes back with status success, pending or failed (with its error).
 * Offline methods (cash, terminal, transfer …) are recorded as given back at once; a wallet payment
 * goes back to the wallet.
 */
export async function refundOrder(
  trx: Trx,
  studio: Studio,
  orderId: string,
  input: RefundInput,
  createdBy: string,
  now: Date,
): Promise<RefundView> {
  const order = await orderRow(trx, studio.id, orderId, true);
  const payment = (await trx('client_order_payments')
    .where({ id: input.paymentId, orderId: order.id })
    .forUpdate()
    .first()) as PaymentRow | undefined;
  if (!payment) throw refundError('transactionNotFound', 'no such payment on this order');
  const refunds = await trx('client_order_refunds')
    .where({ paymentId: payment.id })
    .select('amount', 'status');
  const refusal = refundRefusal(
    payment,
    refunds as Array<{ amount: number; status: ClientOrderRefundStatus }>,
    input.amount,
  );
  if (refusal === 'cannotRefund') throw refundError(refusal, 'this payment cannot be refunded');
  if (refusal === 'exceededAmount') throw refundError(refusal, 'more than the payment still holds');

  // Money a top-up put in the wallet can only go back while it is still there.
  const credited = (await trx('client_wallet_payments')
    .where({ paymentId: payment.id, kind: 'top_up' })
    .first('clientId')) as { clientId: string } | undefined;
  if (credited) {
    await trx('memberships')
      .where({ studioId: studio.id, userId: credited.clientId })
      .forUpdate()
      .first('id');
    if (!canPayFromWallet(await walletBalanceOf(trx, studio.id, credited.clientId), input.amount))
      throw refundError('insufficientFunds', 'the wallet no longer holds this money');
  }

  let status: ClientOrderRefundStatus = 'success';
  let error: ClientOrderRefundError | null = null;
  let providerRef: string | null = null;
  if (payment.provider && (isOnlinePaymentMethod(payment.method) || payment.method === PaymentMethod.test)) {
    const provider = await providerFor(trx, studio.id, payment.provider, { evenIfDisabled: true });
    const answer = await provider.refund(trx, studio.id, payment.providerRef ?? '', input.amount);
    if (answer.status === 'failed') {
      status = 'failed';
      error = answer.error;
    } else {
      status = answer.status;
      providerRef = answer.providerRef;
    }
  }
  const id = uuidv7();
  await trx('client_order_refunds').insert({
    id,
    studioId: studio.id,
    orderId: order.id,
    paymentId: payment.id,
    amount: input.amount,
    status,
    error,
    reason: input.reason,
    providerRef,
    createdBy,
    createdAt: now,
    updatedAt: now,
  });
  if (status !== 'failed') {
    if (payment.method === PaymentMethod.wallet && payment.clientId)
      await trx('client_wallet_payments').insert({
        id: uuidv7(),
        studioId: studio.id,
        clientId: payment.clientId,
        amount: input.amount,
        currency: payment.currency,
        kind: 'refund',
        orderId: order.id,
        createdBy,
      });
    if (credited)
      await trx('client_wallet_payments').insert({
        id: uuidv7(),
        studioId: studio.id,
        clientId: credited.clientId,
        amount: -input.amount,
        currency: payment.currency,
        kind: 'refund',
        orderId: order.id,
        createdBy,
      });
  }
  const row = (await trx('client_order_refunds').where({ id }).first()) as RefundRow;
  return presentRefund(row);
}

// ------------------------------------------------------------------------------------ bulk, visits

/**
 * Charges each order that still waits for money: to the client's saved card when they have one
 * (with an enabled provider), otherwise from their wallet. Each order is charged in its own
 * savepoint: one that cannot be charged is listed with the error's key and the others go on.
 */
export async function bulkCharge(
  trx: Trx,
  studio: Studio,
  orderIds: string[],
  createdBy: string,
  now: Date,
  log?: Logger,
): Promise<BulkChargeResult> {
  const found = (await trx('client_orders')
    .where({ studioId: studio.id })
    .whereIn('id', orderIds)
    .select('id')) as Array<{ id: string }>;
  if (found.length !== new Set(orderIds).size) throw AppError.notFound('order');
  const result: BulkChargeResult = { charged: [], failed: [] };
  for (const id of [...new Set(orderIds)]) {
    try {
      await trx.transaction(async (sp) => {
        const order = (await sp('client_orders').where({ id }).first('clientId')) as {
          clientId: string | null;
        };
        const card = order.clientId ? await chargeableCard(sp, studio.id, order.clientId, now) : null;
        if (card) await payOrderWithSavedCard(sp, studio, id, card, createdBy, now, log);
        else await payOrderFromWallet(sp, studio, id, createdBy, now, log);
        await closeOpenOnlinePayments(sp, studio, id, now, log);
      });
      result.charged.push(id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result.failed.push({ id, key: err.key });
    }
  }
  return result;
}

/**
 * An order paid another way (bulk charge) may still have the client's online checkout open (status
 * awaiting): each pending online payment is ended at the provider (`cancelPayment`: Stripe expires
 * the session, the test bank refuses the page) and recorded as cancelled, so the client cannot pay
 * twice. If the provider says it was paid meanwhile, that success is recorded (paid twice: staff
 * refund one); if the provider cannot be reached it is recorded cancelled and a late success would
 * still be honoured (the money was taken), as for every payment.
 */
async function closeOpenOnlinePayments(trx: Trx, studio: Studio, orderId: string, now: Date, log?: Logger) {
  const open = (await trx('client_order_payments')
    .where({ orderId, status: 'pending' })
    .whereNotNull('provider')
    .select('id', 'provider', 'providerRef')) as Array<Pick<PaymentRow, 'id' | 'provider' | 'providerRef'>>;
  for (const payment of open) {
    let outcome: PaymentOutcome | 'pending' | null = null;
    try {
      const provider = await providerFor(trx, studio.id, payment.provider!, { evenIfDisabled: true });
      outcome = provider.cancelPayment
        ? await provider.cancelPayment(trx, studio.id, payment.providerRef ?? '')
        : null;
    } catch (err) {
      log?.warn({ orderId, paymentId: payment.id, err }, 'could not end the open online payment');
    }
    await applyPaymentOutcome(
      trx,
      payment.id,
      outcome === 'succeeded' || outcome === 'chargeback' ? 'succeeded' : 'cancelled',
      now,
      log,
    );
  }
}

/**
 * Pays a client's visits at the desk (v2 `client-visits/pay`): one order of `visit` lines, paid with
 * the given method at once; fulfilling the lines marks the visits paid (bookings' `markVisitsPaid`:
 * an unconfirmed visit becomes booked). Each id must be a visit of this client in this studio (404),
 * booked to be paid at the desk and not paid yet (409 `visit.statusNotAllowed`).
 */
export async function payVisits(
  trx: Trx,
  studio: Studio,
  input: VisitPayInput,
  createdBy: string,
  now: Date,
  log?: Logger,
): Promise<{ orderId: string }> {
  const client = await trx('memberships')
    .where({ studioId: studio.id, userId: input.userId, isClient: true })
    .first('id');
  if (!client) throw AppError.notFound('client');
  const visitIds = [...new Set(input.visitIds)];
  const visits = (await trx('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('class_services as c', 'c.id', 'e.class_service_id')
    .where({ 'v.studio_id': studio.id, 'v.client_id': input.userId })
    .whereIn('v.id', visitIds)
    .orderBy('v.id')
    .forUpdate('v')
    .select('v.id', 'v.payment', 'v.paid_at', 'e.starts_at', 'c.name')) as Array<{
    id: string;
    payment: string;
    paidAt: Date | null;
    startsAt: Date;
    name: LocaleText;
  }>;
  if (visits.length !== visitIds.length) throw AppError.notFound('visit');
  // Only a visit booked to be paid at the desk and not paid yet has anything to pay (a pass or a
  // free class paid it already). Checked here so nothing is charged for a visit fulfilment refuses.
  const fields: Record<string, string[]> = {};
  visitIds.forEach((visitId, i) => {
    const visit = visits.find((v) => v.id === visitId)!;
    if (visit.payment !== 'desk' || visit.paidAt !== null) fields[`visitIds.${i}`] = ['nothing to pay'];
  });
  if (Object.keys(fields).length > 0)
    throw new AppError('visit.statusNotAllowed', { message: 'a visit has nothing to pay', fields });
  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId: input.userId,
    source: 'visit',
    createdBy,
    lines: visitIds.map((visitId) => ({
      kind: 'visit' as const,
      refId: visitId,
      name: visitLineName(
        studio,
        visits.find((v) => v.id === visitId)!,
      ),
      quantity: 1,
      unitPriceMinor: input.unitPrice,
      vatRate: input.vatRate,
    })),
  });
  if (input.unitPrice > 0)
    await recordDeskPayment(trx, studio, id, { method: input.method }, createdBy, now, log);
  else await fulfilOrder(trx, id, null, now, log);
  return { orderId: id };
}

/** "Yoga 2026-11-23 18:00": the class and its start in the studio's time zone (what a receipt shows). */
function visitLineName(studio: Studio, visit: { startsAt: Date; name: LocaleText }): string {
  const when = new Intl.DateTimeFormat('sv-SE', {
    timeZone: studio.timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(visit.startsAt));
  return `${resolveLocaleText(visit.name, studio.defaultLocale, studio.defaultLocale)} ${when}`;
}

export type { PaymentStatus };
