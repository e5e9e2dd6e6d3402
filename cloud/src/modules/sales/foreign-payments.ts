import type { PaymentOutcome } from '../../../../shared/domain/payments';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';

/**
 * Payments that are not a client order's but go through the same providers and the same
 * notification endpoint: the studio's subscription to the platform (modules/subscription registers
 * its handler at load, so sales never imports it). A verified notification whose transaction is no
 * client order payment is offered to each handler; the first that knows the transaction answers.
 */
export type ForeignPaymentHandler = (
  trx: Knex.Transaction,
  notification: { provider: string; studioId: string; providerRef: string; outcome: PaymentOutcome },
  now: Date,
  log?: Logger,
) => Promise<'applied' | 'ignored' | null>;

const handlers: ForeignPaymentHandler[] = [];

export function registerForeignPaymentHandler(handler: ForeignPaymentHandler): void {
  if (!handlers.includes(handler)) handlers.push(handler);
}

export async function applyForeignNotification(
  ...args: Parameters<ForeignPaymentHandler>
): Promise<'applied' | 'ignored' | null> {
  for (const handler of handlers) {
    const result = await handler(...args);
    if (result) return result;
  }
  return null;
}
