import type Router from '@koa/router';
import {
  type CourseSignupResult,
  type StaffCourseList,
} from '../../../../shared/contracts/api/course-signup';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { visitViews } from './bookings-views.service';
import { confirmCourseSignup, listStaffCourses, previewCourseSignup } from './course-signup.service';
import { CourseSignupApi } from '../../../../shared/contracts/http/course-signup';

/**
 * The back office's course list and course signup (spec §2 "course signup and confirm by
 * {scheduleMetaGuid}", "course list"; §7 `course/course/init`). Contract:
 * shared/contracts/api/course-signup.ts.
 */
export function registerCourseSignupRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...CourseSignupApi.getCourseCourseInit,
    handle: async ({ db, studio, query, deps }): Promise<StaffCourseList> => ({
      items: await listStaffCourses(db, studio, query, deps.clock.now()),
    }),
  });
  // Writes the visits in a savepoint and rolls them back: no mail, no entry spent.
  defineRoute(router, {
    ...CourseSignupApi.postCourseSignupPreview,
    handle: ({ db, studio, params, body, auth, deps }) =>
      previewCourseSignup(db, studio, auth.user.id, params.scheduleMeta, body, deps.clock.now()),
  });
  // The confirmation mails (one per class) are jobs of the booking's transaction.
  defineRoute(router, {
    ...CourseSignupApi.postCourseSignupConfirm,
    handle: ({ db, studio, params, body, auth, deps }) =>
      confirmCourseSignup(db, studio, auth.user.id, params.scheduleMeta, body, deps.clock.now()),
    // Read back after the commit: the classes' locks are not held while the answer is put together.
    present: async (result, { db, studio }): Promise<CourseSignupResult> => ({
      outcome: result.outcome,
      visits: await visitViews(db, studio, result.visitIds),
    }),
  });
}
