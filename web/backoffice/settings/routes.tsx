import { Navigate, type RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ClientFieldsScreen = lazyScreen(() => import('./ClientFieldsScreen'), 'ClientFieldsScreen');
const FiscalPrintersScreen = lazyScreen(() => import('./FiscalPrintersScreen'), 'FiscalPrintersScreen');
const PaymentProvidersScreen = lazyScreen(() => import('./PaymentProvidersScreen'), 'PaymentProvidersScreen');
const StationsScreen = lazyScreen(() => import('./StationsScreen'), 'StationsScreen');

/** The Settings area below the back-office shell; fiscal printers are its first page. */
export const settingsRoutes: RouteObject[] = [
  { path: 'settings', element: <Navigate to="/settings/fiscal-printers" replace /> },
  { path: 'settings/fiscal-printers', element: <FiscalPrintersScreen /> },
  { path: 'settings/client-fields', element: <ClientFieldsScreen /> },
  { path: 'settings/stations', element: <StationsScreen /> },
  { path: 'settings/payment-providers', element: <PaymentProvidersScreen /> },
];
