import type Router from '@koa/router';
import type { StudioKiosk } from '../../../../shared/contracts/api/kiosk';
import type { StudioPos } from '../../../../shared/contracts/api/stations';
import type { StationTicketPrinter } from '../../../../shared/contracts/api/ticket-printers';
import { TicketPrintersApi } from '../../../../shared/contracts/http/stations';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { authenticateDevice } from '../../sync/devices.service';
import { findStudio } from '../identity/index';
import { kioskRow } from '../kiosk/index';
import { presentKiosk } from '../kiosk/index';
import { getPos } from './stations.service';
import {
  kioskTicketPrinter,
  posTicketPrinterBySlug,
  setKioskTicketPrinter,
  setPosTicketPrinter,
} from './ticket-printers.service';

const trx = (db: Db) => db as Knex.Transaction;

/**
 * The desk station's own read: its sync device token (`Authorization: Bearer …`), no staff session,
 * so a kiosk or an unattended till learns its printer without a person signing in. A token of
 * another studio, or a studio that does not exist, is 404: nothing to learn about other studios.
 */
async function stationStudio(ctx: AppContext, db: Db, uuid: string, now: Date): Promise<string> {
  const device = await authenticateDevice(db, ctx.get('authorization'), now);
  const studio = await findStudio(db, uuid);
  if (!studio || device.studioId !== studio.id) throw AppError.notFound('studio');
  ctx.set('Cache-Control', 'no-store');
  return studio.id;
}

/**
 * Ticket printers of POS stations and kiosks (cloud/src/modules/stations/README.md "Ticket
 * printers"): the back office sets them (`settings.edit`), the desk station reads its own.
 */
export function registerTicketPrinterRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...TicketPrintersApi.putStudioPosTicketPrinter,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioPos> => {
      await setPosTicketPrinter(trx(db), studio, params.studioPos, body, deps.clock.now());
      return getPos(db, studio, params.studioPos);
    },
  });

  defineRoute(router, {
    ...TicketPrintersApi.putStudioKioskTicketPrinter,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioKiosk> => {
      await setKioskTicketPrinter(trx(db), studio, params.kioskGuid, body);
      const row = await kioskRow(db, studio.id, params.kioskGuid);
      if (!row) throw AppError.notFound('kiosk');
      return presentKiosk(row, studio, deps.config.publicUrl, true);
    },
  });

  defineRoute(router, {
    ...TicketPrintersApi.getStationTicketPrinterPos,
    handle: async ({ ctx, db, params, deps }): Promise<StationTicketPrinter> =>
      posTicketPrinterBySlug(db, await stationStudio(ctx, db, params.uuid, deps.clock.now()), params.slug),
  });

  defineRoute(router, {
    ...TicketPrintersApi.getStationTicketPrinterKiosk,
    handle: async ({ ctx, db, params, deps }): Promise<StationTicketPrinter> =>
      kioskTicketPrinter(db, await stationStudio(ctx, db, params.uuid, deps.clock.now()), params.kioskGuid),
  });
}
