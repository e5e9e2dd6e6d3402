import type Router from '@koa/router';
import type { AppCustom, AppState } from '../../http/context';
import { registerAutomationRoutes } from './automations.routes';
import { registerCampaignRoutes } from './campaigns.routes';
import { registerUnsubscribeRoutes } from './unsubscribe.routes';
import { registerWebPushRoutes } from './web-push.routes';

/** Campaigns, marketing templates, automations and the one-click unsubscribe (README.md). */
export function registerCommunicationRoutes(router: Router<AppState, AppCustom>): void {
  registerCampaignRoutes(router);
  registerAutomationRoutes(router);
  registerUnsubscribeRoutes(router);
  registerWebPushRoutes(router);
}
