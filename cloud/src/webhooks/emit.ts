import { v7 as uuidv7 } from 'uuid';
import type { WebhookEventType } from '../../../shared/contracts/api/integrations';
import type { Db } from '../db/knex';
import { enqueue } from '../jobs/queue';

/**
 * Webhook events (issue 24). A module that changes something a studio's other software cares about
 * calls `emitWebhookEvent(db, studioId, type, data)` with the request's transaction: each enabled
 * endpoint of the studio subscribed to the type gets a delivery row and a `webhook.deliver` job, both
 * committed or rolled back with the change (the integrations module sends, signs, retries and logs).
 * This file stays outside the modules so that every module may call it without an import cycle.
 */
export interface WebhookEventBody {
  type: WebhookEventType | 'ping';
  timestamp: string;
  data: Record<string, unknown>;
}

/** The event id, the `webhook-id` header (Standard Webhooks `msg_…`). */
export const newEventId = () => `msg_${uuidv7().replace(/-/g, '')}`;

/** Queues a delivery of one event to one endpoint (also used for a test ping and a replay). */
export async function queueWebhookDelivery(
  db: Db,
  row: { studioId: string; endpointId: string; eventId: string; body: WebhookEventBody; replayOf?: string },
): Promise<string> {
  const id = uuidv7();
  await db('webhook_deliveries').insert({
    id,
    studioId: row.studioId,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.body.type,
    payload: JSON.stringify(row.body),
    replayOf: row.replayOf ?? null,
  });
  await enqueue(db, 'webhook.deliver', { deliveryId: id }, { key: `webhook.deliver:${id}` });
  return id;
}

/** Emits an event to the studio's subscribed endpoints; returns how many deliveries were queued. */
export async function emitWebhookEvent(
  db: Db,
  studioId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  now: Date = new Date(),
): Promise<number> {
  const endpoints = await db('webhook_endpoints')
    .where({ studioId, enabled: true })
    .whereRaw('? = any(events)', [type])
    .select('id');
  if (endpoints.length === 0) return 0;
  const eventId = newEventId();
  const body: WebhookEventBody = { type, timestamp: now.toISOString(), data };
  for (const endpoint of endpoints)
    await queueWebhookDelivery(db, { studioId, endpointId: endpoint.id, eventId, body });
  return endpoints.length;
}
