import { v7 as uuidv7 } from 'uuid';
import { isOrderPayable } from '../../../../shared/domain/orders';
import { OrderStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Studio } from '../identity/index';
import { isProviderName, PROVIDERS, providerFor } from './providers';
import { applyPaymentOutcome, orderRow } from './sales.service';

export interface OnlinePaymentStart {
  paymentId: string;
  redirectUrl: string;
}

const FORM_REDIRECT = '/app/form-redirect?payment=';

/**
 * The return path with the payer's language (`lang=`): `/app/return` sets the locale cookie from it
 * and the page it sends the payer to opens in it, whatever the payment page did (issue 26).
 */
export function returnPathIn(path: string, locale: string | null | undefined): string {
  if (!locale) return path;
  const url = new URL(path, 'http://local');
  url.searchParams.set('lang', locale);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Starts paying an order online, first step, in the caller's transaction: a pending payment for what
 * is due (the studio's provider named, no provider transaction yet), the order awaiting (§3 status
 * 5). No call to the provider here: the order row is locked until the commit. After the commit the
 * route calls `requestProviderPayment` (second step); the browser then goes to
 * `/app/form-redirect?payment=…`, which posts the provider's form (and makes the call itself when
 * it was never made: the process died between the commit and the call).
 */
export async function startOnlinePayment(
  trx: Knex.Transaction,
  studio: Studio,
  orderId: string,
  options: { returnPath: string; createdBy: string | null; saveCard?: boolean; locale?: string | null },
): Promise<OnlinePaymentStart> {
  const order = await orderRow(trx, studio.id, orderId, true);
  if (!isOrderPayable(order.status))
    throw new AppError('order.notPayable', { message: 'this order is not waiting for payment' });
  const provider = await providerFor(trx, studio.id);
  const due = order.total - Number(order.paid);
  if (due <= 0) throw new AppError('order.notPayable', { message: 'nothing left to pay' });
  const paymentId = uuidv7();
  await trx('client_order_payments').insert({
    id: paymentId,
    studioId: studio.id,
    orderId,
    clientId: order.clientId,
    method: provider.method,
    amount: due,
    currency: order.currency,
    status: 'pending',
    provider: provider.name,
    returnUrl: returnPathIn(options.returnPath, options.locale),
    saveCard: Boolean(options.saveCard && order.clientId),
    createdBy: options.createdBy,
  });
  await trx('client_orders')
    .where({ id: orderId })
    .update({ status: OrderStatus.awaiting, updatedAt: new Date() });
  return { paymentId, redirectUrl: `${FORM_REDIRECT}${paymentId}` };
}

/** The payment a checkout's answer sends the browser to pay, if any. */
export function paymentOfRedirect(redirectUrl: string | null | undefined): string | null {
  return redirectUrl?.startsWith(FORM_REDIRECT) ? redirectUrl.slice(FORM_REDIRECT.length) : null;
}

interface PendingPayment {
  id: string;
  studioId: string;
  orderId: string;
  clientId: string | null;
  amount: number;
  currency: string;
  status: string;
  provider: string | null;
  providerRef: string | null;
  saveCard: boolean;
  studioName: string;
}

/**
 * Second step, after the commit, holding no transaction: asks the provider for its transaction (the
 * payment page), then records its reference and page in a transaction of its own. Once per payment:
 * a payment that has its provider transaction is left alone, and two callers racing both ask with
 * the payment's id as the provider's idempotency key (Stripe answers both with one session); the
 * first answer recorded wins. A provider that refuses or cannot be reached fails the payment (and
 * the order, as a declined payment would) and the error is answered.
 */
export async function requestProviderPayment(
  knex: Knex,
  paymentId: string,
  origin: string,
  log?: Logger,
): Promise<void> {
  const payment = (await knex('client_order_payments as p')
    .join('studios as s', 's.id', 'p.studio_id')
    .where('p.id', paymentId)
    .first(
      'p.id',
      'p.studioId',
      'p.orderId',
      'p.clientId',
      'p.amount',
      'p.currency',
      'p.status',
      'p.provider',
      'p.providerRef',
      'p.saveCard',
      's.name as studioName',
    )) as PendingPayment | undefined;
  if (!payment || payment.providerRef || payment.status !== 'pending') return;
  if (!payment.provider || !isProviderName(payment.provider)) return;
  const provider = PROVIDERS[payment.provider];
  let created: Awaited<ReturnType<typeof provider.createPayment>>;
  try {
    created = await provider.createPayment(knex, {
      studioId: payment.studioId,
      paymentId,
      amount: payment.amount,
      currency: payment.currency,
      description: `${payment.studioName} ${payment.orderId.slice(-8).toUpperCase()}`,
      returnUrl: `${origin}/app/return?payment=${paymentId}`,
      notifyUrl: `${origin}/app/payment-notification/${provider.name}`,
      clientId: payment.clientId,
      saveCard: payment.saveCard,
    });
  } catch (err) {
    await knex.transaction((trx) => applyPaymentOutcome(trx, paymentId, 'failed', new Date(), log));
    if (err instanceof AppError) throw err;
    // The provider failed (down, network, an answer we cannot read): the payer is told so, not a 500.
    log?.error({ err, paymentId }, 'payment provider failed');
    throw new AppError('payment.providerError', { message: 'the payment provider did not answer' });
  }
  await knex('client_order_payments')
    .where({ id: paymentId })
    .whereNull('providerRef')
    .update({
      providerRef: created.providerRef,
      redirectUrl: JSON.stringify(created.redirect),
      updatedAt: new Date(),
    });
}
