import type { RouteObject } from 'react-router-dom';
import { PosScreen } from './PosScreen';

/** The point of sale, below the back-office shell. */
export const posRoutes: RouteObject[] = [{ path: 'pos', element: <PosScreen /> }];
