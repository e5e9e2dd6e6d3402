import type {
  ClassServiceType,
  PlaceCategoryView,
  PlaceClassServiceView,
  PlaceLocationView,
  PlaceRoomView,
} from '../../../../shared/contracts/api/places';
import type { LocaleText } from '../../../../shared/domain/locale-text';
import type {
  ClassServiceCategoriesRow,
  ClassServicesRow,
  LocationRoomsRow,
  LocationsRow,
} from '../../db/generated/tables';

/** A room and a location as their services select them (`ROOM_COLUMNS`, `LOCATION_COLUMNS`). */
export type PlaceRoomRow = Pick<LocationRoomsRow, 'id' | 'locationId' | 'name' | 'capacity' | 'archivedAt'>;
export type PlaceLocationRow = Pick<
  LocationsRow,
  'id' | 'name' | 'addressLine' | 'postalCode' | 'city' | 'pictureUrl' | 'archivedAt'
>;
/** A category with the count of its live services (`categoriesQuery`). */
export type PlaceCategoryRow = Pick<ClassServiceCategoriesRow, 'id' | 'name' | 'position' | 'archivedAt'> & {
  serviceCount: number;
};
/** A class service with the count of its live schedule metas; its type is one of the class kinds. */
export type PlaceClassServiceRow = Pick<
  ClassServicesRow,
  | 'id'
  | 'name'
  | 'durationMinutes'
  | 'defaultCapacity'
  | 'color'
  | 'categoryId'
  | 'experienceLevelId'
  | 'freeOfCharge'
  | 'archivedAt'
> & {
  description: LocaleText | null;
  serviceType: ClassServiceType;
  activeMetaCount: number;
};

export const presentPlaceRoom = (r: PlaceRoomRow): PlaceRoomView => ({
  id: r.id,
  locationId: r.locationId,
  name: r.name,
  capacity: r.capacity,
  archived: r.archivedAt !== null,
});

/** `rooms` are all rooms of the studio (or of this location); the location keeps its own, active first. */
export const presentPlaceLocation = (
  l: PlaceLocationRow,
  rooms: PlaceRoomRow[],
  timeZone: string,
): PlaceLocationView => ({
  id: l.id,
  name: l.name,
  addressLine: l.addressLine,
  postalCode: l.postalCode,
  city: l.city,
  pictureUrl: l.pictureUrl,
  timeZone,
  archived: l.archivedAt !== null,
  rooms: rooms
    .filter((r) => r.locationId === l.id)
    .map(presentPlaceRoom)
    .sort((a, b) => Number(a.archived) - Number(b.archived)),
});

export const presentPlaceCategory = (c: PlaceCategoryRow): PlaceCategoryView => ({
  id: c.id,
  name: c.name,
  position: c.position,
  archived: c.archivedAt !== null,
  serviceCount: c.serviceCount,
});

export const presentPlaceClassService = (s: PlaceClassServiceRow): PlaceClassServiceView => ({
  id: s.id,
  name: s.name,
  description: s.description ?? {},
  serviceType: s.serviceType,
  durationMinutes: s.durationMinutes,
  defaultCapacity: s.defaultCapacity,
  color: s.color,
  categoryId: s.categoryId,
  experienceLevelId: s.experienceLevelId,
  freeOfCharge: Boolean(s.freeOfCharge),
  archived: s.archivedAt !== null,
  activeMetaCount: s.activeMetaCount,
});
