import type { RouteObject } from 'react-router-dom';
import { ClientListScreen } from './ClientListScreen';
import { ClientProfileScreen } from './ClientProfileScreen';

/** The Clients section's screens, below the back-office shell (hash routes). */
export const clientsRoutes: RouteObject[] = [
  { path: 'clients', element: <ClientListScreen /> },
  { path: 'clients/:clientId', element: <ClientProfileScreen /> },
  { path: 'clients/:clientId/:tab', element: <ClientProfileScreen /> },
];
