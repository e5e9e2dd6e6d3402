import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { sealWebhookSecret } from '../../webhooks/secrets';
import { hashApiKey, newApiSecret } from './api-keys';
import { signatures } from './webhook-delivery';
import { newWebhookSecret } from './webhooks';

const HOUR = 3600_000;

/**
 * Demo data for integrations (issue 24): the studio's website holds a read-only API key (its secret
 * is made here and thrown away: only the hash and the prefix are stored, as for any key), and the
 * studio's CRM receives webhooks — a delivery log of the last days with a retried delivery, a failed
 * one and a replay, each attempt with the signed request and the receiver's answer.
 */
export async function seedDemoIntegrations(
  trx: Knex.Transaction,
  studioId: string,
  ownerId: string,
  clientIds: readonly string[],
  now: Date,
): Promise<void> {
  const secret = newApiSecret();
  await trx('studio_apis').insert({
    id: uuidv7(),
    studioId,
    name: 'Strona WWW (grafik i cennik)',
    scope: 'read',
    keyHash: hashApiKey(secret),
    keyPrefix: secret.slice(0, 12),
    rateLimitPerMinute: 120,
    lastUsedAt: new Date(now.getTime() - 2 * HOUR),
    createdBy: ownerId,
    createdAt: new Date(now.getTime() - 40 * 24 * HOUR),
    updatedAt: new Date(now.getTime() - 40 * 24 * HOUR),
  });

  const endpointId = uuidv7();
  const webhookSecret = newWebhookSecret();
  await trx('webhook_endpoints').insert({
    id: endpointId,
    studioId,
    url: 'https://crm.example.com/hooks/studio',
    description: 'CRM: nowi klienci i rezerwacje',
    events: [
      'client.created',
      'client.updated',
      'visit.booked',
      'visit.cancelled',
      'order.paid',
      'pass.sold',
    ],
    secret: sealWebhookSecret(studioId, endpointId, webhookSecret),
    createdAt: new Date(now.getTime() - 30 * 24 * HOUR),
    updatedAt: new Date(now.getTime() - 30 * 24 * HOUR),
  });

  const deliveries: { type: string; hoursAgo: number; answers: number[]; data: Record<string, unknown> }[] = [
    {
      type: 'ping',
      hoursAgo: 72,
      answers: [200],
      data: { studioId, message: 'Test event from the back office' },
    },
    { type: 'client.created', hoursAgo: 50, answers: [200], data: { userId: clientIds[2], restored: false } },
    {
      type: 'visit.booked',
      hoursAgo: 30,
      answers: [503, 200],
      data: { userId: clientIds[0], outcome: 'booked' },
    },
    {
      type: 'order.paid',
      hoursAgo: 26,
      answers: [500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500],
      data: { userId: clientIds[1], total: 14900, currency: 'PLN' },
    },
    {
      type: 'pass.sold',
      hoursAgo: 6,
      answers: [200],
      data: { userId: clientIds[3], price: 14900, channel: 'desk' },
    },
    { type: 'visit.cancelled', hoursAgo: 1, answers: [200], data: { userId: clientIds[0], late: false } },
  ];
  let replayOf: string | null = null;
  for (const [n, d] of deliveries.entries()) {
    const id = uuidv7();
    const eventId = `msg_${uuidv7().replace(/-/g, '')}`;
    const created = new Date(now.getTime() - d.hoursAgo * HOUR);
    const payload = { type: d.type, timestamp: created.toISOString(), data: d.data };
    const ok = d.answers.at(-1)! < 300;
    await trx('webhook_deliveries').insert({
      id,
      studioId,
      endpointId,
      eventId,
      eventType: d.type,
      payload: JSON.stringify(payload),
      status: ok ? 'delivered' : 'failed',
      attempts: d.answers.length,
      createdAt: created,
      finishedAt: new Date(created.getTime() + (2 ** d.answers.length - 1) * 30_000),
    });
    if (d.type === 'order.paid') replayOf = id;
    const body = JSON.stringify(payload);
    for (const [i, status] of d.answers.entries()) {
      const at = new Date(created.getTime() + (2 ** i - 1) * 30_000);
      await trx('webhook_attempts').insert({
        id: uuidv7(),
        deliveryId: id,
        studioId,
        attemptedAt: at,
        requestHeaders: JSON.stringify({
          'content-type': 'application/json',
          'user-agent': 'StudioPlatform-Webhooks/1',
          'webhook-id': eventId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatures([webhookSecret], eventId, at, body).replace(/,[^ ]+/g, ',…'),
        }),
        requestBody: body,
        responseStatus: status,
        responseBody: status < 300 ? '{"received":true}' : 'Service Unavailable',
        error: null,
        durationMs: 80 + ((n * 37 + i * 13) % 240),
      });
    }
  }
  // The failed order.paid was sent again from the log once the CRM was back.
  if (replayOf) {
    const original = await trx('webhook_deliveries').where({ id: replayOf }).first();
    const id = uuidv7();
    const at = new Date(now.getTime() - 20 * HOUR);
    await trx('webhook_deliveries').insert({
      id,
      studioId,
      endpointId,
      eventId: original!.eventId,
      eventType: original!.eventType,
      payload: JSON.stringify(original!.payload),
      status: 'delivered',
      attempts: 1,
      replayOf,
      createdAt: at,
      finishedAt: at,
    });
    const body = JSON.stringify(original!.payload);
    await trx('webhook_attempts').insert({
      id: uuidv7(),
      deliveryId: id,
      studioId,
      attemptedAt: at,
      requestHeaders: JSON.stringify({
        'content-type': 'application/json',
        'webhook-id': original!.eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': 'v1,…',
      }),
      requestBody: body,
      responseStatus: 200,
      responseBody: '{"received":true}',
      error: null,
      durationMs: 142,
    });
  }
}
