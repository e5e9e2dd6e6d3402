import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ReportsScreen = lazyScreen(() => import('./ReportsScreen'), 'ReportsScreen');
const SalesScreen = lazyScreen(() => import('./ReportsScreen'), 'SalesScreen');
const ReportScreen = lazyScreen(() => import('./ReportScreen'), 'ReportScreen');
const PayRatesScreen = lazyScreen(() => import('./PayRatesScreen'), 'PayRatesScreen');

/** Management insight (issue 20): the report catalog, the Sales section, each report, pay rates. */
export const reportsRoutes: RouteObject[] = [
  { path: 'reports', element: <ReportsScreen /> },
  { path: 'sales', element: <SalesScreen /> },
  // Before reports/:report, which would otherwise take it.
  { path: 'reports/pay-rates', element: <PayRatesScreen /> },
  { path: 'reports/:report', element: <ReportScreen /> },
];
