import { v7 as uuidv7 } from 'uuid';
import type {
  DeskPaymentInput,
  OrderDetail,
  OrderList,
  OrderListQuery,
  OrderPatchInput,
  OrderStatusView,
  PaymentStatus,
  VisitPayInput,
} from '../../../../shared/contracts/api/sales';
import {
  allowedOrderStatusActions,
  applyOrderStatusAction,
  isOrderPayable,
  type OrderStatusAction,
} from '../../../../shared/domain/orders';
import { nextPaymentState, type PaymentOutcome } from '../../../../shared/domain/payments';
import { canPayFromWallet } from '../../../../shared/domain/wallet';
import { mapLocaleText, resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Studio } from '../identity/index';
import { enqueue } from '../../jobs/queue';
import { fulfilOrder } from './fulfilment';
import { createOrder } from './order-factory';
import { restoreCartFromOrder } from './cart-restore';
import { reclaimRedemption, releaseRedemption } from '../products/index';
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
import { applyOrderSearch } from './order-search';
import { emitWebhookEvent } from '../../webhooks/emit';

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
  if (query.q) await applyOrderSearch(db, studio.id, q, query.q, query.cursor);
  const rows = (await q) as OrderRow[];
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(presentOrder),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

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
  /** The viewer's language: lines kept in several languages are named in it (issue 25). */
  locale: string | null = null,
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
    lines: (lines as Parameters<typeof presentOrderLine>[0][]).map((l) =>
      presentOrderLine(l, locale, studio.defaultLocale),
    ),
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
  if (order.status !== OrderStatus.paid) {
    await trx('client_orders')
      .where({ id: orderId })
      .update({ status: OrderStatus.paid, paidAt: now, paymentReminder: false, updatedAt: now });
    await emitWebhookEvent(
      trx,
      order.studioId,
      'order.paid',
      { orderId, userId: order.clientId, total: order.total, currency: order.currency },
      now,
    );
    // The client's confirmation with the receipt (modules/communication renders it when sent).
    if (order.clientId)
      await enqueue(
        trx,
        'transactional.mail',
        { kind: 'purchaseConfirmation', studioId: order.studioId, userId: order.clientId, orderId },
        { key: `transactional:purchase:${orderId}` },
      );
  }
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
    // A success after the failure gave the voucher use back: the order keeps its discount, so it
    // takes the use again (the bank decided; the voucher may then be one use over its limit).
    if (order.voucherRedemptionId) await reclaimRedemption(trx, order.voucherRedemptionId);
    await settleIfCovered(trx, order.id, paymentId, now, log);
  } else if (next === 'failed' || next === 'cancelled') {
    if (order.status === OrderStatus.pending || order.status === OrderStatus.awaiting) {
      await trx('client_orders')
        .where({ id: order.id })
        .update({ status: next === 'failed' ? OrderStatus.failed : OrderStatus.cancelled, updatedAt: now });
      // A checkout that did not go through: its voucher use is given back and its items (and the
      // voucher's code) go back in the client's cart (try again).
      const voucherCode = order.voucherRedemptionId
        ? await releaseRedemption(trx, order.voucherRedemptionId, now)
        : null;
      await restoreCartFromOrder(trx, order, voucherCode);
    }
    // The client hears of a failed payment, with the link to pay again (modules/communication).
    if (next === 'failed' && order.clientId)
      await enqueue(
        trx,
        'transactional.mail',
        {
          kind: 'paymentFailed',
          studioId: order.studioId,
          userId: order.clientId,
          orderId: order.id,
          paymentId,
        },
        { key: `transactional:payment-failed:${paymentId}` },
      );
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

/** A payment staff take at the desk (cash, card terminal, transfer …) or from the wallet. */
export async function recordDeskPayment(
  trx: Trx,
  studio: Studio,
  orderId: string,
  input: DeskPaymentInput,
  createdBy: string | null,
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

// ------------------------------------------------------------------------------------ visits

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
      nameTexts: visitLineTexts(
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
  return `${resolveLocaleText(visit.name, studio.defaultLocale, studio.defaultLocale)} ${visitWhen(studio, visit)}`;
}

/** The same name in every language of the class (issue 25: screens and invoices pick theirs). */
function visitLineTexts(studio: Studio, visit: { startsAt: Date; name: LocaleText }): LocaleText {
  const when = visitWhen(studio, visit);
  return mapLocaleText(visit.name, (name) => `${name} ${when}`);
}

function visitWhen(studio: Studio, visit: { startsAt: Date }): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: studio.timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(visit.startsAt));
}

export type { PaymentStatus };
