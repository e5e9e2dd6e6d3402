import type {
  CourseEnrollments,
  UnlockResult,
  WaitingTimeList,
} from '../../../../shared/contracts/api/enrollments';
import { ENROLLMENT_LIMITS } from '../../../../shared/contracts/api/enrollments';
import type {
  CourseAttendanceField,
  CourseAttendanceQuery,
} from '../../../../shared/contracts/api/course-signup';
import { V, canPromoteAt, takesPlace, TAKES_PLACE, UPCOMING } from '../../../../shared/domain/bookings';
import { setValues, sqlSet } from '../../../../shared/domain/sql';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import type { Studio } from '../identity/index';
import {
  clientTagIds,
  lockClient,
  lockEvent,
  lockSharedPasses,
  paymentFor,
  settingsOf,
  type BookingEventRow,
} from './booking-facts.service';
import { myVisitsByIds } from './bookings-views.service';

/**
 * Client enrollments: a course's attendance list, reconcile (pay unpaid visits with a pass now held),
 * make unpaid (give a visit's entry back and owe it at the desk), unlock (a booked class's livestream
 * link) and the waiting list's time estimate. Courses themselves: courses.service.ts.
 * Decisions: cloud/src/modules/bookings/README.md ("Courses", "Enrollments").
 */

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
