import { v7 as uuidv7 } from 'uuid';
import type { SubscriptionLine } from '../../../../shared/contracts/api/subscription';
import type { Knex } from '../../db/knex';
import { findStudio } from '../identity/index';
import { periodBounds, periodOf, previousPeriod } from './periods';
import { platformSettings } from './platform-config';
import { periodRow, settlePeriod } from './subscription.service';

/**
 * Issue 25's subscription in the demo: the studio is on the Pro plan, last month and this month paid
 * (this month with 500 SMS), each with the platform's invoice, so Settings → Subscription shows an
 * active plan, credits and invoices. A handful of rows: no payment provider is involved.
 */
export async function seedDemoSubscription(
  trx: Knex.Transaction,
  studioId: string,
  now: Date,
): Promise<void> {
  const studio = await findStudio(trx, studioId);
  if (!studio) return;
  const settings = platformSettings();
  const plan = settings.plans.find((p) => p.code === 'pro') ?? settings.plans[0]!;
  const sms = settings.addOns.find((a) => a.service === 'sms');
  const subscriptionId = uuidv7();
  await trx('studio_subscriptions').insert({ id: subscriptionId, studioId, planCode: plan.code });
  const current = periodOf(now, studio.timeZone);
  const planLine: SubscriptionLine = {
    code: plan.code,
    kind: 'plan',
    name: plan.name,
    quantity: 1,
    unitPrice: plan.price,
    net: plan.price,
  };
  const months: Array<{ period: string; lines: SubscriptionLine[]; paidAt: Date }> = [
    {
      period: previousPeriod(current),
      lines: [planLine],
      paidAt: new Date(now.getTime() - 30 * 86_400_000),
    },
    {
      period: current,
      lines: sms
        ? [
            planLine,
            {
              code: sms.code,
              kind: 'addOn',
              name: sms.name,
              quantity: 1,
              unitPrice: sms.price,
              net: sms.price,
            },
          ]
        : [planLine],
      paidAt: now,
    },
  ];
  for (const month of months) {
    const net = month.lines.reduce((s, l) => s + l.net, 0);
    const vat = Math.round((net * settings.vatRate) / 10_000);
    const id = uuidv7();
    await trx('studio_subscription_periods').insert({
      id,
      studioId,
      subscriptionId,
      period: month.period,
      kind: 'renewal',
      planCode: plan.code,
      ...periodBounds(month.period),
      lines: JSON.stringify(month.lines),
      net,
      vat,
      total: net + vat,
      currency: settings.currency,
      vatRate: settings.vatRate,
      status: 'awaiting',
      createdAt: month.paidAt,
      updatedAt: month.paidAt,
    });
    await settlePeriod(trx, studio, await periodRow(trx, studioId, id), month.paidAt);
    // The demo's past invoices count as e-mailed then: its invoice-mail jobs find them sent.
    await trx('studio_subscription_periods')
      .where({ id })
      .update({ invoiceSentAt: month.paidAt, invoiceSentTo: 'billing@demo.invalid' });
  }
}
