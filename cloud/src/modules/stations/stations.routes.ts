import type Router from '@koa/router';
import { z } from 'zod';
import {
  CashMovementSchema,
  ShiftCloseSchema,
  ShiftOpenSchema,
  StudioPosAssignSchema,
  StudioPosInputSchema,
  type CurrentShift,
  type ShiftView,
  type StudioPos,
  type StudioPosInit,
  type StudioPosList,
} from '../../../../shared/contracts/api/stations';
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

const NoQuery = z.strictObject({});
const EmptyBody = z.strictObject({});
const StudioParams = z.object({ uuid: z.string() });
const PosParams = z.object({ uuid: z.string(), studioPos: z.uuid() });
const ShiftParams = z.object({ uuid: z.string(), studioPos: z.uuid(), shift: z.uuid() });

/**
 * POS stations (spec §7 Studio: studio-pos collection, init, POST assign, POST unassign; creating one
 * is ours) and their cash shifts. Settings need `settings.*`; the till's work (seeing the stations,
 * opening, cash in/out, closing) needs `sales.sell`, reading a shift `sales.view`.
 */
export function registerStationRoutes(router: Router<AppState, AppCustom>): void {
  registerTicketPrinterRoutes(router);

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-pos/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: NoQuery,
    handle: async ({ db, studio }): Promise<StudioPosList> => listPos(db, studio),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-pos/init',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: NoQuery,
    handle: async ({ db, studio }): Promise<StudioPosInit> => posInit(db, studio),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: StudioPosInputSchema,
    status: 201,
    handle: async ({ db, studio, body, deps }): Promise<StudioPos> =>
      createPos(trx(db), studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/assign',
    access: 'staff',
    ability: 'settings.edit',
    params: PosParams,
    body: StudioPosAssignSchema,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioPos> =>
      assignPos(trx(db), studio, params.studioPos, body.deviceId, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/unassign',
    access: 'staff',
    ability: 'settings.edit',
    params: PosParams,
    body: EmptyBody,
    handle: async ({ db, studio, params, deps }): Promise<StudioPos> =>
      unassignPos(trx(db), studio, params.studioPos, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/current',
    access: 'staff',
    ability: 'sales.sell',
    params: PosParams,
    query: NoQuery,
    handle: async ({ db, studio, params }): Promise<CurrentShift> =>
      currentShift(db, studio, params.studioPos),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/open',
    access: 'staff',
    ability: 'sales.sell',
    params: PosParams,
    body: ShiftOpenSchema,
    status: 201,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      openShift(trx(db), studio, params.studioPos, body, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift',
    access: 'staff',
    ability: 'sales.view',
    params: ShiftParams,
    query: NoQuery,
    handle: async ({ db, studio, params }): Promise<ShiftView> =>
      getShift(db, studio, params.studioPos, params.shift),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift/cash',
    access: 'staff',
    ability: 'sales.sell',
    params: ShiftParams,
    body: CashMovementSchema,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      addCashMovement(trx(db), studio, params.studioPos, params.shift, body, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift/close',
    access: 'staff',
    ability: 'sales.sell',
    params: ShiftParams,
    body: ShiftCloseSchema,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ShiftView> =>
      closeShift(trx(db), studio, params.studioPos, params.shift, body, auth.user.id, deps.clock.now()),
  });
}
