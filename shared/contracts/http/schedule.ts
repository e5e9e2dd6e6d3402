import { z } from 'zod';
import { ACTION_BY_SEGMENT } from '../../domain/schedule/event-actions';
import {
  BulkActionInputSchema,
  BulkPatchInputSchema,
  BulkResultSchema,
  ClassServiceCategoryListSchema,
  ClassServiceListSchema,
  ClassServiceSchema,
  ExperienceLevelInputSchema,
  ExperienceLevelListSchema,
  ExperienceLevelPatchSchema,
  ExperienceLevelSchema,
  GenerateInputSchema,
  GenerateResultSchema,
  LivestreamInputSchema,
  LocationListSchema,
  LocationPictureInputSchema,
  LocationSchema,
  PricingOptionIdsInputSchema,
  PricingOptionRefSchema,
  PublicEventDetailsSchema,
  PublicScheduleInputSchema,
  PublicScheduleSchema,
  RoomInitSchema,
  RoomListSchema,
  ScheduleEventListSchema,
  ScheduleEventPatchSchema,
  ScheduleEventSchema,
  ScheduleFindInputSchema,
  ScheduleInitSchema,
  ScheduleMetaCreateInputSchema,
  ScheduleMetaListSchema,
  ScheduleMetaPatchSchema,
  ScheduleMetaSchema,
  ServiceTypeQuerySchema,
} from '../api/schedule';
import {
  CategorizedClassServicesSchema,
  CategorizedQuerySchema,
  ClassServiceAttendeeListSchema,
  ClassServiceManagerSchema,
  ClassServiceRestrictionInitSchema,
  ClassServiceTimeListSchema,
  FindAttendeesQuerySchema,
  FindTimesQuerySchema,
  RestrictionInitQuerySchema,
  ScheduleCallOffInitSchema,
  ScheduleEventInitQuerySchema,
  ScheduleEventInitSchema,
} from '../api/schedule-tools';
import { contractGroup, type AnyContract } from './define';
import { listOf, StudioParams, studioParams } from './params';

const READ = 'schedule.view' as const;
const EDIT = 'schedule.edit' as const;
const staff = { access: 'staff' } as const;
const MetaParams = studioParams('scheduleMetaGuid');
const EventParams = studioParams('referenceId');

/**
 * The timetable (spec §7 private v2 and v4): locations and rooms, class services and their tools,
 * experience levels, schedule metas and events, and the front office's public `schedule`. Reading
 * needs `schedule.view`, changing `schedule.edit`.
 */
export const ScheduleApi = contractGroup('schedule', {
  // ------------------------------------------------------------------ class-service tools (v4)
  categorizedClassServices: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/categorized',
    ability: READ,
    params: StudioParams,
    query: CategorizedQuerySchema,
    response: CategorizedClassServicesSchema,
  },
  classServicesAssignedToSchedule: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/assigned-to-schedule',
    ability: READ,
    params: StudioParams,
    response: ClassServiceListSchema,
  },
  classServiceRestrictionInit: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/restriction/init',
    ability: READ,
    params: StudioParams,
    query: RestrictionInitQuerySchema,
    response: ClassServiceRestrictionInitSchema,
  },
  classServiceAttendees: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/find-attendees',
    ability: READ,
    params: studioParams('classService'),
    query: FindAttendeesQuerySchema,
    response: ClassServiceAttendeeListSchema,
  },
  classServiceTimes: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/find-times',
    ability: READ,
    params: studioParams('classService'),
    query: FindTimesQuerySchema,
    response: ClassServiceTimeListSchema,
  },
  classServiceManager: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/:classService/manager',
    ability: READ,
    params: studioParams('classService'),
    response: ClassServiceManagerSchema,
  },
  scheduleEventInit: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule-event/init',
    ability: READ,
    params: StudioParams,
    query: ScheduleEventInitQuerySchema,
    response: ScheduleEventInitSchema,
  },
  callOffInit: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule-call-off/init',
    ability: READ,
    params: StudioParams,
    response: ScheduleCallOffInitSchema,
  },

  // ------------------------------------------------------------------ locations and rooms (v4)
  locations: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/location/collection',
    ability: READ,
    params: StudioParams,
    response: LocationListSchema,
  },
  setLocationPicture: {
    ...staff,
    method: 'post',
    path: '/v4/:uuid/location/:location/picture',
    ability: EDIT,
    params: studioParams('location'),
    body: LocationPictureInputSchema,
    response: LocationSchema,
  },
  rooms: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/location/:location/location-room/collection',
    ability: READ,
    params: studioParams('location'),
    response: RoomListSchema,
  },
  roomInit: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/location-room/init',
    ability: READ,
    params: StudioParams,
    response: RoomInitSchema,
  },

  // ------------------------------------------------------------------ class services (v4)
  classServices: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/collection',
    ability: READ,
    params: StudioParams,
    query: ServiceTypeQuerySchema,
    response: ClassServiceListSchema,
  },
  classServiceCategories: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service-category/collection',
    ability: READ,
    params: StudioParams,
    response: ClassServiceCategoryListSchema,
  },
  classService: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/class-service/:classService',
    ability: READ,
    params: studioParams('classService'),
    response: ClassServiceSchema,
  },

  // ------------------------------------------------------------------ experience levels
  experienceLevels: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/experience-level/collection',
    ability: READ,
    params: StudioParams,
    query: ServiceTypeQuerySchema,
    response: ExperienceLevelListSchema,
  },
  createExperienceLevel: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/experience-levels',
    ability: EDIT,
    status: 201,
    params: StudioParams,
    body: ExperienceLevelInputSchema,
    response: ExperienceLevelSchema,
  },
  updateExperienceLevel: {
    ...staff,
    method: 'patch',
    path: '/v2/:uuid/experience-levels/:experienceLevelGuid',
    ability: EDIT,
    params: studioParams('experienceLevelGuid'),
    body: ExperienceLevelPatchSchema,
    response: ExperienceLevelSchema,
  },

  // ------------------------------------------------------------------ timetable (v4)
  init: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule/init',
    ability: READ,
    params: StudioParams,
    response: ScheduleInitSchema,
  },
  find: {
    ...staff,
    method: 'post',
    path: '/v4/:uuid/schedule/find',
    ability: READ,
    params: StudioParams,
    body: ScheduleFindInputSchema,
    response: ScheduleEventListSchema,
    readOnly: true,
  },
  /** Classes the studio called off (cancelled) in a range of days, with the timetable's filters. */
  calledOff: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule-call-off/collection',
    ability: READ,
    params: StudioParams,
    query: PublicScheduleInputSchema,
    response: ScheduleEventListSchema,
  },
  metas: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule-meta/collection',
    ability: READ,
    params: StudioParams,
    query: z.strictObject({ classServiceId: z.uuid('invalid id').optional() }),
    response: ScheduleMetaListSchema,
  },
  event: {
    ...staff,
    method: 'get',
    path: '/v4/:uuid/schedule-event/:scheduleEvent',
    ability: READ,
    params: studioParams('scheduleEvent'),
    response: ScheduleEventSchema,
  },

  // ------------------------------------------------------------------ schedule metas (v2)
  createMeta: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/class-services/:classServiceGuid/schedule-metas',
    ability: EDIT,
    status: 201,
    params: studioParams('classServiceGuid'),
    body: ScheduleMetaCreateInputSchema,
    response: ScheduleMetaSchema,
  },
  meta: {
    ...staff,
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    ability: READ,
    params: MetaParams,
    response: ScheduleMetaSchema,
  },
  updateMeta: {
    ...staff,
    method: 'patch',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    ability: EDIT,
    params: MetaParams,
    body: ScheduleMetaPatchSchema,
    response: ScheduleMetaSchema,
  },
  deleteMeta: {
    ...staff,
    method: 'delete',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    ability: EDIT,
    status: 204,
    params: MetaParams,
    responseKind: 'empty',
  },
  metaBookableOnline: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:id/bookable-online',
    ability: EDIT,
    params: studioParams('id'),
    response: ScheduleMetaSchema,
  },
  metaUnbookableOnline: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:id/unbookable-online',
    ability: EDIT,
    params: studioParams('id'),
    response: ScheduleMetaSchema,
  },
  metaEvents: {
    ...staff,
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/schedule-events/all',
    ability: READ,
    params: MetaParams,
    response: ScheduleEventListSchema,
  },
  /** Spec §7 also names the events of a meta under class-services/{scheduleMetaGuid}: the same list. */
  metaEventsByClassService: {
    ...staff,
    method: 'get',
    path: '/v2/:uuid/class-services/:scheduleMetaGuid/schedule-events',
    ability: READ,
    params: MetaParams,
    response: ScheduleEventListSchema,
  },
  metaPricingOptions: {
    ...staff,
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/all',
    ability: READ,
    params: MetaParams,
    response: listOf(PricingOptionRefSchema),
  },
  attachMetaPricingOptions: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/attach',
    ability: EDIT,
    params: MetaParams,
    body: PricingOptionIdsInputSchema,
    response: ScheduleMetaSchema,
  },
  detachMetaPricingOptions: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/detach',
    ability: EDIT,
    params: MetaParams,
    body: PricingOptionIdsInputSchema,
    response: ScheduleMetaSchema,
  },

  // ------------------------------------------------------------------ schedule events (v2)
  generate: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-events/generate',
    ability: EDIT,
    params: StudioParams,
    body: GenerateInputSchema,
    response: GenerateResultSchema,
  },
  /** Bulk paths before the one-event ones: `cancel/bulk` must not be read as an event id and an action. */
  patchEvents: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-events/patch/bulk',
    ability: EDIT,
    params: StudioParams,
    body: BulkPatchInputSchema,
    response: BulkResultSchema,
  },
  setLivestream: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-events/:referenceId/livestream',
    ability: EDIT,
    params: EventParams,
    body: LivestreamInputSchema,
    response: ScheduleEventSchema,
  },
  /**
   * §2's `integration` ajax action: links the class to its external online room (livestream or video
   * meeting URL), the one integration a class has here; the same call as `livestream` (README).
   */
  setIntegration: {
    ...staff,
    method: 'post',
    path: '/v2/:uuid/schedule-events/:referenceId/integration',
    ability: EDIT,
    params: EventParams,
    body: LivestreamInputSchema,
    response: ScheduleEventSchema,
  },
  /** The back office's single-event "ajax actions" (spec §2): edit one event. */
  patchEvent: {
    ...staff,
    method: 'patch',
    path: '/v2/:uuid/schedule-events/:referenceId',
    ability: EDIT,
    params: EventParams,
    body: ScheduleEventPatchSchema,
    response: ScheduleEventSchema,
  },

  // ------------------------------------------------------------------ front office
  /** Anyone may read a studio's timetable (a visitor decides whether to sign up by looking at it). */
  publicSchedule: {
    access: 'public',
    method: 'post',
    path: '/v4/:uuid/schedule',
    params: z.object({ uuid: z.uuid() }),
    body: PublicScheduleInputSchema,
    response: PublicScheduleSchema,
  },
  /** A class of the public timetable with its description and level (the client's class details). */
  publicEventDetails: {
    access: 'public',
    method: 'get',
    path: '/v4/:uuid/schedule-event/:scheduleEvent/details',
    params: z.object({ uuid: z.uuid(), scheduleEvent: z.uuid() }),
    response: PublicEventDetailsSchema,
  },
});

/** The event actions of the back office (spec §2), by path segment (`cancel`, `bookable-online` …). */
export type ScheduleEventActionSegment = keyof typeof ACTION_BY_SEGMENT & string;
export const SCHEDULE_EVENT_ACTION_SEGMENTS = Object.keys(ACTION_BY_SEGMENT);

function actionEntries(bulk: boolean) {
  return contractGroup(
    bulk ? 'schedule.bulkEventAction' : 'schedule.eventAction',
    Object.fromEntries(
      SCHEDULE_EVENT_ACTION_SEGMENTS.map((segment) => [
        segment,
        bulk
          ? {
              ...staff,
              method: 'post',
              path: `/v2/:uuid/schedule-events/${segment}/bulk`,
              ability: EDIT,
              params: StudioParams,
              body: BulkActionInputSchema,
              response: BulkResultSchema,
            }
          : {
              ...staff,
              method: 'post',
              path: `/v2/:uuid/schedule-events/:referenceId/${segment}`,
              ability: EDIT,
              params: EventParams,
              response: ScheduleEventSchema,
            },
      ]),
    ) as Record<string, Omit<AnyContract, 'name'>>,
  );
}

/** One action on many events (`/schedule-events/{segment}/bulk`), by segment. */
export const ScheduleBulkEventActionApi = actionEntries(true) as Record<
  string,
  {
    readonly name: string;
    readonly access: 'staff';
    readonly method: 'post';
    readonly path: string;
    readonly ability: typeof EDIT;
    readonly params: typeof StudioParams;
    readonly body: typeof BulkActionInputSchema;
    readonly response: typeof BulkResultSchema;
  }
>;
/** One action on one event (`/schedule-events/{id}/{segment}`), by segment. */
export const ScheduleEventActionApi = actionEntries(false) as Record<
  string,
  {
    readonly name: string;
    readonly access: 'staff';
    readonly method: 'post';
    readonly path: string;
    readonly ability: typeof EDIT;
    readonly params: typeof EventParams;
    readonly response: typeof ScheduleEventSchema;
  }
>;
