import type { RouteObject } from 'react-router-dom';
import { ScheduleScreen } from './ScheduleScreen';

/** The Schedule section's screens, below the back-office shell (hash routes). */
export const scheduleRoutes: RouteObject[] = [{ path: 'schedule', element: <ScheduleScreen /> }];
