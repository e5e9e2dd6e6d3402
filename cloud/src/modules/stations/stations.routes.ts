import type Router from '@koa/router';
import type {
  CurrentShift,
  ShiftView,
  StudioPos,
  StudioPosInit,
  StudioPosList,
} from '../../../../shared/contracts/api/stations';
import { StationsApi } from '../../../../shared/contracts/http/stations';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  addCashMovement,
  assignPos,
  closeShift,
  createPos,
  currentShift,
  getShift,
  listPos,
  openShift,
  posInit,
  unassignPos,
} from './stations.service';
import { registerTicketPrinterRoutes } from './ticket-printers.routes';

/** Mutating routes run in a transaction: `db` is one there. */
const trx = (db: Db) => db as Knex.Transaction;

/**
 * POS stations (spec §7 Studio: studio-pos collection, init, POST assign, POST unassign; creating one
 * is ours) and their cash shifts. Settings need `settings.*`; the till's work (seeing the stations,
 * opening, cash in/out, closing) needs `sales.sell`, reading a shift `sales.view`.
 */
export function registerStationRoutes(router: Router<AppState, AppCustom>): void {
  registerTicketPrinterRoutes(router);

  defineRoute(router, {
    ...StationsApi.getStudioPosCollection,
    handle: async ({ db, studio }): Promise<StudioPosList> => listPos(db, studio),
  });

  defineRoute(router, {
    ...StationsApi.getStudioPosInit,
    handle: async ({ db, studio }): Promise<StudioPosInit> => posInit(db, studio),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPos,
    handle: async ({ db, studio, body, deps }): Promise<StudioPos> =>
      createPos(trx(db), studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPosAssign,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioPos> =>
      assignPos(trx(db), studio, params.studioPos, body.deviceId, deps.clock.now()),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPosUnassign,
    handle: async ({ db, studio, params, deps }): Promise<StudioPos> =>
      unassignPos(trx(db), studio, params.studioPos, deps.clock.now()),
  });

  defineRoute(router, {
    ...StationsApi.getStudioPosShiftCurrent,
    handle: async ({ db, studio, params }): Promise<CurrentShift> =>
      currentShift(db, studio, params.studioPos),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPosShiftOpen,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      openShift(trx(db), studio, params.studioPos, body, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    ...StationsApi.getStudioPosShift,
    handle: async ({ db, studio, params }): Promise<ShiftView> =>
      getShift(db, studio, params.studioPos, params.shift),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPosShiftCash,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      addCashMovement(trx(db), studio, params.studioPos, params.shift, body, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    ...StationsApi.postStudioPosShiftClose,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      closeShift(trx(db), studio, params.studioPos, params.shift, body, auth.user.id, deps.clock.now()),
  });
}
