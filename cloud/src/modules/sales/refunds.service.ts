import { v7 as uuidv7 } from 'uuid';
import type { RefundInput, RefundView } from '../../../../shared/contracts/api/sales';
import { refundRefusal } from '../../../../shared/domain/payments';
import { canPayFromWallet } from '../../../../shared/domain/wallet';
import {
  type ClientOrderRefundError,
  type ClientOrderRefundStatus,
  PaymentMethod,
  isOnlinePaymentMethod,
} from '../../../../shared/enums';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Studio } from '../identity/index';
import type { ProviderRefundResult } from './payment-provider';
import { scheduleProviderCall } from './provider-calls';
import { providerFor } from './providers';
import { presentRefund, type PaymentRow, type RefundRow } from './sales.presenter';
import { orderRow, walletBalanceOf } from './sales.service';
import { emitWebhookEvent } from '../../webhooks/emit';

type Trx = Knex.Transaction;

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

/** The refund row as the presenter needs it, read through whatever connection is given. */
async function refundView(db: Knex | Trx, id: string): Promise<RefundView> {
  const row = (await db('client_order_refunds').where({ id }).first()) as RefundRow;
  return presentRefund(row);
}

/** What `refundOrder` decided: done, or recorded as awaiting the provider (ask it after the commit). */
export type RefundRequest = { refundId: string; askProvider: boolean };

/**
 * Refunds part or all of a payment, first step, in the caller's transaction. What we can tell
 * ourselves is refused before anything is recorded (409 `refund.cannotRefund` for a payment not
 * settled, `refund.exceededAmount` for more than it still holds, `refund.insufficientFunds` when a
 * wallet top-up's money is spent). Offline methods (cash, terminal, transfer …) are recorded as given
 * back at once; a wallet payment goes back to the wallet. A payment taken by an online provider is
 * recorded as `awaiting` (it counts against what the payment still holds, so a second refund cannot
 * overspend it meanwhile) and the provider is NOT asked here, under the order's lock: the route asks
 * it after the commit (`askProviderForRefund`), and a job does so if this process dies first.
 */
export async function refundOrder(
  trx: Trx,
  studio: Studio,
  orderId: string,
  input: RefundInput,
  createdBy: string,
  now: Date,
): Promise<RefundRequest> {
  const order = await orderRow(trx, studio.id, orderId, true);
  const payment = (await trx('client_order_payments')
    .where({ id: input.paymentId, orderId: order.id })
    .forUpdate()
    .first()) as PaymentRow | undefined;
  if (!payment) throw refundError('transactionNotFound', 'no such payment on this order');
  const refunds = (await trx('client_order_refunds')
    .where({ paymentId: payment.id })
    .select('amount', 'status')) as Array<{ amount: number; status: ClientOrderRefundStatus }>;
  const refusal = refundRefusal(payment, refunds, input.amount);
  if (refusal === 'cannotRefund') throw refundError(refusal, 'this payment cannot be refunded');
  if (refusal === 'exceededAmount') throw refundError(refusal, 'more than the payment still holds');

  // Money a top-up put in the wallet can only go back while it is still there.
  const credited = await creditedWallet(trx, payment.id);
  if (credited) {
    await lockWallet(trx, studio.id, credited.clientId);
    if (!canPayFromWallet(await walletBalanceOf(trx, studio.id, credited.clientId), input.amount))
      throw refundError('insufficientFunds', 'the wallet no longer holds this money');
  }

  const askProvider = Boolean(
    payment.provider && (isOnlinePaymentMethod(payment.method) || payment.method === PaymentMethod.test),
  );
  const id = uuidv7();
  await trx('client_order_refunds').insert({
    id,
    studioId: studio.id,
    orderId: order.id,
    paymentId: payment.id,
    amount: input.amount,
    status: askProvider ? 'awaiting' : 'success',
    error: null,
    reason: input.reason,
    providerRef: null,
    createdBy,
    createdAt: now,
    updatedAt: now,
  });
  if (askProvider) await scheduleProviderCall(trx, { kind: 'refund', refundId: id }, now);
  else await moveRefundedMoney(trx, { ...payment, refundId: id, amount: input.amount, createdBy }, credited);
  await emitWebhookEvent(
    trx,
    studio.id,
    'order.refunded',
    { orderId: order.id, refundId: id, amount: input.amount, status: askProvider ? 'awaiting' : 'success' },
    now,
  );
  return { refundId: id, askProvider };
}

/** The refund as the route answers it: the provider asked first when the refund awaits it. */
export async function finishRefund(knex: Knex, request: RefundRequest, now: Date, log?: Logger) {
  if (request.askProvider) await askProviderForRefund(knex, request.refundId, now, log);
  return refundView(knex, request.refundId);
}

/**
 * Second step, outside any transaction: asks the provider to give an `awaiting` refund back (with
 * the refund's id as idempotency key, so asking again answers as before), then records the answer
 * in a short transaction: success, pending (the provider finishes later) or failed with its error.
 * A refund already answered (the route did it, or the job) is left as it is.
 */
export async function askProviderForRefund(
  knex: Knex,
  refundId: string,
  now: Date,
  log?: Logger,
): Promise<void> {
  const refund = await knex('client_order_refunds').where({ id: refundId }).first();
  if (!refund || refund.status !== 'awaiting') return;
  const payment = (await knex('client_order_payments').where({ id: refund.paymentId }).first()) as PaymentRow;
  let answer: ProviderRefundResult;
  try {
    const provider = await providerFor(knex, refund.studioId, payment.provider!, { evenIfDisabled: true });
    answer = await provider.refund(knex, refund.studioId, payment.providerRef ?? '', refund.amount, refundId);
  } catch (err) {
    // Unreachable or failing provider: the refund stays awaiting and the job asks again later.
    log?.warn({ refundId, err }, 'the payment provider could not be asked for a refund');
    return;
  }
  await knex.transaction(async (trx) => {
    const locked = await trx('client_order_refunds').where({ id: refundId }).forUpdate().first('status');
    if (locked?.status !== 'awaiting') return;
    const status: ClientOrderRefundStatus = answer.status;
    await trx('client_order_refunds')
      .where({ id: refundId })
      .update({
        status,
        error: answer.status === 'failed' ? answer.error : null,
        providerRef: answer.status === 'failed' ? null : answer.providerRef,
        updatedAt: now,
      });
    if (answer.status === 'failed') return;
    const credited = await creditedWallet(trx, payment.id);
    // Given back by the provider: the top-up's money leaves the wallet (checked when asked; spent
    // meanwhile, the wallet goes below zero, which is what the client then owes).
    if (credited) await lockWallet(trx, payment.studioId, credited.clientId);
    await moveRefundedMoney(
      trx,
      { ...payment, refundId, amount: refund.amount, createdBy: refund.createdBy },
      credited,
    );
  });
}

async function creditedWallet(trx: Trx, paymentId: string) {
  return trx('client_wallet_payments').where({ paymentId, kind: 'top_up' }).first('clientId');
}

async function lockWallet(trx: Trx, studioId: string, clientId: string) {
  await trx('memberships').where({ studioId, userId: clientId }).forUpdate().first('id');
}

/** The wallet entries a refund makes: a wallet payment goes back to it; a top-up leaves it. */
async function moveRefundedMoney(
  trx: Trx,
  refund: Pick<PaymentRow, 'method' | 'clientId' | 'currency' | 'studioId' | 'orderId'> & {
    refundId: string;
    amount: number;
    createdBy: string | null;
  },
  credited: { clientId: string } | undefined,
) {
  const entry = { studioId: refund.studioId, currency: refund.currency, kind: 'refund' as const };
  if (refund.method === PaymentMethod.wallet && refund.clientId)
    await trx('client_wallet_payments').insert({
      ...entry,
      id: uuidv7(),
      clientId: refund.clientId,
      amount: refund.amount,
      orderId: refund.orderId,
      createdBy: refund.createdBy,
    });
  if (credited)
    await trx('client_wallet_payments').insert({
      ...entry,
      id: uuidv7(),
      clientId: credited.clientId,
      amount: -refund.amount,
      orderId: refund.orderId,
      createdBy: refund.createdBy,
    });
}
