import type Router from '@koa/router';
import { z } from 'zod';
import {
  CategorizedQuerySchema,
  FindAttendeesQuerySchema,
  FindTimesQuerySchema,
  RestrictionInitQuerySchema,
  ScheduleEventInitQuerySchema,
} from '../../../../shared/contracts/api/schedule-tools';
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

const StudioParams = z.object({ uuid: z.string() });
const ClassServiceParams = z.object({ uuid: z.string(), classService: z.uuid() });
const READ = 'schedule.view' as const;

/**
 * Spec §7 v4 class-service tools and the editors' init calls (all reads, `schedule.view`). Registered
 * before `class-service/{classService}` and `schedule-event/{scheduleEvent}` so the fixed words are
 * not read as ids.
 */
export function registerClassServiceToolRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/categorized',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: CategorizedQuerySchema,
    handle: ({ db, studio, query }) => categorizedClassServices(db, studio, query.serviceType),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/assigned-to-schedule',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: async ({ db, studio, deps }) => ({
      items: await servicesAssignedToSchedule(db, studio, deps.clock.now()),
      next: null,
    }),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/restriction/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: RestrictionInitQuerySchema,
    handle: ({ db, studio, query }) => classServiceRestrictionInit(db, studio, query.classServiceId),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/find-attendees',
    access: 'staff',
    ability: READ,
    params: ClassServiceParams,
    query: FindAttendeesQuerySchema,
    handle: ({ db, studio, params, query }) => findAttendees(db, studio, params.classService, query),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/find-times',
    access: 'staff',
    ability: READ,
    params: ClassServiceParams,
    query: FindTimesQuerySchema,
    handle: ({ db, studio, params, query, deps }) =>
      findTimes(db, studio, params.classService, query, deps.clock.now()),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/manager',
    access: 'staff',
    ability: READ,
    params: ClassServiceParams,
    handle: ({ db, studio, params, deps }) =>
      classServiceManager(db, studio, params.classService, deps.clock.now()),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule-event/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: ScheduleEventInitQuerySchema,
    handle: ({ db, studio, query, deps }) =>
      scheduleEventInit(db, studio, query.scheduleEvent, deps.clock.now()),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule-call-off/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: ({ db, studio, deps }) => scheduleCallOffInit(db, studio, deps.clock.now()),
  });
}
