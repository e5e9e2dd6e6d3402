import { z } from 'zod';
import {
  Dac7CollectionSchema,
  Dac7SellerBodySchema,
  DashboardQuerySchema,
  DashboardSchema,
  MemberLocationsSchema,
  PayRatesSchema,
  PayrollValuesBodySchema,
  ReportCatalogSchema,
  ReportDataSchema,
  ReportExportQuerySchema,
  ReportQuerySchema,
  StudioExportListSchema,
  StudioExportViewSchema,
} from '../api/reports';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
/** An unknown report name answers 404, like an unknown id (the handler checks it against REPORT_IDS). */
const ReportParams = z.object({ uuid: z.string(), report: z.string().max(40) });
const ExportParams = z.object({ uuid: z.string(), export: z.uuid() });

/**
 * Management insight (issue 20): the dashboard, the reports (staff with `reports.view`; the exports
 * need `reports.export`), the instructors' pay rates (`manager-tools/payroll-values`, `staff.edit`) and
 * the studio's data export (`clients.export`).
 */
export const ReportsApi = contractGroup('reports', {
  dashboard: {
    method: 'get',
    path: '/v4/:uuid/backoffice/dashboard',
    access: 'staff',
    ability: 'reports.view',
    params: StudioParams,
    query: DashboardQuerySchema,
    response: DashboardSchema,
  },
  /** The member's own locations, which the dashboard opens on; ids of another studio answer 404. */
  setDashboardLocations: {
    method: 'put',
    path: '/v4/:uuid/backoffice/dashboard/locations',
    access: 'staff',
    ability: 'reports.view',
    params: StudioParams,
    body: MemberLocationsSchema,
    response: MemberLocationsSchema,
  },
  catalog: {
    method: 'get',
    path: '/v4/:uuid/report/all',
    access: 'staff',
    ability: 'reports.view',
    params: StudioParams,
    response: ReportCatalogSchema,
  },
  data: {
    method: 'get',
    path: '/v4/:uuid/report/:report',
    access: 'staff',
    ability: 'reports.view',
    params: ReportParams,
    query: ReportQuerySchema,
    response: ReportDataSchema,
  },
  export: {
    method: 'get',
    path: '/v4/:uuid/report/:report/export',
    access: 'staff',
    ability: 'reports.export',
    params: ReportParams,
    query: ReportExportQuerySchema,
    responseKind: 'file',
  },
  payRates: {
    method: 'get',
    path: '/v4/:uuid/manager-tools/payroll-values',
    access: 'staff',
    ability: 'reports.view',
    params: StudioParams,
    response: PayRatesSchema,
  },
  setPayRates: {
    method: 'post',
    path: '/v4/:uuid/manager-tools/payroll-values',
    access: 'staff',
    ability: 'staff.edit',
    params: StudioParams,
    body: PayrollValuesBodySchema,
    response: PayRatesSchema,
  },
  /** The studio's data export: asked for here, made by a background job (`studio.export`). */
  requestStudioExport: {
    method: 'post',
    path: '/v4/:uuid/studio-data-export',
    access: 'staff',
    ability: 'clients.export',
    params: StudioParams,
    response: StudioExportViewSchema,
    status: 201,
  },
  studioExports: {
    method: 'get',
    path: '/v4/:uuid/studio-data-export/all',
    access: 'staff',
    ability: 'clients.export',
    params: StudioParams,
    response: StudioExportListSchema,
  },
  studioExport: {
    method: 'get',
    path: '/v4/:uuid/studio-data-export/:export',
    access: 'staff',
    ability: 'clients.export',
    params: ExportParams,
    response: StudioExportViewSchema,
  },
  /** DAC7: the studio's reports per year, `requireInput` until its identification is complete. */
  dac7Collection: {
    method: 'get',
    path: '/v4/:uuid/dac7-report/collection',
    access: 'staff',
    ability: 'reports.view',
    params: StudioParams,
    response: Dac7CollectionSchema,
  },
  /** DAC7: who the studio is as a seller (an entity, or an individual with names and birth date). */
  setDac7Seller: {
    method: 'put',
    path: '/v4/:uuid/dac7-report/seller',
    access: 'staff',
    ability: 'sales.invoices',
    params: StudioParams,
    body: Dac7SellerBodySchema,
    response: Dac7CollectionSchema,
  },
  /** The zip, once ready (409 `studioExport.notReady` before). */
  downloadStudioExport: {
    method: 'get',
    path: '/v4/:uuid/studio-data-export/:export/download',
    access: 'staff',
    ability: 'clients.export',
    params: ExportParams,
    responseKind: 'file',
  },
});
