import { OrderStatus, RetailItemStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { findStudio } from '../identity/index';
import { chargeOrder } from './card-charges';
import { applyStatusAction } from './sales.service';

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
 * Each order is charged as staff's bulk charge does (`chargeOrder`), its row locked `skip locked` in
 * the first transaction (two runners, or a staff member charging it right now, never charge twice; a
 * card charge still waiting for the bank refuses another). The card itself is charged after that
 * commit, under an idempotency key of its pending payment.
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
    const studio = await findStudio(knex, studioId);
    if (!studio) continue;
    try {
      // The order locked `skip locked` in the charge's own first transaction: paid, changed or being
      // charged by someone else meanwhile, it is skipped. A card is charged after that commit.
      const done = await chargeOrder(knex, studio, id, null, now, log, async (trx) => {
        const order = await trx('client_orders')
          .where({ id, status: OrderStatus.scheduled })
          .whereNull('chargeAttemptedAt')
          .forUpdate()
          .skipLocked()
          .first('id');
        return order !== undefined;
      });
      if (done === 'charged') result.charged.push(id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await knex.transaction(async (trx) => {
        await trx('client_orders').where({ id }).update({ chargeAttemptedAt: now });
        const reminder = await trx('client_orders').where({ id }).first('paymentReminder', 'status');
        if (reminder && !reminder.paymentReminder && reminder.status === OrderStatus.scheduled)
          await applyStatusAction(trx, studio, id, 'enablePaymentReminder', now, log);
      });
      result.failed.push({ id, key: err.key });
      log?.info({ orderId: id, key: err.key }, 'scheduled order not charged');
    }
  }
  return result;
}
