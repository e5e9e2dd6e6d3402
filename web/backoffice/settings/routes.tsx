import { Navigate, type RouteObject } from 'react-router-dom';
import { ClientFieldsScreen } from './ClientFieldsScreen';
import { FiscalPrintersScreen } from './FiscalPrintersScreen';
import { PaymentProvidersScreen } from './PaymentProvidersScreen';
import { StationsScreen } from './StationsScreen';

/** The Settings area below the back-office shell; fiscal printers are its first page. */
export const settingsRoutes: RouteObject[] = [
  { path: 'settings', element: <Navigate to="/settings/fiscal-printers" replace /> },
  { path: 'settings/fiscal-printers', element: <FiscalPrintersScreen /> },
  { path: 'settings/client-fields', element: <ClientFieldsScreen /> },
  { path: 'settings/stations', element: <StationsScreen /> },
  { path: 'settings/payment-providers', element: <PaymentProvidersScreen /> },
];
