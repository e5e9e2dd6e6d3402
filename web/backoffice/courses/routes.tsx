import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const CourseAttendanceScreen = lazyScreen(() => import('./CourseAttendanceScreen'), 'CourseAttendanceScreen');
const CourseConfirmScreen = lazyScreen(() => import('./CourseSignupScreen'), 'CourseConfirmScreen');
const CourseSignupScreen = lazyScreen(() => import('./CourseSignupScreen'), 'CourseSignupScreen');
const CoursesScreen = lazyScreen(() => import('./CoursesScreen'), 'CoursesScreen');

/** The course pages (spec §2: course list; course signup and confirm, course attendance list by {scheduleMetaGuid}). */
export const courseRoutes: RouteObject[] = [
  { path: 'courses', element: <CoursesScreen /> },
  { path: 'courses/:scheduleMetaId/signup', element: <CourseSignupScreen /> },
  { path: 'courses/:scheduleMetaId/signup/confirm', element: <CourseConfirmScreen /> },
  { path: 'courses/:scheduleMetaId/attendance', element: <CourseAttendanceScreen /> },
];
