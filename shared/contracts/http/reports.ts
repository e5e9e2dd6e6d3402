import { z } from 'zod';
import {
  DashboardQuerySchema,
  DashboardSchema,
  PayRatesSchema,
  PayrollValuesBodySchema,
  ReportCatalogSchema,
  ReportDataSchema,
  ReportExportQuerySchema,
  ReportQuerySchema,
} from '../api/reports';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
/** An unknown report name answers 404, like an unknown id (the handler checks it against REPORT_IDS). */
const ReportParams = z.object({ uuid: z.string(), report: z.string().max(40) });

/**
 * Management insight (issue 20): the dashboard, the reports (staff with `reports.view`; the exports
 * need `reports.export`) and the instructors' pay rates (`manager-tools/payroll-values`, `staff.edit`).
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
});
