import type { RouteObject } from 'react-router-dom';
import { KiosksScreen } from './KiosksScreen';

/** Kiosks and smart locks, below the back-office shell. */
export const kioskRoutes: RouteObject[] = [{ path: 'kiosks', element: <KiosksScreen /> }];
