import type Router from '@koa/router';
import { z } from 'zod';
import {
  FiscalPrinterInputSchema,
  FiscalPrinterPatchSchema,
  RetailFiscalPrinterStatusInputSchema,
  StationReportSchema,
  type DiagnosisView,
  type FiscalDocument,
  type FiscalPrinter,
  type FiscalPrinterList,
  type RetailFiscalPrinterStatus,
  type StationFiscalPrinter,
  type StationReportResult,
} from '../../../../shared/contracts/api/fiscal-printers';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  createPrinter,
  deletePrinter,
  getDocument,
  listPrinters,
  requestDiagnose,
  retailStatus,
  stationConfig,
  stationReport,
  updatePrinter,
} from './fiscal-printers.service';

const NoQuery = z.strictObject({});
const StudioParams = z.object({ uuid: z.string() });
const PrinterParams = z.object({ uuid: z.string(), studioFiscalPrinter: z.uuid() });
const DocumentParams = z.object({ uuid: z.string(), fiscalDocument: z.uuid() });
// Any text names a station; one without a printer is simply not found (404).
const StationParams = z.object({ uuid: z.string(), slug: z.string().max(200) });

/**
 * Fiscal printers (spec §7 Studio "fiscal-printer collection, POST diagnose, GET document", Other
 * internal "GET/POST fiscal-printer/{slug}", Retail "POST fiscal-printer-status"). Fixed paths are
 * registered before `fiscal-printer/:slug`, and those words are reserved station slugs.
 */
export function registerFiscalPrinterRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/collection',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: NoQuery,
    handle: async ({ db, studio }): Promise<FiscalPrinterList> => listPrinters(db, studio.id),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: FiscalPrinterInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<FiscalPrinter> => createPrinter(db, studio.id, body),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/document/:fiscalDocument',
    access: 'staff',
    ability: 'sales.view',
    params: DocumentParams,
    query: NoQuery,
    handle: async ({ db, studio, params }): Promise<FiscalDocument> =>
      getDocument(db, studio.id, params.fiscalDocument),
  });

  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter',
    access: 'staff',
    ability: 'settings.edit',
    params: PrinterParams,
    body: FiscalPrinterPatchSchema,
    handle: async ({ db, studio, params, body }): Promise<FiscalPrinter> =>
      updatePrinter(db, studio.id, params.studioFiscalPrinter, body),
  });

  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter',
    access: 'staff',
    ability: 'settings.edit',
    params: PrinterParams,
    status: 204,
    handle: async ({ db, studio, params }) => deletePrinter(db, studio.id, params.studioFiscalPrinter),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter/diagnose',
    access: 'staff',
    ability: 'settings.edit',
    params: PrinterParams,
    status: 202,
    handle: async ({ db, studio, params, auth }): Promise<DiagnosisView> =>
      (await requestDiagnose(db, studio.id, params.studioFiscalPrinter, auth.user.id)).diagnosis,
  });

  // ---- the station (a staff session of the studio that may sell) -------------------------------

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/:slug',
    access: 'staff',
    ability: 'sales.sell',
    params: StationParams,
    query: NoQuery,
    handle: async ({ db, studio, params }): Promise<StationFiscalPrinter> =>
      stationConfig(db, studio.id, params.slug),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer/:slug',
    access: 'staff',
    ability: 'sales.sell',
    params: StationParams,
    body: StationReportSchema,
    handle: async ({ db, studio, params, body, deps }): Promise<StationReportResult> =>
      stationReport(db, studio, params.slug, body, deps.clock.now()),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/retail/fiscal-printer-status',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: RetailFiscalPrinterStatusInputSchema,
    handle: async ({ db, studio, body, deps }): Promise<RetailFiscalPrinterStatus> =>
      retailStatus(db, studio.id, body, deps.clock.now()),
  });
}
