import { v7 as uuidv7 } from 'uuid';
import {
  SCHEDULE_CONFLICT,
  SCHEDULE_LIMITS,
  type GenerateInput,
  type GenerateResult,
  type PublicSchedule,
  type PublicScheduleInput,
  type ScheduleEventPatch,
  type ScheduleEventView,
  type ScheduleFindInput,
} from '../../../../shared/contracts/api/schedule';
import {
  addLocalDays,
  applyEventAction,
  canEditEvent,
  localDaysBetween,
  occurrencesOf,
  planGeneration,
  type ActionRefusal,
  type Occurrence,
  type ScheduleEventAction,
  type ScheduleEventState,
} from '../../../../shared/domain/schedule';
import { localDateOf, startOfLocalDate } from '../../../../shared/domain/entitlements/local-dates';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { instructorsById } from './places-and-services.service';
import { presentEvent, type ScheduleEventRow, type ScheduleMetaRow } from './schedule.presenter';
import { metaRow, referenceErrors } from './schedule-metas.service';
import { publicTimetableText, staffTimetable, staffTimetableText, visitCounts } from './timetable-json';
import { cancelVisitsOfEvents, eventsWithVisits, promoteAfterCapacityChange } from './booking-hooks';

const EVENT_COLUMNS = [
  'e.id',
  'e.schedule_meta_id',
  'e.class_service_id',
  's.name as service_name',
  's.color as service_color',
  's.service_type',
  'e.location_id',
  'l.name as location_name',
  'e.room_id',
  'r.name as room_name',
  'e.instructor_ids',
  'e.starts_at',
  'e.ends_at',
  'e.capacity',
  'e.waiting_list_size',
  'e.status',
  'e.is_hidden',
  'e.bookable_online',
  'e.livestream_url',
  'e.notes',
  'e.edited_at',
];

/** Event rows for the JS presenters (single events, small lists; the timetable is timetable-json.ts). */
export function selectEvents(db: Db, studioId: string) {
  return db('schedule_events as e')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .join('locations as l', 'l.id', 'e.location_id')
    .leftJoin('location_rooms as r', 'r.id', 'e.room_id')
    .where('e.studio_id', studioId)
    .select(EVENT_COLUMNS)
    .select(db.raw(`to_char(e.occurrence_date, 'YYYY-MM-DD') as occurrence_date`));
}

async function present(db: Db, studioId: string, rows: ScheduleEventRow[]): Promise<ScheduleEventView[]> {
  const people = await instructorsById(
    db,
    studioId,
    rows.flatMap((r) => r.instructorIds),
  );
  const counts = await visitCounts(
    db,
    studioId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentEvent(r, people, counts));
}

/** The instants a range of the studio's calendar days covers: [from 00:00, day after `to` 00:00). */
function instantsOf(studio: Studio, from: string, to: string): [Date, Date] {
  return [startOfLocalDate(from, studio.timeZone), startOfLocalDate(addLocalDays(to, 1), studio.timeZone)];
}

/**
 * The back office's timetable. One range scan on (studio_id, starts_at) or, with a location,
 * (studio_id, location_id, starts_at); services, locations, rooms and instructors by primary key;
 * presented by PostgreSQL as one JSON document (timetable-json.ts).
 */
export async function findEvents(
  db: Db,
  studio: Studio,
  input: ScheduleFindInput,
): Promise<ScheduleEventView[]> {
  const [from, to] = instantsOf(studio, input.from, input.to);
  return staffTimetable(db, studio.id, { ...input, from, to, includeRemoved: input.includeRemoved ?? false });
}

/** `findEvents` as the JSON text of its array, for an answer sent without parsing it (`JsonText`). */
export async function findEventsText(db: Db, studio: Studio, input: ScheduleFindInput): Promise<string> {
  const [from, to] = instantsOf(studio, input.from, input.to);
  return staffTimetableText(db, studio.id, {
    ...input,
    from,
    to,
    includeRemoved: input.includeRemoved ?? false,
  });
}

export async function getEvent(db: Db, studio: Studio, id: string): Promise<ScheduleEventView> {
  const row = (await selectEvents(db, studio.id).where('e.id', id).first()) as ScheduleEventRow | undefined;
  if (!row) throw AppError.notFound();
  return (await present(db, studio.id, [row]))[0]!;
}

export async function eventsOfMeta(db: Db, studio: Studio, metaId: string): Promise<ScheduleEventView[]> {
  const meta = await db('schedule_metas').where({ studioId: studio.id, id: metaId }).first('id');
  if (!meta) throw AppError.notFound();
  const rows = (await selectEvents(db, studio.id)
    .where('e.schedule_meta_id', metaId)
    .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])) as ScheduleEventRow[];
  return present(db, studio.id, rows);
}

// ------------------------------------------------------------------------------------ generation

function eventColumnsFromMeta(meta: ScheduleMetaRow, occurrence: Occurrence) {
  return {
    class_service_id: meta.classServiceId,
    location_id: meta.locationId,
    room_id: meta.roomId,
    instructor_id: meta.instructorIds[0] ?? null,
    instructor_ids: meta.instructorIds,
    starts_at: occurrence.startsAt,
    ends_at: occurrence.endsAt,
    capacity: meta.capacity,
    waiting_list_size: meta.waitingListSize,
    bookable_online: meta.bookableOnline,
  };
}

async function existingOfMeta(db: Db, metaId: string, from: string, to: string) {
  const rows = (await db('schedule_events')
    .where({ scheduleMetaId: metaId })
    .whereBetween('occurrence_date', [from, to])
    .forUpdate()
    .select(
      'id',
      'starts_at',
      'status',
      'edited_at',
      'capacity',
      db.raw(`to_char(occurrence_date, 'YYYY-MM-DD') as date`),
    )) as Array<{
    id: string;
    date: string;
    startsAt: Date;
    status: ScheduleEventState['status'];
    editedAt: Date | null;
    capacity: number;
  }>;
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    startsAt: r.startsAt,
    status: r.status,
    edited: r.editedAt !== null,
    capacity: r.capacity,
  }));
}

async function applyPlan(
  db: Db,
  studio: Studio,
  meta: ScheduleMetaRow,
  window: { from: string; to: string },
  now: Date,
  resync: boolean,
): Promise<{ created: number; updated: number; deleted: number }> {
  const occurrences = occurrencesOf(meta, window, studio.timeZone);
  const existing = await existingOfMeta(db, meta.id, window.from, window.to);
  const plan = planGeneration(occurrences, existing, now, { resync });
  if (plan.create.length > 0)
    await db.batchInsert(
      'schedule_events',
      plan.create.map((o) => ({
        id: uuidv7(),
        studio_id: studio.id,
        schedule_meta_id: meta.id,
        occurrence_date: o.date,
        ...eventColumnsFromMeta(meta, o),
      })),
      200,
    );
  for (const { id, occurrence } of plan.update)
    await db('schedule_events')
      .where({ id })
      .update({ ...eventColumnsFromMeta(meta, occurrence), updatedAt: db.fn.now() });
  // More places in the series: the waiting lists of the events that got them move up.
  const capacityBefore = new Map(existing.map((e) => [e.id, e.capacity]));
  await promoteAfterCapacityChange(
    db,
    studio,
    plan.update.filter((u) => meta.capacity > (capacityBefore.get(u.id) ?? meta.capacity)).map((u) => u.id),
    now,
  );
  // A day the series no longer has: its event goes, unless people booked it — then it is cancelled
  // (visits become "class cancelled", entries return, clients are told) and kept as history.
  const booked = await eventsWithVisits(db, studio.id, plan.delete);
  const cancelled = plan.delete.filter((id) => booked.has(id));
  if (cancelled.length > 0) await cancelEventsKeepingHistory(db, studio, cancelled, now);
  const deleted = plan.delete.filter((id) => !booked.has(id));
  if (deleted.length > 0) await db('schedule_events').whereIn('id', deleted).delete();
  return { created: plan.create.length, updated: plan.update.length, deleted: deleted.length };
}

/**
 * Cancels events that must disappear from a series but have visits (history: attendance, fees,
 * entries): everyone on them gets "class cancelled" and the events stay, cancelled and unbookable.
 */
export async function cancelEventsKeepingHistory(
  db: Db,
  studio: Studio,
  ids: string[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await cancelVisitsOfEvents(db, studio, ids, now);
  await db('schedule_events')
    .whereIn('id', ids)
    .where({ studioId: studio.id, status: 'scheduled' })
    .update({ status: 'cancelled', bookableOnline: false, cancelledAt: now, updatedAt: db.fn.now() });
}

/**
 * `schedule-events/generate`: creates the missing events of the studio's metas (or the ones named)
 * from `from` (default: today in the studio) to `to` (default: 8 weeks). Idempotent: a second call
 * creates nothing. Each meta row is locked, so two generations of one meta cannot race.
 */
export async function generateEvents(
  db: Db,
  studio: Studio,
  input: GenerateInput,
  now: Date,
): Promise<GenerateResult> {
  const today = localDateOf(now, studio.timeZone);
  const from = input.from ?? today;
  const to = input.to ?? addLocalDays(from, SCHEDULE_LIMITS.generateDefaultDays - 1);
  if (localDaysBetween(from, to) < 0 || localDaysBetween(from, to) >= SCHEDULE_LIMITS.generateMaxDays)
    throw new AppError('request.invalid', {
      message: 'invalid window',
      fields: { to: ['at most a year after the first day'] },
    });
  const q = db('schedule_metas').where({ studioId: studio.id }).orderBy('id').forUpdate().select('id');
  if (input.scheduleMetaIds) q.whereIn('id', input.scheduleMetaIds);
  const ids = ((await q) as Array<{ id: string }>).map((r) => r.id);
  if (input.scheduleMetaIds && ids.length !== input.scheduleMetaIds.length)
    throw new AppError('request.invalid', {
      message: 'unknown schedule',
      fields: { scheduleMetaIds: ['unknown in this studio'] },
    });
  const total = { from, to, created: 0, updated: 0, deleted: 0 };
  for (const id of ids) {
    const result = await applyPlan(db, studio, await metaRow(db, studio.id, id), { from, to }, now, false);
    total.created += result.created;
  }
  return total;
}

/**
 * After a meta changes: its untouched future events follow it, on the days already generated (a
 * change never extends the generated horizon; `generate` does that).
 */
export async function resyncMetaEvents(
  db: Db,
  studio: Studio,
  meta: ScheduleMetaRow,
  now: Date,
): Promise<void> {
  const last = (await db('schedule_events')
    .where({ scheduleMetaId: meta.id })
    .first(db.raw(`to_char(max(occurrence_date), 'YYYY-MM-DD') as last`))) as
    { last: string | null } | undefined;
  const today = localDateOf(now, studio.timeZone);
  if (!last?.last || localDaysBetween(today, last.last) < 0) return;
  await applyPlan(db, studio, meta, { from: today, to: last.last }, now, true);
}

// ------------------------------------------------------------------------------------ per event

interface LockedEvent {
  id: string;
  locationId: string;
  startsAt: Date;
  endsAt: Date;
  status: ScheduleEventState['status'];
  isHidden: boolean;
  bookableOnline: boolean;
}

/** Locks the events named (in id order, so concurrent bulk calls cannot deadlock); any unknown → 404. */
async function lockEvents(db: Db, studioId: string, ids: string[]): Promise<LockedEvent[]> {
  const rows = (await db('schedule_events')
    .where({ studioId })
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select(
      'id',
      'location_id',
      'starts_at',
      'ends_at',
      'status',
      'is_hidden',
      'bookable_online',
    )) as LockedEvent[];
  if (rows.length !== new Set(ids).size) throw AppError.notFound();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

const stateOf = (e: LockedEvent): ScheduleEventState => ({
  status: e.status,
  hidden: e.isHidden,
  bookableOnline: e.bookableOnline,
});

const REFUSAL_MESSAGES: Record<ActionRefusal, string> = {
  removed: 'the class was removed',
  cancelled: 'the class is cancelled',
  ended: 'the class has already ended',
};

function refuse(fields: FieldErrors): never {
  throw new AppError('scheduleEvent.actionNotAllowed', {
    message: Object.values(fields)[0]?.[0] ?? 'not allowed',
    fields,
  });
}

/** One action on several events: all of them change or none (the first refusal names each event). */
export async function applyAction(
  db: Db,
  studio: Studio,
  ids: string[],
  action: ScheduleEventAction,
  now: Date,
  fieldPrefix: string | null,
): Promise<ScheduleEventView[]> {
  const events = await lockEvents(db, studio.id, ids);
  const fields: FieldErrors = {};
  const changes: Array<{ event: LockedEvent; state: ScheduleEventState }> = [];
  events.forEach((event, i) => {
    const outcome = applyEventAction(stateOf(event), action, event, now);
    if (!outcome.ok)
      fields[fieldPrefix === null ? '' : `${fieldPrefix}.${i}`] = [REFUSAL_MESSAGES[outcome.reason]];
    else changes.push({ event, state: outcome.state });
  });
  if (Object.keys(fields).length > 0) refuse(fields);
  // Bookings: everyone on a class that is called off or removed gets status 7, entries returned.
  await cancelVisitsOfEvents(
    db,
    studio,
    changes
      .filter((c) => c.event.status === 'scheduled' && c.state.status !== 'scheduled')
      .map((c) => c.event.id),
    now,
  );
  for (const { event, state } of changes) {
    const before = stateOf(event);
    if (
      before.status === state.status &&
      before.hidden === state.hidden &&
      before.bookableOnline === state.bookableOnline
    )
      continue;
    await db('schedule_events')
      .where({ id: event.id })
      .update({
        status: state.status,
        isHidden: state.hidden,
        bookableOnline: state.bookableOnline,
        cancelledAt: state.status === 'cancelled' ? (before.status === 'cancelled' ? undefined : now) : null,
        removedAt: state.status === 'removed' ? (before.status === 'removed' ? undefined : now) : null,
        updatedAt: db.fn.now(),
      });
  }
  return listByIds(db, studio, ids);
}

async function listByIds(db: Db, studio: Studio, ids: string[]): Promise<ScheduleEventView[]> {
  const rows = (await selectEvents(db, studio.id).whereIn('e.id', ids)) as ScheduleEventRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return present(
    db,
    studio.id,
    ids.map((id) => byId.get(id)!),
  );
}

/**
 * Edits events one by one (single or bulk): the edit marks them `edited`, so generation and meta
 * changes no longer overwrite them. Removed events cannot be edited (409).
 */
export async function patchEvents(
  db: Db,
  studio: Studio,
  ids: string[],
  patch: ScheduleEventPatch,
  now: Date,
  fieldPrefix: string | null,
): Promise<ScheduleEventView[]> {
  const events = await lockEvents(db, studio.id, ids);
  const fields: FieldErrors = {};
  events.forEach((e, i) => {
    if (!canEditEvent(stateOf(e)))
      fields[fieldPrefix === null ? '' : `${fieldPrefix}.${i}`] = [REFUSAL_MESSAGES.removed];
  });
  if (Object.keys(fields).length > 0) refuse(fields);
  const locations = new Set(events.map((e) => e.locationId));
  const refErrors = await referenceErrors(db, studio.id, {
    locationId: patch.locationId,
    instructorIds: patch.instructorIds,
  });
  if (patch.roomId) {
    const room = await db('location_rooms')
      .where({ studioId: studio.id, id: patch.roomId })
      .first('location_id');
    const target = patch.locationId ?? (locations.size === 1 ? [...locations][0] : undefined);
    if (!room) refErrors.roomId = ['unknown in this studio'];
    else if (room.locationId !== target) refErrors.roomId = ['not a room of this location'];
  } else if (patch.locationId && patch.roomId === undefined) {
    // Moving to another location without naming a room leaves no room rather than a foreign one.
    patch = { ...patch, roomId: null };
  }
  if (Object.keys(refErrors).length > 0)
    throw new AppError('request.invalid', { message: 'invalid event', fields: refErrors });
  for (const event of events) {
    const startsAt = patch.startsAt ? new Date(patch.startsAt) : event.startsAt;
    const duration = patch.durationMinutes ?? (event.endsAt.getTime() - event.startsAt.getTime()) / 60_000;
    const columns: Record<string, unknown> = {
      location_id: patch.locationId,
      room_id: patch.roomId,
      instructor_ids: patch.instructorIds,
      instructor_id: patch.instructorIds ? (patch.instructorIds[0] ?? null) : undefined,
      capacity: patch.capacity,
      waiting_list_size: patch.waitingListSize,
      notes: patch.notes,
      starts_at: startsAt,
      ends_at: new Date(startsAt.getTime() + duration * 60_000),
      edited_at: now,
      updated_at: db.fn.now(),
    };
    await db('schedule_events')
      .where({ id: event.id })
      .update(Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)));
  }
  const moved = ['startsAt', 'durationMinutes', 'locationId', 'roomId', 'instructorIds'].some(
    (k) => patch[k as keyof ScheduleEventPatch] !== undefined,
  );
  if (moved) await refuseConflicts(db, studio.id, ids, fieldPrefix);
  // New places go to the waiting list first (a no-op where nobody waits or nothing was freed).
  if (patch.capacity !== undefined) await promoteAfterCapacityChange(db, studio, ids, now);
  return listByIds(db, studio, ids);
}

/**
 * After a move, resize or reassignment (inside the caller's transaction): a scheduled class may not
 * share its room, nor any of its instructors, with another scheduled class at an overlapping time
 * (touching ends are fine; cancelled and removed classes free both). Refused 409, rolled back.
 */
async function refuseConflicts(
  db: Db,
  studioId: string,
  ids: string[],
  fieldPrefix: string | null,
): Promise<void> {
  const { rows } = (await db.raw(
    `select e.id, o.id as "otherId", (e.room_id is not null and o.room_id = e.room_id) as "sameRoom",
            o.starts_at as "startsAt", o.ends_at as "endsAt"
       from schedule_events e
       join schedule_events o
         on o.studio_id = e.studio_id and o.id <> e.id and o.status = 'scheduled'
        and o.starts_at > e.starts_at - interval '1 day' and o.starts_at < e.ends_at
        and o.ends_at > e.starts_at
        and ((e.room_id is not null and o.room_id = e.room_id) or o.instructor_ids && e.instructor_ids)
      where e.studio_id = ? and e.id = any(?::uuid[]) and e.status = 'scheduled'
      order by e.id, o.starts_at
      limit 20`,
    [studioId, ids],
  )) as { rows: Array<{ id: string; otherId: string; sameRoom: boolean; startsAt: Date; endsAt: Date }> };
  if (rows.length === 0) return;
  const fields: FieldErrors = {};
  for (const clash of rows) {
    const message = clash.sameRoom ? SCHEDULE_CONFLICT.room : SCHEDULE_CONFLICT.instructor;
    const key =
      fieldPrefix === null
        ? clash.sameRoom
          ? 'roomId'
          : 'instructorIds'
        : `${fieldPrefix}.${ids.indexOf(clash.id)}`;
    fields[key] ??= [message];
  }
  const first = rows[0]!;
  throw new AppError('scheduleEvent.conflict', {
    message: `${first.sameRoom ? SCHEDULE_CONFLICT.room : SCHEDULE_CONFLICT.instructor} (class ${first.otherId}, ${new Date(first.startsAt).toISOString()}–${new Date(first.endsAt).toISOString()})`,
    fields,
  });
}

export async function setLivestream(
  db: Db,
  studio: Studio,
  id: string,
  url: string | null,
): Promise<ScheduleEventView> {
  const [event] = await lockEvents(db, studio.id, [id]);
  if (!canEditEvent(stateOf(event!))) refuse({ '': [REFUSAL_MESSAGES.removed] });
  await db('schedule_events').where({ id }).update({ livestreamUrl: url, updatedAt: db.fn.now() });
  return getEvent(db, studio, id);
}

// ------------------------------------------------------------------------------------ front office

/**
 * The studio's public timetable: classes neither hidden nor removed (cancelled ones stay, marked),
 * with the filters' choices. Same index-friendly range scan as the back office.
 */
export async function publicSchedule(
  db: Db,
  studio: Studio,
  input: PublicScheduleInput,
): Promise<PublicSchedule> {
  return JSON.parse(await publicScheduleText(db, studio, input)) as PublicSchedule;
}

/**
 * `publicSchedule` as JSON text: the week's events, locations and class services as PostgreSQL wrote
 * them (never parsed here), the instructor filter's few names parsed and sorted.
 */
export async function publicScheduleText(
  db: Db,
  studio: Studio,
  input: PublicScheduleInput,
): Promise<string> {
  const [from, to] = instantsOf(studio, input.from, input.to);
  // One statement: the week, the filters' locations and class services, and its instructors.
  const week = await publicTimetableText(db, studio.id, {
    from,
    to,
    locationId: input.locationId,
    classServiceId: input.classServiceId,
    instructorId: input.instructorId,
  });
  // The instructor filter offers everyone teaching in the window. Unfiltered, those are exactly the
  // instructors of the rows already read (the common call: no second scan of the week).
  const filtered = Boolean(input.locationId || input.classServiceId || input.instructorId);
  const teachers = filtered
    ? await instructorsById(
        db,
        studio.id,
        (
          (await db('schedule_events')
            .where({ studioId: studio.id, isHidden: false })
            .whereNot('status', 'removed')
            .where('starts_at', '>=', from)
            .where('starts_at', '<', to)
            .distinct(db.raw('unnest(instructor_ids) as id'))) as Array<{ id: string }>
        ).map((t) => t.id),
      ).then((m) => [...m.values()])
    : week.teachers;
  const instructors = teachers.sort(
    (a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName),
  );
  return (
    `{"timeZone":${JSON.stringify(studio.timeZone)},"from":${JSON.stringify(input.from)},` +
    `"to":${JSON.stringify(input.to)},"items":${week.items},"filters":{"locations":${week.locations},` +
    `"classServices":${week.classServices},"instructors":${JSON.stringify(instructors)}}}`
  );
}
