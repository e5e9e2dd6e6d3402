import type Router from '@koa/router';
import type {
  DiagnosisView,
  FiscalDocument,
  FiscalPrinter,
  FiscalPrinterList,
  RetailFiscalPrinterStatus,
  StationFiscalPrinter,
  StationReportResult,
} from '../../../../shared/contracts/api/fiscal-printers';
import { FiscalPrintersApi } from '../../../../shared/contracts/http/fiscal-printers';
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

/**
 * Fiscal printers (spec §7 Studio "fiscal-printer collection, POST diagnose, GET document", Other
 * internal "GET/POST fiscal-printer/{slug}", Retail "POST fiscal-printer-status"). Fixed paths are
 * registered before `fiscal-printer/:slug`, and those words are reserved station slugs.
 */
export function registerFiscalPrinterRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...FiscalPrintersApi.getFiscalPrinterCollection,
    handle: async ({ db, studio }): Promise<FiscalPrinterList> => listPrinters(db, studio.id),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.postFiscalPrinter,
    handle: async ({ db, studio, body }): Promise<FiscalPrinter> => createPrinter(db, studio.id, body),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.getFiscalPrinterDocument,
    handle: async ({ db, studio, params }): Promise<FiscalDocument> =>
      getDocument(db, studio.id, params.fiscalDocument),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.patchFiscalPrinter,
    handle: async ({ db, studio, params, body }): Promise<FiscalPrinter> =>
      updatePrinter(db, studio.id, params.studioFiscalPrinter, body),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.deleteFiscalPrinter,
    handle: async ({ db, studio, params }) => deletePrinter(db, studio.id, params.studioFiscalPrinter),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.postFiscalPrinterDiagnose,
    handle: async ({ db, studio, params, auth }): Promise<DiagnosisView> =>
      (await requestDiagnose(db, studio.id, params.studioFiscalPrinter, auth.user.id)).diagnosis,
  });

  // ---- the station (a staff session of the studio that may sell) -------------------------------

  defineRoute(router, {
    ...FiscalPrintersApi.getStationFiscalPrinter,
    handle: async ({ db, studio, params }): Promise<StationFiscalPrinter> =>
      stationConfig(db, studio.id, params.slug),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.postStationFiscalPrinterReport,
    handle: async ({ db, studio, params, body, deps }): Promise<StationReportResult> =>
      stationReport(db, studio, params.slug, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...FiscalPrintersApi.postRetailFiscalPrinterStatus,
    handle: async ({ db, studio, body, deps }): Promise<RetailFiscalPrinterStatus> =>
      retailStatus(db, studio.id, body, deps.clock.now()),
  });
}
