import { v7 as uuidv7 } from 'uuid';
import type { BulkChargeResult } from '../../../../shared/contracts/api/sales';
import { isOrderPayable } from '../../../../shared/domain/orders';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import { type OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { findStudio, type Studio } from '../identity/index';
import type { SavedCard, SavedCardChargeResult } from './payment-provider';
import { scheduleProviderCall } from './provider-calls';
import { providerFor } from './providers';
import { chargeableCard } from './providers/payment-cards';
import { applyPaymentOutcome, orderRow, payOrderFromWallet } from './sales.service';

type Trx = Knex.Transaction;

/** A card charge recorded as pending and committed: the provider is asked next, outside any lock. */
export interface PendingCardCharge {
  paymentId: string;
  card: SavedCard;
}

/**
 * Charging an order to the client's saved card (payment method 6, payment card) without the client
 * present, first step, in the caller's transaction with the order locked: what is due is recorded as
 * a pending card payment (no provider reference yet) and a job is queued that finishes the charge if
 * this process dies before it does. Refused (409) when the order cannot be paid or another card charge
 * of it is still waiting for the provider's answer — so two staff, or staff and the scheduled run,
 * never charge one order twice.
 */
export async function recordPendingCardCharge(
  trx: Trx,
  studio: Studio,
  orderId: string,
  card: SavedCard,
  createdBy: string | null,
  now: Date,
): Promise<PendingCardCharge> {
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
  const inFlight = await trx('client_order_payments')
    .where({ orderId, method: PaymentMethod.paymentCard, status: 'pending' })
    .first('id');
  if (inFlight)
    throw new AppError('order.notPayable', {
      message: 'a card charge of this order is waiting for the bank',
    });
  const paymentId = uuidv7();
  await trx('client_order_payments').insert({
    id: paymentId,
    studioId: studio.id,
    orderId,
    clientId: order.clientId,
    method: PaymentMethod.paymentCard,
    amount: due,
    currency: order.currency,
    status: 'pending',
    provider: provider.name,
    createdBy,
  });
  await scheduleProviderCall(trx, { kind: 'cardCharge', paymentId, cardId: card.id }, now);
  return { paymentId, card };
}

/**
 * Second step, outside any transaction: the provider charges the card (idempotency key: the
 * payment's id, so asking again — the job after a crash — cannot take the money twice), then a short
 * transaction records the answer: paid (the order settles as any payment does) or declined (the
 * payment failed, the order as it was; 409 `payment.cardDeclined`). A provider that cannot be reached
 * leaves the payment pending for the job to finish (`payment.providerError`).
 */
export async function finishCardCharge(
  knex: Knex,
  studio: Pick<Studio, 'id' | 'name'>,
  pending: PendingCardCharge,
  now: Date,
  log?: Logger,
): Promise<void> {
  const payment = await knex('client_order_payments').where({ id: pending.paymentId }).first();
  if (!payment || payment.status !== 'pending' || payment.providerRef) return;
  const provider = await providerFor(knex, studio.id, pending.card.provider, { evenIfDisabled: true });
  const charged: SavedCardChargeResult = await provider.chargeSavedCard!(knex, {
    card: pending.card,
    amount: payment.amount,
    currency: payment.currency,
    paymentId: payment.id,
    description: `${studio.name} ${payment.orderId.slice(-8).toUpperCase()}`,
    idempotencyKey: `card-charge:${payment.id}`,
  });
  await knex.transaction(async (trx) => {
    const locked = await trx('client_order_payments').where({ id: payment.id }).forUpdate().first('status');
    if (locked?.status !== 'pending') return;
    if (charged.status === 'declined') {
      await trx('client_order_payments')
        .where({ id: payment.id })
        .update({ status: 'failed', failureReason: charged.message.slice(0, 500), updatedAt: now });
      return;
    }
    await trx('client_order_payments')
      .where({ id: payment.id })
      .update({ providerRef: charged.providerRef, updatedAt: now });
    const outcome: PaymentOutcome = 'succeeded';
    await applyPaymentOutcome(trx, payment.id, outcome, now, log);
  });
  if (charged.status === 'declined')
    throw new AppError('payment.cardDeclined', { message: `the card was declined: ${charged.message}` });
}

/** The card a pending charge was made with (the job's view after a crash). */
export async function pendingChargeOf(knex: Knex, paymentId: string, cardId: string) {
  const payment = await knex('client_order_payments').where({ id: paymentId }).first('studioId');
  if (!payment) return null;
  const card = (await knex('client_payment_cards')
    .where({ id: cardId, studioId: payment.studioId })
    .first()) as SavedCard | undefined;
  const studio = await findStudio(knex, payment.studioId);
  return card && studio ? { studio, pending: { paymentId, card } } : null;
}

/**
 * Charges one order the way staff's bulk charge and the scheduled run do: the client's saved card
 * when they have one (with an enabled provider), otherwise their wallet. The wallet pays inside
 * `lockAndCheck`'s transaction; a card is recorded there and charged after the commit. Returns when
 * the order is paid; throws the AppError that says why not.
 */
export async function chargeOrder(
  knex: Knex,
  studio: Studio,
  orderId: string,
  createdBy: string | null,
  now: Date,
  log?: Logger,
  lockAndCheck: (trx: Trx) => Promise<boolean> = async () => true,
): Promise<'charged' | 'skipped'> {
  const pending = await knex.transaction(async (trx) => {
    if (!(await lockAndCheck(trx))) return 'skipped' as const;
    const order = await trx('client_orders').where({ id: orderId }).first('clientId');
    const card = order?.clientId ? await chargeableCard(trx, studio.id, order.clientId, now) : null;
    const charge = card ? await recordPendingCardCharge(trx, studio, orderId, card, createdBy, now) : null;
    if (!card) await payOrderFromWallet(trx, studio, orderId, createdBy, now, log);
    // The client's open online checkouts end once the order is paid (the job checks it is).
    for (const open of await openOnlinePayments(trx, orderId))
      await scheduleProviderCall(trx, { kind: 'closePayment', paymentId: open.id }, now);
    return charge;
  });
  if (pending === 'skipped') return 'skipped';
  if (pending) await finishCardCharge(knex, studio, pending, now, log);
  await closeOpenOnlinePayments(knex, studio, orderId, now, log);
  return 'charged';
}

/**
 * Charges each order that still waits for money (`chargeOrder`), each on its own: one that cannot
 * be charged is listed with the error's key and the others go on. Runs after the request's
 * transaction (the route's `present`), so no provider call happens under a lock.
 */
export async function bulkCharge(
  knex: Knex,
  studio: Studio,
  orderIds: string[],
  createdBy: string,
  now: Date,
  log?: Logger,
): Promise<BulkChargeResult> {
  const result: BulkChargeResult = { charged: [], failed: [] };
  for (const id of [...new Set(orderIds)]) {
    try {
      await chargeOrder(knex, studio, id, createdBy, now, log);
      result.charged.push(id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result.failed.push({ id, key: err.key });
    }
  }
  return result;
}

/** Every id names an order of this studio (404 otherwise): checked before anything is charged. */
export async function assertOrdersOf(db: Knex | Trx, studio: Studio, orderIds: string[]): Promise<void> {
  const found = await db('client_orders').where({ studioId: studio.id }).whereIn('id', orderIds).select('id');
  if (found.length !== new Set(orderIds).size) throw AppError.notFound('order');
}

/**
 * An order paid another way (bulk charge) may still have the client's online checkout open (status
 * awaiting): each pending online payment is ended at the provider (`cancelPayment`: Stripe expires
 * the session, the test bank refuses the page) and recorded as cancelled, so the client cannot pay
 * twice. If the provider says it was paid meanwhile, that success is recorded (paid twice: staff
 * refund one); if the provider cannot be reached it is recorded cancelled and a late success would
 * still be honoured (the money was taken), as for every payment. The provider is asked outside any
 * transaction; the job `chargeOrder` queued does it if this process dies first.
 */
export async function closeOpenOnlinePayments(
  knex: Knex,
  studio: Pick<Studio, 'id'>,
  orderId: string,
  now: Date,
  log?: Logger,
): Promise<void> {
  for (const payment of await openOnlinePayments(knex, orderId))
    await closeOnlinePayment(knex, studio.id, payment.id, now, log);
}

function openOnlinePayments(db: Knex | Trx, orderId: string) {
  return db('client_order_payments')
    .where({ orderId, status: 'pending' })
    .whereNot('method', PaymentMethod.paymentCard)
    .whereNotNull('provider')
    .select('id');
}

/** Ends one pending online payment at its provider, then records what it said (see above). */
export async function closeOnlinePayment(
  knex: Knex,
  studioId: string,
  paymentId: string,
  now: Date,
  log?: Logger,
): Promise<void> {
  const payment = await knex('client_order_payments').where({ id: paymentId, studioId }).first();
  if (!payment || payment.status !== 'pending' || !payment.provider) return;
  // Only once the order is paid the other way (a declined card leaves the checkout open).
  const order = await knex('client_orders').where({ id: payment.orderId }).first('status');
  if (!order || isOrderPayable(order.status as OrderStatus)) return;
  let outcome: PaymentOutcome | 'pending' | null = null;
  try {
    const provider = await providerFor(knex, studioId, payment.provider, { evenIfDisabled: true });
    outcome = provider.cancelPayment
      ? await provider.cancelPayment(knex, studioId, payment.providerRef ?? '')
      : null;
  } catch (err) {
    log?.warn({ orderId: payment.orderId, paymentId, err }, 'could not end the open online payment');
  }
  await knex.transaction((trx) =>
    applyPaymentOutcome(
      trx,
      paymentId,
      outcome === 'succeeded' || outcome === 'chargeback' ? 'succeeded' : 'cancelled',
      now,
      log,
    ),
  );
}
