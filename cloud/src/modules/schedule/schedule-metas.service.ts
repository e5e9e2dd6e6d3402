import { v7 as uuidv7 } from 'uuid';
import {
  classBookingDefaults,
  metaCrossFieldErrors,
  type ScheduleMetaCreateInput,
  type ScheduleMetaPatch,
  type ScheduleMetaView,
} from '../../../../shared/contracts/api/schedule';
import { TagType } from '../../../../shared/enums/clients';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { policiesOf } from '../studio-admin/index';
import { presentMeta, type PricingOptionRefRow, type ScheduleMetaRow } from './schedule.presenter';
import { eventsWithVisits } from './booking-hooks';
import { cancelEventsKeepingHistory, resyncMetaEvents } from './schedule-events.service';
import type { ScheduleMetasInsert, ScheduleMetasUpdate } from '../../db/generated/tables';

const META_COLUMNS = [
  'm.id',
  'm.class_service_id',
  's.name as service_name',
  's.color as service_color',
  's.service_type',
  'm.location_id',
  'm.room_id',
  'm.instructor_ids',
  'm.days_of_week',
  'm.start_time',
  'm.duration_minutes',
  'm.capacity',
  'm.waiting_list_size',
  'm.booking_opens_hours',
  'm.booking_closes_minutes',
  'm.cancellation_cutoff_minutes',
  'm.bookable_online',
  'm.booking_accessibility',
  'm.booking_tag_ids',
  'm.experience_level_id',
  'm.created_at',
  'm.updated_at',
];

function selectMetas(db: Db, studioId: string) {
  return db('schedule_metas as m')
    .join('class_services as s', 's.id', 'm.class_service_id')
    .where('m.studio_id', studioId)
    .select(META_COLUMNS)
    .select(db.raw(`to_char(m.first_date, 'YYYY-MM-DD') as first_date`))
    .select(db.raw(`to_char(m.last_date, 'YYYY-MM-DD') as last_date`));
}

export async function metaRow(db: Db, studioId: string, id: string, lock = false): Promise<ScheduleMetaRow> {
  if (lock) {
    const locked = await db('schedule_metas').where({ studioId, id }).forUpdate().first('id');
    if (!locked) throw AppError.notFound();
  }
  const row = (await selectMetas(db, studioId).where('m.id', id).first()) as ScheduleMetaRow | undefined;
  if (!row) throw AppError.notFound();
  return row;
}

async function pricingOptionsOf(db: Db, metaIds: string[]): Promise<Map<string, PricingOptionRefRow[]>> {
  const rows = (await db('schedule_meta_pricing_options as j')
    .join('pricing_options as p', 'p.id', 'j.pricing_option_id')
    .whereIn('j.schedule_meta_id', metaIds)
    .select('j.schedule_meta_id', 'p.id', 'p.name', 'p.price')
    .orderBy([{ column: 'p.created_at' }, { column: 'p.id' }])) as Array<
    PricingOptionRefRow & { scheduleMetaId: string }
  >;
  const byMeta = new Map<string, PricingOptionRefRow[]>();
  for (const r of rows) byMeta.set(r.scheduleMetaId, [...(byMeta.get(r.scheduleMetaId) ?? []), r]);
  return byMeta;
}

export async function getMeta(db: Db, studio: Studio, id: string): Promise<ScheduleMetaView> {
  const row = await metaRow(db, studio.id, id);
  return presentMeta(row, (await pricingOptionsOf(db, [id])).get(id) ?? []);
}

export async function listMetas(
  db: Db,
  studio: Studio,
  classServiceId?: string,
): Promise<ScheduleMetaView[]> {
  const q = selectMetas(db, studio.id).orderBy([{ column: 'm.start_time' }, { column: 'm.id' }]);
  if (classServiceId) q.where('m.class_service_id', classServiceId);
  const rows = (await q) as ScheduleMetaRow[];
  const options = await pricingOptionsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentMeta(r, options.get(r.id) ?? []));
}

type References = Partial<
  Pick<
    ScheduleMetaCreateInput,
    'locationId' | 'roomId' | 'instructorIds' | 'bookingTagIds' | 'experienceLevelId' | 'pricingOptionIds'
  >
>;

/** Ids in a body that name nothing of this studio: field errors, every one reported. */
export async function referenceErrors(db: Db, studioId: string, refs: References): Promise<FieldErrors> {
  const fields: FieldErrors = {};
  const count = async (table: string, ids: string[], extra: Record<string, unknown> = {}) =>
    ids.length === 0
      ? 0
      : (
          (await db(table)
            .where({ studio_id: studioId, ...extra })
            .whereIn('id', ids)
            .select('id')) as unknown[]
        ).length;
  if (refs.locationId && (await count('locations', [refs.locationId])) === 0)
    fields.locationId = ['unknown in this studio'];
  else if (refs.locationId && (await count('locations', [refs.locationId], { archived_at: null })) === 0)
    fields.locationId = ['this location is archived'];
  if (refs.roomId) {
    const room = await db('location_rooms')
      .where({ studioId, id: refs.roomId })
      .first('location_id', 'archived_at');
    if (!room) fields.roomId = ['unknown in this studio'];
    else if (room.archivedAt) fields.roomId = ['this room is archived'];
    else if (refs.locationId && room.locationId !== refs.locationId)
      fields.roomId = ['not a room of this location'];
  }
  if (refs.instructorIds?.length) {
    const staff = (await db('memberships')
      .where({ studioId, isMember: true })
      .whereNull('archived_at')
      .whereIn('user_id', refs.instructorIds)
      .select('user_id')) as unknown[];
    if (staff.length !== refs.instructorIds.length)
      fields.instructorIds = ['not a member of staff of this studio'];
  }
  if (
    refs.bookingTagIds &&
    (await count('tags', refs.bookingTagIds, { type: TagType.client })) !== refs.bookingTagIds.length
  )
    fields.bookingTagIds = ['unknown in this studio'];
  if (refs.experienceLevelId && (await count('experience_levels', [refs.experienceLevelId])) === 0)
    fields.experienceLevelId = ['unknown in this studio'];
  if (
    refs.pricingOptionIds &&
    (await count('pricing_options', refs.pricingOptionIds)) !== refs.pricingOptionIds.length
  )
    fields.pricingOptionIds = ['unknown in this studio'];
  return fields;
}

function throwFields(fields: FieldErrors): void {
  if (Object.keys(fields).length > 0)
    throw new AppError('request.invalid', { message: 'invalid schedule', fields });
}

function metaColumns(input: Partial<ScheduleMetaCreateInput>): ScheduleMetasUpdate {
  const columns: ScheduleMetasUpdate = {
    locationId: input.locationId,
    roomId: input.roomId,
    instructorIds: input.instructorIds,
    daysOfWeek: input.daysOfWeek ? [...new Set(input.daysOfWeek)].sort((a, b) => a - b) : undefined,
    startTime: input.startTime,
    durationMinutes: input.durationMinutes,
    firstDate: input.firstDate,
    lastDate: input.lastDate,
    capacity: input.capacity,
    waitingListSize: input.waitingListSize,
    bookingOpensHours: input.bookingOpensHours,
    bookingClosesMinutes: input.bookingClosesMinutes,
    cancellationCutoffMinutes: input.cancellationCutoffMinutes,
    bookableOnline: input.bookableOnline,
    bookingAccessibility: input.bookingAccessibility,
    bookingTagIds: input.bookingTagIds,
    experienceLevelId: input.experienceLevelId,
  };
  return Object.fromEntries(
    Object.entries(columns).filter(([, v]) => v !== undefined),
  ) as ScheduleMetasUpdate;
}

async function replacePricingOptions(db: Db, studioId: string, metaId: string, ids: string[]): Promise<void> {
  await db('schedule_meta_pricing_options').where({ scheduleMetaId: metaId }).delete();
  await attach(db, studioId, metaId, ids);
}

async function attach(db: Db, studioId: string, metaId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db('schedule_meta_pricing_options')
    .insert(
      ids.map((id) => ({
        id: uuidv7(),
        studioId,
        scheduleMetaId: metaId,
        pricingOptionId: id,
      })),
    )
    .onConflict(['schedule_meta_id', 'pricing_option_id'])
    .ignore();
}

export async function createMeta(
  db: Db,
  studio: Studio,
  classServiceId: string,
  input: ScheduleMetaCreateInput,
): Promise<ScheduleMetaView> {
  const service = await db('class_services')
    .where({ studioId: studio.id, id: classServiceId })
    .whereIn('service_type', ['classroom', 'course'])
    .first('id', 'archived_at');
  if (!service) throw AppError.notFound();
  if (service.archivedAt)
    throw new AppError('places.archived', {
      message: 'this class service is archived',
      fields: { '': ['this class service is archived'] },
    });
  throwFields(await referenceErrors(db, studio.id, input));
  const id = uuidv7();
  await db('schedule_metas').insert({
    id,
    studioId: studio.id,
    classServiceId,
    // The create input (zod) carries every required column; booking rules it leaves out are the
    // studio's defaults.
    ...(metaColumns({ ...classBookingDefaults(policiesOf(studio)), ...input }) as Omit<
      ScheduleMetasInsert,
      'id' | 'studioId' | 'classServiceId'
    >),
  });
  await replacePricingOptions(db, studio.id, id, input.pricingOptionIds);
  return getMeta(db, studio, id);
}

/**
 * Changes a meta and brings its untouched future events along (see shared/domain/schedule/generation):
 * edited, cancelled, removed and started events keep what they are.
 */
export async function updateMeta(
  db: Db,
  studio: Studio,
  id: string,
  patch: ScheduleMetaPatch,
  now: Date,
): Promise<ScheduleMetaView> {
  const current = await metaRow(db, studio.id, id, true);
  const merged = { ...current, ...patch };
  throwFields(metaCrossFieldErrors(merged));
  throwFields(
    await referenceErrors(db, studio.id, {
      ...patch,
      // A room is checked against the location it will belong to.
      locationId: patch.locationId ?? (patch.roomId ? current.locationId : undefined),
      roomId: patch.roomId ?? (patch.locationId && current.roomId ? current.roomId : undefined),
    }),
  );
  const { pricingOptionIds, ...rest } = patch;
  const columns = metaColumns(rest);
  if (Object.keys(columns).length > 0)
    await db('schedule_metas')
      .where({ id })
      .update({ ...columns, updatedAt: db.fn.now() });
  if (pricingOptionIds) await replacePricingOptions(db, studio.id, id, pricingOptionIds);
  await resyncMetaEvents(db, studio, await metaRow(db, studio.id, id), now);
  return getMeta(db, studio, id);
}

/**
 * Deletes a meta and its events that have not started (whatever their state: the series is gone),
 * except those with visits, which are cancelled and kept. Events that have started and kept ones stay
 * as history, no longer tied to a meta.
 */
export async function deleteMeta(db: Db, studio: Studio, id: string, now: Date): Promise<void> {
  await metaRow(db, studio.id, id, true);
  const future = (
    (await db('schedule_events')
      .where({ studioId: studio.id, scheduleMetaId: id })
      .where('starts_at', '>', now)
      .orderBy('id')
      .forUpdate()
      .select('id')) as Array<{ id: string }>
  ).map((e) => e.id);
  // Classes people booked stay, cancelled (visits "class cancelled", entries back, clients told).
  const booked = await eventsWithVisits(db, studio.id, future);
  await cancelEventsKeepingHistory(
    db,
    studio,
    future.filter((e) => booked.has(e)),
    now,
  );
  const unbooked = future.filter((e) => !booked.has(e));
  if (unbooked.length > 0) await db('schedule_events').whereIn('id', unbooked).delete();
  await db('schedule_metas').where({ studioId: studio.id, id }).delete();
}

export async function listMetaPricingOptions(db: Db, studio: Studio, id: string) {
  await metaRow(db, studio.id, id);
  const items = ((await pricingOptionsOf(db, [id])).get(id) ?? []).map((p) => ({
    id: p.id,
    name: p.name,
    price: p.price,
  }));
  return { items, next: null };
}

export async function attachPricingOptions(
  db: Db,
  studio: Studio,
  id: string,
  ids: string[],
): Promise<ScheduleMetaView> {
  await metaRow(db, studio.id, id, true);
  throwFields(await referenceErrors(db, studio.id, { pricingOptionIds: ids }));
  await attach(db, studio.id, id, ids);
  return getMeta(db, studio, id);
}

/** Detaching an option that is not attached changes nothing (idempotent), but it must be this studio's. */
export async function detachPricingOptions(
  db: Db,
  studio: Studio,
  id: string,
  ids: string[],
): Promise<ScheduleMetaView> {
  await metaRow(db, studio.id, id, true);
  throwFields(await referenceErrors(db, studio.id, { pricingOptionIds: ids }));
  await db('schedule_meta_pricing_options')
    .where({ scheduleMetaId: id })
    .whereIn('pricing_option_id', ids)
    .delete();
  return getMeta(db, studio, id);
}
