import { z } from 'zod';
import { CourseAttendanceQuerySchema } from '../api/course-signup';
import {
  CourseBookInputSchema,
  CourseBookingResultSchema,
  CourseEnrollmentsSchema,
  CourseListSchema,
  CoursePageSchema,
  CourseSlugParams,
  CoursesInputSchema,
  EnrollmentsInputSchema,
  MakeUnpaidInputSchema,
  MyReconcileResultSchema,
  ReconcileInputSchema,
  ReconcileResultSchema,
  UnlockInputSchema,
  UnlockResultSchema,
  WaitingTimeInputSchema,
  WaitingTimeListSchema,
} from '../api/enrollments';
import { ClientVisitListSchema, MyVisitListSchema } from '../api/bookings';
import { ScheduleEventListSchema } from '../api/schedule';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
const MetaParams = z.object({ uuid: z.string(), scheduleMeta: z.uuid() });
const ClientParams = z.object({ uuid: z.string(), user: z.uuid() });

/** Courses and client enrollments (reconcile, make unpaid, unlock, waiting time), staff and front office. */
export const EnrollmentsApi = contractGroup('enrollments', {
  getScheduleMetaScheduleEvents: {
    method: 'get',
    path: '/v4/:uuid/schedule-meta/:scheduleMeta/schedule-events',
    access: 'staff',
    ability: 'schedule.view',
    params: MetaParams,
    response: ScheduleEventListSchema,
  },
  getScheduleMetaEnrollmentsInit: {
    method: 'get',
    path: '/v4/:uuid/schedule-meta/:scheduleMeta/enrollments/init',
    access: 'staff',
    ability: 'schedule.view',
    params: MetaParams,
    query: CourseAttendanceQuerySchema,
    response: CourseEnrollmentsSchema,
  },
  postClientClientEnrollmentReconcile: {
    method: 'post',
    path: '/v4/:uuid/client/:user/client-enrollment/reconcile',
    access: 'staff',
    ability: 'schedule.book',
    params: ClientParams,
    body: ReconcileInputSchema,
    response: ReconcileResultSchema,
  },
  postClientEnrollmentMakeUnpaid: {
    method: 'post',
    path: '/v4/:uuid/client-enrollment/make-unpaid',
    access: 'staff',
    ability: 'schedule.book',
    params: StudioParams,
    body: MakeUnpaidInputSchema,
    response: ClientVisitListSchema,
  },
  postCourses: {
    method: 'post',
    path: '/v4/:uuid/courses',
    access: 'client',
    params: StudioParams,
    body: CoursesInputSchema,
    response: CourseListSchema,
  },
  /** A course's page by its slug (`courseSlug`: its name and the end of its id), for anyone. */
  getCourseBySlug: {
    method: 'get',
    path: '/v4/:uuid/course/:slug',
    access: 'public',
    params: CourseSlugParams,
    response: CoursePageSchema,
  },
  postEnrollments: {
    method: 'post',
    path: '/v4/:uuid/enrollments',
    access: 'client',
    params: StudioParams,
    body: EnrollmentsInputSchema,
    response: MyVisitListSchema,
  },
  postEnrollmentsReconcile: {
    method: 'post',
    path: '/v4/:uuid/enrollments/reconcile',
    access: 'client',
    params: StudioParams,
    body: ReconcileInputSchema,
    response: MyReconcileResultSchema,
  },
  postEnrollmentsUnlock: {
    method: 'post',
    path: '/v4/:uuid/enrollments/unlock',
    access: 'client',
    params: StudioParams,
    body: UnlockInputSchema,
    response: UnlockResultSchema,
  },
  postWaitingTime: {
    method: 'post',
    path: '/v4/:uuid/waiting-time',
    access: 'client',
    params: StudioParams,
    body: WaitingTimeInputSchema,
    response: WaitingTimeListSchema,
  },
  /** Book a whole course (all its classes from now on). */
  bookCourse: {
    method: 'post',
    path: '/v4/:uuid/booking/course/book',
    access: 'client',
    params: StudioParams,
    body: CourseBookInputSchema,
    response: CourseBookingResultSchema,
  },
  cancelCourse: {
    method: 'post',
    path: '/v4/:uuid/booking/course/cancel',
    access: 'client',
    params: StudioParams,
    body: CourseBookInputSchema,
    response: CourseBookingResultSchema,
  },
});
