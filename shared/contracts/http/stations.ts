import { z } from 'zod';
import { StudioKioskSchema } from '../api/kiosk';
import {
  CashMovementSchema,
  CurrentShiftSchema,
  ShiftCloseSchema,
  ShiftOpenSchema,
  ShiftViewSchema,
  StudioPosAssignSchema,
  StudioPosInitSchema,
  StudioPosInputSchema,
  StudioPosListSchema,
  StudioPosSchema,
} from '../api/stations';
import { StationTicketPrinterSchema, TicketPrinterSettingsSchema } from '../api/ticket-printers';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const NoQuery = z.strictObject({});
const EmptyBody = z.strictObject({});
const PosParams = studioParams('studioPos');
const ShiftParams = studioParams('studioPos', 'shift');
const KioskParams = studioParams('kioskGuid');
const StationPosParams = z.object({ uuid: z.uuid(), slug: z.string().min(1).max(64) });
const StationKioskParams = z.object({ uuid: z.uuid(), kioskGuid: z.uuid() });

/**
 * POS stations (spec §7 Studio: studio-pos collection, init, POST assign, POST unassign; creating one
 * is ours) and their cash shifts. Settings need `settings.*`; the till's work (seeing the stations,
 * opening, cash in/out, closing) needs `sales.sell`, reading a shift `sales.view`.
 */
export const StationsApi = contractGroup('stations', {
  getStudioPosCollection: {
    method: 'get',
    path: '/v4/:uuid/studio-pos/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: NoQuery,
    response: StudioPosListSchema,
  },
  getStudioPosInit: {
    method: 'get',
    path: '/v4/:uuid/studio-pos/init',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: NoQuery,
    response: StudioPosInitSchema,
  },
  postStudioPos: {
    method: 'post',
    path: '/v4/:uuid/studio-pos',
    access: 'staff',
    ability: 'settings.edit',
    status: 201,
    params: StudioParams,
    body: StudioPosInputSchema,
    response: StudioPosSchema,
  },
  postStudioPosAssign: {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/assign',
    access: 'staff',
    ability: 'settings.edit',
    params: PosParams,
    body: StudioPosAssignSchema,
    response: StudioPosSchema,
  },
  postStudioPosUnassign: {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/unassign',
    access: 'staff',
    ability: 'settings.edit',
    params: PosParams,
    body: EmptyBody,
    response: StudioPosSchema,
  },
  getStudioPosShiftCurrent: {
    method: 'get',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/current',
    access: 'staff',
    ability: 'sales.sell',
    params: PosParams,
    query: NoQuery,
    response: CurrentShiftSchema,
  },
  postStudioPosShiftOpen: {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/open',
    access: 'staff',
    ability: 'sales.sell',
    status: 201,
    params: PosParams,
    body: ShiftOpenSchema,
    response: ShiftViewSchema,
  },
  getStudioPosShift: {
    method: 'get',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift',
    access: 'staff',
    ability: 'sales.view',
    params: ShiftParams,
    query: NoQuery,
    response: ShiftViewSchema,
  },
  postStudioPosShiftCash: {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift/cash',
    access: 'staff',
    ability: 'sales.sell',
    params: ShiftParams,
    body: CashMovementSchema,
    response: ShiftViewSchema,
  },
  postStudioPosShiftClose: {
    method: 'post',
    path: '/v4/:uuid/studio-pos/:studioPos/shift/:shift/close',
    access: 'staff',
    ability: 'sales.sell',
    params: ShiftParams,
    body: ShiftCloseSchema,
    response: ShiftViewSchema,
  },
});

/**
 * Ticket printers of POS stations and kiosks (cloud/src/modules/stations/README.md "Ticket
 * printers"): the back office sets them (`settings.edit`); the desk station reads its own with its
 * sync device token (`Authorization: Bearer …`), no staff session (hence `public`).
 */
export const TicketPrintersApi = contractGroup('ticketPrinters', {
  putStudioPosTicketPrinter: {
    method: 'put',
    path: '/v4/:uuid/studio-pos/:studioPos/ticket-printer',
    access: 'staff',
    ability: 'settings.edit',
    params: PosParams,
    body: TicketPrinterSettingsSchema,
    response: StudioPosSchema,
  },
  putStudioKioskTicketPrinter: {
    method: 'put',
    path: '/v4/:uuid/studio-kiosk/:kioskGuid/ticket-printer',
    access: 'staff',
    ability: 'settings.edit',
    params: KioskParams,
    body: TicketPrinterSettingsSchema,
    response: StudioKioskSchema,
  },
  getStationTicketPrinterPos: {
    method: 'get',
    path: '/v4/:uuid/station-ticket-printer/pos/:slug',
    access: 'public',
    params: StationPosParams,
    query: NoQuery,
    response: StationTicketPrinterSchema,
  },
  getStationTicketPrinterKiosk: {
    method: 'get',
    path: '/v4/:uuid/station-ticket-printer/kiosk/:kioskGuid',
    access: 'public',
    params: StationKioskParams,
    query: NoQuery,
    response: StationTicketPrinterSchema,
  },
});
