import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import { type ClientOrderRefundError, PaymentMethod } from '../../../../shared/enums';
import type { Db } from '../../db/knex';
import type {
  CreatePaymentRequest,
  PaymentProvider,
  ProviderNotification,
  ProviderRefundResult,
} from './payment-provider';

/**
 * The built-in test provider (payment method 11 "test"): a simulated bank inside this server that
 * walks the whole online flow a real provider does — a form redirect to its hosted page, the
 * payer's choice (pay, decline, cancel), a return to `/app/return`, a signed asynchronous
 * notification to `/app/payment-notification/test`, refunds and chargebacks. Its side of the world
 * lives in `test_provider_transactions`; its webhook secret per studio in
 * `studio_payment_providers.settings.secret`.
 */

export type TestTransactionStatus = 'new' | PaymentOutcome;

export interface TestTransaction {
  id: string;
  studioId: string;
  paymentId: string;
  amount: number;
  currency: string;
  status: TestTransactionStatus;
  refunded: number;
  /** The refunds made, by idempotency key: their provider reference. */
  refundKeys: Record<string, string>;
  returnUrl: string;
}

interface TestProviderSettings {
  secret?: string;
  refundError?: ClientOrderRefundError | null;
}

export async function testProviderSettings(db: Db, studioId: string): Promise<TestProviderSettings> {
  const row = (await db('studio_payment_providers')
    .where({ studioId, provider: 'test' })
    .first('settings')) as { settings: TestProviderSettings } | undefined;
  return row?.settings ?? {};
}

/** The studio's webhook secret, created on first use (the row also marks the provider as configured). */
async function secretOf(db: Db, studioId: string): Promise<string> {
  const settings = await testProviderSettings(db, studioId);
  if (settings.secret) return settings.secret;
  const secret = randomBytes(24).toString('base64url');
  await db.raw(
    `insert into studio_payment_providers (id, studio_id, provider, enabled, settings)
     values (?, ?, 'test', true, jsonb_build_object('secret', ?::text))
     on conflict (studio_id, provider) do update
       set settings = studio_payment_providers.settings || jsonb_build_object('secret', ?::text)
       where studio_payment_providers.settings->>'secret' is null`,
    [uuidv7(), studioId, secret, secret],
  );
  return (await testProviderSettings(db, studioId)).secret!;
}

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Signs a hosted-page link, so only the payer who was redirected can decide the transaction. */
export async function signTransaction(db: Db, tx: { id: string; studioId: string }): Promise<string> {
  return hmac(await secretOf(db, tx.studioId), `page|${tx.id}`);
}

export async function verifyTransactionSignature(
  db: Db,
  tx: { id: string; studioId: string },
  signature: string,
): Promise<boolean> {
  return sameText(await signTransaction(db, tx), signature);
}

export interface TestNotificationBody {
  eventId: string;
  studioId: string;
  transactionId: string;
  status: PaymentOutcome;
  signature: string;
}

/** The body the test bank posts to the webhook, signed with the studio's secret. */
export async function signedNotification(
  db: Db,
  tx: { id: string; studioId: string },
  status: PaymentOutcome,
  eventId = uuidv7(),
): Promise<TestNotificationBody> {
  const secret = await secretOf(db, tx.studioId);
  return {
    eventId,
    studioId: tx.studioId,
    transactionId: tx.id,
    status,
    signature: hmac(secret, `${eventId}|${tx.studioId}|${tx.id}|${status}`),
  };
}

export async function testTransaction(db: Db, id: string): Promise<TestTransaction | undefined> {
  return (await db('test_provider_transactions').where({ id }).first()) as TestTransaction | undefined;
}

/**
 * The bank's decision: the payer paid, was declined or cancelled on the hosted page, or (later) the
 * card holder disputed the payment. Returns the transaction, or null when the decision cannot follow
 * its state (a decided transaction is decided once; a chargeback needs a success).
 */
export async function decideTestTransaction(
  db: Db,
  id: string,
  outcome: PaymentOutcome,
): Promise<TestTransaction | null> {
  const tx = (await db('test_provider_transactions').where({ id }).forUpdate().first()) as
    TestTransaction | undefined;
  if (!tx) return null;
  const allowed = outcome === 'chargeback' ? tx.status === 'succeeded' : tx.status === 'new';
  if (!allowed) return null;
  await db('test_provider_transactions').where({ id }).update({ status: outcome, updatedAt: new Date() });
  return { ...tx, status: outcome };
}

/**
 * Delivers a notification the way a provider does: an HTTP POST to the webhook, after the payer has
 * left the hosted page, retried a few times on failure. Fire and forget.
 */
export function sendTestNotification(notifyUrl: string, body: TestNotificationBody, delayMs = 150): void {
  const attempt = async (left: number): Promise<void> => {
    try {
      const res = await fetch(notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status >= 500 && left > 0) setTimeout(() => void attempt(left - 1), 500);
    } catch {
      if (left > 0) setTimeout(() => void attempt(left - 1), 500);
    }
  };
  setTimeout(() => void attempt(3), delayMs);
}

export const testProvider: PaymentProvider = {
  name: 'test',
  method: PaymentMethod.test,

  async createPayment(db, request: CreatePaymentRequest) {
    const id = uuidv7();
    await db('test_provider_transactions').insert({
      id,
      studioId: request.studioId,
      paymentId: request.paymentId,
      amount: request.amount,
      currency: request.currency,
      status: 'new',
      returnUrl: request.returnUrl,
    });
    const sig = await signTransaction(db, { id, studioId: request.studioId });
    const origin = new URL(request.returnUrl).origin;
    return {
      providerRef: id,
      // A real provider's hosted page is on its own origin and is reached by a form POST.
      redirect: { url: `${origin}/app/test-provider/${id}`, method: 'POST', fields: { sig } },
    };
  },

  async fetchStatus(db, studioId, providerRef) {
    const tx = await testTransaction(db, providerRef);
    if (!tx || tx.studioId !== studioId) return null;
    return tx.status === 'new' ? 'pending' : tx.status;
  },

  /** Ends an undecided transaction (the bank page then refuses to pay); a decided one says what it is. */
  async cancelPayment(db, studioId, providerRef) {
    const tx = await testTransaction(db, providerRef);
    if (!tx || tx.studioId !== studioId) return null;
    if (tx.status !== 'new') return tx.status;
    // Decided by the payer in the meantime: what they decided (read again, under the same lock).
    const decided = await decideTestTransaction(db, providerRef, 'cancelled');
    const status = decided ? decided.status : ((await testTransaction(db, providerRef))?.status ?? null);
    return status === 'new' ? 'pending' : status;
  },

  async refund(db, studioId, providerRef, amount, idempotencyKey): Promise<ProviderRefundResult> {
    const settings = await testProviderSettings(db, studioId);
    return db.transaction(async (trx) => {
      const tx = (await trx('test_provider_transactions').where({ id: providerRef }).forUpdate().first()) as
        TestTransaction | undefined;
      if (!tx || tx.studioId !== studioId) return { status: 'failed', error: 'transactionNotFound' };
      // The same refund asked again (its first answer was lost): the bank answers as it did.
      const earlier = tx.refundKeys[idempotencyKey];
      if (earlier) return { status: 'success', providerRef: earlier };
      // Sandbox switch: the studio may make the bank answer a given refund error (to try the screens).
      if (settings.refundError) return { status: 'failed', error: settings.refundError };
      if (tx.status !== 'succeeded') return { status: 'failed', error: 'cannotRefund' };
      if (tx.refunded + amount > tx.amount) return { status: 'failed', error: 'exceededAmount' };
      const ref = `${tx.id}:r${tx.refunded + amount}`;
      await trx('test_provider_transactions')
        .where({ id: tx.id })
        .update({
          refunded: tx.refunded + amount,
          refundKeys: JSON.stringify({ ...tx.refundKeys, [idempotencyKey]: ref }),
          updatedAt: new Date(),
        });
      return { status: 'success', providerRef: ref };
    });
  },

  async verifyNotification(db, body): Promise<ProviderNotification | null> {
    if (typeof body !== 'object' || body === null) return null;
    const b = body as Partial<Record<keyof TestNotificationBody, unknown>>;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (
      typeof b.eventId !== 'string' ||
      // Stored as `<studio id>:<event id>` in a 100-character column.
      b.eventId.length > 63 ||
      typeof b.studioId !== 'string' ||
      !uuid.test(b.studioId) ||
      typeof b.transactionId !== 'string' ||
      !uuid.test(b.transactionId) ||
      typeof b.signature !== 'string' ||
      !['succeeded', 'failed', 'cancelled', 'chargeback'].includes(b.status as string)
    )
      return null;
    const studio = await db('studios').where({ id: b.studioId }).first('id');
    if (!studio) return null;
    const settings = await testProviderSettings(db, b.studioId);
    if (!settings.secret) return null;
    const expected = hmac(
      settings.secret,
      `${b.eventId}|${b.studioId}|${b.transactionId}|${b.status as string}`,
    );
    if (!sameText(expected, b.signature)) return null;
    return {
      eventId: b.eventId,
      studioId: b.studioId,
      providerRef: b.transactionId,
      outcome: b.status as PaymentOutcome,
    };
  },

  async testConnection(db, studioId) {
    // The simulated bank is in this process: reaching it means checking its secret can sign.
    await secretOf(db, studioId);
    return { ok: true, message: 'test provider ready' };
  },
};
