import type Router from '@koa/router';
import {
  type CourseBookingResult,
  type CourseList,
  type MyReconcileResult,
  type ReconcileResult,
} from '../../../../shared/contracts/api/enrollments';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { eventsOfMeta } from '../schedule/index';
import { registerCourseSignupRoutes } from './course-signup.routes';
import { myVisitsByIds, visitViews } from './bookings-views.service';
import { bookCourse, cancelCourse, coursePage, courseView, listCourses } from './courses.service';
import {
  makeVisitsUnpaid,
  metaEnrollments,
  myEnrollmentIds,
  reconcileVisits,
  unlockVisit,
  waitingTimes,
} from './enrollments.service';
import { AppError } from '../../../../shared/errors';
import { findStudio } from '../identity/index';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
import { EnrollmentsApi } from '../../../../shared/contracts/http/enrollments';

/**
 * Courses and client enrollments (spec §4, §7): the back office's course attendance and payment
 * corrections, the front office's course booking, enrollments, reconcile, unlock and waiting time.
 */
export function registerEnrollmentRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------ back office
  defineRoute(router, {
    ...EnrollmentsApi.getScheduleMetaScheduleEvents,
    handle: async ({ db, studio, params }) => ({
      items: await eventsOfMeta(db, studio, params.scheduleMeta),
      next: null,
    }),
  });
  defineRoute(router, {
    ...EnrollmentsApi.getScheduleMetaEnrollmentsInit,
    handle: ({ db, studio, params, query }) => metaEnrollments(db, studio, params.scheduleMeta, query),
  });
  registerCourseSignupRoutes(router);
  defineRoute(router, {
    ...EnrollmentsApi.postClientClientEnrollmentReconcile,
    handle: async ({ db, studio, params, body, deps }): Promise<ReconcileResult> => {
      const r = await reconcileVisits(db, studio, params.user, body.clientVisitIds, deps.clock.now());
      return {
        reconciled: await visitViews(db, studio, r.reconciled),
        unpaid: await visitViews(db, studio, r.unpaid),
      };
    },
  });
  defineRoute(router, {
    ...EnrollmentsApi.postClientEnrollmentMakeUnpaid,
    handle: async ({ db, studio, body, deps }) => {
      await makeVisitsUnpaid(db, studio, body.clientVisitIds, deps.clock.now());
      return { items: await visitViews(db, studio, body.clientVisitIds), next: null };
    },
  });

  defineRoute(router, {
    ...EnrollmentsApi.getCourseBySlug,
    handle: async ({ db, params, auth, deps }) => {
      const studio = UUID_RE.test(params.uuid) ? await findStudio(db, params.uuid) : undefined;
      if (!studio) throw AppError.notFound('studio');
      return coursePage(db, studio, params.slug, auth?.user.id ?? null, deps.clock.now());
    },
  });

  // ------------------------------------------------------------------ front office (signed-in client)
  defineRoute(router, {
    ...EnrollmentsApi.postCourses,
    handle: async ({ db, studio, body, auth, deps }): Promise<CourseList> => ({
      items: await listCourses(db, studio, auth.user.id, body, deps.clock.now()),
    }),
  });
  for (const [contract, act] of [
    [EnrollmentsApi.bookCourse, bookCourse],
    [EnrollmentsApi.cancelCourse, cancelCourse],
  ] as const)
    defineRoute(router, {
      ...contract,
      handle: ({ db, studio, body, auth, deps }) =>
        act(db, studio, auth.user.id, body.scheduleMetaId, deps.clock.now()),
      // Read back after the commit: the classes' locks are not held while the answer is put together.
      present: async (result, { db, studio, body, auth, deps }): Promise<CourseBookingResult> => {
        const now = deps.clock.now();
        return {
          outcome: result.outcome,
          course: await courseView(db, studio, body.scheduleMetaId, auth.user.id, now),
          visits: await myVisitsByIds(db, studio, result.visitIds, now),
          late: result.late,
        };
      },
    });
  defineRoute(router, {
    ...EnrollmentsApi.postEnrollments,
    handle: async ({ db, studio, body, auth, deps }) => {
      const now = deps.clock.now();
      const ids = await myEnrollmentIds(db, studio.id, auth.user.id, body.filter, now);
      return { items: await myVisitsByIds(db, studio, ids, now), next: null };
    },
  });
  defineRoute(router, {
    ...EnrollmentsApi.postEnrollmentsReconcile,
    handle: ({ db, studio, body, auth, deps }) =>
      reconcileVisits(db, studio, auth.user.id, body.clientVisitIds, deps.clock.now()),
    present: async (r, { db, studio, deps }): Promise<MyReconcileResult> => ({
      reconciled: await myVisitsByIds(db, studio, r.reconciled, deps.clock.now()),
      unpaid: await myVisitsByIds(db, studio, r.unpaid, deps.clock.now()),
    }),
  });
  defineRoute(router, {
    ...EnrollmentsApi.postEnrollmentsUnlock,
    handle: ({ db, studio, body, auth, deps }) =>
      unlockVisit(db, studio, auth.user.id, body.clientVisitId, deps.clock.now()),
  });
  defineRoute(router, {
    ...EnrollmentsApi.postWaitingTime,
    handle: ({ db, studio, body, auth, deps }) =>
      waitingTimes(db, studio, auth.user.id, body.scheduleEventId, deps.clock.now()),
  });
}
