import { Navigate, createHashRouter } from 'react-router-dom';
import { BackofficeShell } from './BackofficeShell';
import { Dashboard } from './screens/Dashboard';
import { SectionPlaceholder } from './screens/SectionPlaceholder';
import { SECTIONS } from './sections';
import { staffRoutes } from './staff/routes';
import { productRoutes } from './products/routes';
import { clientsRoutes } from './clients/routes';
import { settingsRoutes } from './settings/routes';
import { scheduleRoutes } from './schedule/routes';

/** Hash routing (spec §9: the back office's router mode is hash). */
export function createBackofficeRouter() {
  return createHashRouter([
    {
      path: '/',
      element: <BackofficeShell />,
      children: [
        { index: true, element: <Dashboard /> },
        ...staffRoutes,
        ...productRoutes,
        ...clientsRoutes,
        ...settingsRoutes,
        ...scheduleRoutes,
        ...SECTIONS.filter(
          (s) =>
            s.id !== 'dashboard' &&
            s.id !== 'staff' &&
            s.id !== 'clients' &&
            s.id !== 'settings' &&
            s.id !== 'products' &&
            s.id !== 'schedule',
        ).map((section) => ({
          path: section.path.slice(1),
          element: <SectionPlaceholder section={section.id} />,
        })),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]);
}
