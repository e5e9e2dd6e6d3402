import type {
  ClassServiceView,
  ExperienceLevelInput,
  ExperienceLevelPatch,
  ExperienceLevelView,
  InstructorView,
  LocationView,
  RoomView,
  ScheduleInit,
} from '../../../../shared/contracts/api/schedule';
import { classBookingDefaults } from '../../../../shared/contracts/api/schedule';
import { TagType } from '../../../../shared/enums/clients';
import type { ServiceType } from '../../../../shared/enums/services';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { policiesOf } from '../studio-admin/index';
import {
  presentClassService,
  presentExperienceLevel,
  presentLocation,
  presentRoom,
  type ClassServiceRow,
  type ExperienceLevelRow,
  type LocationRow,
  type PricingOptionRefRow,
  type RoomRow,
} from './schedule.presenter';
import { readAll } from '../../db/read-all';

/** Locations and rooms, class services and categories, experience levels, and what forms pick from. */

async function roomsOf(db: Db, studioId: string, locationId?: string): Promise<RoomRow[]> {
  // Archived rooms and locations (places module) are kept for history, not offered for new classes.
  const q = db('location_rooms')
    .where({ studioId })
    .whereNull('archived_at')
    .select('id', 'location_id', 'name', 'capacity')
    .orderBy([{ column: 'name' }, { column: 'id' }]);
  if (locationId) q.where({ locationId });
  return q;
}

export async function listLocations(db: Db, studio: Studio): Promise<LocationView[]> {
  const locations = (await db('locations')
    .where({ studioId: studio.id })
    .whereNull('archived_at')
    .select('id', 'name', 'address_line', 'postal_code', 'city', 'picture_url')
    .orderBy([{ column: 'name' }, { column: 'id' }])) as LocationRow[];
  const rooms = await roomsOf(db, studio.id);
  return locations.map((l) => presentLocation(l, rooms));
}

export async function assertLocation(db: Db, studioId: string, locationId: string): Promise<void> {
  const found = await db('locations').where({ studioId, id: locationId }).first('id');
  if (!found) throw AppError.notFound();
}

export async function listRooms(db: Db, studio: Studio, locationId: string): Promise<RoomView[]> {
  await assertLocation(db, studio.id, locationId);
  return (await roomsOf(db, studio.id, locationId)).map(presentRoom);
}

/** Locks the studio's location for a picture change and returns its picture now (404 if unknown). */
export async function lockLocationPicture(
  trx: Db,
  studioId: string,
  locationId: string,
): Promise<string | null> {
  const row = await trx('locations').where({ studioId, id: locationId }).forUpdate().first('pictureUrl');
  if (!row) throw AppError.notFound();
  return row.pictureUrl ?? null;
}

export async function setLocationPicture(
  db: Db,
  studio: Studio,
  locationId: string,
  pictureUrl: string | null,
): Promise<LocationView> {
  const updated = await db('locations')
    .where({ studioId: studio.id, id: locationId })
    .update({ pictureUrl, updatedAt: db.fn.now() });
  if (updated === 0) throw AppError.notFound();
  return (await listLocations(db, studio)).find((l) => l.id === locationId)!;
}

const SERVICE_COLUMNS = [
  'id',
  'name',
  'description',
  'serviceType',
  'durationMinutes',
  'color',
  'categoryId',
  'experienceLevelId',
] as const;

/** Class services are the classroom and course kinds (appointments, entries and videos live elsewhere). */
export async function listClassServices(
  db: Db,
  studio: Studio,
  serviceType?: ServiceType,
): Promise<ClassServiceView[]> {
  const q = db('class_services')
    .where({ studioId: studio.id })
    .whereIn('service_type', serviceType ? [serviceType] : ['classroom', 'course'])
    .whereNull('archived_at')
    .select(...SERVICE_COLUMNS)
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return ((await q) as ClassServiceRow[]).map(presentClassService);
}

export async function getClassService(db: Db, studio: Studio, id: string): Promise<ClassServiceView> {
  const row = (await db('class_services')
    .where({ studioId: studio.id, id })
    .whereIn('service_type', ['classroom', 'course'])
    .first(...SERVICE_COLUMNS)) as ClassServiceRow | undefined;
  if (!row) throw AppError.notFound();
  return presentClassService(row);
}

export async function listClassServiceCategories(db: Db, studio: Studio) {
  const rows = (await db('class_service_categories')
    .where({ studioId: studio.id })
    .whereNull('archived_at')
    .select('id', 'name', 'position')
    .orderBy([{ column: 'position' }, { column: 'id' }])) as Array<{
    id: string;
    name: Record<string, { value: string }>;
    position: number;
  }>;
  return rows.map((r) => ({ id: r.id, name: r.name, position: r.position }));
}

export async function listExperienceLevels(
  db: Db,
  studio: Studio,
  serviceType?: ServiceType,
): Promise<ExperienceLevelView[]> {
  const q = db('experience_levels')
    .where({ studioId: studio.id })
    .select('id', 'service_type', 'name', 'position')
    .orderBy([{ column: 'position' }, { column: 'name' }, { column: 'id' }]);
  if (serviceType) q.where({ serviceType });
  return ((await q) as ExperienceLevelRow[]).map(presentExperienceLevel);
}

async function savingLevel<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { code?: string; nativeError?: { code?: string } };
    if ((e.nativeError?.code ?? e.code) === '23505')
      throw new AppError('resource.conflict', {
        message: 'this name is taken',
        fields: { name: ['this name is taken'] },
      });
    throw err;
  }
}

export async function createExperienceLevel(
  db: Db,
  studio: Studio,
  input: ExperienceLevelInput,
  newId: string,
): Promise<ExperienceLevelView> {
  const [row] = (await savingLevel(() =>
    db('experience_levels')
      .insert({
        id: newId,
        studioId: studio.id,
        serviceType: input.serviceType,
        name: input.name,
        position: input.position ?? 0,
      })
      .returning(['id', 'service_type', 'name', 'position']),
  )) as ExperienceLevelRow[];
  return presentExperienceLevel(row!);
}

export async function updateExperienceLevel(
  db: Db,
  studio: Studio,
  id: string,
  patch: ExperienceLevelPatch,
): Promise<ExperienceLevelView> {
  const existing = await db('experience_levels').where({ studioId: studio.id, id }).forUpdate().first('id');
  if (!existing) throw AppError.notFound();
  const [row] = (await savingLevel(() =>
    db('experience_levels')
      .where({ studioId: studio.id, id })
      .update({ ...patch, updatedAt: db.fn.now() })
      .returning(['id', 'service_type', 'name', 'position']),
  )) as ExperienceLevelRow[];
  return presentExperienceLevel(row!);
}

/** Staff members of the studio (who may teach), by name. */
export async function listInstructors(db: Db, studioId: string, ids?: string[]): Promise<InstructorView[]> {
  const q = db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.is_member': true })
    .whereNull('m.archived_at')
    .select('u.id', 'u.first_name', 'u.last_name')
    .orderBy([{ column: 'u.last_name' }, { column: 'u.first_name' }, { column: 'u.id' }]);
  if (ids) q.whereIn('u.id', ids);
  return (await q) as InstructorView[];
}

export async function instructorsById(
  db: Db,
  studioId: string,
  ids: Iterable<string>,
): Promise<Map<string, InstructorView>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  // People who taught stay named on past classes even after they leave the staff.
  const rows = (await db('users')
    .whereIn('id', unique)
    .select('id', 'first_name', 'last_name')) as InstructorView[];
  return new Map(rows.map((r) => [r.id, r]));
}

export async function pricingOptionRefs(db: Db, studioId: string): Promise<PricingOptionRefRow[]> {
  return db('pricing_options')
    .where({ studioId })
    .whereNull('archived_at')
    .select('id', 'name', 'price')
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function scheduleInit(db: Db, studio: Studio): Promise<ScheduleInit> {
  const [locations, classServices, instructors, experienceLevels, pricingOptions, tags] = await readAll(db, [
    () => listLocations(db, studio),
    () => listClassServices(db, studio),
    () => listInstructors(db, studio.id),
    () => listExperienceLevels(db, studio),
    () => pricingOptionRefs(db, studio.id),
    () =>
      db('tags')
        .where({ studioId: studio.id, type: TagType.client })
        .select('id', 'name')
        .orderBy('name') as Promise<Array<{ id: string; name: string }>>,
  ]);
  return {
    timeZone: studio.timeZone,
    locations,
    classServices,
    instructors,
    experienceLevels,
    pricingOptions: pricingOptions.map((p) => ({ id: p.id, name: p.name, price: p.price })),
    tags,
    bookingDefaults: classBookingDefaults(policiesOf(studio)),
  };
}
