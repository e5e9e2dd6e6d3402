import type {
  ClientSchedule,
  ClientScheduleInput,
  ClientVisitView,
  EnrollmentConflict,
  EventEnrollments,
  MyVisitView,
  VisitFeeView,
  VisitPaymentKind,
} from '../../../../shared/contracts/api/bookings';
import {
  V,
  decideBooking,
  decideCancel,
  checkInOpensAt,
  lateCancelNow,
  walkInUntil,
  isOnClass,
  overlaps,
  visitPayRefusal,
  type Actor,
  CANCELLED,
  ON_CLASS,
  TAKES_PLACE,
} from '../../../../shared/domain/bookings';
import { addLocalDays, startOfLocalDate } from '../../../../shared/domain/entitlements/local-dates';
import { chooseEntitlementForVisit } from '../../../../shared/domain/contracts';
import { localDateOf } from '../../../../shared/domain/entitlements';
import type { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { passCandidatesFor } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import type { Studio } from '../identity/index';
import { instructorsById } from '../schedule/index';
import {
  clientTagIds,
  conflictingVisits,
  readEvent,
  selectEventRules,
  settingsOf,
  withDefaults,
  type BookingEventRow,
} from './booking-facts.service';
import type { BookedVisit } from './book.service';
import { setValues, sqlSet } from '../../../../shared/domain/sql';
import { SCHEDULE_LIMITS } from '../../../../shared/contracts/api/schedule';

type LocaleText = Record<string, { value: string }>;

interface VisitViewRow extends MyVisitRow {
  clientId: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

/** What a client's own view of a visit shows (`presentMyVisits`). */
interface MyVisitRow {
  id: string;
  scheduleEventId: string;
  status: ClientVisitStatus;
  bookedBy: Actor;
  waitingRank: number | null;
  passId: string | null;
  passName: LocaleText | null;
  payment: VisitPaymentKind;
  paidAt: Date | null;
  contractId: string | null;
  contractName: LocaleText | null;
  bookedAt: Date;
  cancelledAt: Date | null;
  checkedInAt: Date | null;
  promotedAt: Date | null;
  startsAt: Date;
  endsAt: Date;
  classServiceId: string;
  serviceName: LocaleText;
  serviceColor: string;
  locationId: string;
  locationName: string;
  roomId: string | null;
  roomName: string | null;
  instructorIds: string[];
  eventStatus: 'scheduled' | 'cancelled' | 'removed';
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Visits with everything a view shows: client, pass, class; the waiting rank computed in SQL.
 *
 * Only the client and the class are joined (callers filter and sort on `v`, `u` and `e`); the names
 * looked up one to one (service, location, room, pass, contract) are scalar subqueries on primary
 * keys. With all nine tables joined, PostgreSQL searched join orders for 7.5 ms per statement on the
 * bench machine (pg_stat_statements, `bench:booking`) — more than the booking's own statements
 * under the class's lock — to run a plan of a few index lookups.
 */
function selectVisits(db: Db, studioId: string) {
  return db('client_visits as v')
    .join('users as u', 'u.id', 'v.client_id')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .where('v.studio_id', studioId)
    .select(
      'v.id',
      'v.schedule_event_id',
      'v.client_id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'v.status',
      'v.booked_by',
      'v.client_pricing_option_id as pass_id',
      'v.payment',
      'v.paid_at',
      'v.client_contract_id as contract_id',
      'v.booked_at',
      'v.cancelled_at',
      'v.checked_in_at',
      'v.promoted_at',
      'e.starts_at',
      'e.ends_at',
      'e.class_service_id',
      'e.location_id',
      'e.room_id',
      'e.instructor_ids',
      'e.status as event_status',
    )
    .select(
      db.raw(`(select po.name from client_pricing_options cpo join pricing_options po on po.id = cpo.pricing_option_id
                where cpo.id = v.client_pricing_option_id) as pass_name`),
      db.raw('(select cc.name from client_contracts cc where cc.id = v.client_contract_id) as contract_name'),
      db.raw('(select s.name from class_services s where s.id = e.class_service_id) as service_name'),
      db.raw('(select s.color from class_services s where s.id = e.class_service_id) as service_color'),
      db.raw('(select l.name from locations l where l.id = e.location_id) as location_name'),
      db.raw('(select r.name from location_rooms r where r.id = e.room_id) as room_name'),
      db.raw(`case when v.status = ${V.waitingList} then (
        select count(*)::int from client_visits w
         where w.schedule_event_id = v.schedule_event_id and w.status = ${V.waitingList}
           and (w.waiting_position, w.id) <= (v.waiting_position, v.id)) end as waiting_rank`),
    );
}

async function feesOf(db: Db, visitIds: string[]): Promise<Map<string, VisitFeeView[]>> {
  const byVisit = new Map<string, VisitFeeView[]>();
  if (visitIds.length === 0) return byVisit;
  const rows = (await db('client_visit_fees')
    .whereIn('client_visit_id', visitIds)
    .whereNull('voided_at')
    .orderBy('created_at')
    .select('id', 'client_visit_id', 'kind', 'amount', 'currency', 'forgiven', 'created_at')) as Array<{
    id: string;
    clientVisitId: string;
    kind: 'lateCancel' | 'noShow';
    amount: number;
    currency: string;
    forgiven: boolean;
    createdAt: Date;
  }>;
  for (const r of rows) {
    const list = byVisit.get(r.clientVisitId) ?? [];
    list.push({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      currency: r.currency,
      forgiven: r.forgiven,
      createdAt: iso(r.createdAt)!,
    });
    byVisit.set(r.clientVisitId, list);
  }
  return byVisit;
}

/** What paid the visit; a contract by the name it was sold under (kept when the contract is renamed). */
const paymentOf = (r: MyVisitRow) => ({
  payment: r.payment,
  contract: r.contractId ? { id: r.contractId, name: r.contractName ?? {} } : null,
});

function presentVisit(r: VisitViewRow, fees: VisitFeeView[]): ClientVisitView {
  return {
    id: r.id,
    scheduleEventId: r.scheduleEventId,
    client: { id: r.clientId, firstName: r.firstName, lastName: r.lastName, email: r.email },
    status: r.status,
    bookedBy: r.bookedBy,
    waitingPosition: r.waitingRank === null ? null : Number(r.waitingRank),
    pass: r.passId ? { id: r.passId, name: r.passName ?? {} } : null,
    ...paymentOf(r),
    bookedAt: iso(r.bookedAt)!,
    cancelledAt: iso(r.cancelledAt),
    checkedInAt: iso(r.checkedInAt),
    promotedAt: iso(r.promotedAt),
    fees,
    event: {
      startsAt: iso(r.startsAt)!,
      endsAt: iso(r.endsAt)!,
      classService: { id: r.classServiceId, name: r.serviceName, color: r.serviceColor },
      locationName: r.locationName,
    },
  };
}

export async function visitViews(db: Db, studio: Studio, ids: string[]): Promise<ClientVisitView[]> {
  if (ids.length === 0) return [];
  const rows = (await selectVisits(db, studio.id).whereIn('v.id', ids)) as VisitViewRow[];
  const fees = await feesOf(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [presentVisit(r, fees.get(id) ?? [])] : [];
  });
}

/** The attendee list of one event for the back office. */
export async function eventEnrollments(
  db: Db,
  studio: Studio,
  eventId: string,
  now: Date,
  can: EventEnrollments['can'],
): Promise<EventEnrollments> {
  const event = await readEvent(db, studio.id, eventId);
  const settings = await settingsOf(db, studio);
  const rows = (await selectVisits(db, studio.id)
    .where('v.schedule_event_id', eventId)
    .orderBy([{ column: 'u.last_name' }, { column: 'u.first_name' }, { column: 'v.id' }])) as VisitViewRow[];
  const fees = await feesOf(
    db,
    rows.map((r) => r.id),
  );
  const views = rows.map((r) => presentVisit(r, fees.get(r.id) ?? []));
  const attendees = views.filter((v) => [0, 1, 2, 9].includes(v.status));
  const waitingList = views
    .filter((v) => v.status === V.waitingList)
    .sort((a, b) => a.waitingPosition! - b.waitingPosition!);
  const cancelled = views
    .filter((v) => v.status >= 3 && v.status <= 7)
    .sort((a, b) => (b.cancelledAt ?? '').localeCompare(a.cancelledAt ?? ''));
  return {
    scheduleEventId: event.id,
    startsAt: iso(event.startsAt)!,
    endsAt: iso(event.endsAt)!,
    eventStatus: event.status,
    capacity: event.capacity,
    waitingListSize: event.waitingListSize,
    taken: attendees.length,
    placesLeft: Math.max(0, event.capacity - attendees.length),
    waitingPlacesLeft: Math.max(0, event.waitingListSize - waitingList.length),
    attendees,
    waitingList,
    cancelled,
    lateCancelNow: lateCancelNow(event, now),
    checkInOpensAt: checkInOpensAt(event.startsAt, settings.checkInOpensMinutes).toISOString(),
    walkInUntil: walkInUntil(event, settings.walkInMinutes).toISOString(),
    can,
  };
}

interface Cursor {
  startsAt: string;
  id: string;
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.startsAt !== 'string' || typeof c.id !== 'string' || Number.isNaN(Date.parse(c.startsAt)))
      throw new Error('bad cursor');
    return c;
  } catch {
    throw AppError.invalid({ cursor: ['invalid cursor'] });
  }
}

/** The longest a class can last (the schedule's limit): a class still on started less than this ago. */
const LONGEST_CLASS_MS = SCHEDULE_LIMITS.durationMinutes[1] * 60_000;

/** A client's visits, upcoming (soonest first) or past (latest first), keyset-paged. */
async function visitPage(
  db: Db,
  studio: Studio,
  clientId: string,
  when: 'upcoming' | 'past' | 'all',
  limit: number,
  cursorRaw: string | undefined,
  now: Date,
): Promise<{ rows: VisitViewRow[]; next: string | null }> {
  const cursor = decodeCursor(cursorRaw);
  const ascending = when === 'upcoming';
  const q = selectVisits(db, studio.id).where('v.client_id', clientId);
  // Bounded by time in the client's (studio_id, client_id, starts_at) index, not by the class's end
  // alone (which read the client's whole history first): a class still on started at most the
  // longest class ago; one that ended started before now.
  if (when === 'upcoming')
    q.where('e.ends_at', '>', now).where('v.starts_at', '>', new Date(now.getTime() - LONGEST_CLASS_MS));
  if (when === 'past') q.where('e.ends_at', '<=', now).where('v.starts_at', '<', now);
  if (cursor)
    q.whereRaw(`(v.starts_at, v.id) ${ascending ? '>' : '<'} (?, ?)`, [new Date(cursor.startsAt), cursor.id]);
  q.orderBy([
    { column: 'v.starts_at', order: ascending ? 'asc' : 'desc' },
    { column: 'v.id', order: ascending ? 'asc' : 'desc' },
  ]).limit(limit + 1);
  const rows = (await q) as VisitViewRow[];
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    next: more && last ? encodeCursor({ startsAt: iso(last.startsAt)!, id: last.id }) : null,
  };
}

export async function clientVisitList(
  db: Db,
  studio: Studio,
  clientId: string,
  query: { when: 'upcoming' | 'past' | 'all'; limit: number; cursor?: string },
  now: Date,
) {
  const client = await db('clients').where({ studioId: studio.id, userId: clientId }).first('id');
  if (!client) throw AppError.notFound('client');
  const { rows, next } = await visitPage(db, studio, clientId, query.when, query.limit, query.cursor, now);
  const fees = await feesOf(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => presentVisit(r, fees.get(r.id) ?? [])), next };
}

async function rulesByEvent(db: Db, studioId: string, eventIds: string[]) {
  const rows = (await selectEventRules(db, studioId).whereIn('e.id', eventIds)) as BookingEventRow[];
  return new Map(rows.map((r) => [r.id, withDefaults(r)]));
}

async function presentMyVisits(
  db: Db,
  studio: Studio,
  rows: MyVisitRow[],
  now: Date,
  known?: {
    rules: Map<string, BookingEventRow>;
    people: Map<string, { id: string; firstName: string; lastName: string }>;
    noFees: true;
  },
): Promise<MyVisitView[]> {
  // Often inside the request's transaction (one connection): one query after another.
  const fees = known?.noFees
    ? new Map<string, VisitFeeView[]>()
    : await feesOf(
        db,
        rows.map((r) => r.id),
      );
  const people =
    known?.people ??
    (await instructorsById(
      db,
      studio.id,
      rows.flatMap((r) => r.instructorIds ?? []),
    ));
  const rules =
    known?.rules ?? (await rulesByEvent(db, studio.id, [...new Set(rows.map((r) => r.scheduleEventId))]));
  return rows.map((r) => {
    const event = rules.get(r.scheduleEventId)!;
    const cancel = decideCancel(r.status, event, 'self', now);
    return {
      id: r.id,
      status: r.status,
      waitingPosition: r.waitingRank === null ? null : Number(r.waitingRank),
      event: {
        id: r.scheduleEventId,
        classService: { id: r.classServiceId, name: r.serviceName, color: r.serviceColor },
        location: { id: r.locationId, name: r.locationName },
        room: r.roomId ? { id: r.roomId, name: r.roomName ?? '' } : null,
        instructors: (r.instructorIds ?? []).flatMap((id) => {
          const p = people.get(id);
          return p ? [p] : [];
        }),
        startsAt: iso(r.startsAt)!,
        endsAt: iso(r.endsAt)!,
        cancelled: r.eventStatus !== 'scheduled',
      },
      pass: r.passId ? { id: r.passId, name: r.passName ?? {} } : null,
      ...paymentOf(r),
      bookedAt: iso(r.bookedAt)!,
      cancelledAt: iso(r.cancelledAt),
      canCancel: cancel.ok,
      cancelIsLate: cancel.ok && cancel.kind === 'lateCancel',
      fees: fees.get(r.id) ?? [],
      payable: visitPayRefusal(r) === null,
    };
  });
}

export async function myVisit(db: Db, studio: Studio, visitId: string, now: Date): Promise<MyVisitView> {
  const rows = (await selectVisits(db, studio.id).where('v.id', visitId)) as VisitViewRow[];
  if (rows.length === 0) throw AppError.notFound('visit');
  return (await presentMyVisits(db, studio, rows, now))[0]!;
}

/**
 * `myVisit` of a visit `bookVisit` has just written, put together from what the booking read and
 * wrote (`BookedVisit`: the class's rules, names and instructors read with them, the pass or
 * contract chosen, the status and place on the list written under the class's lock) — no read after
 * the commit, and no fees (a new visit has none). `bookings.int.test.ts` holds it equal to `myVisit`.
 */
export async function bookedVisit(
  db: Db,
  studio: Studio,
  booked: BookedVisit,
  now: Date,
): Promise<MyVisitView> {
  const { event, visit } = booked;
  const row: MyVisitRow = {
    id: booked.visitId,
    scheduleEventId: event.id,
    status: visit.status,
    bookedBy: visit.bookedBy,
    waitingRank: visit.waitingRank,
    passId: visit.passId,
    passName: visit.passName,
    payment: visit.payment,
    paidAt: null,
    contractId: visit.contractId,
    contractName: visit.contractName,
    bookedAt: visit.bookedAt,
    cancelledAt: null,
    checkedInAt: null,
    promotedAt: null,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    classServiceId: event.classServiceId,
    serviceName: event.serviceName,
    serviceColor: visit.shown.serviceColor,
    locationId: event.locationId,
    locationName: visit.shown.locationName,
    roomId: visit.shown.roomId,
    roomName: visit.shown.roomName,
    instructorIds: visit.shown.instructorIds,
    eventStatus: event.status,
  };
  const rules = new Map([[event.id, event]]);
  const people = new Map(visit.shown.instructors.map((p) => [p.id, p]));
  return (await presentMyVisits(db, studio, [row], now, { rules, people, noFees: true }))[0]!;
}

export async function myVisits(
  db: Db,
  studio: Studio,
  clientId: string,
  input: { when: 'upcoming' | 'past' | 'all'; limit: number; cursor?: string },
  now: Date,
) {
  const { rows, next } = await visitPage(db, studio, clientId, input.when, input.limit, input.cursor, now);
  return { items: await presentMyVisits(db, studio, rows, now), next };
}

/** The client's waiting-list entries (upcoming classes) with their positions. */
export async function myWaitingList(db: Db, studio: Studio, clientId: string, now: Date) {
  const rows = (await selectVisits(db, studio.id)
    .where({ 'v.client_id': clientId, 'v.status': V.waitingList })
    .where('e.ends_at', '>', now)
    .orderBy([{ column: 'v.starts_at' }, { column: 'v.id' }])
    .limit(200)) as VisitViewRow[];
  return { items: await presentMyVisits(db, studio, rows, now), next: null };
}

export async function enrollmentConflict(
  db: Db,
  studio: Studio,
  clientId: string,
  eventId: string,
): Promise<EnrollmentConflict> {
  const client = await db('clients').where({ studioId: studio.id, userId: clientId }).first('id');
  if (!client) throw AppError.notFound('client');
  const event = await readEvent(db, studio.id, eventId);
  const rows = await conflictingVisits(db, studio.id, clientId, event);
  return {
    hasConflict: rows.length > 0,
    conflicts: rows.map((r) => ({
      clientVisitId: r.clientVisitId,
      scheduleEventId: r.scheduleEventId,
      status: r.status,
      classService: { id: r.classServiceId, name: r.serviceName },
      startsAt: iso(r.startsAt)!,
      endsAt: iso(r.endsAt)!,
    })),
  };
}

/**
 * The signed-in client's layer over the public timetable: for every visible event of the range, the
 * places left, their own visit, and what booking now would do (or why not). One range scan for the
 * events, one grouped count, the client's visits and passes once; the rules run in memory.
 */
export async function clientSchedule(
  db: Db,
  studio: Studio,
  clientId: string,
  input: ClientScheduleInput,
  now: Date,
): Promise<ClientSchedule> {
  const from = startOfLocalDate(input.from, studio.timeZone);
  const to = startOfLocalDate(addLocalDays(input.to, 1), studio.timeZone);
  const events = (
    (await selectEventRules(db, studio.id)
      .where('e.starts_at', '>=', from)
      .where('e.starts_at', '<', to)
      .where('e.is_hidden', false)
      .whereNot('e.status', 'removed')
      .orderBy([{ column: 'e.starts_at' }, { column: 'e.id' }])) as BookingEventRow[]
  ).map(withDefaults);
  if (events.length === 0) return { items: [] };
  const ids = events.map((e) => e.id);
  // A POST runs in the request's transaction (one connection): one query after another.
  const counts = (await db('client_visits')
    .whereIn('schedule_event_id', ids)
    .groupBy('schedule_event_id')
    .select(
      'schedule_event_id',
      db.raw(`count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken`),
      db.raw(`count(*) filter (where status = ${V.waitingList})::int as waiting`),
    )) as Array<{ scheduleEventId: string; taken: number; waiting: number }>;
  const mine = (await selectVisits(db, studio.id)
    .where('v.client_id', clientId)
    .whereIn('v.status', setValues(ON_CLASS))
    .where('v.starts_at', '>=', new Date(from.getTime() - 86_400_000))
    .where('v.starts_at', '<', new Date(to.getTime() + 86_400_000))) as VisitViewRow[];
  const tags = await clientTagIds(db, studio.id, clientId);
  const passes = await passCandidatesFor(db, studio, clientId);
  const contracts = await contractEntitlementsFor(db, studio, clientId, localDateOf(from, studio.timeZone));
  const settings = await settingsOf(db, studio);
  const countBy = new Map(counts.map((c) => [c.scheduleEventId, c]));
  const mineBy = new Map(mine.map((v) => [v.scheduleEventId, v]));
  return {
    items: events.map((event) => {
      const c = countBy.get(event.id) ?? { taken: 0, waiting: 0 };
      const taken = Number(c.taken);
      const waiting = Number(c.waiting);
      const visit = mineBy.get(event.id);
      const hasConflict = mine.some(
        (v) => v.scheduleEventId !== event.id && v.status !== V.waitingList && overlaps(v, event),
      );
      let payment: 'pass' | 'free' | 'desk' | 'none' = 'free';
      if (!event.freeOfCharge) {
        const choice = chooseEntitlementForVisit(
          { contracts, passes },
          {
            serviceType: event.serviceType,
            serviceId: event.classServiceId,
            locationId: event.locationId,
            startsAt: event.startsAt,
            clientTagIds: tags,
          },
          studio.timeZone,
        );
        payment = choice.ok ? 'pass' : settings.payAtDeskAllowed ? 'desk' : 'none';
      }
      const decision = decideBooking({
        event,
        actor: 'self',
        override: false,
        now,
        timeZone: studio.timeZone,
        clientTagIds: tags,
        alreadyOnClass: visit !== undefined && isOnClass(visit.status),
        hasConflict,
        payment,
        taken,
        waiting,
        waitingListWanted: true,
      });
      const cancel = visit ? decideCancel(visit.status, event, 'self', now) : null;
      return {
        scheduleEventId: event.id,
        placesLeft: Math.max(0, event.capacity - taken),
        waitingPlacesLeft: Math.max(0, event.waitingListSize - waiting),
        myVisit: visit
          ? {
              id: visit.id,
              status: visit.status,
              waitingPosition: visit.waitingRank === null ? null : Number(visit.waitingRank),
            }
          : null,
        bookOutcome: decision.ok ? decision.outcome : null,
        refusal: decision.ok ? null : decision.refusal,
        canCancel: cancel?.ok ?? false,
        cancelIsLate: cancel !== null && cancel.ok && cancel.kind === 'lateCancel',
      };
    }),
  };
}

/**
 * Cancelled bookings (3–7) of the classes starting on the studio days `from`…`to`, latest class first:
 * the back office's `schedule-event-cancellation/collection`. Keyset pages on (class start, visit id).
 */
export async function cancellationList(
  db: Db,
  studio: Studio,
  query: { from: string; to: string; limit: number; cursor?: string | undefined },
) {
  const cursor = decodeCursor(query.cursor);
  const q = selectVisits(db, studio.id)
    .whereIn('v.status', setValues(CANCELLED))
    .where('v.starts_at', '>=', startOfLocalDate(query.from, studio.timeZone))
    .where('v.starts_at', '<', startOfLocalDate(addLocalDays(query.to, 1), studio.timeZone));
  if (cursor) q.whereRaw('(v.starts_at, v.id) < (?, ?)', [new Date(cursor.startsAt), cursor.id]);
  q.orderBy([
    { column: 'v.starts_at', order: 'desc' },
    { column: 'v.id', order: 'desc' },
  ]).limit(query.limit + 1);
  const rows = (await q) as VisitViewRow[];
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const fees = await feesOf(
    db,
    page.map((r) => r.id),
  );
  return {
    items: page.map((r) => presentVisit(r, fees.get(r.id) ?? [])),
    next:
      rows.length > query.limit && last ? encodeCursor({ startsAt: iso(last.startsAt)!, id: last.id }) : null,
  };
}

/** Several of a client's visits as "my visits" (the caller scopes the ids), in the given order. */
export async function myVisitsByIds(
  db: Db,
  studio: Studio,
  ids: string[],
  now: Date,
): Promise<MyVisitView[]> {
  if (ids.length === 0) return [];
  const rows = (await selectVisits(db, studio.id).whereIn('v.id', ids)) as VisitViewRow[];
  const byId = new Map((await presentMyVisits(db, studio, rows, now)).map((v) => [v.id, v]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
