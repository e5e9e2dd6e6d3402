import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const PosScreen = lazyScreen(() => import('./PosScreen'), 'PosScreen');

/** The point of sale, below the back-office shell. */
export const posRoutes: RouteObject[] = [{ path: 'pos', element: <PosScreen /> }];
