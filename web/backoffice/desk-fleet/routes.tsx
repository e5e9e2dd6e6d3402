import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const DeskFleetScreen = lazyScreen(() => import('./DeskFleetScreen'), 'DeskFleetScreen');

/** Back office → Stations: every desk and kiosk, its version, sync, printers and errors (issue 29). */
export const deskFleetRoutes: RouteObject[] = [{ path: 'stations', element: <DeskFleetScreen /> }];
