import type Router from '@koa/router';
import { CommunicationApi } from '../../../../shared/contracts/http/communication';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  isAllowedEndpoint,
  removeSubscription,
  saveSubscription,
  SERVICE_WORKER,
  vapidKeys,
} from './web-push';

/** Web push to the front office: the key, a browser's subscription, the service worker. */
export function registerWebPushRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CommunicationApi.getWebPushKey,
    handle: async ({ db }) => ({ publicKey: (await vapidKeys(db)).publicKey }),
  });

  defineRoute(router, {
    ...CommunicationApi.postPushSubscription,
    handle: async ({ db, studio, auth, body, deps }) => {
      if (!isAllowedEndpoint(body.endpoint))
        throw AppError.invalid({ endpoint: ['not a push service this server sends to'] });
      await saveSubscription(db, studio.id, auth.user.id, body, deps.clock.now());
      return { subscribed: true };
    },
  });

  defineRoute(router, {
    ...CommunicationApi.deletePushSubscription,
    handle: async ({ db, studio, auth, body }) => {
      await removeSubscription(db, studio.id, auth.user.id, body.endpoint);
    },
  });

  defineRoute(router, {
    ...CommunicationApi.getPushServiceWorker,
    handle: async ({ ctx }) => {
      // Registered from the front office's pages with their own scope (`/<studio>/frontoffice/`).
      ctx.set('Service-Worker-Allowed', '/');
      ctx.set('Cache-Control', 'no-cache');
      return Buffer.from(SERVICE_WORKER);
    },
  });
}
