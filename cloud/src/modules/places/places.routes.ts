import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  CategoryInputSchema,
  CategoryPatchSchema,
  ClassServiceAllQuerySchema,
  ClassServiceCreateInputSchema,
  ClassServicePatchSchema,
  ExperienceLevelReorderInputSchema,
  LocationCreateInputSchema,
  LocationPatchSchema,
  PlacesStatusQuerySchema,
  RoomInputSchema,
  RoomPatchSchema,
} from '../../../../shared/contracts/api/places';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import {
  classServiceInit,
  createCategory,
  createClassService,
  createLocation,
  createRoom,
  deleteExperienceLevel,
  listPlaceCategories,
  listPlaceClassServices,
  listPlaceLocations,
  reorderExperienceLevels,
  setCategoryArchived,
  setClassServiceArchived,
  setLocationArchived,
  setRoomArchived,
  updateCategory,
  updateClassService,
  updateLocation,
  updateRoom,
} from './places.service';

const StudioParams = z.object({ uuid: z.string() });
const LocationParams = z.object({ uuid: z.string(), location: z.uuid() });
const RoomParams = z.object({ uuid: z.string(), room: z.uuid() });
const CategoryParams = z.object({ uuid: z.string(), category: z.uuid() });
const ServiceParams = z.object({ uuid: z.string(), classService: z.uuid() });
const LevelParams = z.object({ uuid: z.string(), experienceLevelGuid: z.uuid() });

const READ = 'schedule.view' as const;
/** Places and services are the studio's set-up, changed by whoever may change its settings. */
const SETUP = 'settings.edit' as const;
/** Experience levels keep the ability of their create/edit calls in the schedule module. */
const LEVELS = 'schedule.edit' as const;
const list = <T>(items: T[]) => ({ items, next: null });
const ARCHIVING = [
  ['archive', true],
  ['restore', false],
] as const;

/**
 * Locations and rooms, class service categories and class services: create, edit, archive and
 * restore (README). Register BEFORE the schedule module: `class-service/all` and `/init` must not be
 * read as the schedule's `class-service/{classService}`.
 */
export function registerPlacesRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------ locations
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/location/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: PlacesStatusQuerySchema,
    handle: async ({ db, studio, query }) => list(await listPlaceLocations(db, studio, query.status)),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/location',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: LocationCreateInputSchema,
    handle: ({ db, studio, body }) => createLocation(db, studio, body, uuidv7),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/location/:location',
    access: 'staff',
    ability: SETUP,
    params: LocationParams,
    body: LocationPatchSchema,
    handle: ({ db, studio, params, body }) => updateLocation(db, studio, params.location, body),
  });
  for (const [segment, archived] of ARCHIVING)
    defineRoute(router, {
      method: 'post',
      path: `/v4/:uuid/location/:location/${segment}`,
      access: 'staff',
      ability: SETUP,
      params: LocationParams,
      handle: ({ db, studio, params, deps }) =>
        setLocationArchived(db, studio, params.location, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ rooms
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/location/:location/location-room',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: LocationParams,
    body: RoomInputSchema,
    handle: ({ db, studio, params, body }) => createRoom(db, studio, params.location, body, uuidv7()),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/location-room/:room',
    access: 'staff',
    ability: SETUP,
    params: RoomParams,
    body: RoomPatchSchema,
    handle: ({ db, studio, params, body }) => updateRoom(db, studio, params.room, body),
  });
  for (const [segment, archived] of ARCHIVING)
    defineRoute(router, {
      method: 'post',
      path: `/v4/:uuid/location-room/:room/${segment}`,
      access: 'staff',
      ability: SETUP,
      params: RoomParams,
      handle: ({ db, studio, params, deps }) =>
        setRoomArchived(db, studio, params.room, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ class service categories
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service-category/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: PlacesStatusQuerySchema,
    handle: async ({ db, studio, query }) => list(await listPlaceCategories(db, studio, query.status)),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/class-service-category',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: CategoryInputSchema,
    handle: ({ db, studio, body }) => createCategory(db, studio, body, uuidv7()),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/class-service-category/:category',
    access: 'staff',
    ability: SETUP,
    params: CategoryParams,
    body: CategoryPatchSchema,
    handle: ({ db, studio, params, body }) => updateCategory(db, studio, params.category, body),
  });
  for (const [segment, archived] of ARCHIVING)
    defineRoute(router, {
      method: 'post',
      path: `/v4/:uuid/class-service-category/:category/${segment}`,
      access: 'staff',
      ability: SETUP,
      params: CategoryParams,
      handle: ({ db, studio, params, deps }) =>
        setCategoryArchived(db, studio, params.category, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ class services
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: ClassServiceAllQuerySchema,
    handle: async ({ db, studio, query, deps }) =>
      list(await listPlaceClassServices(db, studio, query, deps.clock.now())),
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/class-service/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    handle: ({ db, studio }) => classServiceInit(db, studio),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/class-service',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: ClassServiceCreateInputSchema,
    handle: ({ db, studio, body, deps }) => createClassService(db, studio, body, uuidv7(), deps.clock.now()),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/class-service/:classService',
    access: 'staff',
    ability: SETUP,
    params: ServiceParams,
    body: ClassServicePatchSchema,
    handle: ({ db, studio, params, body, deps }) =>
      updateClassService(db, studio, params.classService, body, deps.clock.now()),
  });
  for (const [segment, archived] of ARCHIVING)
    defineRoute(router, {
      method: 'post',
      path: `/v4/:uuid/class-service/:classService/${segment}`,
      access: 'staff',
      ability: SETUP,
      params: ServiceParams,
      handle: ({ db, studio, params, deps }) =>
        setClassServiceArchived(db, studio, params.classService, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ experience levels (v2)
  defineRoute(router, {
    method: 'post',
    path: '/v2/:uuid/experience-levels/reorder',
    access: 'staff',
    ability: LEVELS,
    params: StudioParams,
    body: ExperienceLevelReorderInputSchema,
    handle: async ({ db, studio, body }) => list(await reorderExperienceLevels(db, studio, body)),
  });
  defineRoute(router, {
    method: 'delete',
    path: '/v2/:uuid/experience-levels/:experienceLevelGuid',
    access: 'staff',
    ability: LEVELS,
    status: 204,
    params: LevelParams,
    handle: ({ db, studio, params }) => deleteExperienceLevel(db, studio, params.experienceLevelGuid),
  });
}
