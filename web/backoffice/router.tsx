import { Navigate, createHashRouter, type RouteObject } from 'react-router-dom';
import { lazyScreen, preloadRoute } from '../lib/lazy-screen';
import { BackofficeShell } from './BackofficeShell';
import { Dashboard } from './screens/Dashboard';
import { SectionPlaceholder } from './screens/SectionPlaceholder';
import { SECTIONS } from './sections';
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
import { posRoutes } from './pos/routes';
import { ordersRoutes } from './orders/routes';
import { contractsRoutes } from './contracts/routes';
import { kioskRoutes } from './kiosk/routes';
import { syncRoutes } from './sync/routes';
import { integrationsRoutes } from './integrations/routes';

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
        ...posRoutes,
        { path: 'pos/batch-print', element: <BatchPrintScreen /> },
        ...ordersRoutes,
        ...contractsRoutes,
        ...kioskRoutes,
        ...syncRoutes,
        ...integrationsRoutes,
        ...SECTIONS.filter(
          (s) =>
            s.id !== 'dashboard' &&
            s.id !== 'staff' &&
            s.id !== 'clients' &&
            s.id !== 'settings' &&
            s.id !== 'products' &&
            s.id !== 'schedule' &&
            s.id !== 'courses' &&
            s.id !== 'places' &&
            s.id !== 'catalog' &&
            s.id !== 'invoices' &&
            s.id !== 'accounting' &&
            s.id !== 'contracts' &&
            s.id !== 'kiosks' &&
            s.id !== 'pos' &&
            s.id !== 'orders' &&
            s.id !== 'sync' &&
            s.id !== 'integrations',
        ).map((section) => ({
          path: section.path.slice(1),
          element: <SectionPlaceholder section={section.id} />,
        })),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
  return createHashRouter(routes);
}
