import { v7 as uuidv7 } from 'uuid';
import type {
  BookingOutcome,
  BookingRefusal,
  BookingSettings,
} from '../../../../shared/contracts/api/bookings';
import { V, decideBooking, ON_CLASS, TAKES_PLACE, type Actor } from '../../../../shared/domain/bookings';
import { derivePassState, type PassState } from '../../../../shared/domain/entitlements';
import { sqlSet } from '../../../../shared/domain/sql';
import type { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError } from '../../../../shared/errors';
import { compiled } from '../../db/compiled';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import type { Studio } from '../identity/index';
import { dropBookingMail, dropBookingMailSql, enqueueBookingMail } from './booking-mails.service';
import {
  DEFAULT_SETTINGS,
  EVENT_RULE_COLUMNS,
  SHARED_PASSES_LOCK,
  lockEvent,
  paymentFor,
  paymentForDecision,
  refusalError,
  selectEventRules,
  withDefaults,
  type BookingEventRow,
  type PaymentChoice,
  type VisitRow,
} from './booking-facts.service';
import { toldWaiting } from './waiting-list.service';
import { emitWebhookEvent } from '../../webhooks/emit';

type BookingFactsRow = typeof DEFAULT_SETTINGS & {
  existingId: string | null;
  taken: number;
  places: { capacity: number; waitingListSize: number };
  waiting: number;
  tagIds: string[];
  hasConflict: boolean;
  hasContracts: boolean;
  hasWebhooks: boolean;
  hasSettings: boolean;
};

/** `bookingFactsOf`'s statement, compiled once (exported for `bench:booking`'s driver loop). */
export const BOOKING_FACTS = compiled<{
  eventId: string;
  clientId: string;
  studioId: string;
  startsAt: Date;
  endsAt: Date;
  dayBefore: Date;
}>((db, p) =>
  db.raw(
    `select (select v.id from client_visits v
              where v.schedule_event_id = :eventId and v.client_id = :clientId
                and v.status in ${sqlSet(ON_CLASS)} limit 1) as "existingId",
            c.taken, c.waiting,
            (select row_to_json(ev) from (select e.capacity, e.waiting_list_size as "waitingListSize"
                                            from schedule_events e where e.id = :eventId) ev) as "places",
            (select coalesce(array_agg(t.tag_id), '{}') from user_tags t
              where t.studio_id = :studioId and t.user_id = :clientId) as "tagIds",
            exists (select 1 from client_visits v join schedule_events e on e.id = v.schedule_event_id
                     where v.studio_id = :studioId and v.client_id = :clientId
                       and v.status in ${sqlSet(TAKES_PLACE)} and v.schedule_event_id <> :eventId
                       and v.starts_at < :endsAt and e.ends_at > :startsAt
                       and v.starts_at > :dayBefore) as "hasConflict",
            (select count(*) from (${SHARED_PASSES_LOCK}) shared)::int as "sharedPassesLocked",
            exists (select 1 from client_contracts cc
                     where cc.studio_id = :studioId and cc.client_id = :clientId) as "hasContracts",
            exists (select 1 from webhook_endpoints w
                     where w.studio_id = :studioId and w.enabled and 'visit.booked' = any(w.events))
              as "hasWebhooks",
            s.studio_id is not null as "hasSettings", s.late_cancel_fee as "lateCancelFee",
            s.no_show_fee as "noShowFee", s.forgive_first_offence as "forgiveFirstOffence",
            s.promotion_cutoff_minutes as "promotionCutoffMinutes", s.pay_at_desk_allowed as "payAtDeskAllowed",
            s.check_in_opens_minutes as "checkInOpensMinutes", s.walk_in_minutes as "walkInMinutes"
       from (select count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken,
                    count(*) filter (where status = ${V.waitingList})::int as waiting
               from client_visits where studio_id = :studioId and schedule_event_id = :eventId) c
       left join studio_booking_settings s on s.studio_id = :studioId`,
    {
      eventId: p.eventId,
      clientId: p.clientId,
      studioId: p.studioId,
      startsAt: p.startsAt,
      endsAt: p.endsAt,
      dayBefore: p.dayBefore,
    },
  ),
);

/**
 * What booking a client needs besides their passes, in one statement, after the client's lock: a
 * standing visit, the client's tags, whether another class of theirs overlaps (as
 * `conflictingVisits`), whether they have any contract, the studio's booking settings, and the
 * class's places and waiting-list size with places taken and waiting as they are now (the class is
 * not locked yet: a full class refuses here, otherwise `placeVisit` counts again under its lock). A
 * statement's snapshot is taken when it starts, so it sees every booking of this client committed
 * before the client's lock was granted; none can be added while it is held.
 *
 * It also row-locks the client's **shared** passes (own ones shared with someone, and those shared
 * with the client), in id order. The client's lock serializes one client's bookings, but a shared
 * pass is spent by several clients, whose bookings take no common lock: both would read the same
 * entry left. The passes are read by the next statement (`passCandidatesFor`), whose snapshot starts
 * after these locks are granted, so it sees the other client's visit. An unshared pass is locked by
 * nobody (the `exists` on the shares' unique index finds nothing), and the lock costs no round trip.
 * Lock order: client, shared passes, event.
 */
async function bookingFactsOf(trx: Db, studio: Studio, event: BookingEventRow, clientId: string) {
  const { rows } = await BOOKING_FACTS.raw<BookingFactsRow>(trx, {
    eventId: event.id,
    clientId,
    studioId: studio.id,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    dayBefore: new Date(event.startsAt.getTime() - 24 * 3_600_000),
  });
  const r = rows[0]!;
  const s = r.hasSettings ? r : DEFAULT_SETTINGS;
  const settings: BookingSettings = {
    currency: studio.currency,
    lateCancelFee: s.lateCancelFee,
    noShowFee: s.noShowFee,
    forgiveFirstOffence: s.forgiveFirstOffence,
    promotionCutoffMinutes: s.promotionCutoffMinutes,
    payAtDeskAllowed: s.payAtDeskAllowed,
    checkInOpensMinutes: s.checkInOpensMinutes,
    walkInMinutes: s.walkInMinutes,
  };
  return {
    settings,
    existing: r.existingId ? { id: r.existingId } : undefined,
    counts: { taken: r.taken, waiting: r.waiting, ...r.places },
    tags: r.tagIds,
    hasConflict: r.hasConflict,
    hasContracts: r.hasContracts,
    hasWebhooks: r.hasWebhooks,
  };
}

export interface BookRequest {
  actor: Actor;
  actorUserId: string | null;
  clientId: string;
  eventId: string;
  override: boolean;
  waitingListWanted: boolean;
  passId?: string;
  payAtDesk?: boolean;
  /** Part of booking a whole course (`booking/course/book`): clients may not book one course class alone. */
  wholeCourse?: boolean;
}

/** A booking done: its outcome, the class's rules it was decided on, and the visit as written. */
export interface BookedVisit {
  outcome: BookingOutcome;
  visitId: string;
  event: BookingEventRow;
  /** The visit row as the booking wrote it, and what its answer shows (`bookedVisit`: no read back). */
  visit: {
    status: ClientVisitStatus;
    waitingRank: number | null;
    payment: VisitRow['payment'];
    passId: string | null;
    passName: Record<string, { value: string }> | null;
    contractId: string | null;
    contractName: Record<string, { value: string }> | null;
    bookedBy: Actor;
    bookedAt: Date;
    shown: EventShown;
  };
}

const STATUS_OF: Record<BookingOutcome, ClientVisitStatus> = {
  booked: V.booked,
  unconfirmed: V.unconfirmed,
  waitingList: V.waitingList,
};

/**
 * Books a client on a class in the caller's transaction. A popular class's row lock serialises every
 * booking of it, so the booking holds it for as little as it can:
 *
 * 1. Before the class's lock: the client's lock (one client's bookings one at a time, so an entry is
 *    never spent twice and an overlapping class is seen), the class's rules as read, the client's
 *    facts (tags, a standing visit, an overlapping class, the shared passes' locks, settings), what
 *    pays (passes, contracts) and the pure rule's decision — everything that cannot change while the
 *    client's lock is held. A refusal that does not depend on places is answered here, without ever
 *    waiting for the class, and so is a class seen full with its waiting list full (places and
 *    counts read in one snapshot): in a rush the many refused never queue on the class's lock. The
 *    confirmation mail is queued here when the class looked open (it rolls back with a refusal).
 * 2. The class's lock (`lockEvent`): its rules as they are now (staff may have cancelled or changed
 *    it); the rule is decided again on them, and the pass's projection with this visit computed
 *    (in JS, no round trip).
 * 3. One statement: places and the waiting list counted under the lock (its snapshot starts after
 *    the lock was granted, so it sees every booking committed before), the visit written with the
 *    status they allow (a place, the waiting list or none: the same decision for each count as
 *    `decideBooking`), the pass's projection updated when a place was taken, and the queued
 *    confirmation taken back when none was (a caller that catches the refusal and goes on, like
 *    the sync push or a course signup, keeps no stray job).
 *
 * Lock order: client, shared passes, then the class (see README "Concurrency"). A pass entry is used
 * by the visit row itself (entries derive from visits).
 */
export async function bookVisit(trx: Db, studio: Studio, req: BookRequest, now: Date): Promise<BookedVisit> {
  const seen = await readEventLockingClient(trx, studio.id, req.eventId, req.clientId);
  if (seen.serviceType === 'course' && req.actor !== 'staff' && !req.wholeCourse)
    throw new AppError('course.bookAsWhole', {
      message: 'a course is booked as a whole',
      fields: { scheduleEventId: ['a course is booked as a whole'] },
    });
  if (!seen.clientLocked) throw AppError.notFound('client');
  const { settings, existing, counts, tags, hasConflict, hasContracts, hasWebhooks } = await bookingFactsOf(
    trx,
    studio,
    seen,
    req.clientId,
  );
  const payment: PaymentChoice = existing
    ? { payment: 'free', passId: null, passRejection: null }
    : await paymentFor(trx, studio, seen, req.clientId, tags, {
        actor: req.actor,
        passId: req.passId,
        payAtDesk: req.payAtDesk,
        payAtDeskAllowed: settings.payAtDeskAllowed,
        hasContracts,
      });
  /** The pure rule on an event's rules, for places taken and people waiting. */
  const decide = (event: BookingEventRow, taken: number, waiting: number) =>
    decideBooking({
      event,
      actor: req.actor,
      override: req.override,
      now,
      timeZone: studio.timeZone,
      clientTagIds: tags,
      alreadyOnClass: Boolean(existing),
      hasConflict,
      payment: paymentForDecision(payment.payment),
      taken,
      waiting,
      walkInMinutes: settings.walkInMinutes,
      waitingListWanted: req.waitingListWanted,
    });
  const refuse = (refusal: BookingRefusal) =>
    refusalError(refusal, 'scheduleEventId', payment.passRejection ?? undefined);
  // Refusals that no place freed or taken could change (cancelled, closed, no pass, a conflict…).
  const early = decide(seen, 0, 0);
  if (!early.ok && early.refusal !== 'classFull') throw refuse(early.refusal);

  const id = uuidv7();
  // The class full with its waiting list as one snapshot saw it (places and counts read together): a
  // refusal as true as one a moment earlier would have been, so in a rush the many refused never
  // queue on the class's lock.
  const predicted = decide({ ...seen, ...counts }, counts.taken, counts.waiting);
  if (!predicted.ok) throw refuse(predicted.refusal);
  // Queued before the lock when the class looked open; fixed below in the rare other case.
  const mailQueued =
    predicted.ok && predicted.outcome !== 'waitingList'
      ? await enqueueBookingMail(trx, studio.id, req.clientId, id, 'confirmed')
      : undefined;

  /**
   * The visit placed on the class's rules `event` (statuses for each state of places and list, the
   * pass's projection with this visit). With `lockRules` (the rules' hash as read before the lock), the
   * class is locked and its places counted in one round trip, and nothing is written when its rules
   * changed since (`changed`); without, the caller already holds the lock.
   */
  const place = async (event: BookingEventRow, lockRules?: string) => {
    const withPlace = decide(event, 0, 0);
    if (!withPlace.ok && withPlace.refusal !== 'classFull') {
      // Staff changed the class since it was read (rare): the mail queued for it goes.
      if (mailQueued) await dropBookingMail(trx, mailQueued);
      throw refuse(withPlace.refusal);
    }
    const full = decide(event, event.capacity, 0);
    const fullListFull = decide(event, event.capacity, event.waitingListSize);
    const statusOf = (d: typeof full) => (d.ok ? STATUS_OF[d.outcome] : null);
    const placeStatus = statusOf(withPlace);
    const pass =
      payment.passId && payment.passFacts && placeStatus !== null && placeStatus !== V.waitingList
        ? derivePassState(
            {
              ...payment.passFacts,
              visits: [...payment.passFacts.visits, { startsAt: event.startsAt, status: placeStatus }],
            },
            now,
            studio.timeZone,
          )
        : undefined;
    const placed = await placeVisit(trx, {
      id,
      studioId: studio.id,
      event,
      clientId: req.clientId,
      statuses: {
        withPlace: placeStatus,
        full: statusOf(full),
        fullListFull: statusOf(fullListFull),
      },
      payment: payment.payment as VisitRow['payment'],
      passId: payment.passId,
      clientContractId: payment.clientContractId ?? null,
      bookedBy: req.actor,
      bookedByUserId: req.actorUserId,
      now,
      pass,
      mailQueued,
      lockRules,
    });
    return { ...placed, pass };
  };
  // The class's lock and the places counted under it in one round trip, on the rules read before it;
  // when staff changed them in between (rare), decided again on the rules under the lock, now held.
  let event: BookingEventRow = seen;
  let placed = await place(seen, seen.rulesHash);
  if (placed.changed) {
    event = await lockEvent(trx, studio.id, req.eventId);
    placed = await place(event);
  }
  const pass = placed.pass;
  if (placed.status === null) throw refuse('classFull');
  const status = placed.status;
  const outcome: BookingOutcome =
    status === V.waitingList ? 'waitingList' : status === V.unconfirmed ? 'unconfirmed' : 'booked';
  // A pass whose facts were not read with the candidates (none today) is re-read for its projection.
  if (payment.passId && !pass && status !== V.waitingList)
    await refreshPassProjection(trx, studio, payment.passId, now);
  if (status === V.waitingList) {
    // The statement took back the confirmation queued before the lock, if any.
    await toldWaiting(trx, studio, event, req.clientId, id, placed.waiting + 1);
  } else if (!mailQueued) await enqueueBookingMail(trx, studio.id, req.clientId, id, 'confirmed');
  // Whether the studio listens was read with the facts, so a studio without webhooks spends no round
  // trip under the class's lock on asking again.
  if (hasWebhooks)
    await emitWebhookEvent(
      trx,
      studio.id,
      'visit.booked',
      { visitId: id, scheduleEventId: req.eventId, userId: req.clientId, outcome },
      now,
    );
  return {
    outcome,
    visitId: id,
    event,
    visit: {
      status: status as ClientVisitStatus,
      // Placed last on the list under the class's lock, behind everyone waiting then.
      waitingRank: status === V.waitingList ? placed.waiting + 1 : null,
      payment: payment.payment as VisitRow['payment'],
      passId: payment.passId,
      passName: payment.passId ? (payment.passName ?? null) : null,
      contractId: payment.clientContractId ?? null,
      contractName: payment.clientContractId ? (payment.contractName ?? null) : null,
      bookedBy: req.actor,
      bookedAt: now,
      shown: seen.shown,
    },
  };
}

/**
 * What a booking's answer shows of its class besides the rules (room, instructors, names), read with
 * them before any lock: the answer is put together from what the booking read, with no read after
 * the commit (`bookedVisit`).
 */
export interface EventShown {
  roomId: string | null;
  roomName: string | null;
  locationName: string;
  serviceColor: string;
  instructorIds: string[];
  instructors: Array<{ id: string; firstName: string; lastName: string }>;
}

/** `readEventLockingClient`'s statement, compiled once (exported for `bench:booking`'s driver loop). */
export const EVENT_LOCKING_CLIENT = compiled<{ studioId: string; eventId: string; clientId: string }>(
  (db, p) =>
    selectEventRules(db, p.studioId)
      .where('e.id', p.eventId)
      .select(
        db.raw(
          '(select c.id from clients c where c.studio_id = ? and c.user_id = ? for update) as client_row',
          [p.studioId, p.clientId],
        ),
        db.raw(`${RULES_HASH_SQL} as rules_hash`),
        'e.room_id',
        'e.instructor_ids',
        's.color as service_color',
        db.raw('(select l.name from locations l where l.id = e.location_id) as location_name'),
        db.raw('(select r.name from location_rooms r where r.id = e.room_id) as room_name'),
        // People who taught stay named on past classes even after they leave the staff.
        db.raw(`(select coalesce(json_agg(json_build_object('id', u.id, 'firstName', u.first_name,
                                                           'lastName', u.last_name)), '[]'::json)
                 from users u where u.id = any(e.instructor_ids)) as instructors`),
      )
      .first(),
);

/**
 * The event with its rules (no lock: `lockEvent` takes it later), what its answer shows (`shown`) and
 * the client's row locked, in one statement; `clientLocked` false when the client is not the studio's.
 */
async function readEventLockingClient(
  trx: Db,
  studioId: string,
  eventId: string,
  clientId: string,
): Promise<BookingEventRow & { clientLocked: boolean; rulesHash: string; shown: EventShown }> {
  const row = await EVENT_LOCKING_CLIENT.first<
    BookingEventRow & EventShown & { clientRow: string | null; rulesHash: string }
  >(trx, { studioId, eventId, clientId });
  if (!row) throw AppError.notFound('class');
  const {
    clientRow,
    rulesHash,
    roomId,
    roomName,
    locationName,
    serviceColor,
    instructorIds,
    instructors,
    ...event
  } = row;
  return {
    ...withDefaults(event),
    clientLocked: clientRow !== null,
    rulesHash,
    shown: { roomId, roomName, locationName, serviceColor, instructorIds: instructorIds ?? [], instructors },
  };
}

/** An argument of a statement run by `lock_then_run`: the JSON object `$1`'s field, cast. */
const arg = (name: string, type: string) => `cast($1->>'${name}' as ${type})`;

/**
 * The class's rules as one hash: read with the event before the lock (`readEventLockingClient`) and
 * again under it (`LOCK_EVENT_RULES_SQL`); equal hashes mean the rules decided on still hold.
 */
export const RULES_HASH_SQL = `md5(row(${EVENT_RULE_COLUMNS.map((c) => c.split(' as ')[0]).join(', ')})::text)`;

/** Locks the class and answers its rules' hash (`lock_then_run`'s first statement; `$1`: studio, event). */
export const LOCK_EVENT_RULES_SQL = `select ${RULES_HASH_SQL}
   from schedule_events e join class_services s on s.id = e.class_service_id
   left join schedule_metas m on m.id = e.schedule_meta_id
  where e.studio_id = ${arg('studioId', 'uuid')} and e.id = ${arg('eventId', 'uuid')}
    for update of e`;

/**
 * The one statement under the class's lock (`$1`: the JSON arguments of `placeVisit`): counts places
 * and the waiting list, writes the visit with the status they allow, updates the pass's projection
 * when a place was taken and takes back the confirmation queued before the lock when none was.
 * Answers `{status, waiting}` as JSON. Run by `lock_then_run` (migration 0390) after the lock
 * statement: a function's next statement takes a new snapshot, so it counts every booking committed
 * before the lock was granted — in one statement with the lock it would count as of before the wait.
 */
export const PLACE_VISIT_SQL = `with c as (
       select count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken,
              count(*) filter (where status = ${V.waitingList})::int as waiting,
              coalesce(max(waiting_position) filter (where status = ${V.waitingList}), 0)::int as last_position
         from client_visits
        where studio_id = ${arg('studioId', 'uuid')} and schedule_event_id = ${arg('eventId', 'uuid')}),
     d as (
       select c.waiting, c.last_position,
              case when c.taken < ${arg('capacity', 'int')} then ${arg('withPlace', 'smallint')}
                   when c.waiting < ${arg('listSize', 'int')} then ${arg('full', 'smallint')}
                   else ${arg('fullListFull', 'smallint')} end as status
         from c),
     visit as (
       insert into client_visits (id, studio_id, schedule_event_id, client_id, starts_at, status, payment,
                                  client_pricing_option_id, client_contract_id, booked_by, booked_by_user_id,
                                  waiting_position, booked_at)
       select ${arg('id', 'uuid')}, ${arg('studioId', 'uuid')}, ${arg('eventId', 'uuid')},
              ${arg('clientId', 'uuid')}, ${arg('startsAt', 'timestamptz')}, d.status,
              ${arg('payment', 'varchar')}, ${arg('passId', 'uuid')}, ${arg('contractId', 'uuid')},
              ${arg('bookedBy', 'varchar')}, ${arg('bookedByUserId', 'uuid')},
              case when d.status = ${V.waitingList} then d.last_position + 1 end, ${arg('now', 'timestamptz')}
         from d where d.status is not null
       returning status),
     projection as (
       update client_pricing_options
          set status = ${arg('passStatus', 'smallint')}, activated_at = ${arg('activatedAt', 'timestamptz')},
              expires_at = ${arg('expiresAt', 'timestamptz')}, updated_at = current_timestamp
        where studio_id = ${arg('studioId', 'uuid')} and id = ${arg('projectedPassId', 'uuid')}
          and exists (select 1 from visit where visit.status <> ${V.waitingList})),
     unqueued as (
       ${dropBookingMailSql(arg('mailJobId', 'uuid'))}
          and not exists (select 1 from visit where visit.status <> ${V.waitingList}))
     select jsonb_build_object('status', (select status from visit), 'waiting', d.waiting) from d`;

/**
 * The class's lock and `PLACE_VISIT_SQL` in one round trip (`lock_then_run`, migration 0390), compiled
 * once; without `lockSql` it only places (the caller holds the lock).
 */
export const LOCK_THEN_PLACE = compiled<{
  lockSql: string | null;
  lockArgs: string | null;
  rulesHash: string | null;
  placeArgs: string;
}>((db, p) =>
  db.raw('select lock_then_run(?, ?::jsonb, ?, ?, ?::jsonb) as r', [
    p.lockSql,
    p.lockArgs,
    p.rulesHash,
    PLACE_VISIT_SQL,
    p.placeArgs,
  ]),
);

/**
 * Places the visit (`PLACE_VISIT_SQL`): counts places and the waiting list, writes the visit with
 * the status they allow (`statuses`: with a place free, when full with room on the list, when both
 * are full; null = refused) and, when a place was taken, the pass's projection (`pass`, computed
 * with this visit), and takes back the confirmation queued before the lock unless a place was taken.
 * With `lockRules`, locks the class first in the same round trip (`lock_then_run`) and places nothing
 * when its rules no longer hash to it (`changed`). Answers the status written (null: none) and how
 * many were waiting before.
 */
async function placeVisit(
  trx: Db,
  v: {
    id: string;
    studioId: string;
    event: BookingEventRow;
    clientId: string;
    statuses: { withPlace: number | null; full: number | null; fullListFull: number | null };
    payment: VisitRow['payment'];
    passId: string | null;
    clientContractId: string | null;
    bookedBy: Actor;
    bookedByUserId: string | null;
    now: Date;
    pass: PassState | undefined;
    /** The confirmation queued before the lock: taken back unless a place was taken. */
    mailQueued: string | undefined;
    /** Lock the class first, in the same round trip, expecting its rules to hash to this. */
    lockRules?: string;
  },
): Promise<{ changed: boolean; status: number | null; waiting: number }> {
  const args = {
    eventId: v.event.id,
    capacity: v.event.capacity,
    listSize: v.event.waitingListSize,
    withPlace: v.statuses.withPlace,
    full: v.statuses.full,
    fullListFull: v.statuses.fullListFull,
    id: v.id,
    studioId: v.studioId,
    clientId: v.clientId,
    startsAt: v.event.startsAt,
    payment: v.payment,
    passId: v.passId,
    contractId: v.clientContractId,
    bookedBy: v.bookedBy,
    bookedByUserId: v.bookedByUserId,
    now: v.now,
    passStatus: v.pass?.status ?? null,
    activatedAt: v.pass?.activatedAt ?? null,
    expiresAt: v.pass?.expiresAt ?? null,
    projectedPassId: v.pass ? v.passId : null,
    mailJobId: v.mailQueued ?? null,
  };
  const locking = v.lockRules !== undefined;
  const { rows } = await LOCK_THEN_PLACE.raw<{
    r: { changed?: boolean; status: number | null; waiting: number };
  }>(trx, {
    lockSql: locking ? LOCK_EVENT_RULES_SQL : null,
    lockArgs: locking ? JSON.stringify({ studioId: v.studioId, eventId: v.event.id }) : null,
    rulesHash: v.lockRules ?? null,
    placeArgs: JSON.stringify(args),
  });
  const r = rows[0]!.r;
  if (r.changed) return { changed: true, status: null, waiting: 0 };
  return { changed: false, status: r.status === null ? null : Number(r.status), waiting: Number(r.waiting) };
}
