import { Navigate, createHashRouter, type RouteObject } from 'react-router-dom';
import { lazyScreen, preloadRoute } from '../lib/lazy-screen';
import { BackofficeShell } from './BackofficeShell';
import { Dashboard } from './screens/Dashboard';
import { staffRoutes } from './staff/routes';
import { productRoutes } from './products/routes';
import { clientsRoutes } from './clients/routes';
import { settingsRoutes } from './settings/routes';
import { scheduleRoutes } from './schedule/routes';
import { courseRoutes } from './courses/routes';
import { placesRoutes } from './places/routes';
import { catalogRoutes } from './catalog/routes';
import { invoiceRoutes } from './invoices/routes';
import { accountingRoutes } from './accounting/routes';
import { appointmentRoutes } from './appointments/routes';
import { posRoutes } from './pos/routes';
import { ordersRoutes } from './orders/routes';
import { contractsRoutes } from './contracts/routes';
import { kioskRoutes } from './kiosk/routes';
import { syncRoutes } from './sync/routes';
import { entriesRoutes } from './entries/routes';
import { videoRoutes } from './videos/routes';
import { reportsRoutes } from './reports/routes';
import { deskFleetRoutes } from './desk-fleet/routes';
import { campaignRoutes } from './campaigns/routes';
import { integrationsRoutes } from './integrations/routes';
import { studioAdminRoutes } from './studio-admin/routes';

// Every screen but the landing dashboard is a chunk of its own (module routes use lazyScreen too).
const BatchPrintScreen = lazyScreen(() => import('./pos/BatchPrintScreen'), 'BatchPrintScreen');

/** Hash routing (spec §9: the back office's router mode is hash). */
export function createBackofficeRouter() {
  const routes: RouteObject[] = [
    {
      path: '/',
      // Pointing at a link preloads the screen behind it.
      element: <BackofficeShell preload={(path) => preloadRoute(routes, path)} />,
      children: [
        { index: true, element: <Dashboard /> },
        ...staffRoutes,
        ...productRoutes,
        ...clientsRoutes,
        ...settingsRoutes,
        ...scheduleRoutes,
        ...courseRoutes,
        ...placesRoutes,
        ...catalogRoutes,
        ...invoiceRoutes,
        ...accountingRoutes,
        ...appointmentRoutes,
        ...posRoutes,
        { path: 'pos/batch-print', element: <BatchPrintScreen /> },
        ...ordersRoutes,
        ...contractsRoutes,
        ...kioskRoutes,
        ...syncRoutes,
        ...entriesRoutes,
        ...videoRoutes,
        ...reportsRoutes,
        ...deskFleetRoutes,
        ...campaignRoutes,
        ...integrationsRoutes,
        ...studioAdminRoutes,
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
  return createHashRouter(routes);
}
