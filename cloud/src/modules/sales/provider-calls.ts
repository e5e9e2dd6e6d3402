import type { Knex } from '../../db/knex';
import { enqueue } from '../../jobs/queue';

/**
 * A call to an online payment provider that the sales module makes after its transaction committed
 * (issue 18: never under a row lock). The request that causes it makes the call itself right after
 * the commit; this job, queued in the same transaction and due a little later, makes it if that
 * process died first (the refund still awaiting, the card payment still pending). Asking twice is
 * safe: refunds and card charges carry an idempotency key, and a call already answered is skipped.
 */
export type ProviderCall =
  | { kind: 'refund'; refundId: string }
  | { kind: 'cardCharge'; paymentId: string; cardId: string }
  | { kind: 'closePayment'; paymentId: string };

/** How long the request has to make the call itself before the job makes it. */
export const PROVIDER_CALL_GRACE_MS = 2 * 60_000;

const idOf = (call: ProviderCall) => (call.kind === 'refund' ? call.refundId : call.paymentId);

export async function scheduleProviderCall(
  trx: Knex.Transaction,
  call: ProviderCall,
  now: Date,
): Promise<void> {
  await enqueue(trx, 'sales.provider-call', call, {
    key: `sales.provider-call:${call.kind}:${idOf(call)}`,
    startAfter: new Date(now.getTime() + PROVIDER_CALL_GRACE_MS),
  });
}
