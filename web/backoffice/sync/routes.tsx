import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const SyncIssuesScreen = lazyScreen(() => import('./SyncIssuesScreen'), 'SyncIssuesScreen');

/** Station sync review: what front-desk stations left for a person (flags, quarantined commands). */
export const syncRoutes: RouteObject[] = [{ path: 'sync', element: <SyncIssuesScreen /> }];
