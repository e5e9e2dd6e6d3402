import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ClientListScreen = lazyScreen(() => import('./ClientListScreen'), 'ClientListScreen');
const ClientProfileScreen = lazyScreen(() => import('./ClientProfileScreen'), 'ClientProfileScreen');

/** The Clients section's screens, below the back-office shell (hash routes). */
export const clientsRoutes: RouteObject[] = [
  { path: 'clients', element: <ClientListScreen /> },
  { path: 'clients/:clientId', element: <ClientProfileScreen /> },
  { path: 'clients/:clientId/:tab', element: <ClientProfileScreen /> },
];
