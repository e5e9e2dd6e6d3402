import type Router from '@koa/router';
import { z } from 'zod';
import {
  CourseSignupInputSchema,
  StaffCourseListQuerySchema,
  type CourseSignupResult,
  type StaffCourseList,
} from '../../../../shared/contracts/api/course-signup';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { visitViews } from './bookings-views.service';
import { confirmCourseSignup, listStaffCourses, previewCourseSignup } from './course-signup.service';

const StudioParams = z.object({ uuid: z.string() });
const MetaParams = z.object({ uuid: z.string(), scheduleMeta: z.uuid() });

/**
 * The back office's course list and course signup (spec §2 "course signup and confirm by
 * {scheduleMetaGuid}", "course list"; §7 `course/course/init`). Contract:
 * shared/contracts/api/course-signup.ts.
 */
export function registerCourseSignupRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/course/course/init',
    access: 'staff',
    ability: 'schedule.view',
    params: StudioParams,
    query: StaffCourseListQuerySchema,
    handle: async ({ db, studio, query, deps }): Promise<StaffCourseList> => ({
      items: await listStaffCourses(db, studio, query, deps.clock.now()),
    }),
  });
  // Writes the visits in a savepoint and rolls them back: no mail, no entry spent.
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/course/:scheduleMeta/signup/preview',
    access: 'staff',
    ability: 'schedule.book',
    params: MetaParams,
    body: CourseSignupInputSchema,
    handle: ({ db, studio, params, body, auth, deps }) =>
      previewCourseSignup(db, studio, auth.user.id, params.scheduleMeta, body, deps.clock.now()),
  });
  // The confirmation mails (one per class) are jobs of the booking's transaction.
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/course/:scheduleMeta/signup/confirm',
    access: 'staff',
    ability: 'schedule.book',
    params: MetaParams,
    body: CourseSignupInputSchema,
    handle: ({ db, studio, params, body, auth, deps }) =>
      confirmCourseSignup(db, studio, auth.user.id, params.scheduleMeta, body, deps.clock.now()),
    // Read back after the commit: the classes' locks are not held while the answer is put together.
    present: async (result, { db, studio }): Promise<CourseSignupResult> => ({
      outcome: result.outcome,
      visits: await visitViews(db, studio, result.visitIds),
    }),
  });
}
