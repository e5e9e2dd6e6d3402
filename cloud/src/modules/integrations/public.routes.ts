import type Router from '@koa/router';
import type { Ping } from '../../../../shared/contracts/api/integrations';
import { PublicApi } from '../../../../shared/contracts/http/public-api';
import type { Db } from '../../db/knex';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { studioOfApiKey } from '../identity/index';

async function ping(ctx: AppContext, db: Db, now: Date): Promise<Ping> {
  const studio = await studioOfApiKey(ctx, db);
  return {
    ok: true,
    studio: { id: studio.id, name: studio.name, timeZone: studio.timeZone, currency: studio.currency },
    scope: ctx.state.apiKey?.scope ?? 'read_write',
    time: now.toISOString(),
  };
}

/** The public API's own calls (`shared/contracts/http/public-api.ts`). */
export function registerPublicApiRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...PublicApi.ping,
    handle: async ({ ctx, db, deps }) => ping(ctx, db, deps.clock.now()),
  });
  defineRoute(router, {
    ...PublicApi.pingPost,
    handle: async ({ ctx, db, deps, body }) => ({
      ...(await ping(ctx, db, deps.clock.now())),
      echo: body.echo ?? null,
    }),
  });
}
