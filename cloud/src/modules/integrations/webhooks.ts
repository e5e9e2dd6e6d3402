import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointPatch,
  WebhookEndpointPut,
  WebhookEventType,
  WebhookToken,
} from '../../../../shared/contracts/api/integrations';
import {
  WEBHOOK_EVENTS,
  WebhookEndpointPatchSchema,
  WebhookEndpointPutSchema,
} from '../../../../shared/contracts/api/integrations';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type {
  WebhookAttemptsRow,
  WebhookDeliveriesRow,
  WebhookEndpointsRow,
} from '../../db/generated/tables';
import { newEventId, queueWebhookDelivery, type WebhookEventBody } from '../../webhooks/emit';
import { openWebhookSecret, sealWebhookSecret } from '../../webhooks/secrets';
import type { Studio } from '../identity/index';
import { refusedUrl } from './ssrf';

/** How long deliveries are also signed with the secret a rotation replaced. */
export const PREVIOUS_SECRET_HOURS = 24;
const DELIVERIES_SHOWN = 50;

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const isEvent = (e: string): e is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(e);

function endpointView(
  row: WebhookEndpointsRow,
  last: { status: string; createdAt: Date } | undefined,
): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter(isEvent),
    enabled: row.enabled,
    disabledReason: row.disabledReason === 'failing' ? 'failing' : null,
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
    lastDelivery: last
      ? { status: last.status as WebhookDelivery['status'], at: last.createdAt.toISOString() }
      : null,
  };
}

async function lastDeliveries(db: Db, endpointIds: string[]) {
  if (endpointIds.length === 0) return new Map<string, { status: string; createdAt: Date }>();
  const rows: { endpointId: string; status: string; createdAt: Date }[] = await db('webhook_deliveries')
    .distinctOn('endpoint_id')
    .whereIn('endpoint_id', endpointIds)
    .orderBy([{ column: 'endpoint_id' }, { column: 'created_at', order: 'desc' }])
    .select('endpointId', 'status', 'createdAt');
  return new Map(rows.map((r) => [r.endpointId, r]));
}

export async function listWebhooks(db: Db, studio: Studio): Promise<WebhookEndpoint[]> {
  const rows = await db('webhook_endpoints').where({ studioId: studio.id }).orderBy('createdAt');
  const last = await lastDeliveries(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => endpointView(r, last.get(r.id)));
}

async function endpointOf(db: Db, studio: Studio, id: string, lock = false): Promise<WebhookEndpointsRow> {
  const q = db('webhook_endpoints').where({ studioId: studio.id, id });
  const row = await (lock ? q.forUpdate() : q).first();
  if (!row) throw AppError.notFound('webhook');
  return row;
}

async function viewOf(db: Db, row: WebhookEndpointsRow) {
  return endpointView(row, (await lastDeliveries(db, [row.id])).get(row.id));
}

/** A studio's URL must be a public address (no SSRF); 400 on the url field otherwise. */
function assertCallable(url: string) {
  const refused = refusedUrl(url);
  if (refused)
    throw new AppError('webhook.addressRefused', {
      message: 'this address cannot receive webhooks',
      fields: { url: [`not a public address (${refused})`] },
    });
}

export async function putWebhook(
  trx: Knex.Transaction,
  studio: Studio,
  input: WebhookEndpointPut,
  now: Date,
): Promise<WebhookEndpoint> {
  const body = WebhookEndpointPutSchema.parse(input);
  assertCallable(body.url);
  if (!body.id) {
    const id = uuidv7();
    const [row] = await trx('webhook_endpoints')
      .insert({
        id,
        studioId: studio.id,
        url: body.url,
        description: body.description,
        events: body.events,
        enabled: body.enabled,
        secret: sealWebhookSecret(studio.id, id, newWebhookSecret()),
        createdAt: now,
        updatedAt: now,
      })
      .returning('*');
    return viewOf(trx, row!);
  }
  const existing = await endpointOf(trx, studio, body.id, true);
  const [row] = await trx('webhook_endpoints')
    .where({ id: existing.id })
    .update({
      url: body.url,
      description: body.description,
      events: body.events,
      enabled: body.enabled,
      ...(body.enabled ? { disabledReason: null, consecutiveFailures: 0 } : {}),
      updatedAt: now,
    })
    .returning('*');
  return viewOf(trx, row!);
}

export async function patchWebhook(
  trx: Knex.Transaction,
  studio: Studio,
  id: string,
  input: WebhookEndpointPatch,
  now: Date,
): Promise<WebhookEndpoint> {
  const body = WebhookEndpointPatchSchema.parse(input);
  const existing = await endpointOf(trx, studio, id, true);
  if (body.url !== undefined) assertCallable(body.url);
  const switchedOn = body.enabled === true && !existing.enabled;
  const [row] = await trx('webhook_endpoints')
    .where({ id: existing.id })
    .update({
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(switchedOn ? { disabledReason: null, consecutiveFailures: 0 } : {}),
      updatedAt: now,
    })
    .returning('*');
  return viewOf(trx, row!);
}

export async function deleteWebhook(trx: Knex.Transaction, studio: Studio, id: string): Promise<void> {
  const existing = await endpointOf(trx, studio, id, true);
  await trx('webhook_endpoints').where({ id: existing.id }).delete();
}

/** The signing secret; `rotate` issues a new one and keeps the old one signing for 24 hours. */
export async function webhookToken(
  trx: Knex.Transaction,
  studio: Studio,
  id: string,
  rotate: boolean,
  now: Date,
): Promise<WebhookToken> {
  let row = await endpointOf(trx, studio, id, true);
  if (rotate) {
    const expires = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3600_000);
    [row] = (await trx('webhook_endpoints')
      .where({ id: row.id })
      .update({
        secret: sealWebhookSecret(studio.id, row.id, newWebhookSecret()),
        previousSecret: row.secret,
        previousSecretExpiresAt: expires,
        updatedAt: now,
      })
      .returning('*')) as [WebhookEndpointsRow];
  }
  const live = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    secret: openWebhookSecret(studio.id, row.id, row.secret),
    previousSecretExpiresAt: live ? row.previousSecretExpiresAt!.toISOString() : null,
  };
}

/** test/all: a `ping` event to the endpoint, through the job pipeline like any event. */
export async function testWebhook(trx: Knex.Transaction, studio: Studio, id: string, now: Date) {
  const endpoint = await endpointOf(trx, studio, id);
  if (!endpoint.enabled) throw new AppError('webhook.disabled', { message: 'switch the webhook on first' });
  const body: WebhookEventBody = {
    type: 'ping',
    timestamp: now.toISOString(),
    data: { studioId: studio.id, message: 'Test event from the back office' },
  };
  const deliveryId = await queueWebhookDelivery(trx, {
    studioId: studio.id,
    endpointId: endpoint.id,
    eventId: newEventId(),
    body,
  });
  return { deliveryId };
}

function deliveryView(row: WebhookDeliveriesRow, attempts: WebhookAttemptsRow[]): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    replayOf: row.replayOf,
    log: attempts.map((a) => ({
      id: a.id,
      attemptedAt: a.attemptedAt.toISOString(),
      requestHeaders: Object.fromEntries(
        Object.entries((a.requestHeaders ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      ),
      requestBody: a.requestBody,
      responseStatus: a.responseStatus,
      responseBody: a.responseBody,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}

/** The endpoint's delivery log: the newest 50 deliveries, each with its attempts (newest first). */
export async function webhookDeliveries(db: Db, studio: Studio, id: string): Promise<WebhookDelivery[]> {
  const endpoint = await endpointOf(db, studio, id);
  const rows = await db('webhook_deliveries')
    .where({ endpointId: endpoint.id })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(DELIVERIES_SHOWN);
  const attempts = rows.length
    ? await db('webhook_attempts')
        .whereIn(
          'deliveryId',
          rows.map((r) => r.id),
        )
        .orderBy('attemptedAt', 'desc')
    : [];
  return rows.map((r) =>
    deliveryView(
      r,
      attempts.filter((a) => a.deliveryId === r.id),
    ),
  );
}

/** Replay: the same event (same `webhook-id`) sent again as a new delivery, whatever became of the old one. */
export async function replayDelivery(
  trx: Knex.Transaction,
  studio: Studio,
  id: string,
): Promise<WebhookDelivery> {
  const original = await trx('webhook_deliveries').where({ studioId: studio.id, id }).first();
  if (!original) throw AppError.notFound('delivery');
  const endpoint = await endpointOf(trx, studio, original.endpointId);
  if (!endpoint.enabled) throw new AppError('webhook.disabled', { message: 'switch the webhook on first' });
  const newId = await queueWebhookDelivery(trx, {
    studioId: studio.id,
    endpointId: endpoint.id,
    eventId: original.eventId,
    body: original.payload as WebhookEventBody,
    replayOf: original.id,
  });
  const row = await trx('webhook_deliveries').where({ id: newId }).first();
  return deliveryView(row!, []);
}
