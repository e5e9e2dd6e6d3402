import type Router from '@koa/router';
import { IntegrationsApi } from '../../../../shared/contracts/http/integrations';
import type { Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { listApiKeys, putApiKey, revokeApiKey } from './api-keys';
import { registerPlatformRoutes } from './platform.routes';
import { registerPublicApiRoutes } from './public.routes';
import {
  deleteWebhook,
  listWebhooks,
  patchWebhook,
  putWebhook,
  replayDelivery,
  testWebhook,
  webhookDeliveries,
  webhookToken,
} from './webhooks';

/** Integrations (issue 24): API keys and webhook endpoints of the studio (`shared/contracts/http/integrations.ts`). */
export function registerIntegrationRoutes(router: Router<AppState, AppCustom>): void {
  registerPublicApiRoutes(router);
  registerPlatformRoutes(router);
  defineRoute(router, {
    ...IntegrationsApi.listApiKeys,
    handle: async ({ db, studio }) => ({ items: await listApiKeys(db, studio) }),
  });
  defineRoute(router, {
    ...IntegrationsApi.putApiKey,
    handle: async ({ db, studio, auth, body, deps }) =>
      putApiKey(db as Knex.Transaction, studio, auth.user.id, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...IntegrationsApi.revokeApiKey,
    handle: async ({ db, studio, params, deps }) =>
      revokeApiKey(db as Knex.Transaction, studio, params.studioApi, deps.clock.now()),
  });

  defineRoute(router, {
    ...IntegrationsApi.listWebhooks,
    handle: async ({ db, studio }) => ({ items: await listWebhooks(db, studio) }),
  });
  defineRoute(router, {
    ...IntegrationsApi.putWebhook,
    handle: async ({ db, studio, body, deps }) =>
      putWebhook(db as Knex.Transaction, studio, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...IntegrationsApi.patchWebhook,
    handle: async ({ db, studio, params, body, deps }) =>
      patchWebhook(db as Knex.Transaction, studio, params.studioWebhook, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...IntegrationsApi.deleteWebhook,
    handle: async ({ db, studio, params }) =>
      deleteWebhook(db as Knex.Transaction, studio, params.studioWebhook),
  });
  defineRoute(router, {
    ...IntegrationsApi.webhookToken,
    handle: async ({ db, studio, params, body, deps }) =>
      webhookToken(db as Knex.Transaction, studio, params.studioWebhook, body.rotate, deps.clock.now()),
  });
  defineRoute(router, {
    ...IntegrationsApi.testWebhook,
    handle: async ({ db, studio, params, deps }) =>
      testWebhook(db as Knex.Transaction, studio, params.studioWebhook, deps.clock.now()),
  });
  defineRoute(router, {
    ...IntegrationsApi.webhookDeliveries,
    handle: async ({ db, studio, params }) => ({
      items: await webhookDeliveries(db, studio, params.studioWebhook),
    }),
  });
  defineRoute(router, {
    ...IntegrationsApi.replayDelivery,
    handle: async ({ db, studio, params }) =>
      replayDelivery(db as Knex.Transaction, studio, params.webhookDelivery),
  });
}
