import { z } from 'zod';
import {
  DiagnosisViewSchema,
  FiscalDocumentSchema,
  FiscalPrinterInputSchema,
  FiscalPrinterListSchema,
  FiscalPrinterPatchSchema,
  FiscalPrinterSchema,
  RetailFiscalPrinterStatusInputSchema,
  RetailFiscalPrinterStatusSchema,
  StationFiscalPrinterSchema,
  StationReportResultSchema,
  StationReportSchema,
} from '../api/fiscal-printers';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const NoQuery = z.strictObject({});
const PrinterParams = studioParams('studioFiscalPrinter');
const DocumentParams = studioParams('fiscalDocument');
// Any text names a station; one without a printer is simply not found (404).
const StationParams = z.object({ uuid: z.string(), slug: z.string().max(200) });

/**
 * Fiscal printers (spec §7 Studio "fiscal-printer collection, POST diagnose, GET document", Other
 * internal "GET/POST fiscal-printer/{slug}", Retail "POST fiscal-printer-status"). Fixed paths are
 * registered before `fiscal-printer/:slug`, and those words are reserved station slugs. The station
 * routes are a staff session of the studio that may sell.
 */
export const FiscalPrintersApi = contractGroup('fiscalPrinters', {
  getFiscalPrinterCollection: {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/collection',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: NoQuery,
    response: FiscalPrinterListSchema,
  },
  postFiscalPrinter: {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer',
    access: 'staff',
    ability: 'settings.edit',
    status: 201,
    params: StudioParams,
    body: FiscalPrinterInputSchema,
    response: FiscalPrinterSchema,
  },
  getFiscalPrinterDocument: {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/document/:fiscalDocument',
    access: 'staff',
    ability: 'sales.view',
    params: DocumentParams,
    query: NoQuery,
    response: FiscalDocumentSchema,
  },
  patchFiscalPrinter: {
    method: 'patch',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter',
    access: 'staff',
    ability: 'settings.edit',
    params: PrinterParams,
    body: FiscalPrinterPatchSchema,
    response: FiscalPrinterSchema,
  },
  deleteFiscalPrinter: {
    method: 'delete',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter',
    access: 'staff',
    ability: 'settings.edit',
    status: 204,
    params: PrinterParams,
    responseKind: 'empty',
  },
  postFiscalPrinterDiagnose: {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer/:studioFiscalPrinter/diagnose',
    access: 'staff',
    ability: 'settings.edit',
    status: 202,
    params: PrinterParams,
    response: DiagnosisViewSchema,
  },
  getStationFiscalPrinter: {
    method: 'get',
    path: '/v4/:uuid/fiscal-printer/:slug',
    access: 'staff',
    ability: 'sales.sell',
    params: StationParams,
    query: NoQuery,
    response: StationFiscalPrinterSchema,
  },
  postStationFiscalPrinterReport: {
    method: 'post',
    path: '/v4/:uuid/fiscal-printer/:slug',
    access: 'staff',
    ability: 'sales.sell',
    params: StationParams,
    body: StationReportSchema,
    response: StationReportResultSchema,
  },
  postRetailFiscalPrinterStatus: {
    method: 'post',
    path: '/v4/:uuid/retail/fiscal-printer-status',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: RetailFiscalPrinterStatusInputSchema,
    response: RetailFiscalPrinterStatusSchema,
  },
});
