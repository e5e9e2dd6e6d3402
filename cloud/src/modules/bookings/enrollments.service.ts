import type {
  CourseEnrollments,
  CourseView,
  CoursesInput,
  UnlockResult,
  WaitingTimeList,
} from '../../../../shared/contracts/api/enrollments';
import type { CoursePage } from '../../../../shared/contracts/api/enrollments';
import { courseSlug, courseSlugId } from '../../../../shared/domain/bookings/course-slug';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { ENROLLMENT_LIMITS } from '../../../../shared/contracts/api/enrollments';
import type {
  CourseAttendanceField,
  CourseAttendanceQuery,
} from '../../../../shared/contracts/api/course-signup';
import { V, canPromoteAt, takesPlace, TAKES_PLACE, UPCOMING } from '../../../../shared/domain/bookings';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import type { Studio } from '../identity/index';
import { instructorsById } from '../schedule/index';
import { bookVisit } from './book.service';
import {
  clientTagIds,
  lockClient,
  lockEvent,
  lockSharedPasses,
  paymentFor,
  settingsOf,
  type BookingEventRow,
} from './booking-facts.service';
import { cancelVisit } from './cancel-and-fees.service';
import { myVisitsByIds } from './bookings-views.service';
import { setValues, sqlSet } from '../../../../shared/domain/sql';

/**
 * Courses (a `course` class service's meta booked as a whole) and client enrollments: reconcile
 * (pay unpaid visits with a pass now held), make unpaid (give a visit's entry back and owe it at the
 * desk), unlock (a booked class's livestream link) and the waiting list's time estimate.
 * Decisions: cloud/src/modules/bookings/README.md ("Courses", "Enrollments").
 */

const STANDING = [0, 1, 2, 8, 9];
const fieldError = (key: ErrorKey, field: string, msg: string) =>
  new AppError(key, { message: msg, fields: { [field]: [msg] } });

// ------------------------------------------------------------------------------------ courses

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

/** The attendance list's sort columns: names by the clients' folded keys (case and accents), counts by alias. */
const ATTENDANCE_ORDER: Record<CourseAttendanceField, string> = {
  firstName: 'u.first_key',
  lastName: 'u.last_key',
  email: 'lower(u.email)',
  booked: 'booked',
  present: 'present',
  absent: 'absent',
  unpaid: 'unpaid',
  waiting: 'waiting',
  cancelled: 'cancelled',
};

/**
 * The back office's course (or any series) attendance: its classes and, per client, visits by status
 * and each visit (the grid), ordered by `field` and `method` (spec §2: firstName, ASC by default),
 * then by name.
 */
export async function metaEnrollments(
  db: Db,
  studio: Studio,
  metaId: string,
  order: CourseAttendanceQuery = { field: 'firstName', method: 'ASC' },
): Promise<CourseEnrollments> {
  const meta = (await db('schedule_metas as m')
    .join('class_services as s', 's.id', 'm.class_service_id')
    .where({ 'm.studio_id': studio.id, 'm.id': metaId })
    .first('m.id', 's.id as service_id', 's.name as service_name', 's.service_type')) as
    | {
        id: string;
        serviceId: string;
        serviceName: CourseEnrollments['classService']['name'];
        serviceType: string;
      }
    | undefined;
  if (!meta) throw AppError.notFound();
  const events = (await db('schedule_events as e')
    .where({ 'e.studio_id': studio.id, 'e.schedule_meta_id': metaId })
    .select(
      'e.id',
      'e.starts_at',
      'e.status',
      'e.capacity',
      db.raw(`(select count(*) from client_visits v where v.schedule_event_id = e.id
                and v.status in ${sqlSet(TAKES_PLACE)})::int as taken`),
    )
    .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])) as Array<{
    id: string;
    startsAt: Date;
    status: 'scheduled' | 'cancelled' | 'removed';
    capacity: number;
    taken: number;
  }>;
  const clients = (await db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    // The studio's record of the client (its names and e-mail; null e-mail, never the placeholder).
    .join('clients as u', (j) => j.on('u.user_id', 'v.client_id').andOn('u.studio_id', 'v.studio_id'))
    .where({ 'v.studio_id': studio.id, 'e.schedule_meta_id': metaId })
    .groupBy('u.user_id', 'u.first_name', 'u.last_name', 'u.email', 'u.first_key', 'u.last_key')
    .select(
      'u.user_id as id',
      'u.first_name',
      'u.last_name',
      'u.email',
      db.raw(`(count(*) filter (where v.status = ${V.booked}))::int as booked`),
      db.raw(`(count(*) filter (where v.status = ${V.present}))::int as present`),
      db.raw(`(count(*) filter (where v.status = ${V.absent}))::int as absent`),
      db.raw(`(count(*) filter (where v.status = ${V.unconfirmed}))::int as unpaid`),
      db.raw(`(count(*) filter (where v.status = ${V.waitingList}))::int as waiting`),
      db.raw('(count(*) filter (where v.status between 3 and 7))::int as cancelled'),
      // Oldest booking first: a class booked again after a cancel ends on its latest visit.
      db.raw(
        `json_agg(json_build_object('scheduleEventId', v.schedule_event_id, 'status', v.status)
                  order by e.starts_at, v.booked_at, v.id) as visits`,
      ),
    )
    .orderByRaw(
      `${ATTENDANCE_ORDER[order.field]} ${order.method === 'DESC' ? 'desc' : 'asc'} nulls last,
       u.last_key, u.first_key, u.user_id`,
    )) as CourseEnrollments['clients'];
  return {
    scheduleMetaId: meta.id,
    classService: { id: meta.serviceId, name: meta.serviceName, serviceType: meta.serviceType },
    events: events.map((e) => ({
      id: e.id,
      startsAt: new Date(e.startsAt).toISOString(),
      status: e.status,
      taken: e.taken,
      capacity: e.capacity,
    })),
    clients,
  };
}

// ------------------------------------------------------------------------------------ enrollments

interface PayRow {
  id: string;
  scheduleEventId: string;
  status: number;
  payment: string;
  paidAt: Date | null;
  clientPricingOptionId: string | null;
}

/** Unpaid visits: at the desk, not yet paid, holding a place (0, 1, 2, 9). */
const unpaidQuery = (db: Db, studioId: string, clientId: string) =>
  db('client_visits')
    .where({ studioId, clientId, payment: 'desk' })
    .whereNull('paid_at')
    .whereIn('status', setValues(TAKES_PLACE));

export async function unpaidVisitIds(db: Db, studioId: string, clientId: string): Promise<string[]> {
  return (
    (await unpaidQuery(db, studioId, clientId)
      .orderBy([{ column: 'starts_at' }, { column: 'id' }])
      .select('id')) as Array<{ id: string }>
  ).map((r) => r.id);
}

async function assertClient(db: Db, studioId: string, clientId: string) {
  const row = await db('clients').where({ studioId, userId: clientId }).first('id');
  if (!row) throw AppError.notFound('client');
}

/**
 * Pays the client's unpaid visits with what they hold now (a covering contract, else a pass by the
 * catalog's choice), oldest class first. Visits nothing covers stay unpaid. Named visits must be the
 * client's and unpaid (else 409 with `clientVisitIds.N`). Locks: events in id order, then the client.
 * With `passId` only that pass may pay (contracts are not considered): a visit it does not cover
 * stays unpaid — how a pass bought for a visit, or one the client picked, pays it.
 */
export async function reconcileVisits(
  trx: Db,
  studio: Studio,
  clientId: string,
  ids: string[] | undefined,
  now: Date,
  options: { passId?: string } = {},
): Promise<{ reconciled: string[]; unpaid: string[] }> {
  await assertClient(trx, studio.id, clientId);
  let wanted = ids;
  if (wanted) {
    const rows = (await trx('client_visits')
      .where({ studioId: studio.id, clientId })
      .whereIn('id', wanted)
      .select('id', 'status', 'payment', 'paid_at')) as PayRow[];
    if (rows.length !== new Set(wanted).size) throw AppError.notFound('visit');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const fields: Record<string, string[]> = {};
    wanted.forEach((id, i) => {
      const r = byId.get(id)!;
      if (r.payment !== 'desk' || r.paidAt !== null || !takesPlace(r.status))
        fields[`clientVisitIds.${i}`] = ['nothing to pay'];
    });
    if (Object.keys(fields).length > 0)
      throw new AppError('visit.statusNotAllowed', { message: 'nothing to pay', fields });
  } else wanted = await unpaidVisitIds(trx, studio.id, clientId);
  if (wanted.length === 0) return { reconciled: [], unpaid: [] };
  const rows = (await trx('client_visits').whereIn('id', wanted).select('id', 'schedule_event_id')) as Array<{
    id: string;
    scheduleEventId: string;
  }>;
  // The booking path's lock order: the client, its shared passes, then the events in id order.
  await lockClient(trx, studio.id, clientId);
  await lockSharedPasses(trx, studio.id, clientId);
  const events = new Map<string, BookingEventRow>();
  for (const id of [...new Set(rows.map((r) => r.scheduleEventId))].sort())
    events.set(id, await lockEvent(trx, studio.id, id));
  const tags = await clientTagIds(trx, studio.id, clientId);
  const settings = await settingsOf(trx, studio);
  const ordered = rows
    .map((r) => ({ ...r, event: events.get(r.scheduleEventId)! }))
    .sort((a, b) => a.event.startsAt.getTime() - b.event.startsAt.getTime() || a.id.localeCompare(b.id));
  const reconciled: string[] = [];
  const unpaid: string[] = [];
  for (const r of ordered) {
    const visit = (await trx('client_visits')
      .where({ id: r.id })
      .forUpdate()
      .first('status', 'payment', 'paid_at')) as PayRow;
    if (visit.payment !== 'desk' || visit.paidAt !== null || !takesPlace(visit.status)) continue;
    const choice = await paymentFor(trx, studio, r.event, clientId, tags, {
      actor: 'staff',
      payAtDeskAllowed: settings.payAtDeskAllowed,
      passId: options.passId,
    });
    if (choice.payment !== 'pass' && choice.payment !== 'contract') {
      unpaid.push(r.id);
      continue;
    }
    await trx('client_visits')
      .where({ id: r.id })
      .update({
        payment: choice.payment,
        clientPricingOptionId: choice.passId,
        clientContractId: choice.clientContractId ?? null,
        status: visit.status === V.unconfirmed ? V.booked : visit.status,
        updatedAt: trx.fn.now(),
      });
    if (choice.passId) await refreshPassProjection(trx, studio, choice.passId, now);
    reconciled.push(r.id);
  }
  return { reconciled, unpaid };
}

/**
 * Staff take back what paid a visit (a pass entry or a contract) and leave it owed at the desk: a
 * booked visit becomes unconfirmed (9), present/absent keep their status but are unpaid. Free
 * classes and visits already owed or cancelled are refused (409, `clientVisitIds.N`).
 */
export async function makeVisitsUnpaid(trx: Db, studio: Studio, ids: string[], now: Date): Promise<void> {
  const rows = (await trx('client_visits')
    .where({ studioId: studio.id })
    .whereIn('id', ids)
    .select('id', 'schedule_event_id')) as Array<{ id: string; scheduleEventId: string }>;
  if (rows.length !== new Set(ids).size) throw AppError.notFound('visit');
  for (const id of [...new Set(rows.map((r) => r.scheduleEventId))].sort())
    await lockEvent(trx, studio.id, id);
  const locked = (await trx('client_visits')
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id', 'status', 'payment', 'paid_at', 'client_pricing_option_id')) as PayRow[];
  const byId = new Map(locked.map((r) => [r.id, r]));
  const fields: Record<string, string[]> = {};
  ids.forEach((id, i) => {
    const r = byId.get(id)!;
    if (
      ![V.booked, V.present, V.absent].includes(r.status as never) ||
      !['pass', 'contract'].includes(r.payment)
    )
      fields[`clientVisitIds.${i}`] = [
        r.payment === 'free' ? 'a free class has nothing to pay' : 'not paid by a pass or a membership',
      ];
  });
  if (Object.keys(fields).length > 0)
    throw new AppError('visit.statusNotAllowed', { message: Object.values(fields)[0]![0], fields });
  for (const r of locked) {
    await trx('client_visits')
      .where({ id: r.id })
      .update({
        payment: 'desk',
        paidAt: null,
        clientPricingOptionId: null,
        clientContractId: null,
        status: r.status === V.booked ? V.unconfirmed : r.status,
        updatedAt: trx.fn.now(),
      });
    if (r.clientPricingOptionId) await refreshPassProjection(trx, studio, r.clientPricingOptionId, now);
  }
}

/** The client's coming standing visits, or every unpaid visit of theirs. */
export async function myEnrollmentIds(
  db: Db,
  studioId: string,
  clientId: string,
  filter: 'standing' | 'unpaid',
  now: Date,
): Promise<string[]> {
  if (filter === 'unpaid') return unpaidVisitIds(db, studioId, clientId);
  return (
    (await db('client_visits as v')
      .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
      .where({ 'v.studio_id': studioId, 'v.client_id': clientId })
      .whereIn('v.status', setValues(UPCOMING))
      .where('e.ends_at', '>', now)
      .orderBy([{ column: 'e.starts_at' }, { column: 'v.id' }])
      .limit(200)
      .select('v.id')) as Array<{ id: string }>
  ).map((r) => r.id);
}

/**
 * A booked class's livestream link, for the client who holds a paid place: from
 * `unlockMinutesBefore` before the start until the class ends.
 */
export async function unlockVisit(
  db: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  now: Date,
): Promise<UnlockResult> {
  const row = (await db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .where({ 'v.studio_id': studio.id, 'v.id': visitId, 'v.client_id': clientId })
    .first(
      'v.status',
      'v.payment',
      'v.paid_at',
      'e.starts_at',
      'e.ends_at',
      'e.status as event_status',
      'e.livestream_url',
    )) as
    | {
        status: number;
        payment: string;
        paidAt: Date | null;
        startsAt: Date;
        endsAt: Date;
        eventStatus: string;
        livestreamUrl: string | null;
      }
    | undefined;
  if (!row) throw AppError.notFound('visit');
  const refuse = (
    key: 'visit.statusNotAllowed' | 'visit.classCancelled' | 'visit.tooEarly' | 'visit.noLivestream',
    msg: string,
  ) => new AppError(key, { message: msg, fields: { clientVisitId: [msg] } });
  if (row.eventStatus !== 'scheduled') throw refuse('visit.classCancelled', 'the class is cancelled');
  if (!takesPlace(row.status)) throw refuse('visit.statusNotAllowed', 'no place on this class');
  if (row.status === V.unconfirmed || (row.payment === 'desk' && row.paidAt === null))
    throw refuse('visit.statusNotAllowed', 'pay for the class first');
  if (!row.livestreamUrl) throw refuse('visit.noLivestream', 'this class has no livestream');
  const opens = new Date(new Date(row.startsAt).getTime() - ENROLLMENT_LIMITS.unlockMinutesBefore * 60_000);
  if (now < opens)
    throw refuse(
      'visit.tooEarly',
      `the livestream opens ${ENROLLMENT_LIMITS.unlockMinutesBefore} minutes before the class`,
    );
  if (now >= new Date(row.endsAt)) throw refuse('visit.statusNotAllowed', 'the class has ended');
  const [view] = await myVisitsByIds(db, studio, [visitId], now);
  return { clientVisitId: visitId, event: view!.event, livestreamUrl: row.livestreamUrl };
}

/**
 * The client's places on waiting lists with what helps guess the wait: people ahead, places taken,
 * when promotion stops, and how many places the series' last past classes freed (cancellations 3–6).
 */
export async function waitingTimes(
  db: Db,
  studio: Studio,
  clientId: string,
  eventId: string | undefined,
  now: Date,
): Promise<WaitingTimeList> {
  const q = db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .where({ 'v.studio_id': studio.id, 'v.client_id': clientId, 'v.status': V.waitingList })
    .where('e.ends_at', '>', now)
    .select(
      'v.id',
      'e.id as event_id',
      'e.schedule_meta_id',
      'e.starts_at',
      'e.capacity',
      db.raw(`(select count(*) from client_visits w where w.schedule_event_id = v.schedule_event_id
                and w.status = ${V.waitingList} and (w.waiting_position, w.id) < (v.waiting_position, v.id))::int as ahead`),
      db.raw(`(select count(*) from client_visits t where t.schedule_event_id = v.schedule_event_id
                and t.status in ${sqlSet(TAKES_PLACE)})::int as taken`),
      db.raw(
        `(select avg(c.n) from (
                 select (select count(*) from client_visits x where x.schedule_event_id = p.id
                           and x.status between 3 and 6) as n
                   from schedule_events p
                  where p.schedule_meta_id = e.schedule_meta_id and p.status = 'scheduled'
                    and p.starts_at < :now
                  order by p.starts_at desc limit :history) c) as typical`,
        {
          now,
          history: ENROLLMENT_LIMITS.historyEvents,
        },
      ),
    )
    .orderBy([{ column: 'e.starts_at' }, { column: 'v.id' }]);
  if (eventId) {
    const exists = await db('schedule_events').where({ studioId: studio.id, id: eventId }).first('id');
    if (!exists) throw AppError.notFound('class');
    q.where('e.id', eventId);
  }
  const rows = (await q) as Array<{
    id: string;
    eventId: string;
    scheduleMetaId: string | null;
    startsAt: Date;
    capacity: number;
    ahead: number;
    taken: number;
    typical: string | null;
  }>;
  const settings = await settingsOf(db, studio);
  const views = new Map(
    (
      await myVisitsByIds(
        db,
        studio,
        rows.map((r) => r.id),
        now,
      )
    ).map((v) => [v.id, v]),
  );
  return {
    items: rows.map((r) => {
      const startsAt = new Date(r.startsAt);
      const typical = r.typical === null ? null : Math.round(Number(r.typical) * 10) / 10;
      const open = canPromoteAt(startsAt, settings.promotionCutoffMinutes, now);
      const freeNow = Math.max(0, r.capacity - r.taken);
      const chance: WaitingTimeList['items'][number]['chance'] = !open
        ? 'low'
        : freeNow > r.ahead
          ? 'good'
          : typical === null
            ? 'unknown'
            : typical > r.ahead
              ? 'good'
              : typical >= r.ahead * 0.5 && typical > 0
                ? 'fair'
                : 'low';
      return {
        clientVisitId: r.id,
        event: views.get(r.id)!.event,
        position: r.ahead + 1,
        ahead: r.ahead,
        capacity: r.capacity,
        taken: r.taken,
        promotionClosesAt: new Date(
          startsAt.getTime() - settings.promotionCutoffMinutes * 60_000,
        ).toISOString(),
        typicalFreedPlaces: typical,
        chance,
      };
    }),
  };
}
