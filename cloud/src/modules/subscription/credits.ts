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
 * What the studio's started campaigns of a channel still have to send, in credits (registered by the
 * communication module, which owns campaigns: this module sits below it). `exceptCampaignId`: the
 * campaign being started is not counted twice.
 */
export type CreditReservations = (
  db: Db,
  studioId: string,
  service: CreditService,
  exceptCampaignId: string | null,
) => Promise<number>;

let reservations: CreditReservations = async () => 0;

export function registerCreditReservations(fn: CreditReservations): void {
  reservations = fn;
}

/** Too few credits: the key of the refusal, what was needed and what is left. */
export interface CreditShortfall {
  key: 'smsCreditsExhausted' | 'emailCreditsExhausted';
  needed: number;
  available: number;
}

/**
 * Whether `needed` credits are left after what the studio's other started campaigns of the channel
 * still have to send; null when they are, else the shortfall. Call it in the transaction that starts
 * the sending: a transaction-scoped lock per studio makes two campaigns started at once count each
 * other.
 */
export async function creditShortfall(
  trx: Db,
  studioId: string,
  service: CreditService,
  needed: number,
  exceptCampaignId: string | null,
): Promise<CreditShortfall | null> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`subscription-credits:${studioId}`]);
  const balance = (await creditBalance(trx, studioId))[service];
  const available = Math.max(0, balance - (await reservations(trx, studioId, service, exceptCampaignId)));
  if (needed <= available) return null;
  return {
    key: service === 'sms' ? 'smsCreditsExhausted' : 'emailCreditsExhausted',
    needed,
    available,
  };
}

/** The refusal of a shortfall: 409 `subscription.smsCreditsExhausted` / `emailCreditsExhausted`. */
export function creditsError(shortfall: CreditShortfall): AppError {
  const what = shortfall.key === 'smsCreditsExhausted' ? 'SMS' : 'e-mail';
  return new AppError(`subscription.${shortfall.key}`, {
    message: `this campaign needs ${shortfall.needed} ${what} credits and the studio has ${shortfall.available} left: buy more in Settings → Subscription`,
  });
}

/**
 * Refuses sending that needs more credits than are left (see `creditShortfall`) with the reason:
 * 409 `subscription.smsCreditsExhausted` / `emailCreditsExhausted`.
 */
export async function assertCampaignCredits(
  trx: Db,
  studioId: string,
  service: CreditService,
  needed: number,
  exceptCampaignId: string | null,
): Promise<void> {
  const shortfall = await creditShortfall(trx, studioId, service, needed, exceptCampaignId);
  if (shortfall) throw creditsError(shortfall);
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
