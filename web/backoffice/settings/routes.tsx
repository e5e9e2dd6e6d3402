import { Navigate, type RouteObject } from 'react-router-dom';
import { ClientFieldsScreen } from './ClientFieldsScreen';
import { FiscalPrintersScreen } from './FiscalPrintersScreen';

/** The Settings area below the back-office shell; fiscal printers are its first page. */
export const settingsRoutes: RouteObject[] = [
  { path: 'settings', element: <Navigate to="/settings/fiscal-printers" replace /> },
  { path: 'settings/fiscal-printers', element: <FiscalPrintersScreen /> },
  { path: 'settings/client-fields', element: <ClientFieldsScreen /> },
];
