import { z } from 'zod';
import {
  ApiKeyListSchema,
  ApiKeyPutResultSchema,
  ApiKeyPutSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointPatchSchema,
  WebhookEndpointPutSchema,
  WebhookEndpointSchema,
  WebhookTestResultSchema,
  WebhookTokenInputSchema,
  WebhookTokenSchema,
  IssuedApiKeySchema,
  PlatformConnectSchema,
  PlatformDestroySchema,
  PlatformDestroyedSchema,
  UserPingSchema,
} from '../api/integrations';
import { MeSchema } from '../api/auth';
import { PublicScheduleInputSchema, PublicScheduleSchema } from '../api/schedule';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
const KeyParams = z.object({ uuid: z.string(), studioApi: z.uuid() });
const WebhookParams = z.object({ uuid: z.string(), studioWebhook: z.uuid() });
const DeliveryParams = z.object({ uuid: z.string(), webhookDelivery: z.uuid() });

/**
 * Integrations (issue 24, spec §7 studio-api and studio-webhook): the studio's public API keys and
 * webhook endpoints. Staff with `settings.view` see them; `settings.edit` changes them and reads a
 * webhook's signing secret. An API key's secret is answered once, when issued or rotated.
 */
export const IntegrationsApi = contractGroup('integrations', {
  listApiKeys: {
    method: 'get',
    path: '/v4/:uuid/studio-api/all',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: ApiKeyListSchema,
  },
  putApiKey: {
    method: 'put',
    path: '/v4/:uuid/studio-api',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: ApiKeyPutSchema,
    response: ApiKeyPutResultSchema,
  },
  revokeApiKey: {
    method: 'delete',
    path: '/v4/:uuid/studio-api/:studioApi',
    access: 'staff',
    ability: 'settings.edit',
    params: KeyParams,
    status: 204,
    responseKind: 'empty',
  },
  listWebhooks: {
    method: 'get',
    path: '/v4/:uuid/studio-webhook/all',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: WebhookEndpointListSchema,
  },
  putWebhook: {
    method: 'put',
    path: '/v4/:uuid/studio-webhook',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: WebhookEndpointPutSchema,
    response: WebhookEndpointSchema,
  },
  patchWebhook: {
    method: 'patch',
    path: '/v4/:uuid/studio-webhook/:studioWebhook',
    access: 'staff',
    ability: 'settings.edit',
    params: WebhookParams,
    body: WebhookEndpointPatchSchema,
    response: WebhookEndpointSchema,
  },
  deleteWebhook: {
    method: 'delete',
    path: '/v4/:uuid/studio-webhook/:studioWebhook',
    access: 'staff',
    ability: 'settings.edit',
    params: WebhookParams,
    status: 204,
    responseKind: 'empty',
  },
  webhookToken: {
    method: 'post',
    path: '/v4/:uuid/studio-webhook/:studioWebhook/token',
    access: 'staff',
    ability: 'settings.edit',
    params: WebhookParams,
    body: WebhookTokenInputSchema,
    response: WebhookTokenSchema,
  },
  testWebhook: {
    method: 'post',
    path: '/v4/:uuid/studio-webhook/:studioWebhook/test',
    access: 'staff',
    ability: 'settings.edit',
    params: WebhookParams,
    response: WebhookTestResultSchema,
  },
  webhookDeliveries: {
    method: 'get',
    path: '/v4/:uuid/studio-webhook/:studioWebhook/deliveries',
    access: 'staff',
    ability: 'settings.view',
    params: WebhookParams,
    response: WebhookDeliveryListSchema,
  },
  replayDelivery: {
    method: 'post',
    path: '/v4/:uuid/webhook-delivery/:webhookDelivery/replay',
    access: 'staff',
    ability: 'settings.edit',
    params: DeliveryParams,
    response: WebhookDeliverySchema,
  },
  /** Spec §7 "GET user ping": a signed-in user's session is alive (README). */
  userPing: {
    method: 'get',
    path: '/v4/:uuid/user/ping',
    access: 'studio',
    params: StudioParams,
    response: UserPingSchema,
  },
  /** Spec §7 "POST app/me": the native app's start — the user and their studios with roles. */
  appMe: {
    method: 'post',
    path: '/v4/app/me',
    access: 'user',
    response: MeSchema,
  },
  platformConnect: {
    method: 'post',
    path: '/v4/:uuid/platform/token/connect',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: PlatformConnectSchema,
    response: IssuedApiKeySchema,
    status: 201,
  },
  platformDestroy: {
    method: 'post',
    path: '/v4/:uuid/platform/token/destroy',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: PlatformDestroySchema,
    response: PlatformDestroyedSchema,
  },
  /**
   * The widget's timetable (`/{uuid}/widget/me`): the front office's public timetable by GET, so a
   * page framed on another site (where the browser keeps no cookie of ours) needs no CSRF token.
   */
  widgetTimetable: {
    method: 'get',
    path: '/v4/:uuid/widget/timetable',
    access: 'public',
    params: z.object({ uuid: z.uuid() }),
    query: PublicScheduleInputSchema,
    response: PublicScheduleSchema,
  },
});
