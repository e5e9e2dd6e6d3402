import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ReportsScreen = lazyScreen(() => import('./ReportsScreen'), 'ReportsScreen');
const SalesScreen = lazyScreen(() => import('./ReportsScreen'), 'SalesScreen');
const ReportScreen = lazyScreen(() => import('./ReportScreen'), 'ReportScreen');
const PayRatesScreen = lazyScreen(() => import('./PayRatesScreen'), 'PayRatesScreen');
const BulkPayRatesScreen = lazyScreen(() => import('./PayrollPages'), 'BulkPayRatesScreen');
const InstructorPayrollScreen = lazyScreen(() => import('./PayrollPages'), 'InstructorPayrollScreen');

/**
 * Management insight (issue 20): the report catalog, the Sales section, each report, and the four
 * payroll pages (pay rates, rates in bulk, one instructor's payroll, the payroll report).
 */
export const reportsRoutes: RouteObject[] = [
  { path: 'reports', element: <ReportsScreen /> },
  { path: 'sales', element: <SalesScreen /> },
  // Before reports/:report, which would otherwise take it.
  { path: 'reports/pay-rates', element: <PayRatesScreen /> },
  { path: 'reports/pay-rates/bulk', element: <BulkPayRatesScreen /> },
  { path: 'reports/pay-rates/instructor/:instructor', element: <InstructorPayrollScreen /> },
  { path: 'reports/:report', element: <ReportScreen /> },
];
