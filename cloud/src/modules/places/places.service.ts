import type {
  CategoryInput,
  CategoryPatch,
  ClassServiceCreateInput,
  ClassServiceInit,
  ClassServicePatch,
  ClassServiceType,
  ExperienceLevelReorderInput,
  LocationCreateInput,
  LocationPatch,
  PlaceCategoryView,
  PlaceClassServiceView,
  PlaceLocationView,
  PlaceRoomView,
  RoomInput,
  RoomPatch,
} from '../../../../shared/contracts/api/places';
import { CLASS_SERVICE_TYPES } from '../../../../shared/contracts/api/places';
import type { ExperienceLevelView } from '../../../../shared/contracts/api/schedule';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentExperienceLevel, type ExperienceLevelRow } from '../schedule/index';
import {
  presentPlaceCategory,
  presentPlaceClassService,
  presentPlaceLocation,
  presentPlaceRoom,
  type PlaceCategoryRow,
  type PlaceClassServiceRow,
  type PlaceLocationRow,
  type PlaceRoomRow,
} from './places.presenter';
import { readAll } from '../../db/read-all';
import { insertLocation, insertRooms, placeNamed as naming } from '../place-records/index';

/**
 * Setting up locations and rooms, class service categories and class services. Nothing here is
 * deleted: classes on the timetable keep naming the room they were in, so places are archived
 * (hidden from the schedule's pickers) and restored. Archiving is refused while the thing is still
 * in use by the timetable's future (409 places.inUse), so no planned class loses its room.
 */

export type PlacesStatus = 'active' | 'archived' | 'all';

const byStatus = (
  q: { whereNull(c: string): unknown; whereNotNull(c: string): unknown },
  column: string,
  status: PlacesStatus,
) => {
  if (status === 'active') q.whereNull(column);
  else if (status === 'archived') q.whereNotNull(column);
};

const archivedError = (message: string) =>
  new AppError('places.archived', { message, fields: { '': [message] } });

function refuseFields(fields: FieldErrors): void {
  if (Object.keys(fields).length > 0)
    throw new AppError('request.invalid', { message: 'invalid input', fields });
}

/**
 * How the timetable's future still uses a location, room or class service: scheduled classes that
 * have not started, and metas that still generate (open-ended or ending today or later, studio day).
 */
async function futureUse(
  db: Db,
  studio: Studio,
  column: 'location_id' | 'room_id' | 'class_service_id',
  id: string,
  now: Date,
): Promise<{ events: number; metas: number }> {
  const today = localDateOf(now, studio.timeZone);
  const [events, metas] = await readAll(db, [
    () =>
      db('schedule_events')
        .where({ studioId: studio.id, [column]: id, status: 'scheduled' })
        .where('starts_at', '>', now)
        .count<{ count: number }[]>('id as count'),
    () =>
      db('schedule_metas')
        .where({ studioId: studio.id, [column]: id })
        .where((q) => q.whereNull('last_date').orWhere('last_date', '>=', today))
        .count<{ count: number }[]>('id as count'),
  ]);
  return { events: Number(events[0]?.count ?? 0), metas: Number(metas[0]?.count ?? 0) };
}

async function refuseWhileInUse(
  db: Db,
  studio: Studio,
  column: 'location_id' | 'room_id' | 'class_service_id',
  id: string,
  now: Date,
): Promise<void> {
  const use = await futureUse(db, studio, column, id, now);
  if (use.events === 0 && use.metas === 0) return;
  const message = `still used by ${use.metas} recurring class(es) and ${use.events} upcoming class(es); end or move them first`;
  throw new AppError('places.inUse', { message, fields: { '': [message] } });
}

// ------------------------------------------------------------------------------------ locations

const LOCATION_COLUMNS = [
  'id',
  'name',
  'addressLine',
  'postalCode',
  'city',
  'pictureUrl',
  'archivedAt',
] as const;
const ROOM_COLUMNS = ['id', 'locationId', 'name', 'capacity', 'archivedAt'] as const;

export async function listPlaceLocations(
  db: Db,
  studio: Studio,
  status: PlacesStatus,
  onlyId?: string,
): Promise<PlaceLocationView[]> {
  const q = db('locations')
    .where({ studioId: studio.id })
    .select(...LOCATION_COLUMNS)
    .orderBy([{ column: 'name' }, { column: 'id' }]);
  byStatus(q, 'archived_at', status);
  if (onlyId) q.where({ id: onlyId });
  const locations: PlaceLocationRow[] = await q;
  if (locations.length === 0) return [];
  const rooms = await db('location_rooms')
    .where({ studioId: studio.id })
    .whereIn(
      'location_id',
      locations.map((l) => l.id),
    )
    .select(...ROOM_COLUMNS)
    .orderBy([{ column: 'name' }, { column: 'id' }]);
  return locations.map((l) => presentPlaceLocation(l, rooms, studio.timeZone));
}

async function locationView(db: Db, studio: Studio, id: string): Promise<PlaceLocationView> {
  const [view] = await listPlaceLocations(db, studio, 'all', id);
  if (!view) throw AppError.notFound();
  return view;
}

export const getPlaceLocation = locationView;

async function lockLocation(db: Db, studio: Studio, id: string): Promise<PlaceLocationRow> {
  const row = await db('locations')
    .where({ studioId: studio.id, id })
    .forUpdate()
    .first(...LOCATION_COLUMNS);
  if (!row) throw AppError.notFound();
  return row;
}

export async function createLocation(
  db: Db,
  studio: Studio,
  input: LocationCreateInput,
  newId: () => string,
): Promise<PlaceLocationView> {
  const rooms = input.rooms ?? [];
  const seen = new Map<string, number>();
  const fields: FieldErrors = {};
  rooms.forEach((room, i) => {
    const key = room.name.toLowerCase();
    if (seen.has(key)) fields[`rooms.${i}.name`] = ['listed twice'];
    seen.set(key, i);
  });
  refuseFields(fields);
  const id = newId();
  await insertLocation(db, studio.id, { id, ...input });
  await insertRooms(
    db,
    studio.id,
    rooms.map((room) => ({ id: newId(), locationId: id, name: room.name, capacity: room.capacity })),
  );
  return locationView(db, studio, id);
}

export async function updateLocation(
  db: Db,
  studio: Studio,
  id: string,
  patch: LocationPatch,
): Promise<PlaceLocationView> {
  const row = await lockLocation(db, studio, id);
  if (row.archivedAt) throw archivedError('this location is archived; restore it to change it');
  const columns: Record<string, unknown> = {};
  if (patch.name !== undefined) columns.name = patch.name;
  if (patch.addressLine !== undefined) columns.address_line = patch.addressLine;
  if (patch.postalCode !== undefined) columns.postal_code = patch.postalCode;
  if (patch.city !== undefined) columns.city = patch.city;
  if (Object.keys(columns).length > 0)
    await naming('name', () =>
      db('locations')
        .where({ studioId: studio.id, id })
        .update({ ...columns, updatedAt: db.fn.now() }),
    );
  return locationView(db, studio, id);
}

export async function setLocationArchived(
  db: Db,
  studio: Studio,
  id: string,
  archived: boolean,
  now: Date,
): Promise<PlaceLocationView> {
  const row = await lockLocation(db, studio, id);
  if ((row.archivedAt !== null) === archived) return locationView(db, studio, id);
  if (archived) await refuseWhileInUse(db, studio, 'location_id', id, now);
  await naming('name', () =>
    db('locations')
      .where({ studioId: studio.id, id })
      .update({ archivedAt: archived ? now : null, updatedAt: db.fn.now() }),
  );
  return locationView(db, studio, id);
}

// ------------------------------------------------------------------------------------ rooms

async function lockRoom(db: Db, studio: Studio, id: string): Promise<PlaceRoomRow> {
  const row = await db('location_rooms')
    .where({ studioId: studio.id, id })
    .forUpdate()
    .first(...ROOM_COLUMNS);
  if (!row) throw AppError.notFound();
  return row;
}

async function roomView(db: Db, studio: Studio, id: string): Promise<PlaceRoomView> {
  const row = await db('location_rooms')
    .where({ studioId: studio.id, id })
    .first(...ROOM_COLUMNS);
  if (!row) throw AppError.notFound();
  return presentPlaceRoom(row);
}

export async function createRoom(
  db: Db,
  studio: Studio,
  locationId: string,
  input: RoomInput,
  newId: string,
): Promise<PlaceRoomView> {
  const location = await lockLocation(db, studio, locationId);
  if (location.archivedAt) throw archivedError('this location is archived; restore it to add rooms');
  await insertRooms(db, studio.id, [{ id: newId, locationId, name: input.name, capacity: input.capacity }]);
  return roomView(db, studio, newId);
}

export async function updateRoom(
  db: Db,
  studio: Studio,
  id: string,
  patch: RoomPatch,
): Promise<PlaceRoomView> {
  const row = await lockRoom(db, studio, id);
  if (row.archivedAt) throw archivedError('this room is archived; restore it to change it');
  if (Object.keys(patch).length > 0)
    await naming('name', () =>
      db('location_rooms')
        .where({ studioId: studio.id, id })
        .update({ ...patch, updatedAt: db.fn.now() }),
    );
  return roomView(db, studio, id);
}

export async function setRoomArchived(
  db: Db,
  studio: Studio,
  id: string,
  archived: boolean,
  now: Date,
): Promise<PlaceRoomView> {
  const row = await lockRoom(db, studio, id);
  if ((row.archivedAt !== null) === archived) return presentPlaceRoom(row);
  if (archived) await refuseWhileInUse(db, studio, 'room_id', id, now);
  else {
    const location = (await db('locations')
      .where({ studioId: studio.id, id: row.locationId })
      .first('archived_at')) as { archivedAt: Date | null };
    if (location.archivedAt) throw archivedError('its location is archived; restore the location first');
  }
  await naming('name', () =>
    db('location_rooms')
      .where({ studioId: studio.id, id })
      .update({ archivedAt: archived ? now : null, updatedAt: db.fn.now() }),
  );
  return roomView(db, studio, id);
}

// ------------------------------------------------------------------------------------ categories

function categoriesQuery(db: Db, studio: Studio) {
  return db('class_service_categories as c')
    .where('c.studio_id', studio.id)
    .select(
      'c.id',
      'c.name',
      'c.position',
      'c.archived_at',
      db('class_services as s')
        .whereRaw('s.category_id = c.id')
        .whereNull('s.archived_at')
        .count('*')
        .as('service_count'),
    )
    .orderBy([{ column: 'c.position' }, { column: 'c.id' }]);
}

export async function listPlaceCategories(
  db: Db,
  studio: Studio,
  status: PlacesStatus,
): Promise<PlaceCategoryView[]> {
  const q = categoriesQuery(db, studio);
  byStatus(q, 'c.archived_at', status);
  return ((await q) as PlaceCategoryRow[]).map((c) =>
    presentPlaceCategory({ ...c, serviceCount: Number(c.serviceCount) }),
  );
}

async function categoryView(db: Db, studio: Studio, id: string): Promise<PlaceCategoryView> {
  const row = (await categoriesQuery(db, studio).where('c.id', id).first()) as PlaceCategoryRow | undefined;
  if (!row) throw AppError.notFound();
  return presentPlaceCategory({ ...row, serviceCount: Number(row.serviceCount) });
}

async function lockCategory(db: Db, studio: Studio, id: string): Promise<{ archivedAt: Date | null }> {
  const row = await db('class_service_categories')
    .where({ studioId: studio.id, id })
    .forUpdate()
    .first('archivedAt');
  if (!row) throw AppError.notFound();
  return row;
}

export async function createCategory(
  db: Db,
  studio: Studio,
  input: CategoryInput,
  newId: string,
): Promise<PlaceCategoryView> {
  let position = input.position;
  if (position === undefined) {
    // New categories go last.
    const [max] = (await db('class_service_categories')
      .where({ studioId: studio.id })
      .max('position as max')) as Array<{ max: number | null }>;
    position = Math.min(1000, (max?.max ?? -1) + 1);
  }
  await db('class_service_categories').insert({
    id: newId,
    studioId: studio.id,
    name: JSON.stringify(input.name),
    position,
  });
  return categoryView(db, studio, newId);
}

export async function updateCategory(
  db: Db,
  studio: Studio,
  id: string,
  patch: CategoryPatch,
): Promise<PlaceCategoryView> {
  const row = await lockCategory(db, studio, id);
  if (row.archivedAt) throw archivedError('this category is archived; restore it to change it');
  const columns: Record<string, unknown> = {};
  if (patch.name !== undefined) columns.name = JSON.stringify(patch.name);
  if (patch.position !== undefined) columns.position = patch.position;
  if (Object.keys(columns).length > 0)
    await db('class_service_categories')
      .where({ studioId: studio.id, id })
      .update({ ...columns, updatedAt: db.fn.now() });
  return categoryView(db, studio, id);
}

/** An archived category keeps its services (they still show it); it is no longer offered for new ones. */
export async function setCategoryArchived(
  db: Db,
  studio: Studio,
  id: string,
  archived: boolean,
  now: Date,
): Promise<PlaceCategoryView> {
  const row = await lockCategory(db, studio, id);
  if ((row.archivedAt !== null) !== archived)
    await db('class_service_categories')
      .where({ studioId: studio.id, id })
      .update({ archivedAt: archived ? now : null, updatedAt: db.fn.now() });
  return categoryView(db, studio, id);
}

// ------------------------------------------------------------------------------------ class services

function servicesQuery(db: Db, studio: Studio, today: string) {
  return db('class_services as s')
    .where('s.studio_id', studio.id)
    .whereIn('s.service_type', CLASS_SERVICE_TYPES)
    .select(
      's.id',
      's.name',
      's.description',
      's.service_type',
      's.duration_minutes',
      's.default_capacity',
      's.color',
      's.category_id',
      's.experience_level_id',
      's.free_of_charge',
      's.archived_at',
      db('schedule_metas as m')
        .whereRaw('m.class_service_id = s.id')
        .where((q) => q.whereNull('m.last_date').orWhere('m.last_date', '>=', today))
        .count('*')
        .as('active_meta_count'),
    )
    .orderBy([{ column: 's.created_at' }, { column: 's.id' }]);
}

const presentServiceRow = (row: PlaceClassServiceRow) =>
  presentPlaceClassService({ ...row, activeMetaCount: Number(row.activeMetaCount) });

export async function listPlaceClassServices(
  db: Db,
  studio: Studio,
  filter: { status: PlacesStatus; serviceType?: ClassServiceType },
  now: Date,
): Promise<PlaceClassServiceView[]> {
  const q = servicesQuery(db, studio, localDateOf(now, studio.timeZone));
  byStatus(q, 's.archived_at', filter.status);
  if (filter.serviceType) q.where('s.service_type', filter.serviceType);
  return ((await q) as PlaceClassServiceRow[]).map(presentServiceRow);
}

async function serviceView(db: Db, studio: Studio, id: string, now: Date): Promise<PlaceClassServiceView> {
  const row = (await servicesQuery(db, studio, localDateOf(now, studio.timeZone))
    .where('s.id', id)
    .first()) as PlaceClassServiceRow | undefined;
  if (!row) throw AppError.notFound();
  return presentServiceRow(row);
}

/** Category and experience level of a service: of this studio, the category active, the level of its kind. */
async function serviceReferenceErrors(
  db: Db,
  studio: Studio,
  serviceType: ClassServiceType,
  refs: { categoryId?: string | null; experienceLevelId?: string | null },
  currentCategoryId: string | null = null,
): Promise<FieldErrors> {
  const fields: FieldErrors = {};
  if (refs.categoryId) {
    const category = await db('class_service_categories')
      .where({ studioId: studio.id, id: refs.categoryId })
      .first('archivedAt');
    if (!category) fields.categoryId = ['unknown in this studio'];
    // Keeping the category a service already has is fine even when it was archived since.
    else if (category.archivedAt && refs.categoryId !== currentCategoryId)
      fields.categoryId = ['this category is archived'];
  }
  if (refs.experienceLevelId) {
    const level = (await db('experience_levels')
      .where({ studioId: studio.id, id: refs.experienceLevelId })
      .first('service_type')) as { serviceType: string } | undefined;
    if (!level) fields.experienceLevelId = ['unknown in this studio'];
    else if (level.serviceType !== serviceType)
      fields.experienceLevelId = [`not a level of ${serviceType} services`];
  }
  return fields;
}

export async function createClassService(
  db: Db,
  studio: Studio,
  input: ClassServiceCreateInput,
  newId: string,
  now: Date,
): Promise<PlaceClassServiceView> {
  refuseFields(await serviceReferenceErrors(db, studio, input.serviceType, input));
  await db('class_services').insert({
    id: newId,
    studioId: studio.id,
    serviceType: input.serviceType,
    name: JSON.stringify(input.name),
    description: JSON.stringify(input.description ?? {}),
    durationMinutes: input.durationMinutes,
    defaultCapacity: input.defaultCapacity ?? null,
    ...(input.color ? { color: input.color } : {}),
    categoryId: input.categoryId ?? null,
    experienceLevelId: input.experienceLevelId ?? null,
    freeOfCharge: input.freeOfCharge ?? false,
  });
  return serviceView(db, studio, newId, now);
}

async function lockService(db: Db, studio: Studio, id: string) {
  const row = (await db('class_services')
    .where({ studioId: studio.id, id })
    .whereIn('service_type', CLASS_SERVICE_TYPES)
    .forUpdate()
    .first('service_type', 'category_id', 'archived_at')) as
    { serviceType: ClassServiceType; categoryId: string | null; archivedAt: Date | null } | undefined;
  if (!row) throw AppError.notFound();
  return row;
}

export async function updateClassService(
  db: Db,
  studio: Studio,
  id: string,
  patch: ClassServicePatch,
  now: Date,
): Promise<PlaceClassServiceView> {
  const row = await lockService(db, studio, id);
  if (row.archivedAt) throw archivedError('this class service is archived; restore it to change it');
  refuseFields(await serviceReferenceErrors(db, studio, row.serviceType, patch, row.categoryId));
  const columns: Record<string, unknown> = {};
  if (patch.name !== undefined) columns.name = JSON.stringify(patch.name);
  if (patch.description !== undefined) columns.description = JSON.stringify(patch.description);
  if (patch.durationMinutes !== undefined) columns.duration_minutes = patch.durationMinutes;
  if (patch.defaultCapacity !== undefined) columns.default_capacity = patch.defaultCapacity;
  if (patch.color !== undefined) columns.color = patch.color;
  if (patch.categoryId !== undefined) columns.category_id = patch.categoryId;
  if (patch.experienceLevelId !== undefined) columns.experience_level_id = patch.experienceLevelId;
  if (patch.freeOfCharge !== undefined) columns.free_of_charge = patch.freeOfCharge;
  if (Object.keys(columns).length > 0)
    await db('class_services')
      .where({ studioId: studio.id, id })
      .update({ ...columns, updatedAt: db.fn.now() });
  return serviceView(db, studio, id, now);
}

export async function setClassServiceArchived(
  db: Db,
  studio: Studio,
  id: string,
  archived: boolean,
  now: Date,
): Promise<PlaceClassServiceView> {
  const row = await lockService(db, studio, id);
  if ((row.archivedAt !== null) !== archived) {
    if (archived) await refuseWhileInUse(db, studio, 'class_service_id', id, now);
    await db('class_services')
      .where({ studioId: studio.id, id })
      .update({ archivedAt: archived ? now : null, updatedAt: db.fn.now() });
  }
  return serviceView(db, studio, id, now);
}

export async function classServiceInit(db: Db, studio: Studio): Promise<ClassServiceInit> {
  const [categories, levels] = await readAll(db, [
    () => listPlaceCategories(db, studio, 'all'),
    () =>
      db('experience_levels')
        .where({ studioId: studio.id })
        .whereIn('service_type', CLASS_SERVICE_TYPES)
        .select('id', 'service_type', 'name', 'position')
        .orderBy([{ column: 'position' }, { column: 'name' }, { column: 'id' }]) as Promise<
        ExperienceLevelRow[]
      >,
  ]);
  return {
    timeZone: studio.timeZone,
    categories,
    experienceLevels: levels.map(presentExperienceLevel),
    serviceTypes: [...CLASS_SERVICE_TYPES],
  };
}

// ------------------------------------------------------------------------------------ experience levels

/** Classes and services that had the level keep running without one (the foreign keys set null). */
export async function deleteExperienceLevel(db: Db, studio: Studio, id: string): Promise<void> {
  const deleted = await db('experience_levels').where({ studioId: studio.id, id }).delete();
  if (deleted === 0) throw AppError.notFound();
}

/** Every level of one service type, in the new order: positions 0, 1, 2 … */
export async function reorderExperienceLevels(
  db: Db,
  studio: Studio,
  input: ExperienceLevelReorderInput,
): Promise<ExperienceLevelView[]> {
  const rows = await db('experience_levels')
    .where({ studioId: studio.id })
    .where((q) => q.where({ serviceType: input.serviceType }).orWhereIn('id', input.ids))
    .forUpdate()
    .select('id', 'serviceType');
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (input.ids.some((id) => !byId.has(id))) throw AppError.notFound();
  const fields: FieldErrors = {};
  input.ids.forEach((id, i) => {
    if (byId.get(id)!.serviceType !== input.serviceType)
      fields[`ids.${i}`] = [`not a level of ${input.serviceType} services`];
  });
  const ofType = rows.filter((r) => r.serviceType === input.serviceType);
  if (Object.keys(fields).length === 0 && ofType.length !== input.ids.length)
    fields.ids = ['list every level of this service type once'];
  refuseFields(fields);
  for (const [position, id] of input.ids.entries())
    await db('experience_levels')
      .where({ studioId: studio.id, id })
      .update({ position, updatedAt: db.fn.now() });
  const levels = (await db('experience_levels')
    .where({ studioId: studio.id, serviceType: input.serviceType })
    .select('id', 'service_type', 'name', 'position')
    .orderBy([{ column: 'position' }, { column: 'name' }, { column: 'id' }])) as ExperienceLevelRow[];
  return levels.map(presentExperienceLevel);
}
