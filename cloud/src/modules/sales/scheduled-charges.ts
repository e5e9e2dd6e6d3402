import { OrderStatus, RetailItemStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { findStudio } from '../identity/rows';
import { chargeableCard } from './providers/payment-cards';
import { applyStatusAction, payOrderFromWallet, payOrderWithSavedCard } from './sales.service';

export interface ScheduledChargeRun {
  charged: string[];
  failed: Array<{ id: string; key: string }>;
}

/**
 * Charges the scheduled orders whose day has come: a desk sale's items with the retail status
 * "scheduled" are one order in §3 status scheduled (7), to be paid on `retail_sales.scheduled_for`.
 * On that day (in the studio's time zone) each is charged the way staff's bulk charge would — the
 * client's saved card when they have one, else their wallet — and becomes paid. When that fails the
 * order stays scheduled, its payment reminder is switched on (§4 allows it from scheduled) and it is
 * marked tried (`charge_attempted_at`): the job does not retry a declined card every run; staff charge
 * it by hand (`client-order/bulk/charge`) or mark it paid.
 *
 * Each order runs in its own transaction with the order row locked (`skip locked`: two runners, or a
 * staff member charging it right now, never charge twice). A card charge carries the idempotency key
 * of the bulk charge, so a rollback after the provider charged is not charged again on retry.
 */
export async function chargeDueScheduledOrders(
  knex: Knex,
  now: Date,
  log?: Logger,
): Promise<ScheduledChargeRun> {
  const due = (await knex('client_orders as o')
    .join('retail_sale_orders as rso', 'rso.order_id', 'o.id')
    .join('retail_sales as rs', 'rs.id', 'rso.sale_id')
    .join('studios as s', 's.id', 'o.studio_id')
    .where('o.status', OrderStatus.scheduled)
    .whereNull('o.charge_attempted_at')
    .whereNotNull('o.client_id')
    .where('rso.item_status', RetailItemStatus.scheduled)
    .whereRaw('rs.scheduled_for <= (?::timestamptz at time zone s.time_zone)::date', [now.toISOString()])
    .orderBy('o.id')
    .limit(500)
    .select('o.id', 'o.studio_id')) as Array<{ id: string; studioId: string }>;

  const result: ScheduledChargeRun = { charged: [], failed: [] };
  for (const { id, studioId } of due) {
    await knex.transaction(async (trx) => {
      const order = (await trx('client_orders')
        .where({ id, status: OrderStatus.scheduled })
        .whereNull('chargeAttemptedAt')
        .forUpdate()
        .skipLocked()
        .first('clientId')) as { clientId: string } | undefined;
      if (!order) return; // paid, changed or being charged by someone else meanwhile
      const studio = await findStudio(trx, studioId);
      if (!studio) return;
      try {
        await trx.transaction(async (sp) => {
          const card = await chargeableCard(sp, studio.id, order.clientId, now);
          if (card) await payOrderWithSavedCard(sp, studio, id, card, null, now, log);
          else await payOrderFromWallet(sp, studio, id, null, now, log);
        });
        result.charged.push(id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await trx('client_orders').where({ id }).update({ chargeAttemptedAt: now });
        const reminder = (await trx('client_orders').where({ id }).first('paymentReminder')) as {
          paymentReminder: boolean;
        };
        if (!reminder.paymentReminder)
          await applyStatusAction(trx, studio, id, 'enablePaymentReminder', now, log);
        result.failed.push({ id, key: err.key });
        log?.info({ orderId: id, key: err.key }, 'scheduled order not charged');
      }
    });
  }
  return result;
}
