import type { CoursePage, CourseView, CoursesInput } from '../../../../shared/contracts/api/enrollments';
import { TAKES_PLACE } from '../../../../shared/domain/bookings';
import { courseSlug, courseSlugId } from '../../../../shared/domain/bookings/course-slug';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { sqlSet } from '../../../../shared/domain/sql';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { instructorsById } from '../schedule/index';
import { bookVisit } from './book.service';
import { lockClient, lockEvent } from './booking-facts.service';
import { cancelVisit } from './cancel-and-fees.service';

/**
 * Courses: a `course` class service's meta booked as a whole — the list, a course's page by its slug,
 * booking and cancelling the whole course. Decisions: cloud/src/modules/bookings/README.md ("Courses").
 */

const STANDING = [0, 1, 2, 8, 9];
const fieldError = (key: ErrorKey, field: string, msg: string) =>
  new AppError(key, { message: msg, fields: { [field]: [msg] } });

type CourseOutcome = 'booked' | 'unconfirmed' | 'cancelled';
export interface CourseChange {
  outcome: CourseOutcome;
  visitIds: string[];
  late: number;
}

export interface CourseMetaRow {
  id: string;
  classServiceId: string;
  serviceName: CourseView['classService']['name'];
  serviceDescription: CourseView['classService']['description'];
  serviceColor: string;
  serviceType: string;
  locationId: string;
  locationName: string;
  instructorIds: string[];
  daysOfWeek: number[];
  startTime: string;
  firstDate: string;
  lastDate: string | null;
  bookableOnline: boolean;
}

export function courseMetas(db: Db, studioId: string) {
  return db('schedule_metas as m')
    .join('class_services as s', 's.id', 'm.class_service_id')
    .join('locations as l', 'l.id', 'm.location_id')
    .where('m.studio_id', studioId)
    .select(
      'm.id',
      'm.class_service_id',
      's.name as service_name',
      's.description as service_description',
      's.color as service_color',
      's.service_type',
      'm.location_id',
      'l.name as location_name',
      'm.instructor_ids',
      'm.days_of_week',
      'm.start_time',
      db.raw(`to_char(m.first_date, 'YYYY-MM-DD') as first_date`),
      db.raw(`to_char(m.last_date, 'YYYY-MM-DD') as last_date`),
      'm.bookable_online',
    );
}

/** A course meta of the studio, or 404; a classroom meta is refused (booked class by class). */
export async function courseMeta(db: Db, studioId: string, metaId: string): Promise<CourseMetaRow> {
  const row = (await courseMetas(db, studioId).where('m.id', metaId).first()) as CourseMetaRow | undefined;
  if (!row) throw AppError.notFound('course');
  if (row.serviceType !== 'course')
    throw AppError.invalid({ scheduleMetaId: ['not a course: its classes are booked one by one'] });
  return row;
}

/** The course's classes that are still to come (scheduled, not started), in time order. */
export async function comingEvents(db: Db, studioId: string, metaIds: string[], now: Date) {
  if (metaIds.length === 0) return [];
  return (await db('schedule_events as e')
    .where('e.studio_id', studioId)
    .whereIn('e.schedule_meta_id', metaIds)
    .where('e.status', 'scheduled')
    .where('e.is_hidden', false)
    .where('e.starts_at', '>', now)
    .select(
      'e.id',
      'e.schedule_meta_id',
      'e.starts_at',
      'e.ends_at',
      'e.capacity',
      'e.bookable_online',
      db.raw(`(select count(*) from client_visits v where v.schedule_event_id = e.id
                and v.status in ${sqlSet(TAKES_PLACE)})::int as taken`),
    )
    .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])) as Array<{
    id: string;
    scheduleMetaId: string;
    startsAt: Date;
    endsAt: Date;
    capacity: number;
    bookableOnline: boolean;
    taken: number;
  }>;
}

/** Has any class of the course already started (or been held)? Then the course can no longer be joined. */
export async function startedMetas(
  db: Db,
  studioId: string,
  metaIds: string[],
  now: Date,
): Promise<Set<string>> {
  if (metaIds.length === 0) return new Set();
  const rows = (await db('schedule_events')
    .where({ studioId, status: 'scheduled' })
    .whereIn('schedule_meta_id', metaIds)
    .where('starts_at', '<=', now)
    .distinct('schedule_meta_id')) as Array<{ scheduleMetaId: string }>;
  return new Set(rows.map((r) => r.scheduleMetaId));
}

/**
 * What the front office's and the back office's course lists both show of a course: its class,
 * place, people and dates, and from its classes to come (`own`, soonest first) how many there are,
 * when the next starts and the places left on the fullest.
 */
export function courseBaseView(
  m: CourseMetaRow,
  own: Array<{ startsAt: Date; capacity: number; taken: number }>,
  people: Awaited<ReturnType<typeof instructorsById>>,
  defaultLocale: string,
) {
  return {
    scheduleMetaId: m.id,
    slug: courseSlug(resolveLocaleText(m.serviceName as LocaleText, defaultLocale, defaultLocale), m.id),
    classService: {
      id: m.classServiceId,
      name: m.serviceName,
      description: m.serviceDescription ?? {},
      color: m.serviceColor,
    },
    location: { id: m.locationId, name: m.locationName },
    instructors: (m.instructorIds ?? []).flatMap((id) => {
      const p = people.get(id);
      return p ? [p] : [];
    }),
    daysOfWeek: m.daysOfWeek,
    startTime: m.startTime,
    firstDate: m.firstDate,
    lastDate: m.lastDate,
    sessions: own.length,
    startsAt: own[0] ? new Date(own[0].startsAt).toISOString() : null,
    placesLeft: own.length ? Math.min(...own.map((e) => Math.max(0, e.capacity - e.taken))) : 0,
  };
}

async function presentCourses(
  db: Db,
  studio: Studio,
  metas: CourseMetaRow[],
  clientId: string,
  now: Date,
): Promise<CourseView[]> {
  const ids = metas.map((m) => m.id);
  const events = await comingEvents(db, studio.id, ids, now);
  const started = await startedMetas(db, studio.id, ids, now);
  const mine = ids.length
    ? ((await db('client_visits as v')
        .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
        .where({ 'v.studio_id': studio.id, 'v.client_id': clientId })
        .whereIn('e.schedule_meta_id', ids)
        .whereIn('v.status', STANDING)
        .where('e.starts_at', '>', now)
        .groupBy('e.schedule_meta_id')
        .select('e.schedule_meta_id', db.raw('count(*)::int as n'))) as Array<{
        scheduleMetaId: string;
        n: number;
      }>)
    : [];
  const myCount = new Map(mine.map((r) => [r.scheduleMetaId, r.n]));
  const people = await instructorsById(
    db,
    studio.id,
    metas.flatMap((m) => m.instructorIds ?? []),
  );
  return metas.map((m) => {
    const own = events.filter((e) => e.scheduleMetaId === m.id);
    const base = courseBaseView(m, own, people, studio.defaultLocale);
    const { placesLeft } = base;
    const myVisits = myCount.get(m.id) ?? 0;
    return {
      ...base,
      myVisits,
      enrolled: myVisits > 0,
      canBook:
        myVisits === 0 &&
        own.length > 0 &&
        !started.has(m.id) &&
        placesLeft > 0 &&
        m.bookableOnline &&
        own.every((e) => e.bookableOnline),
    };
  });
}

/** The front office's course list: courses still to come (or only the client's own). */
export async function listCourses(
  db: Db,
  studio: Studio,
  clientId: string,
  input: CoursesInput,
  now: Date,
): Promise<CourseView[]> {
  const q = courseMetas(db, studio.id)
    .where('s.service_type', 'course')
    .whereNull('s.archived_at')
    .whereExists(
      db('schedule_events as e')
        .whereRaw('e.schedule_meta_id = m.id')
        .where('e.status', 'scheduled')
        .where('e.starts_at', '>', now)
        .select(db.raw('1')),
    )
    .orderBy([{ column: 'm.first_date' }, { column: 'm.id' }]);
  if (input.classServiceId) q.where('m.class_service_id', input.classServiceId);
  const courses = await presentCourses(db, studio, (await q) as CourseMetaRow[], clientId, now);
  return input.scope === 'mine'
    ? courses.filter((c) => c.enrolled)
    : courses.filter((c) => c.enrolled || c.sessions > 0);
}

/**
 * A course's page by its slug: the course meta whose id ends with the slug's id digits, in this
 * studio, of a course service that is not archived. Signed out, nothing of anyone's standing.
 */
export async function coursePage(
  db: Db,
  studio: Studio,
  slug: string,
  clientId: string | null,
  now: Date,
): Promise<CoursePage> {
  const digits = courseSlugId(slug);
  if (!digits) throw AppError.notFound('course');
  const rows = (await courseMetas(db, studio.id)
    .where('s.service_type', 'course')
    .whereNull('s.archived_at')
    .whereRaw(`replace(m.id::text, '-', '') like ?`, [`%${digits}`])
    .limit(2)) as CourseMetaRow[];
  if (rows.length !== 1) throw AppError.notFound('course');
  const row = rows[0]!;
  // No client: a nil id, which no visit has.
  const [view] = await presentCourses(db, studio, [row], clientId ?? NIL_UUID, now);
  return { ...view!, timeZone: studio.timeZone };
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export async function courseView(db: Db, studio: Studio, metaId: string, clientId: string, now: Date) {
  return (await presentCourses(db, studio, [await courseMeta(db, studio.id, metaId)], clientId, now))[0]!;
}

/**
 * Books the client on every coming class of a course in the caller's transaction: all or nothing.
 * Each class is booked by the same rule as a single class (`bookVisit`, no waiting list), so each
 * class uses one pass entry. The client is locked, then the course's events in id order (the
 * booking path's lock order: client, then events).
 */
export async function bookCourse(
  trx: Db,
  studio: Studio,
  clientId: string,
  metaId: string,
  now: Date,
): Promise<CourseChange> {
  await courseMeta(trx, studio.id, metaId);
  if ((await startedMetas(trx, studio.id, [metaId], now)).size > 0)
    throw fieldError('course.notStartable', 'scheduleMetaId', 'the course has already started');
  const events = await comingEvents(trx, studio.id, [metaId], now);
  if (events.length === 0)
    throw fieldError('course.notStartable', 'scheduleMetaId', 'the course has no classes to come');
  await lockClient(trx, studio.id, clientId);
  for (const id of events.map((e) => e.id).sort()) await lockEvent(trx, studio.id, id);
  const visitIds: string[] = [];
  let unconfirmed = false;
  for (const e of events) {
    try {
      const result = await bookVisit(
        trx,
        studio,
        {
          actor: 'self',
          actorUserId: clientId,
          clientId,
          eventId: e.id,
          override: false,
          waitingListWanted: false,
          wholeCourse: true,
        },
        now,
      );
      if (result.outcome === 'unconfirmed') unconfirmed = true;
      visitIds.push(result.visitId);
    } catch (err) {
      // One class refusing refuses the course: say which, on the course's field.
      if (err instanceof AppError && err.fields?.scheduleEventId) {
        const when = new Date(e.startsAt).toISOString();
        throw new AppError(err.key, {
          message: err.message,
          fields: { scheduleMetaId: err.fields.scheduleEventId.map((m) => `${m} (${when})`) },
        });
      }
      throw err;
    }
  }
  const outcome: CourseOutcome = unconfirmed ? 'unconfirmed' : 'booked';
  return { outcome, visitIds, late: 0 };
}

/** Cancels the client's standing visits on the course's classes still to come (each early or late by its own cut-off). */
export async function cancelCourse(
  trx: Db,
  studio: Studio,
  clientId: string,
  metaId: string,
  now: Date,
): Promise<CourseChange> {
  await courseMeta(trx, studio.id, metaId);
  const visits = (await trx('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .where({ 'v.studio_id': studio.id, 'v.client_id': clientId, 'e.schedule_meta_id': metaId })
    .whereIn('v.status', STANDING)
    .where('e.starts_at', '>', now)
    .orderBy([{ column: 'e.id' }])
    .select('v.id')) as Array<{ id: string }>;
  if (visits.length === 0)
    throw fieldError('visit.notCancellable', 'scheduleMetaId', 'not booked on this course');
  let late = 0;
  for (const v of visits) {
    const result = await cancelVisit(trx, studio, v.id, 'self', clientId, now, { clientId });
    if (result.outcome === 'lateCancel') late += 1;
  }
  const outcome: CourseOutcome = 'cancelled';
  return { outcome, visitIds: visits.map((v) => v.id), late };
}
