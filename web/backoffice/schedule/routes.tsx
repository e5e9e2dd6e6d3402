import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ScheduleScreen = lazyScreen(() => import('./ScheduleScreen'), 'ScheduleScreen');

/** The Schedule section's screens, below the back-office shell (hash routes). */
export const scheduleRoutes: RouteObject[] = [{ path: 'schedule', element: <ScheduleScreen /> }];
