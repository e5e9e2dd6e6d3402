import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const KiosksScreen = lazyScreen(() => import('./KiosksScreen'), 'KiosksScreen');

/** Kiosks and smart locks, below the back-office shell. */
export const kioskRoutes: RouteObject[] = [{ path: 'kiosks', element: <KiosksScreen /> }];
