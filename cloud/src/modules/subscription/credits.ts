import { v7 as uuidv7 } from 'uuid';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { platformSettings } from './platform-config';

export type CreditService = 'email' | 'sms';

/**
 * A studio's e-mail and SMS credits: the trial's allowance (every studio's, once) plus the ledger
 * `subscription_credit_entries` — grants of paid periods (`period:<id>`) and uses of campaigns
 * (`campaign:<id>`, the campaign's sent messages so far, written again after each batch). Derived
 * from those rows, never a counter.
 */
export async function creditBalance(db: Db, studioId: string): Promise<{ email: number; sms: number }> {
  const rows: Array<{ service: string; total: string | number }> = await db('subscription_credit_entries')
    .where({ studioId })
    .groupBy('service')
    .select('service', db.raw('sum(amount) as total'));
  const sum = (service: CreditService) => Number(rows.find((r) => r.service === service)?.total ?? 0);
  const trial = platformSettings().trialCredits;
  return { email: trial.email + sum('email'), sms: trial.sms + sum('sms') };
}

/**
 * Refuses a campaign that needs more credits than are left after what the studio's other campaigns
 * still have to send (`reserved`), with the reason (409 `subscription.smsCreditsExhausted` /
 * `emailCreditsExhausted`). Call it in the transaction that starts the sending: a transaction-scoped
 * lock per studio makes two campaigns started at once count each other.
 */
export async function assertCampaignCredits(
  trx: Db,
  studioId: string,
  service: CreditService,
  needed: number,
  reserved: () => Promise<number>,
): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`subscription-credits:${studioId}`]);
  const balance = (await creditBalance(trx, studioId))[service];
  const available = Math.max(0, balance - (await reserved()));
  if (needed <= available) return;
  const what = service === 'sms' ? 'SMS' : 'e-mail';
  throw new AppError(
    service === 'sms' ? 'subscription.smsCreditsExhausted' : 'subscription.emailCreditsExhausted',
    {
      message: `this campaign needs ${needed} ${what} credits and the studio has ${available} left: buy more in Settings → Subscription`,
    },
  );
}

/** A campaign's use so far (its sent messages × credits each), replacing what was recorded before. */
export async function recordCampaignUse(
  db: Db,
  studioId: string,
  service: CreditService,
  campaignId: string,
  used: number,
  now: Date,
): Promise<void> {
  await db('subscription_credit_entries')
    .insert({
      id: uuidv7(),
      studioId,
      service,
      amount: -used,
      sourceKey: `campaign:${campaignId}`,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict(['studioId', 'service', 'sourceKey'])
    .merge({ amount: -used, updatedAt: now });
}
