import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { v7 as uuidv7 } from 'uuid';
import { WEBHOOK_DISABLE_AFTER } from '../../../../shared/contracts/api/integrations';
import type { Knex } from '../../db/knex';
import type { JobContext } from '../../jobs/perform';
import { enqueue, QUEUES } from '../../jobs/queue';
import { openWebhookSecret } from '../../webhooks/secrets';
import { findStudio } from '../identity/index';
import { guardedLookup, refusedUrl } from './ssrf';

/** Attempts of one delivery before it fails for good: the first and the queue's retries. */
export const WEBHOOK_MAX_ATTEMPTS = QUEUES['webhook.deliver'].retryLimit + 1;
const TIMEOUT_MS = 10_000;
const RESPONSE_KEEP = 4096;

export interface HttpOutcome {
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/** POSTs the body to the URL through the SSRF guard; never throws (the outcome says what happened). */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<HttpOutcome> {
  const started = process.hrtime.bigint();
  const ms = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const refused = refusedUrl(url);
  if (refused) return { status: null, body: null, error: `refused: ${refused}`, durationMs: 0 };
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<HttpOutcome>((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup as never,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_KEEP) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? null,
            body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_KEEP),
            error: null,
            durationMs: ms(),
          }),
        );
        res.on('error', (err) =>
          resolve({ status: res.statusCode ?? null, body: null, error: err.message, durationMs: ms() }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) =>
      resolve({ status: null, body: null, error: err.message.slice(0, 500), durationMs: ms() }),
    );
    req.end(body);
  });
}

/** The Standard Webhooks signature header: one `v1,<base64>` per live secret, space-separated. */
export function signatures(secrets: readonly string[], msgId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(msgId, timestamp, body)).join(' ');
}

/**
 * The `webhook.deliver` job: sends one delivery, logs the attempt, and on a 2xx marks it delivered
 * (the job's key makes sure an acknowledged delivery is never sent again). A failure is retried by
 * the queue with exponential backoff; after the last attempt the delivery fails for good, and an
 * endpoint whose deliveries failed so WEBHOOK_DISABLE_AFTER times in a row is switched off and the
 * studio's owners are mailed.
 */
export async function performWebhookDelivery(
  payload: { deliveryId: string },
  ctx: JobContext,
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const { knex, clock } = ctx;
  const delivery = await knex('webhook_deliveries').where({ id: payload.deliveryId }).first();
  if (!delivery || delivery.status !== 'pending') return;
  const endpoint = await knex('webhook_endpoints').where({ id: delivery.endpointId }).first();
  if (!endpoint || !endpoint.enabled)
    return {
      record: async (trx) => {
        await trx('webhook_deliveries')
          .where({ id: delivery.id })
          .update({ status: 'skipped', finishedAt: clock.now() });
      },
    };

  const now = clock.now();
  const body = JSON.stringify(delivery.payload);
  const open = (stored: string) => openWebhookSecret(endpoint.studioId, endpoint.id, stored);
  const secrets = [open(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(open(endpoint.previousSecret));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'StudioPlatform-Webhooks/1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures(secrets, delivery.eventId, now, body),
  };
  const outcome = await postWebhook(endpoint.url, headers, body);
  const attempt = delivery.attempts + 1;
  // The log is written whatever happens next (a retry, a failure for good, a success).
  await knex('webhook_attempts').insert({
    id: uuidv7(),
    deliveryId: delivery.id,
    studioId: delivery.studioId,
    attemptedAt: now,
    requestHeaders: JSON.stringify({
      ...headers,
      'webhook-signature': headers['webhook-signature']!.replace(/,[^ ]+/g, ',…'),
    }),
    requestBody: body,
    responseStatus: outcome.status,
    responseBody: outcome.body,
    error: outcome.error,
    durationMs: outcome.durationMs,
  });
  await knex('webhook_deliveries').where({ id: delivery.id }).update({ attempts: attempt });

  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  if (ok)
    return {
      record: async (trx) => {
        await trx('webhook_deliveries')
          .where({ id: delivery.id })
          .update({ status: 'delivered', finishedAt: now });
        await trx('webhook_endpoints').where({ id: endpoint.id }).update({ consecutiveFailures: 0 });
      },
    };
  if (attempt < WEBHOOK_MAX_ATTEMPTS)
    throw new Error(
      `webhook ${delivery.id}: ${outcome.error ?? `HTTP ${outcome.status}`} (attempt ${attempt})`,
    );
  return {
    record: async (trx) => {
      await trx('webhook_deliveries')
        .where({ id: delivery.id })
        .update({ status: 'failed', finishedAt: now });
      const [updated] = await trx('webhook_endpoints')
        .where({ id: endpoint.id })
        .increment('consecutiveFailures', 1)
        .returning(['consecutiveFailures', 'enabled']);
      if (updated && updated.enabled && updated.consecutiveFailures >= WEBHOOK_DISABLE_AFTER) {
        await trx('webhook_endpoints')
          .where({ id: endpoint.id })
          .update({ enabled: false, disabledReason: 'failing', updatedAt: now });
        await mailOwners(trx, endpoint.studioId, endpoint.url, ctx.publicUrl());
      }
    },
  };
}

/** Tells the studio's owners an endpoint was switched off (through the mail queue, in the transaction). */
async function mailOwners(trx: Knex.Transaction, studioId: string, url: string, publicUrl: string) {
  const studio = await findStudio(trx, studioId);
  if (!studio) return;
  const owners = await trx('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.role': 'owner', 'm.is_member': true })
    .whereNull('m.archived_at')
    .select('u.email');
  const pl = studio.defaultLocale.startsWith('pl');
  for (const { email } of owners) {
    if (!email) continue;
    await enqueue(trx, 'mail.send', {
      to: email,
      subject: pl
        ? `${studio.name}: webhook wyłączony po powtarzających się błędach`
        : `${studio.name}: webhook switched off after repeated failures`,
      text: pl
        ? `Adres ${url} nie przyjął ${WEBHOOK_DISABLE_AFTER} kolejnych zdarzeń, więc przestaliśmy je wysyłać.\nSprawdź odbiorcę, a potem włącz webhook i ponów dostawy: ${publicUrl}/${studio.id}/backoffice#/integrations\n`
        : `${url} did not accept ${WEBHOOK_DISABLE_AFTER} events in a row, so we stopped sending them.\nCheck the receiver, then switch the webhook on and replay the deliveries: ${publicUrl}/${studio.id}/backoffice#/integrations\n`,
    });
  }
}
