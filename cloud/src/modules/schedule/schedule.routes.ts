import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  BulkActionInputSchema,
  BulkPatchInputSchema,
  ExperienceLevelInputSchema,
  ExperienceLevelPatchSchema,
  GenerateInputSchema,
  LivestreamInputSchema,
  LocationPictureInputSchema,
  PricingOptionIdsInputSchema,
  PublicScheduleInputSchema,
  ScheduleEventPatchSchema,
  ScheduleFindInputSchema,
  ScheduleMetaCreateInputSchema,
  ScheduleMetaPatchSchema,
  ServiceTypeQuerySchema,
} from '../../../../shared/contracts/api/schedule';
import { ACTION_BY_SEGMENT } from '../../../../shared/domain/schedule';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { Studio } from '../identity/studio.model';
import { registerClassServiceToolRoutes } from './class-service-tools.routes';
import {
  createExperienceLevel,
  getClassService,
  listClassServiceCategories,
  listClassServices,
  listExperienceLevels,
  listLocations,
  listRooms,
  scheduleInit,
  setLocationPicture,
  updateExperienceLevel,
} from './places-and-services.service';
import {
  applyAction,
  eventsOfMeta,
  findEvents,
  generateEvents,
  getEvent,
  patchEvents,
  publicSchedule,
  setLivestream,
} from './schedule-events.service';
import {
  attachPricingOptions,
  createMeta,
  deleteMeta,
  detachPricingOptions,
  getMeta,
  listMetaPricingOptions,
  listMetas,
  updateMeta,
} from './schedule-metas.service';

const StudioParams = z.object({ uuid: z.string() });
const LocationParams = z.object({ uuid: z.string(), location: z.uuid() });
const ClassServiceParams = z.object({ uuid: z.string(), classService: z.uuid() });
const ClassServiceGuidParams = z.object({ uuid: z.string(), classServiceGuid: z.uuid() });
const LevelParams = z.object({ uuid: z.string(), experienceLevelGuid: z.uuid() });
const MetaParams = z.object({ uuid: z.string(), scheduleMetaGuid: z.uuid() });
const MetaIdParams = z.object({ uuid: z.string(), id: z.uuid() });
const EventParams = z.object({ uuid: z.string(), referenceId: z.uuid() });
const EventV4Params = z.object({ uuid: z.string(), scheduleEvent: z.uuid() });
const MetaListQuery = z.strictObject({ classServiceId: z.uuid('invalid id').optional() });

const READ = 'schedule.view' as const;
const EDIT = 'schedule.edit' as const;
const list = <T>(items: T[]) => ({ items, next: null });

/**
 * The timetable: locations and rooms, class services, experience levels, schedule metas and events
 * (spec §7 private v2 and v4), and the front office's public `schedule`. Reading needs
 * `schedule.view`, changing `schedule.edit`.
 */
export function registerScheduleRoutes(router: Router<AppState, AppCustom>): void {
  // Fixed paths (class-service/categorized, schedule-event/init …) before the `{id}` ones.
  registerClassServiceToolRoutes(router);
  // ------------------------------------------------------------------ locations and rooms (v4)
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/location/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: async ({ db, studio }) => list(await listLocations(db, studio)),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/location/:location/picture',
    access: 'staff',
    ability: EDIT,
    params: LocationParams,
    body: LocationPictureInputSchema,
    handle: ({ db, studio, params, body }) =>
      setLocationPicture(db, studio, params.location, body.pictureUrl),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/location/:location/location-room/collection',
    access: 'staff',
    ability: READ,
    params: LocationParams,
    handle: async ({ db, studio, params }) => list(await listRooms(db, studio, params.location)),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/location-room/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: async ({ db, studio }) => ({ locations: await listLocations(db, studio) }),
  });

  // ------------------------------------------------------------------ class services (v4)
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: ServiceTypeQuerySchema,
    handle: async ({ db, studio, query }) => list(await listClassServices(db, studio, query.serviceType)),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service-category/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: async ({ db, studio }) => list(await listClassServiceCategories(db, studio)),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/:classService',
    access: 'staff',
    ability: READ,
    params: ClassServiceParams,
    handle: ({ db, studio, params }) => getClassService(db, studio, params.classService),
  });

  // ------------------------------------------------------------------ experience levels
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/experience-level/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: ServiceTypeQuerySchema,
    handle: async ({ db, studio, query }) => list(await listExperienceLevels(db, studio, query.serviceType)),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/experience-levels',
    access: 'staff',
    ability: EDIT,
    status: 201,
    params: StudioParams,
    body: ExperienceLevelInputSchema,
    handle: ({ db, studio, body }) => createExperienceLevel(db, studio, body, uuidv7()),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v2/:uuid/experience-levels/:experienceLevelGuid',
    access: 'staff',
    ability: EDIT,
    params: LevelParams,
    body: ExperienceLevelPatchSchema,
    handle: ({ db, studio, params, body }) =>
      updateExperienceLevel(db, studio, params.experienceLevelGuid, body),
  });

  // ------------------------------------------------------------------ timetable (v4)
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: ({ db, studio }) => scheduleInit(db, studio),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/schedule/find',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    body: ScheduleFindInputSchema,
    handle: async ({ db, studio, body }) => list(await findEvents(db, studio, body)),
  });
  // Classes the studio called off (cancelled) in a range of days, with the timetable's filters.
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule-call-off/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: PublicScheduleInputSchema,
    handle: async ({ db, studio, query }) =>
      list(
        (await findEvents(db, studio, { ...query, includeRemoved: false })).filter(
          (e) => e.status === 'cancelled',
        ),
      ),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule-meta/collection',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: MetaListQuery,
    handle: async ({ db, studio, query }) => list(await listMetas(db, studio, query.classServiceId)),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/schedule-event/:scheduleEvent',
    access: 'staff',
    ability: READ,
    params: EventV4Params,
    handle: ({ db, studio, params }) => getEvent(db, studio, params.scheduleEvent),
  });

  // ------------------------------------------------------------------ schedule metas (v2)
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/class-services/:classServiceGuid/schedule-metas',
    access: 'staff',
    ability: EDIT,
    status: 201,
    params: ClassServiceGuidParams,
    body: ScheduleMetaCreateInputSchema,
    handle: ({ db, studio, params, body }) => createMeta(db, studio, params.classServiceGuid, body),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    access: 'staff',
    ability: READ,
    params: MetaParams,
    handle: ({ db, studio, params }) => getMeta(db, studio, params.scheduleMetaGuid),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    access: 'staff',
    ability: EDIT,
    params: MetaParams,
    body: ScheduleMetaPatchSchema,
    handle: ({ db, studio, params, body, deps }) =>
      updateMeta(db, studio, params.scheduleMetaGuid, body, deps.clock.now()),
  });
  defineRoute(router, {
    method: 'delete',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid',
    access: 'staff',
    ability: EDIT,
    status: 204,
    params: MetaParams,
    handle: ({ db, studio, params, deps }) =>
      deleteMeta(db, studio, params.scheduleMetaGuid, deps.clock.now()),
  });
  for (const [segment, bookableOnline] of [
    ['bookable-online', true],
    ['unbookable-online', false],
  ] as const)
    defineRoute(router, {
      method: 'post',
      path: `/v2/:uuid/schedule-metas/:id/${segment}`,
      access: 'staff',
      ability: EDIT,
      params: MetaIdParams,
      handle: ({ db, studio, params, deps }) =>
        updateMeta(db, studio, params.id, { bookableOnline }, deps.clock.now()),
    });
  const metaEvents = {
    access: 'staff' as const,
    ability: READ,
    params: MetaParams,
    handle: async ({
      db,
      studio,
      params,
    }: {
      db: Parameters<typeof eventsOfMeta>[0];
      studio: Studio;
      params: { scheduleMetaGuid: string };
    }) => list(await eventsOfMeta(db, studio, params.scheduleMetaGuid)),
  };
  defineRoute(router, {
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/schedule-events/all',
    ...metaEvents,
  });
  // Spec §7 also names the events of a meta under class-services/{scheduleMetaGuid}: the same list.
  defineRoute(router, {
    method: 'get',
    path: '/v2/:uuid/class-services/:scheduleMetaGuid/schedule-events',
    ...metaEvents,
  });
  defineRoute(router, {
    method: 'get',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/all',
    access: 'staff',
    ability: READ,
    params: MetaParams,
    handle: ({ db, studio, params }) => listMetaPricingOptions(db, studio, params.scheduleMetaGuid),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/attach',
    access: 'staff',
    ability: EDIT,
    params: MetaParams,
    body: PricingOptionIdsInputSchema,
    handle: ({ db, studio, params, body }) =>
      attachPricingOptions(db, studio, params.scheduleMetaGuid, body.pricingOptionIds),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-metas/:scheduleMetaGuid/pricing-options/detach',
    access: 'staff',
    ability: EDIT,
    params: MetaParams,
    body: PricingOptionIdsInputSchema,
    handle: ({ db, studio, params, body }) =>
      detachPricingOptions(db, studio, params.scheduleMetaGuid, body.pricingOptionIds),
  });

  // ------------------------------------------------------------------ schedule events (v2)
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-events/generate',
    access: 'staff',
    ability: EDIT,
    params: StudioParams,
    body: GenerateInputSchema,
    handle: ({ db, studio, body, deps }) => generateEvents(db, studio, body, deps.clock.now()),
  });
  // Bulk paths first: `cancel/bulk` must not be read as an event id and an action.
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-events/patch/bulk',
    access: 'staff',
    ability: EDIT,
    params: StudioParams,
    body: BulkPatchInputSchema,
    handle: async ({ db, studio, body, deps }) =>
      list(await patchEvents(db, studio, body.ids, body.patch, deps.clock.now(), 'ids')),
  });
  for (const [segment, action] of Object.entries(ACTION_BY_SEGMENT))
    defineRoute(router, {
      method: 'post',
      path: `/v2/:uuid/schedule-events/${segment}/bulk`,
      access: 'staff',
      ability: EDIT,
      params: StudioParams,
      body: BulkActionInputSchema,
      handle: async ({ db, studio, body, deps }) =>
        list(await applyAction(db, studio, body.ids, action, deps.clock.now(), 'ids')),
    });
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-events/:referenceId/livestream',
    access: 'staff',
    ability: EDIT,
    params: EventParams,
    body: LivestreamInputSchema,
    handle: ({ db, studio, params, body }) => setLivestream(db, studio, params.referenceId, body.url),
  });
  // §2's `integration` ajax action: links the class to its external online room (livestream or video
  // meeting URL), the one integration a class has here; the same call as `livestream` (README).
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/schedule-events/:referenceId/integration',
    access: 'staff',
    ability: EDIT,
    params: EventParams,
    body: LivestreamInputSchema,
    handle: ({ db, studio, params, body }) => setLivestream(db, studio, params.referenceId, body.url),
  });
  // The back office's single-event "ajax actions" (spec §2): edit and each action on one event.
  defineRoute(router, {
    method: 'patch',
    path: '/v2/:uuid/schedule-events/:referenceId',
    access: 'staff',
    ability: EDIT,
    params: EventParams,
    body: ScheduleEventPatchSchema,
    handle: async ({ db, studio, params, body, deps }) =>
      (await patchEvents(db, studio, [params.referenceId], body, deps.clock.now(), null))[0]!,
  });
  for (const [segment, action] of Object.entries(ACTION_BY_SEGMENT))
    defineRoute(router, {
      method: 'post',
      path: `/v2/:uuid/schedule-events/:referenceId/${segment}`,
      access: 'staff',
      ability: EDIT,
      params: EventParams,
      handle: async ({ db, studio, params, deps }) =>
        (await applyAction(db, studio, [params.referenceId], action, deps.clock.now(), null))[0]!,
    });

  // ------------------------------------------------------------------ front office
  // Anyone may read a studio's timetable (a visitor decides whether to sign up by looking at it).
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/schedule',
    access: 'public',
    params: z.object({ uuid: z.uuid() }),
    body: PublicScheduleInputSchema,
    handle: async ({ db, params, body }) => {
      const studio = await Studio.query(db).findById(params.uuid);
      if (!studio) throw AppError.notFound();
      return publicSchedule(db, studio, body);
    },
  });
}
