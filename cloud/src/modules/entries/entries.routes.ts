import type Router from '@koa/router';
import { EntriesApi } from '../../../../shared/contracts/http/entries';
import type { AppCustom, AppState } from '../../http/context';
import { assertAbility } from '../../http/abilities';
import { defineRoute } from '../../http/route';
import {
  clientEntriesPage,
  clientEntryView,
  createEntryService,
  enrollmentInit,
  listEntryServices,
  loadEntryServiceInit,
  patchEntryService,
  recordEntry,
  requireEntryClient,
  sellEntry,
} from './entries.service';

/** Entry services and client entries (issue 22; `shared/contracts/http/entries.ts`, README). */
export function registerEntriesRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...EntriesApi.serviceInit,
    handle: async ({ db, studio }) => loadEntryServiceInit(db, studio),
  });

  defineRoute(router, {
    ...EntriesApi.serviceCollection,
    handle: async ({ db, studio, deps }) => ({
      items: await listEntryServices(db, studio, deps.clock.now()),
      next: null,
    }),
  });

  defineRoute(router, {
    ...EntriesApi.createService,
    handle: async ({ db, studio, body, deps }) => createEntryService(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...EntriesApi.patchService,
    handle: async ({ db, studio, params, body, deps }) =>
      patchEntryService(db, studio, params.entryService, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...EntriesApi.enrollmentInit,
    handle: async ({ db, studio, query, deps }) =>
      enrollmentInit(db, studio, query.clientId, deps.clock.now()),
  });

  defineRoute(router, {
    ...EntriesApi.enroll,
    handle: async ({ db, studio, body, auth, deps, membership, ctx }) => {
      if (body.sale) {
        // Selling the day ticket is a sale as well as an entry.
        await assertAbility(db, membership, 'sales.sell');
        const sold = await sellEntry(
          db,
          studio,
          {
            clientId: body.clientId,
            entryServiceId: body.entryServiceId,
            method: body.sale.method,
            staffUserId: auth.user.id,
          },
          deps.clock.now(),
          ctx.state.log,
        );
        return sold.id;
      }
      const { id } = await recordEntry(
        db,
        studio,
        {
          clientId: body.clientId,
          entryServiceId: body.entryServiceId,
          withoutPass: body.withoutPass,
          source: 'desk',
          enrolledByUserId: auth.user.id,
          kioskId: null,
        },
        deps.clock.now(),
      );
      return id;
    },
    present: async (id, { studio, deps }) => clientEntryView(deps.knex, studio, id),
  });

  defineRoute(router, {
    ...EntriesApi.clientEntries,
    handle: async ({ db, studio, params, query }) => {
      await requireEntryClient(db, studio, params.user);
      return clientEntriesPage(db, studio, params.user, query);
    },
  });
}
