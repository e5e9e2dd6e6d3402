import type {
  CategorizedClassServices,
  ClassServiceAttendeeList,
  ClassServiceManager,
  ClassServiceRestrictionInit,
  ClassServiceTimeList,
  FindAttendeesQuery,
  FindTimesQuery,
  ScheduleCallOffInit,
  ScheduleEventInit,
} from '../../../../shared/contracts/api/schedule-tools';
import { BOOKING_ACCESSIBILITY_CHOICES } from '../../../../shared/contracts/api/schedule-tools';
import { SCHEDULE_LIMITS } from '../../../../shared/contracts/api/schedule';
import { addLocalDays, localDateOf } from '../../../../shared/domain/entitlements';
import { ACTION_BY_SEGMENT, applyEventAction, canEditEvent } from '../../../../shared/domain/schedule';
import { TagType } from '../../../../shared/enums/clients';
import type { ServiceType } from '../../../../shared/enums/services';
import type { Db } from '../../db/knex';
import { readAll } from '../../db/read-all';
import type { Studio } from '../identity/index';
import {
  getClassService,
  listClassServiceCategories,
  listClassServices,
  listExperienceLevels,
  listInstructors,
  listLocations,
  pricingOptionRefs,
} from './places-and-services.service';
import { getEvent } from './schedule-events.service';
import { listMetas } from './schedule-metas.service';
import { TAKES_PLACE, V } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';

/**
 * The back office's class-service tools (spec §7 v4 `class-service/…`) and the event editor's and
 * the called-off classes screen's "init" answers. Reads only; every query is scoped to the studio.
 */

const DAY_MS = 24 * 3_600_000;
/** Visits that took a place (the class was theirs): booked, present, absent, unpaid, late cancels. */
const TOOK_PLACE = [0, 1, 2, 5, 6, 9];

export async function categorizedClassServices(
  db: Db,
  studio: Studio,
  serviceType?: ServiceType,
): Promise<CategorizedClassServices> {
  const [services, categories] = await readAll(db, [
    () => listClassServices(db, studio, serviceType),
    () => listClassServiceCategories(db, studio),
  ]);
  const known = new Set(categories.map((c) => c.id));
  return {
    categories: categories.map((c) => ({ ...c, services: services.filter((s) => s.categoryId === c.id) })),
    uncategorized: services.filter((s) => !s.categoryId || !known.has(s.categoryId)),
  };
}

/** Active class services that have a schedule meta still running (no last date, or not past it). */
export async function servicesAssignedToSchedule(db: Db, studio: Studio, now: Date) {
  const today = localDateOf(now, studio.timeZone);
  const ids = new Set(
    (
      (await db('schedule_metas')
        .where({ studioId: studio.id })
        .where((q) => q.whereNull('last_date').orWhere('last_date', '>=', today))
        .distinct('class_service_id')) as Array<{ classServiceId: string }>
    ).map((r) => r.classServiceId),
  );
  return (await listClassServices(db, studio)).filter((s) => ids.has(s.id));
}

/** Clients who took a place on this service's classes, most recent first, narrowed by name/e-mail/phone. */
export async function findAttendees(
  db: Db,
  studio: Studio,
  serviceId: string,
  query: FindAttendeesQuery,
): Promise<ClassServiceAttendeeList> {
  await getClassService(db, studio, serviceId);
  const q = db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('users as u', 'u.id', 'v.client_id')
    .where({ 'v.studio_id': studio.id, 'e.class_service_id': serviceId })
    .whereIn('v.status', TOOK_PLACE)
    .groupBy('u.id', 'u.first_name', 'u.last_name', 'u.email')
    .select(
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      db.raw('count(*)::int as visits'),
      db.raw(`(count(*) filter (where v.status = ${V.present}))::int as attended`),
      db.raw('max(v.starts_at) as last_visit_at'),
    )
    .orderBy([{ column: 'last_visit_at', order: 'desc' }, { column: 'u.id' }])
    .limit(query.limit);
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.whereRaw(
      `((u.first_name || ' ' || u.last_name) ilike :like or (u.last_name || ' ' || u.first_name) ilike :like
        or u.email ilike :like or coalesce(u.phone, '') ilike :like)`,
      { like },
    );
  }
  const rows = (await q) as Array<{
    id: string;
    firstName: string;
    lastName: string;
    email: string | null;
    visits: number;
    attended: number;
    lastVisitAt: Date;
  }>;
  return {
    items: rows.map((r) => ({ ...r, lastVisitAt: new Date(r.lastVisitAt).toISOString() })),
    next: null,
  };
}

/** The service's coming classes (not yet ended, not removed) with places taken and waiting. */
export async function findTimes(
  db: Db,
  studio: Studio,
  serviceId: string,
  query: FindTimesQuery,
  now: Date,
): Promise<ClassServiceTimeList> {
  await getClassService(db, studio, serviceId);
  const q = db('schedule_events as e')
    .join('locations as l', 'l.id', 'e.location_id')
    .where({ 'e.studio_id': studio.id, 'e.class_service_id': serviceId })
    .where('e.ends_at', '>', now)
    .whereIn('e.status', query.includeCancelled === 'true' ? ['scheduled', 'cancelled'] : ['scheduled'])
    .select(
      'e.id',
      'e.schedule_meta_id',
      'e.starts_at',
      'e.ends_at',
      'e.location_id',
      'l.name as location_name',
      'e.status',
      'e.is_hidden',
      'e.capacity',
      db.raw(`(select count(*) from client_visits v where v.schedule_event_id = e.id
                and v.status in ${sqlSet(TAKES_PLACE)})::int as taken`),
      db.raw(`(select count(*) from client_visits v where v.schedule_event_id = e.id
                and v.status = ${V.waitingList})::int as waiting`),
    )
    .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])
    .limit(query.limit);
  if (query.scheduleMetaId) q.where('e.schedule_meta_id', query.scheduleMetaId);
  const rows = (await q) as Array<{
    id: string;
    scheduleMetaId: string | null;
    startsAt: Date;
    endsAt: Date;
    locationId: string;
    locationName: string;
    status: 'scheduled' | 'cancelled';
    isHidden: boolean;
    capacity: number;
    taken: number;
    waiting: number;
  }>;
  return {
    items: rows.map((r) => ({
      scheduleEventId: r.id,
      scheduleMetaId: r.scheduleMetaId,
      startsAt: new Date(r.startsAt).toISOString(),
      endsAt: new Date(r.endsAt).toISOString(),
      locationId: r.locationId,
      locationName: r.locationName,
      status: r.status,
      hidden: r.isHidden,
      capacity: r.capacity,
      taken: r.taken,
      waiting: r.waiting,
    })),
    next: null,
  };
}

/** The service's manager screen: the service, its metas, what is coming and how the last 30 days went. */
export async function classServiceManager(
  db: Db,
  studio: Studio,
  serviceId: string,
  now: Date,
): Promise<ClassServiceManager> {
  const classService = await getClassService(db, studio, serviceId);
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const [metas, upcoming, past] = await readAll(db, [
    () => listMetas(db, studio, serviceId),
    () =>
      db('schedule_events')
        .where({ studioId: studio.id, classServiceId: serviceId, status: 'scheduled' })
        .where('starts_at', '>', now)
        .first(db.raw('count(*)::int as events'), db.raw('min(starts_at) as next_starts_at')) as Promise<{
        events: number;
        nextStartsAt: Date | null;
      }>,
    () =>
      db('schedule_events as e')
        .where({ 'e.studio_id': studio.id, 'e.class_service_id': serviceId, 'e.status': 'scheduled' })
        .where('e.starts_at', '>=', since)
        .where('e.starts_at', '<=', now)
        .first(
          db.raw('count(*)::int as events'),
          db.raw('coalesce(sum(e.capacity), 0)::int as places'),
          db.raw(`coalesce(sum((select count(*) from client_visits v where v.schedule_event_id = e.id
                    and v.status in ${sqlSet(TAKES_PLACE)})), 0)::int as visits`),
          db.raw(`coalesce(sum((select count(*) from client_visits v where v.schedule_event_id = e.id
                    and v.status = ${V.present})), 0)::int as attended`),
        ) as Promise<{ events: number; places: number; visits: number; attended: number }>,
  ]);
  return {
    classService,
    metas,
    upcoming: {
      events: upcoming.events,
      nextStartsAt: upcoming.nextStartsAt ? new Date(upcoming.nextStartsAt).toISOString() : null,
    },
    last30Days: {
      events: past.events,
      visits: past.visits,
      attended: past.attended,
      occupancy: past.places > 0 ? Math.round((past.visits / past.places) * 1000) / 1000 : null,
    },
  };
}

/** What the booking-restriction editor of a service's classes picks from (accessibility, tags, levels, passes). */
export async function classServiceRestrictionInit(
  db: Db,
  studio: Studio,
  serviceId?: string,
): Promise<ClassServiceRestrictionInit> {
  const classService = serviceId ? await getClassService(db, studio, serviceId) : null;
  const [tags, experienceLevels, pricingOptions] = await readAll(db, [
    () =>
      db('tags')
        .where({ studioId: studio.id, type: TagType.client })
        .orderByRaw('lower(name)')
        .select('id', 'name') as Promise<Array<{ id: string; name: string }>>,
    () => listExperienceLevels(db, studio, classService?.serviceType),
    () => pricingOptionRefs(db, studio.id),
  ]);
  return {
    classService,
    accessibility: BOOKING_ACCESSIBILITY_CHOICES.map((c) => ({ ...c })),
    tags,
    experienceLevels,
    pricingOptions: pricingOptions.map((p) => ({ id: p.id, name: p.name, price: p.price })),
    limits: {
      bookingOpensHours: [...SCHEDULE_LIMITS.bookingOpensHours],
      minutesBefore: [...SCHEDULE_LIMITS.minutesBefore],
      tags: SCHEDULE_LIMITS.tags,
    },
  };
}

/** The single-event editor: the pickers, the event (when named), the actions it accepts now. */
export async function scheduleEventInit(
  db: Db,
  studio: Studio,
  eventId: string | undefined,
  now: Date,
): Promise<ScheduleEventInit> {
  const event = eventId ? await getEvent(db, studio, eventId) : null;
  const [locations, classServices, instructors, experienceLevels] = await readAll(db, [
    () => listLocations(db, studio),
    () => listClassServices(db, studio),
    () => listInstructors(db, studio.id),
    () => listExperienceLevels(db, studio),
  ]);
  const state = event && { status: event.status, hidden: event.hidden, bookableOnline: event.bookableOnline };
  const actions = Object.entries(ACTION_BY_SEGMENT)
    .filter(([, action]) => {
      if (!state) return true;
      const outcome = applyEventAction(state, action, { endsAt: new Date(event.endsAt) }, now);
      // A repeated action is a no-op: offer only the ones that change something.
      return (
        outcome.ok &&
        (outcome.state.status !== state.status ||
          outcome.state.hidden !== state.hidden ||
          outcome.state.bookableOnline !== state.bookableOnline)
      );
    })
    .map(([segment]) => segment);
  return {
    timeZone: studio.timeZone,
    locations,
    classServices,
    instructors,
    experienceLevels,
    event,
    actions,
    editable: state ? canEditEvent(state) : true,
    limits: {
      durationMinutes: [...SCHEDULE_LIMITS.durationMinutes],
      capacity: [...SCHEDULE_LIMITS.capacity],
      waitingListSize: [...SCHEDULE_LIMITS.waitingListSize],
      instructors: SCHEDULE_LIMITS.instructors,
    },
  };
}

/** The filters of `schedule-call-off/collection` and its default range (a week back, a week ahead). */
export async function scheduleCallOffInit(db: Db, studio: Studio, now: Date): Promise<ScheduleCallOffInit> {
  const today = localDateOf(now, studio.timeZone);
  const [locations, classServices, instructors] = await readAll(db, [
    () => listLocations(db, studio),
    () => listClassServices(db, studio),
    () => listInstructors(db, studio.id),
  ]);
  return {
    timeZone: studio.timeZone,
    today,
    from: addLocalDays(today, -7),
    to: addLocalDays(today, 7),
    maxDays: SCHEDULE_LIMITS.findDays,
    locations,
    classServices,
    instructors,
  };
}
