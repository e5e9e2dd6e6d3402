import type Router from '@koa/router';
import { ScheduleApi } from '../../../../shared/contracts/http/schedule';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  categorizedClassServices,
  classServiceManager,
  classServiceRestrictionInit,
  findAttendees,
  findTimes,
  scheduleCallOffInit,
  scheduleEventInit,
  servicesAssignedToSchedule,
} from './class-service-tools.service';

/**
 * Spec §7 v4 class-service tools and the editors' init calls (all reads, `schedule.view`). Registered
 * before `class-service/{classService}` and `schedule-event/{scheduleEvent}` so the fixed words are
 * not read as ids.
 */
export function registerClassServiceToolRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...ScheduleApi.categorizedClassServices,
    handle: ({ db, studio, query }) => categorizedClassServices(db, studio, query.serviceType),
  });
  defineRoute(router, {
    ...ScheduleApi.classServicesAssignedToSchedule,
    handle: async ({ db, studio, deps }) => ({
      items: await servicesAssignedToSchedule(db, studio, deps.clock.now()),
      next: null,
    }),
  });
  defineRoute(router, {
    ...ScheduleApi.classServiceRestrictionInit,
    handle: ({ db, studio, query }) => classServiceRestrictionInit(db, studio, query.classServiceId),
  });
  defineRoute(router, {
    ...ScheduleApi.classServiceAttendees,
    handle: ({ db, studio, params, query }) => findAttendees(db, studio, params.classService, query),
  });
  defineRoute(router, {
    ...ScheduleApi.classServiceTimes,
    handle: ({ db, studio, params, query, deps }) =>
      findTimes(db, studio, params.classService, query, deps.clock.now()),
  });
  defineRoute(router, {
    ...ScheduleApi.classServiceManager,
    handle: ({ db, studio, params, deps }) =>
      classServiceManager(db, studio, params.classService, deps.clock.now()),
  });
  defineRoute(router, {
    ...ScheduleApi.scheduleEventInit,
    handle: ({ db, studio, query, deps }) =>
      scheduleEventInit(db, studio, query.scheduleEvent, deps.clock.now()),
  });
  defineRoute(router, {
    ...ScheduleApi.callOffInit,
    handle: ({ db, studio, deps }) => scheduleCallOffInit(db, studio, deps.clock.now()),
  });
}
