import type Router from '@koa/router';
import type { AutomationInit, AutomationScenario } from '../../../../shared/contracts/api/communication';
import { CommunicationApi } from '../../../../shared/contracts/http/communication';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { automationInit, saveAutomation } from './automations';

/** The studio's automation scenarios and the reminder log (settings rights). */
export function registerAutomationRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CommunicationApi.getAutomationInit,
    handle: async ({ db, studio }): Promise<AutomationInit> => automationInit(db, studio.id),
  });

  defineRoute(router, {
    ...CommunicationApi.putAutomation,
    handle: async ({ db, studio, body, deps }): Promise<AutomationScenario> =>
      saveAutomation(db, studio.id, body, deps.clock.now()),
  });
}
