import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const StaffCalendarScreen = lazyScreen(() => import('./StaffCalendarScreen'), 'StaffCalendarScreen');
const AppointmentServicesScreen = lazyScreen(
  () => import('./AppointmentServicesScreen'),
  'AppointmentServicesScreen',
);
const StaffHoursScreen = lazyScreen(() => import('./StaffHoursScreen'), 'StaffHoursScreen');

/** Appointments (issue 21): the staff calendar, the service editor and the staff's hours. */
export const appointmentRoutes: RouteObject[] = [
  { path: 'appointments', element: <StaffCalendarScreen /> },
  { path: 'appointments/services', element: <AppointmentServicesScreen /> },
  { path: 'appointments/hours', element: <StaffHoursScreen /> },
];
