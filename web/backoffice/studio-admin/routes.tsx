import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const InboxScreen = lazyScreen(() => import('./InboxScreen'), 'InboxScreen');

/** Studio-admin screens outside Settings (those are in settings/routes.tsx). */
export const studioAdminRoutes: RouteObject[] = [{ path: 'inbox', element: <InboxScreen /> }];
