import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import { PlacesApi } from '../../../../shared/contracts/http/places';
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

const list = <T>(items: T[]) => ({ items, next: null });

/**
 * Locations and rooms, class service categories and class services: create, edit, archive and
 * restore (README). Register BEFORE the schedule module: `class-service/all` and `/init` must not be
 * read as the schedule's `class-service/{classService}`.
 */
export function registerPlacesRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------ locations
  defineRoute(router, {
    ...PlacesApi.getLocationAll,
    handle: async ({ db, studio, query }) => list(await listPlaceLocations(db, studio, query.status)),
  });
  defineRoute(router, {
    ...PlacesApi.postLocation,
    handle: ({ db, studio, body }) => createLocation(db, studio, body, uuidv7),
  });
  defineRoute(router, {
    ...PlacesApi.patchLocation,
    handle: ({ db, studio, params, body }) => updateLocation(db, studio, params.location, body),
  });
  for (const [entry, archived] of [
    [PlacesApi.archiveLocation, true],
    [PlacesApi.restoreLocation, false],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: ({ db, studio, params, deps }) =>
        setLocationArchived(db, studio, params.location, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ rooms
  defineRoute(router, {
    ...PlacesApi.postLocationRoom,
    handle: ({ db, studio, params, body }) => createRoom(db, studio, params.location, body, uuidv7()),
  });
  defineRoute(router, {
    ...PlacesApi.patchLocationRoom,
    handle: ({ db, studio, params, body }) => updateRoom(db, studio, params.room, body),
  });
  for (const [entry, archived] of [
    [PlacesApi.archiveLocationRoom, true],
    [PlacesApi.restoreLocationRoom, false],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: ({ db, studio, params, deps }) =>
        setRoomArchived(db, studio, params.room, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ class service categories
  defineRoute(router, {
    ...PlacesApi.getClassServiceCategoryAll,
    handle: async ({ db, studio, query }) => list(await listPlaceCategories(db, studio, query.status)),
  });
  defineRoute(router, {
    ...PlacesApi.postClassServiceCategory,
    handle: ({ db, studio, body }) => createCategory(db, studio, body, uuidv7()),
  });
  defineRoute(router, {
    ...PlacesApi.patchClassServiceCategory,
    handle: ({ db, studio, params, body }) => updateCategory(db, studio, params.category, body),
  });
  for (const [entry, archived] of [
    [PlacesApi.archiveClassServiceCategory, true],
    [PlacesApi.restoreClassServiceCategory, false],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: ({ db, studio, params, deps }) =>
        setCategoryArchived(db, studio, params.category, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ class services
  defineRoute(router, {
    ...PlacesApi.getClassServiceAll,
    handle: async ({ db, studio, query, deps }) =>
      list(await listPlaceClassServices(db, studio, query, deps.clock.now())),
  });
  defineRoute(router, {
    ...PlacesApi.getClassServiceInit,
    handle: ({ db, studio }) => classServiceInit(db, studio),
  });
  defineRoute(router, {
    ...PlacesApi.postClassService,
    handle: ({ db, studio, body, deps }) => createClassService(db, studio, body, uuidv7(), deps.clock.now()),
  });
  defineRoute(router, {
    ...PlacesApi.patchClassService,
    handle: ({ db, studio, params, body, deps }) =>
      updateClassService(db, studio, params.classService, body, deps.clock.now()),
  });
  for (const [entry, archived] of [
    [PlacesApi.archiveClassService, true],
    [PlacesApi.restoreClassService, false],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: ({ db, studio, params, deps }) =>
        setClassServiceArchived(db, studio, params.classService, archived, deps.clock.now()),
    });

  // ------------------------------------------------------------------ experience levels (v2)
  defineRoute(router, {
    ...PlacesApi.postExperienceLevelsReorder,
    handle: async ({ db, studio, body }) => list(await reorderExperienceLevels(db, studio, body)),
  });
  defineRoute(router, {
    ...PlacesApi.deleteExperienceLevel,
    handle: ({ db, studio, params }) => deleteExperienceLevel(db, studio, params.experienceLevelGuid),
  });
}
