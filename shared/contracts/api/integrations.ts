import { z } from 'zod';
import { requiredText, text } from './common';
import { KioskCheckInResultSchema, KioskClientSchema } from './kiosk';

/**
 * Integrations (issue 24): the studio's public API keys (spec §7 studio-api) and webhook endpoints
 * (studio-webhook) with their delivery log.
 */

export const API_KEY_SCOPES = ['read', 'read_write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Requests a key may make per minute: the default and the bounds staff may set. */
export const API_KEY_RATE_LIMIT = { default: 120, min: 10, max: 6000 } as const;

export const ApiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The key's first characters (`sk_live_ab12`): enough to recognise it, never enough to use it. */
  prefix: z.string(),
  rateLimitPerMinute: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  rotatedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.object({ items: z.array(ApiKeySchema) });

/** A key as issued or rotated: the secret is in this one answer and nowhere else, ever. */
export const IssuedApiKeySchema = z.object({ key: ApiKeySchema, secret: z.string() });
export type IssuedApiKey = z.infer<typeof IssuedApiKeySchema>;

export const ApiKeyInputSchema = z.strictObject({
  name: requiredText(200),
  scope: z.enum(API_KEY_SCOPES),
  rateLimitPerMinute: z
    .number()
    .int()
    .min(API_KEY_RATE_LIMIT.min)
    .max(API_KEY_RATE_LIMIT.max)
    .default(API_KEY_RATE_LIMIT.default),
});
export type ApiKeyInput = z.input<typeof ApiKeyInputSchema>;

/** PUT studio-api: a new key (no id) or changes to one (name, scope, limit); `rotate` issues a new secret. */
export const ApiKeyPutSchema = ApiKeyInputSchema.extend({
  id: z.uuid().optional(),
  rotate: z.boolean().default(false),
});
export type ApiKeyPut = z.input<typeof ApiKeyPutSchema>;

/** The answer of PUT: the key, and its secret when one was issued (new or rotated). */
export const ApiKeyPutResultSchema = z.object({ key: ApiKeySchema, secret: z.string().nullable() });
export type ApiKeyPutResult = z.infer<typeof ApiKeyPutResultSchema>;

// --- Webhooks ---------------------------------------------------------------------------------

export const WEBHOOK_EVENTS = [
  'client.created',
  'client.updated',
  'visit.booked',
  'visit.cancelled',
  'visit.attended',
  'order.paid',
  'order.refunded',
  'contract.signed',
  'contract.suspended',
  'contract.ended',
  'appointment.booked',
  'appointment.changed',
  'pass.sold',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Deliveries that failed for good in a row before the platform turns an endpoint off. */
export const WEBHOOK_DISABLE_AFTER = 5;

export const WebhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** `failing` when the platform turned it off after persistent failures; null otherwise. */
  disabledReason: z.enum(['failing']).nullable(),
  consecutiveFailures: z.number().int(),
  createdAt: z.string(),
  /** Last delivery's outcome, for the list. */
  lastDelivery: z
    .object({ status: z.enum(['pending', 'delivered', 'failed', 'skipped']), at: z.string() })
    .nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.object({ items: z.array(WebhookEndpointSchema) });

const webhookUrl = () =>
  z
    .string()
    .trim()
    .max(2000)
    .pipe(z.url({ protocol: /^https?$/, error: 'an http(s) address' }));

/** PUT studio-webhook: a new endpoint (no id) or a whole replacement of one. */
export const WebhookEndpointPutSchema = z.strictObject({
  id: z.uuid().optional(),
  url: webhookUrl(),
  description: text(200).default(''),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'choose at least one event'),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointPut = z.input<typeof WebhookEndpointPutSchema>;

/** PATCH studio-webhook/{id}: switch on or off, change events or description. */
export const WebhookEndpointPatchSchema = z.strictObject({
  url: webhookUrl().optional(),
  description: text(200).optional(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'choose at least one event').optional(),
  enabled: z.boolean().optional(),
});
export type WebhookEndpointPatch = z.input<typeof WebhookEndpointPatchSchema>;

/** The signing secret (studio-webhook token): shown to staff who may edit; `rotate` issues a new one. */
export const WebhookTokenSchema = z.object({
  secret: z.string(),
  /** Until then deliveries carry a second signature made with the previous secret. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type WebhookToken = z.infer<typeof WebhookTokenSchema>;

export const WebhookTokenInputSchema = z.strictObject({ rotate: z.boolean().default(false) });

export const WebhookAttemptSchema = z.object({
  id: z.uuid(),
  attemptedAt: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'skipped']),
  attempts: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  replayOf: z.uuid().nullable(),
  /** Newest first. */
  log: z.array(WebhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z.object({ items: z.array(WebhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

/** test/all: a `ping` event sent now to the endpoint (through the job pipeline like any other). */
export const WebhookTestResultSchema = z.object({ deliveryId: z.uuid() });

// --- The public API's own calls ---------------------------------------------------------------

/** GET or POST ping: the key works; which studio it acts for and what it may do. */
export const PingSchema = z.object({
  ok: z.literal(true),
  studio: z.object({ id: z.uuid(), name: z.string(), timeZone: z.string(), currency: z.string() }),
  scope: z.enum(API_KEY_SCOPES),
  /** The server's time (ISO 8601), for clock checks. */
  time: z.string(),
});
export type Ping = z.infer<typeof PingSchema>;

export const PingInputSchema = z.strictObject({ echo: text(200).optional() });
export const PingEchoSchema = PingSchema.extend({ echo: z.string().nullable() });

// --- The remaining internal calls of §7 (README "The remaining internal calls") ----------------------

/** GET {uuid}/user/ping: the session is alive (every signed-in call extends it). */
export const UserPingSchema = z.object({ authenticated: z.literal(true), userId: z.string() });

const platformName = () =>
  z
    .string()
    .trim()
    .min(1, 'required')
    .max(60)
    .regex(/^[^\n\r\t]+$/, 'one line');

/**
 * POST {uuid}/platform/token/connect: the studio's owner (settings.edit) consents to a platform:
 * a key named "Platform: <name>" is issued into the studio's keys and answered once (for the
 * platform); connecting the same platform again replaces its key.
 */
export const PlatformConnectSchema = z.strictObject({
  platform: platformName(),
  scope: z.enum(API_KEY_SCOPES),
});
export const PlatformDestroySchema = z.strictObject({ platform: platformName() });
export const PlatformDestroyedSchema = z.object({ revoked: z.number().int() });

/**
 * POST /v2/public/platform/checkin (an access-control platform, read-write key): the person with this
 * card or QR code is checked in as the studio's kiosk (`kioskId`, else its default one) would: into
 * `scheduleEventId`, else into their booking whose check-in is open now, else through an entry pass.
 */
export const PlatformCheckinSchema = z.strictObject({
  code: z.string().trim().min(1, 'required').max(200),
  kioskId: z.uuid().optional(),
  scheduleEventId: z.uuid().optional(),
});
export const PlatformCheckinResultSchema = z.object({
  client: KioskClientSchema,
  /** What was done; null when nothing is open to check in to (the reasons are in `client`). */
  checkIn: KioskCheckInResultSchema.nullable(),
});
