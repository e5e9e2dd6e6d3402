import {
  CategoryInputSchema,
  CategoryPatchSchema,
  ClassServiceAllQuerySchema,
  ClassServiceCreateInputSchema,
  ClassServiceInitSchema,
  ClassServicePatchSchema,
  ExperienceLevelReorderInputSchema,
  ExperienceLevelReorderResultSchema,
  LocationCreateInputSchema,
  LocationPatchSchema,
  PlaceCategoryListSchema,
  PlaceCategorySchema,
  PlaceClassServiceListSchema,
  PlaceClassServiceSchema,
  PlaceLocationListSchema,
  PlaceLocationSchema,
  PlaceRoomSchema,
  PlacesStatusQuerySchema,
  RoomInputSchema,
  RoomPatchSchema,
} from '../api/places';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const LocationParams = studioParams('location');
const RoomParams = studioParams('room');
const CategoryParams = studioParams('category');
const ServiceParams = studioParams('classService');
const LevelParams = studioParams('experienceLevelGuid');

const READ = 'schedule.view' as const;
/** Places and services are the studio's set-up, changed by whoever may change its settings. */
const SETUP = 'settings.edit' as const;
/** Experience levels keep the ability of their create/edit calls in the schedule module. */
const LEVELS = 'schedule.edit' as const;

/** Archiving and restoring one kind of place: the same call but for its last path segment. */
function archiving<P, R>(path: string, params: P, response: R) {
  const entry = (segment: string) =>
    ({
      method: 'post',
      path: `${path}/${segment}`,
      access: 'staff',
      ability: SETUP,
      params,
      response,
    }) as const;
  return { archive: entry('archive'), restore: entry('restore') };
}
const locationArchiving = archiving('/v4/:uuid/location/:location', LocationParams, PlaceLocationSchema);
const roomArchiving = archiving('/v4/:uuid/location-room/:room', RoomParams, PlaceRoomSchema);
const categoryArchiving = archiving(
  '/v4/:uuid/class-service-category/:category',
  CategoryParams,
  PlaceCategorySchema,
);
const serviceArchiving = archiving(
  '/v4/:uuid/class-service/:classService',
  ServiceParams,
  PlaceClassServiceSchema,
);

/**
 * The studio's places and services (spec §3): locations and their rooms, class service categories,
 * class services (create, edit, archive, restore) and the order of experience levels.
 */
export const PlacesApi = contractGroup('places', {
  getLocationAll: {
    method: 'get',
    path: '/v4/:uuid/location/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: PlacesStatusQuerySchema,
    response: PlaceLocationListSchema,
  },
  postLocation: {
    method: 'post',
    path: '/v4/:uuid/location',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: LocationCreateInputSchema,
    response: PlaceLocationSchema,
  },
  patchLocation: {
    method: 'patch',
    path: '/v4/:uuid/location/:location',
    access: 'staff',
    ability: SETUP,
    params: LocationParams,
    body: LocationPatchSchema,
    response: PlaceLocationSchema,
  },
  archiveLocation: locationArchiving.archive,
  restoreLocation: locationArchiving.restore,
  postLocationRoom: {
    method: 'post',
    path: '/v4/:uuid/location/:location/location-room',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: LocationParams,
    body: RoomInputSchema,
    response: PlaceRoomSchema,
  },
  patchLocationRoom: {
    method: 'patch',
    path: '/v4/:uuid/location-room/:room',
    access: 'staff',
    ability: SETUP,
    params: RoomParams,
    body: RoomPatchSchema,
    response: PlaceRoomSchema,
  },
  archiveLocationRoom: roomArchiving.archive,
  restoreLocationRoom: roomArchiving.restore,
  getClassServiceCategoryAll: {
    method: 'get',
    path: '/v4/:uuid/class-service-category/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: PlacesStatusQuerySchema,
    response: PlaceCategoryListSchema,
  },
  postClassServiceCategory: {
    method: 'post',
    path: '/v4/:uuid/class-service-category',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: CategoryInputSchema,
    response: PlaceCategorySchema,
  },
  patchClassServiceCategory: {
    method: 'patch',
    path: '/v4/:uuid/class-service-category/:category',
    access: 'staff',
    ability: SETUP,
    params: CategoryParams,
    body: CategoryPatchSchema,
    response: PlaceCategorySchema,
  },
  archiveClassServiceCategory: categoryArchiving.archive,
  restoreClassServiceCategory: categoryArchiving.restore,
  getClassServiceAll: {
    method: 'get',
    path: '/v4/:uuid/class-service/all',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    query: ClassServiceAllQuerySchema,
    response: PlaceClassServiceListSchema,
  },
  getClassServiceInit: {
    method: 'get',
    path: '/v4/:uuid/class-service/init',
    access: 'staff',
    ability: READ,
    params: StudioParams,
    response: ClassServiceInitSchema,
  },
  postClassService: {
    method: 'post',
    path: '/v4/:uuid/class-service',
    access: 'staff',
    ability: SETUP,
    status: 201,
    params: StudioParams,
    body: ClassServiceCreateInputSchema,
    response: PlaceClassServiceSchema,
  },
  patchClassService: {
    method: 'patch',
    path: '/v4/:uuid/class-service/:classService',
    access: 'staff',
    ability: SETUP,
    params: ServiceParams,
    body: ClassServicePatchSchema,
    response: PlaceClassServiceSchema,
  },
  archiveClassService: serviceArchiving.archive,
  restoreClassService: serviceArchiving.restore,
  postExperienceLevelsReorder: {
    method: 'post',
    path: '/v2/:uuid/experience-levels/reorder',
    access: 'staff',
    ability: LEVELS,
    params: StudioParams,
    body: ExperienceLevelReorderInputSchema,
    response: ExperienceLevelReorderResultSchema,
  },
  deleteExperienceLevel: {
    method: 'delete',
    path: '/v2/:uuid/experience-levels/:experienceLevelGuid',
    access: 'staff',
    ability: LEVELS,
    status: 204,
    params: LevelParams,
    responseKind: 'empty',
  },
});
