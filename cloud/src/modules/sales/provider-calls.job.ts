import type { JobContext } from '../../jobs/perform';
import { closeOnlinePayment, finishCardCharge, pendingChargeOf } from './card-charges';
import type { ProviderCall } from './provider-calls';
import { askProviderForRefund } from './refunds.service';

/**
 * The `sales.provider-call` job: makes a provider call that its request did not finish (the process
 * died after the commit). Each step skips what is already answered, so the usual run — the request
 * made the call — does nothing. A refund whose provider still cannot be reached stays awaiting; the
 * job then fails so that pg-boss retries it with backoff.
 */
export async function performProviderCall(
  call: ProviderCall,
  { knex, clock, log }: JobContext,
): Promise<void> {
  const now = clock.now();
  if (call.kind === 'refund') {
    await askProviderForRefund(knex, call.refundId, now, log);
    const refund = await knex('client_order_refunds').where({ id: call.refundId }).first('status');
    if (refund?.status === 'awaiting')
      throw new Error(`refund ${call.refundId}: the provider did not answer`);
  } else if (call.kind === 'cardCharge') {
    const charge = await pendingChargeOf(knex, call.paymentId, call.cardId);
    if (!charge) return;
    try {
      await finishCardCharge(knex, charge.studio, charge.pending, now, log);
    } catch (err) {
      // Declined is an answer (recorded); anything else leaves the payment pending: try again later.
      if ((err as { key?: string }).key !== 'payment.cardDeclined') throw err;
    }
  } else {
    const payment = await knex('client_order_payments').where({ id: call.paymentId }).first('studioId');
    if (payment) await closeOnlinePayment(knex, payment.studioId, call.paymentId, now, log);
  }
}
