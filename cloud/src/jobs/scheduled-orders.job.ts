import { chargeDueScheduledOrders } from '../modules/sales/index';
import type { JobDefinition } from './runner';

export const SCHEDULED_ORDERS_CHARGE = 'scheduled-orders-charge';

/**
 * Scheduled orders due: charges every desk order scheduled for today or earlier (in its studio's time
 * zone) to the client's saved card or wallet, once (see sales/scheduled-charges.ts). Every 10 minutes,
 * like the contract instalments, so a studio's morning is picked up whatever its time zone; each order
 * is locked while charged, so overlapping runs are harmless.
 */
export const scheduledOrdersChargeJob: JobDefinition = {
  name: SCHEDULED_ORDERS_CHARGE,
  cron: '*/10 * * * *',
  runOnStart: true,
  run: ({ knex, clock, log }) => chargeDueScheduledOrders(knex, clock.now(), log),
};
