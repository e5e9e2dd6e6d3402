import { v7 as uuidv7 } from 'uuid';
import type {
  BookingOutcome,
  BookingRefusal,
  BookingSettings,
  BookingSettingsPatch,
} from '../../../../shared/contracts/api/bookings';
import {
  V,
  canPromoteAt,
  decideBooking,
  decideCancel,
  feeFor,
  feeKindOf,
  isOnClass,
  nextStatus,
  overlaps,
  takesPlace,
  attendanceRefusal,
  type Actor,
  type Payment,
  type VisitAction,
  ON_CLASS,
  TAKES_PLACE,
} from '../../../../shared/domain/bookings';
import { chooseEntitlementForVisit } from '../../../../shared/domain/contracts';
import {
  addLocalDays,
  localDateOf,
  type PassFacts,
  type PassRejection,
} from '../../../../shared/domain/entitlements';
import type { ServiceType } from '../../../../shared/enums/services';
import type { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { passCandidatesFor, refreshPassProjection } from '../catalog/client-pricing-options.service';
import { contractEntitlementsFor } from '../contracts/contract-entitlements.service';
import { notify } from '../client-accounts/inbox.service';
import type { Studio } from '../identity/rows';
import { enqueueBookingMail, enqueueBookingMails, type CancelMailDetails } from './booking-mails.service';
import { billFee } from './fee-orders.service';
import { setValues, sqlSet } from '../../../../shared/domain/sql';

/** An event with the booking rules of its meta (defaults when the meta is gone). */
export interface BookingEventRow {
  id: string;
  classServiceId: string;
  serviceName: Record<string, { value: string }>;
  serviceType: ServiceType;
  freeOfCharge: boolean;
  locationId: string;
  startsAt: Date;
  endsAt: Date;
  capacity: number;
  waitingListSize: number;
  status: 'scheduled' | 'cancelled' | 'removed';
  isHidden: boolean;
  bookableOnline: boolean;
  bookingOpensHours: number | null;
  bookingClosesMinutes: number;
  cancellationCutoffMinutes: number;
  bookingAccessibility: number;
  bookingTagIds: string[];
}

export interface VisitRow {
  id: string;
  scheduleEventId: string;
  clientId: string;
  status: ClientVisitStatus;
  payment: 'pass' | 'contract' | 'free' | 'desk';
  clientPricingOptionId: string | null;
  paidAt: Date | null;
  bookedBy: Actor;
  waitingPosition: number | null;
  checkedInAt: Date | null;
}

export const EVENT_RULE_COLUMNS = [
  'e.id',
  'e.class_service_id',
  's.name as service_name',
  's.service_type',
  's.free_of_charge',
  'e.location_id',
  'e.starts_at',
  'e.ends_at',
  'e.capacity',
  'e.waiting_list_size',
  'e.status',
  'e.is_hidden',
  'e.bookable_online',
  'm.booking_opens_hours',
  'm.booking_closes_minutes',
  'm.cancellation_cutoff_minutes',
  'm.booking_accessibility',
  'm.booking_tag_ids',
];

/** Events with their meta's rules; an event without a meta: always open, no cut-offs, open to all. */
export function selectEventRules(db: Db, studioId: string) {
  return db('schedule_events as e')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .leftJoin('schedule_metas as m', 'm.id', 'e.schedule_meta_id')
    .where('e.studio_id', studioId)
    .select(EVENT_RULE_COLUMNS);
}

export function withDefaults(row: BookingEventRow): BookingEventRow {
  return {
    ...row,
    startsAt: new Date(row.startsAt),
    endsAt: new Date(row.endsAt),
    bookingOpensHours: row.bookingOpensHours ?? null,
    bookingClosesMinutes: row.bookingClosesMinutes ?? 0,
    cancellationCutoffMinutes: row.cancellationCutoffMinutes ?? 0,
    bookingAccessibility: row.bookingAccessibility ?? 1,
    bookingTagIds: row.bookingTagIds ?? [],
  };
}

/** The event row locked for this transaction: every change of who is on a class goes through it. */
export async function lockEvent(trx: Db, studioId: string, eventId: string): Promise<BookingEventRow> {
  const row = (await selectEventRules(trx, studioId).where('e.id', eventId).forUpdate('e').first()) as
    BookingEventRow | undefined;
  if (!row) throw AppError.notFound('class');
  return withDefaults(row);
}

export async function readEvent(db: Db, studioId: string, eventId: string): Promise<BookingEventRow> {
  const row = (await selectEventRules(db, studioId).where('e.id', eventId).first()) as
    BookingEventRow | undefined;
  if (!row) throw AppError.notFound('class');
  return withDefaults(row);
}

/**
 * Locks the client's record: bookings of one client are serialized, so the pass-choice rule sees every
 * entry already used and an entry is never spent twice. Lock order everywhere: event, then client.
 */
async function lockClient(trx: Db, studioId: string, clientId: string): Promise<void> {
  const row = await trx('clients').where({ studioId, userId: clientId }).forUpdate().first('id');
  if (!row) throw AppError.notFound('client');
}

export async function countsOf(db: Db, eventId: string): Promise<{ taken: number; waiting: number }> {
  const row = (await db('client_visits')
    .where({ scheduleEventId: eventId })
    .first(
      db.raw(`count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken`),
      db.raw(`count(*) filter (where status = ${V.waitingList})::int as waiting`),
    )) as { taken: number; waiting: number };
  return { taken: Number(row.taken), waiting: Number(row.waiting) };
}

const DEFAULT_SETTINGS = {
  lateCancelFee: 0,
  noShowFee: 0,
  forgiveFirstOffence: false,
  promotionCutoffMinutes: 60,
  payAtDeskAllowed: false,
};

export async function settingsOf(db: Db, studio: Studio): Promise<BookingSettings> {
  const row = (await db('studio_booking_settings').where({ studioId: studio.id }).first()) as
    typeof DEFAULT_SETTINGS | undefined;
  const s = row ?? DEFAULT_SETTINGS;
  return {
    currency: studio.currency,
    lateCancelFee: s.lateCancelFee,
    noShowFee: s.noShowFee,
    forgiveFirstOffence: s.forgiveFirstOffence,
    promotionCutoffMinutes: s.promotionCutoffMinutes,
    payAtDeskAllowed: s.payAtDeskAllowed,
  };
}

export async function updateSettings(
  trx: Db,
  studio: Studio,
  patch: BookingSettingsPatch,
): Promise<BookingSettings> {
  const current = await settingsOf(trx, studio);
  const next = { ...current, ...patch };
  await trx('studio_booking_settings')
    .insert({
      studioId: studio.id,
      lateCancelFee: next.lateCancelFee,
      noShowFee: next.noShowFee,
      forgiveFirstOffence: next.forgiveFirstOffence,
      promotionCutoffMinutes: next.promotionCutoffMinutes,
      payAtDeskAllowed: next.payAtDeskAllowed,
    })
    .onConflict('studio_id')
    .merge({
      lateCancelFee: next.lateCancelFee,
      noShowFee: next.noShowFee,
      forgiveFirstOffence: next.forgiveFirstOffence,
      promotionCutoffMinutes: next.promotionCutoffMinutes,
      payAtDeskAllowed: next.payAtDeskAllowed,
      updatedAt: trx.fn.now(),
    });
  return settingsOf(trx, studio);
}

export async function clientTagIds(db: Db, studioId: string, clientId: string): Promise<string[]> {
  const rows = (await db('user_tags').where({ studioId, userId: clientId }).select('tag_id')) as Array<{
    tagId: string;
  }>;
  return rows.map((r) => r.tagId);
}

/** The client's other classes that overlap this one (booked, attended or unconfirmed). */
export async function conflictingVisits(db: Db, studioId: string, clientId: string, event: BookingEventRow) {
  return (await db('client_visits as v')
    .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
    .join('class_services as s', 's.id', 'e.class_service_id')
    .where({ 'v.studio_id': studioId, 'v.client_id': clientId })
    .whereIn('v.status', setValues(TAKES_PLACE))
    .whereNot('v.schedule_event_id', event.id)
    .where('v.starts_at', '<', event.endsAt)
    .where('e.ends_at', '>', event.startsAt)
    .where('v.starts_at', '>', new Date(event.startsAt.getTime() - 24 * 3_600_000))
    .select(
      'v.id as client_visit_id',
      'v.schedule_event_id',
      'v.status',
      'e.class_service_id',
      's.name as service_name',
      'e.starts_at',
      'e.ends_at',
    )) as Array<{
    clientVisitId: string;
    scheduleEventId: string;
    status: ClientVisitStatus;
    classServiceId: string;
    serviceName: Record<string, { value: string }>;
    startsAt: Date;
    endsAt: Date;
  }>;
}

/** How a visit is paid: the booking rule's `Payment`, or a client contract (membership). */
export type VisitPayment = Payment | 'contract';

interface PaymentChoice {
  payment: VisitPayment;
  passId: string | null;
  /** The chosen pass's facts as read (its projection is refreshed from them after the visit is written). */
  passFacts?: PassFacts;
  clientContractId?: string | null;
  passRejection: PassRejection | 'noPasses' | null;
}

/** A contract pays for a place exactly as a pass does (booked at once, nothing owed at the desk). */
export const paymentForDecision = (payment: VisitPayment): Payment =>
  payment === 'contract' ? 'pass' : payment;

/**
 * How a visit to this event would be paid: a free class needs nothing; else what the entitlement
 * rule picks — a covering client contract first, then a pass (or the pass staff named, which skips
 * contracts); else at the desk when staff ask for it or the studio lets clients pay there; else not
 * at all.
 */
export async function paymentFor(
  db: Db,
  studio: Studio,
  event: BookingEventRow,
  clientId: string,
  tagIds: readonly string[],
  options: { actor: Actor; passId?: string; payAtDesk?: boolean; payAtDeskAllowed: boolean },
): Promise<PaymentChoice> {
  if (event.freeOfCharge) return { payment: 'free', passId: null, passRejection: null };
  if (options.actor === 'staff' && options.payAtDesk)
    return { payment: 'desk', passId: null, passRejection: null };
  let candidates = await passCandidatesFor(db, studio, clientId);
  if (options.passId) {
    candidates = candidates.filter((c) => c.id === options.passId);
    if (candidates.length === 0)
      throw AppError.invalid({ clientPricingOptionId: ['not a pass of this client'] });
  }
  // A named pass is the staff's choice: contracts are not considered then.
  const contracts = options.passId
    ? []
    : await contractEntitlementsFor(
        db,
        studio,
        clientId,
        addLocalDays(localDateOf(event.startsAt, studio.timeZone), -1),
      );
  const choice = chooseEntitlementForVisit(
    { contracts, passes: candidates },
    {
      serviceType: event.serviceType,
      serviceId: event.classServiceId,
      locationId: event.locationId,
      startsAt: event.startsAt,
      clientTagIds: tagIds,
    },
    studio.timeZone,
  );
  if (choice.ok && choice.kind === 'contract')
    return {
      payment: 'contract',
      passId: null,
      clientContractId: choice.clientContractId,
      passRejection: null,
    };
  if (choice.ok)
    return {
      payment: 'pass',
      passId: choice.passId,
      passFacts: candidates.find((c) => c.id === choice.passId)?.facts,
      passRejection: null,
    };
  if (options.actor !== 'staff' && options.payAtDeskAllowed && !options.passId)
    return { payment: 'desk', passId: null, passRejection: choice.reason };
  return { payment: 'none', passId: null, passRejection: choice.reason };
}

const REFUSAL_ERRORS: Record<BookingRefusal, { key: ErrorKey; message: string }> = {
  classCancelled: { key: 'visit.classCancelled', message: 'the class is cancelled' },
  classStarted: { key: 'visit.classStarted', message: 'the class has already started' },
  notBookableOnline: { key: 'visit.notBookableOnline', message: 'this class cannot be booked online' },
  notAccessible: { key: 'visit.notAccessible', message: 'this class is not open to your booking' },
  bookingNotOpen: { key: 'visit.bookingNotOpen', message: 'booking has not opened yet' },
  bookingClosed: { key: 'visit.bookingClosed', message: 'booking has closed' },
  alreadyBooked: { key: 'visit.alreadyBooked', message: 'already booked on this class' },
  conflict: { key: 'visit.conflict', message: 'another class at the same time' },
  noPass: { key: 'visit.noPass', message: 'no pass covers this class' },
  classFull: { key: 'visit.classFull', message: 'the class is full' },
};

export function refusalError(refusal: BookingRefusal, field = 'scheduleEventId', detail?: string): AppError {
  const { key, message } = REFUSAL_ERRORS[refusal];
  return new AppError(key, { message, fields: { [field]: [detail ? `${message} (${detail})` : message] } });
}

/**
 * What booking a client on a locked class needs besides their passes, in one statement: a standing
 * visit, places taken and the waiting list (with its last position), the client's tags, whether
 * another class of theirs overlaps (as `conflictingVisits`), the studio's booking settings. Run it
 * after `lockEvent` and `lockClient`: a statement's snapshot is taken when it starts, so the counts
 * see every booking committed before the lock was granted.
 *
 * It also row-locks the client's **shared** passes (own ones shared with someone, and those shared
 * with the client), in id order. The client's lock serializes one client's bookings, but a shared
 * pass is spent by several clients, whose bookings of different classes take no common lock: both
 * would read the same entry left. The passes are read by the next statement (`passCandidatesFor`),
 * whose snapshot starts after these locks are granted, so it sees the other client's visit. An
 * unshared pass is locked by nobody (the `exists` on the shares' unique index finds nothing), and
 * the lock costs no round trip. Lock order: event, client, shared passes.
 */
/**
 * Row-locks, in id order, the passes a client may spend that someone else may spend too (their own
 * passes shared with someone, and those shared with them); unshared passes are not touched (the
 * `exists` on the shares' unique index finds nothing). Parameters `:studioId`, `:clientId`.
 */
const SHARED_PASSES_LOCK = `
  select p.id from client_pricing_options p
   where p.studio_id = :studioId
     and (p.client_id = :clientId
          or exists (select 1 from client_pricing_option_shares sh
                      where sh.client_pricing_option_id = p.id and sh.user_id = :clientId))
     and exists (select 1 from client_pricing_option_shares sh where sh.client_pricing_option_id = p.id)
   order by p.id
   for update of p`;

/**
 * `SHARED_PASSES_LOCK` on its own, for the paths that choose a pass outside `bookVisit` (a waiting-list
 * promotion, reconciling unpaid visits): after the client's lock, before the passes are read.
 */
export async function lockSharedPasses(trx: Db, studioId: string, clientId: string): Promise<void> {
  await trx.raw(SHARED_PASSES_LOCK, { studioId, clientId });
}

async function bookingFactsOf(trx: Db, studio: Studio, event: BookingEventRow, clientId: string) {
  const { rows } = (await trx.raw(
    `select (select v.id from client_visits v
              where v.schedule_event_id = :eventId and v.client_id = :clientId
                and v.status in ${sqlSet(ON_CLASS)} limit 1) as "existingId",
            c.taken, c.waiting, c.last_position as "lastWaitingPosition",
            (select coalesce(array_agg(t.tag_id), '{}') from user_tags t
              where t.studio_id = :studioId and t.user_id = :clientId) as "tagIds",
            exists (select 1 from client_visits v join schedule_events e on e.id = v.schedule_event_id
                     where v.studio_id = :studioId and v.client_id = :clientId
                       and v.status in ${sqlSet(TAKES_PLACE)} and v.schedule_event_id <> :eventId
                       and v.starts_at < :endsAt and e.ends_at > :startsAt
                       and v.starts_at > :dayBefore) as "hasConflict",
            (select count(*) from (${SHARED_PASSES_LOCK}) shared)::int as "sharedPassesLocked",
            s.studio_id is not null as "hasSettings", s.late_cancel_fee as "lateCancelFee",
            s.no_show_fee as "noShowFee", s.forgive_first_offence as "forgiveFirstOffence",
            s.promotion_cutoff_minutes as "promotionCutoffMinutes", s.pay_at_desk_allowed as "payAtDeskAllowed"
       from (select count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken,
                    count(*) filter (where status = ${V.waitingList})::int as waiting,
                    coalesce(max(waiting_position) filter (where status = ${V.waitingList}), 0)::int as last_position
               from client_visits where schedule_event_id = :eventId) c
       left join studio_booking_settings s on s.studio_id = :studioId`,
    {
      eventId: event.id,
      clientId,
      studioId: studio.id,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      dayBefore: new Date(event.startsAt.getTime() - 24 * 3_600_000),
    },
  )) as {
    rows: Array<
      typeof DEFAULT_SETTINGS & {
        existingId: string | null;
        taken: number;
        waiting: number;
        lastWaitingPosition: number;
        tagIds: string[];
        hasConflict: boolean;
        hasSettings: boolean;
      }
    >;
  };
  const r = rows[0]!;
  const s = r.hasSettings ? r : DEFAULT_SETTINGS;
  const settings: BookingSettings = {
    currency: studio.currency,
    lateCancelFee: s.lateCancelFee,
    noShowFee: s.noShowFee,
    forgiveFirstOffence: s.forgiveFirstOffence,
    promotionCutoffMinutes: s.promotionCutoffMinutes,
    payAtDeskAllowed: s.payAtDeskAllowed,
  };
  return {
    settings,
    existing: r.existingId ? { id: r.existingId } : undefined,
    counts: { taken: r.taken, waiting: r.waiting },
    tags: r.tagIds,
    hasConflict: r.hasConflict,
    lastWaitingPosition: r.lastWaitingPosition,
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

/**
 * Books a client on a class in the caller's transaction: locks the event row (so places and the
 * waiting list are counted by one booking at a time), then the client, decides with the pure rule and
 * writes the visit. A pass entry is used by the visit row itself (entries derive from visits).
 */
export async function bookVisit(
  trx: Db,
  studio: Studio,
  req: BookRequest,
  now: Date,
): Promise<{ outcome: BookingOutcome; visitId: string }> {
  const event = await lockEvent(trx, studio.id, req.eventId);
  if (event.serviceType === 'course' && req.actor !== 'staff' && !req.wholeCourse)
    throw new AppError('course.bookAsWhole', {
      message: 'a course is booked as a whole',
      fields: { scheduleEventId: ['a course is booked as a whole'] },
    });
  await lockClient(trx, studio.id, req.clientId);
  // Everything else about the class and the client in one statement: the event's lock is held from
  // here to the commit, so each round trip is time every other booking of this class waits.
  const { settings, existing, counts, tags, hasConflict, lastWaitingPosition } = await bookingFactsOf(
    trx,
    studio,
    event,
    req.clientId,
  );
  const payment: PaymentChoice = existing
    ? { payment: 'free', passId: null, passRejection: null }
    : await paymentFor(trx, studio, event, req.clientId, tags, {
        actor: req.actor,
        passId: req.passId,
        payAtDesk: req.payAtDesk,
        payAtDeskAllowed: settings.payAtDeskAllowed,
      });
  const decision = decideBooking({
    event,
    actor: req.actor,
    override: req.override,
    now,
    timeZone: studio.timeZone,
    clientTagIds: tags,
    alreadyOnClass: Boolean(existing),
    hasConflict,
    payment: paymentForDecision(payment.payment),
    taken: counts.taken,
    waiting: counts.waiting,
    waitingListWanted: req.waitingListWanted,
  });
  if (!decision.ok)
    throw refusalError(decision.refusal, 'scheduleEventId', payment.passRejection ?? undefined);
  const status =
    decision.outcome === 'waitingList'
      ? V.waitingList
      : decision.outcome === 'unconfirmed'
        ? V.unconfirmed
        : V.booked;
  const id = uuidv7();
  const payWith = payment.payment as VisitRow['payment'];
  await trx('client_visits').insert({
    id,
    studioId: studio.id,
    scheduleEventId: event.id,
    clientId: req.clientId,
    startsAt: event.startsAt,
    status,
    payment: payWith,
    clientPricingOptionId: payment.passId,
    clientContractId: payment.clientContractId ?? null,
    bookedBy: req.actor,
    bookedByUserId: req.actorUserId,
    waitingPosition: status === V.waitingList ? lastWaitingPosition + 1 : null,
    bookedAt: now,
  });
  if (payment.passId && status !== V.waitingList)
    await refreshPassProjection(
      trx,
      studio,
      payment.passId,
      now,
      // The facts read after the client's lock, plus this visit: nothing else can have changed them.
      payment.passFacts && {
        ...payment.passFacts,
        visits: [...payment.passFacts.visits, { startsAt: event.startsAt, status }],
      },
    );
  if (status !== V.waitingList) await enqueueBookingMail(trx, studio.id, req.clientId, id, 'confirmed');
  else await toldWaiting(trx, studio, event, req.clientId, id, counts.waiting + 1);
  return { outcome: decision.outcome, visitId: id };
}

/** The class's name in the studio's language, for notification values. */
const classNameOf = (studio: Studio, event: BookingEventRow) =>
  event.serviceName[studio.defaultLocale]?.value ?? Object.values(event.serviceName)[0]?.value ?? '';

/** Joining a waiting list: an e-mail and an in-app notification saying which place (1-based). */
async function toldWaiting(
  trx: Db,
  studio: Studio,
  event: BookingEventRow,
  clientId: string,
  visitId: string,
  position: number,
): Promise<void> {
  await enqueueBookingMail(trx, studio.id, clientId, visitId, 'waitingList', { position });
  await notify(trx, studio.id, clientId, 'visitWaitingList', 'bookings:notifications.waitingList', {
    scheduleEventId: event.id,
    startsAt: event.startsAt.toISOString(),
    className: classNameOf(studio, event),
    position: String(position),
  });
}

async function lockVisit(trx: Db, studioId: string, visitId: string): Promise<VisitRow> {
  const row = (await trx('client_visits')
    .where({ studioId, id: visitId })
    .forUpdate()
    .first(
      'id',
      'schedule_event_id',
      'client_id',
      'status',
      'payment',
      'client_pricing_option_id',
      'paid_at',
      'booked_by',
      'waiting_position',
      'checked_in_at',
    )) as VisitRow | undefined;
  if (!row) throw AppError.notFound('visit');
  return row;
}

/** The visit's event id (no lock), scoped to the studio and, for clients, to their own visits. */
export async function eventOfVisit(
  db: Db,
  studioId: string,
  visitId: string,
  clientId?: string,
): Promise<string> {
  const q = db('client_visits').where({ studioId, id: visitId });
  if (clientId) q.where({ clientId });
  const row = (await q.first('schedule_event_id')) as { scheduleEventId: string } | undefined;
  if (!row) throw AppError.notFound('visit');
  return row.scheduleEventId;
}

const isPaid = (v: Pick<VisitRow, 'payment' | 'paidAt'>) => v.payment !== 'desk' || v.paidAt !== null;

async function recordFee(
  trx: Db,
  studio: Studio,
  visit: VisitRow,
  status: number,
  settings: BookingSettings,
  actorUserId: string | null,
): Promise<CancelMailDetails['fee'] | undefined> {
  const kind = feeKindOf(status);
  if (!kind) return undefined;
  const [earlier] = (await trx('client_visit_fees')
    .where({ studioId: studio.id, clientId: visit.clientId })
    .whereNull('voided_at')
    .count('* as n')) as Array<{ n: number | string }>;
  const fee = feeFor(kind, settings, Number(earlier?.n ?? 0));
  if (!fee) return undefined;
  const feeId = uuidv7();
  await trx('client_visit_fees').insert({
    id: feeId,
    studioId: studio.id,
    clientVisitId: visit.id,
    clientId: visit.clientId,
    kind,
    amount: fee.amount,
    currency: studio.currency,
    forgiven: fee.forgiven,
    createdBy: actorUserId,
  });
  if (!fee.forgiven)
    await billFee(
      trx,
      studio,
      { id: feeId, visitId: visit.id, clientId: visit.clientId, kind, amount: fee.amount },
      actorUserId,
    );
  return { amount: fee.amount, currency: studio.currency, forgiven: fee.forgiven };
}

async function voidFees(trx: Db, visitId: string, now: Date): Promise<void> {
  await trx('client_visit_fees')
    .where({ clientVisitId: visitId })
    .whereNull('voided_at')
    .update({ voidedAt: now, updatedAt: trx.fn.now() });
}

export type CancelOutcome = 'earlyCancel' | 'lateCancel' | 'leftWaitingList';

/**
 * Cancels a visit (or takes it off the waiting list) in the caller's transaction. Early: the entry
 * comes back (the visit no longer holds it); late: it is kept and the studio's fee recorded (staff may
 * waive it). A freed place goes to the waiting list.
 */
export async function cancelVisit(
  trx: Db,
  studio: Studio,
  visitId: string,
  actor: Actor,
  actorUserId: string | null,
  now: Date,
  options: { clientId?: string; chargeFee?: boolean } = {},
): Promise<{ outcome: CancelOutcome; visitId: string }> {
  const eventId = await eventOfVisit(trx, studio.id, visitId, options.clientId);
  const event = await lockEvent(trx, studio.id, eventId);
  const visit = await lockVisit(trx, studio.id, visitId);
  const decision = decideCancel(visit.status, event, actor, now);
  if (!decision.ok) {
    const key: ErrorKey =
      decision.refusal === 'classStarted'
        ? 'visit.classStarted'
        : decision.refusal === 'classCancelled'
          ? 'visit.classCancelled'
          : 'visit.notCancellable';
    const message =
      decision.refusal === 'classStarted'
        ? 'the class has already started'
        : decision.refusal === 'classCancelled'
          ? 'the class is cancelled'
          : 'this visit cannot be cancelled';
    throw new AppError(key, { message, fields: { clientVisitId: [message] } });
  }
  const next = nextStatus(visit.status, decision.kind, actor, isPaid(visit));
  if (!next.ok) throw new AppError('visit.notCancellable', { message: 'this visit cannot be cancelled' });
  const waive = actor === 'staff' && options.chargeFee === false;
  await trx('client_visits').where({ id: visit.id }).update({
    status: next.status,
    waitingPosition: null,
    cancelledAt: now,
    cancelledByUserId: actorUserId,
    feeWaived: waive,
    updatedAt: trx.fn.now(),
  });
  const fee =
    decision.kind === 'lateCancel' && !waive
      ? await recordFee(trx, studio, visit, next.status, await settingsOf(trx, studio), actorUserId)
      : undefined;
  if (decision.kind !== 'leaveWaitingList')
    await enqueueBookingMail(trx, studio.id, visit.clientId, visit.id, 'cancelled', {
      late: decision.kind === 'lateCancel',
      ...(fee ? { fee } : {}),
    });
  if (visit.clientPricingOptionId && takesPlace(visit.status))
    await refreshPassProjection(trx, studio, visit.clientPricingOptionId, now);
  if (takesPlace(visit.status)) await promoteWaiting(trx, studio, event, now);
  return {
    outcome: decision.kind === 'leaveWaitingList' ? 'leftWaitingList' : decision.kind,
    visitId: visit.id,
  };
}

/** The waiting visits of a locked event in position order. */
async function waitingOf(trx: Db, eventId: string): Promise<VisitRow[]> {
  return (await trx('client_visits')
    .where({ scheduleEventId: eventId, status: V.waitingList })
    .orderBy([{ column: 'waiting_position' }, { column: 'id' }])
    .forUpdate()
    .select(
      'id',
      'schedule_event_id',
      'client_id',
      'status',
      'payment',
      'client_pricing_option_id',
      'paid_at',
      'booked_by',
      'waiting_position',
      'checked_in_at',
    )) as VisitRow[];
}

/**
 * Gives one waiting visit its place: paid by a pass the client holds now, a free class, or — when they
 * joined agreeing to pay at the desk — unconfirmed. Null when they cannot pay or now clash with
 * another class (they stay on the list).
 */
async function tryPromote(
  trx: Db,
  studio: Studio,
  event: BookingEventRow,
  visit: VisitRow,
  now: Date,
  override: boolean,
): Promise<boolean> {
  await lockClient(trx, studio.id, visit.clientId);
  await lockSharedPasses(trx, studio.id, visit.clientId);
  const tags = await clientTagIds(trx, studio.id, visit.clientId);
  let pay = await paymentFor(trx, studio, event, visit.clientId, tags, {
    actor: 'staff',
    payAtDeskAllowed: false,
  });
  if (pay.payment === 'none' && (visit.payment === 'desk' || override))
    pay = { payment: 'desk', passId: null, passRejection: null };
  if (pay.payment === 'none') return false;
  if (!override && (await conflictingVisits(trx, studio.id, visit.clientId, event)).length > 0) return false;
  const paid = pay.payment !== 'desk';
  const next = nextStatus(visit.status, 'promote', 'staff', paid);
  if (!next.ok) return false;
  await trx('client_visits')
    .where({ id: visit.id })
    .update({
      status: next.status,
      waitingPosition: null,
      promotedAt: now,
      payment: pay.payment,
      clientPricingOptionId: pay.passId,
      clientContractId: pay.clientContractId ?? null,
      updatedAt: trx.fn.now(),
    });
  if (pay.passId) await refreshPassProjection(trx, studio, pay.passId, now);
  await enqueueBookingMail(trx, studio.id, visit.clientId, visit.id, 'promoted');
  await notify(trx, studio.id, visit.clientId, 'visitPromoted', 'bookings:notifications.promoted', {
    scheduleEventId: event.id,
    startsAt: event.startsAt.toISOString(),
    className: classNameOf(studio, event),
  });
  return true;
}

/**
 * Fills free places of a locked event from its waiting list, first come first served, skipping people
 * who cannot pay; only until the studio's promotion cut-off before the start.
 */
export async function promoteWaiting(
  trx: Db,
  studio: Studio,
  event: BookingEventRow,
  now: Date,
): Promise<number> {
  if (event.status !== 'scheduled') return 0;
  const settings = await settingsOf(trx, studio);
  if (!canPromoteAt(event.startsAt, settings.promotionCutoffMinutes, now)) return 0;
  let { taken } = await countsOf(trx, event.id);
  let promoted = 0;
  for (const visit of await waitingOf(trx, event.id)) {
    if (taken >= event.capacity) break;
    if (await tryPromote(trx, studio, event, visit, now, false)) {
      taken += 1;
      promoted += 1;
    }
  }
  return promoted;
}

/**
 * The schedule module's hook after events got more places (a per-event edit or a series change
 * raised `capacity`): each event is locked and its waiting list fills the new places, by the same
 * rules as a freed place (first who can pay, until the promotion cut-off). Returns how many moved up.
 */
export async function promoteAfterCapacityChange(
  trx: Db,
  studio: Studio,
  eventIds: string[],
  now: Date,
): Promise<number> {
  let promoted = 0;
  // Id order, like every multi-event lock, so two edits of overlapping sets cannot deadlock.
  for (const id of [...new Set(eventIds)].sort()) {
    const event = await lockEvent(trx, studio.id, id);
    promoted += await promoteWaiting(trx, studio, event, now);
  }
  return promoted;
}

/**
 * Which of these events have ever had a visit (any status): those are history the schedule must keep
 * (cancel instead of delete), since deleting an event deletes its visits, their fees and entries.
 */
export async function eventsWithVisits(db: Db, studioId: string, eventIds: string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = (await db('client_visits')
    .where({ studioId })
    .whereIn('schedule_event_id', eventIds)
    .distinct('schedule_event_id')) as Array<{ scheduleEventId: string }>;
  return new Set(rows.map((r) => r.scheduleEventId));
}

/** Staff promote one waiting person now (ignoring the promotion cut-off; override: also over capacity). */
export async function promoteOne(
  trx: Db,
  studio: Studio,
  eventId: string,
  visitId: string,
  override: boolean,
  now: Date,
): Promise<void> {
  const event = await lockEvent(trx, studio.id, eventId);
  const visit = await lockVisit(trx, studio.id, visitId);
  if (visit.scheduleEventId !== event.id) throw AppError.notFound('visit');
  if (visit.status !== V.waitingList)
    throw new AppError('visit.notWaiting', {
      message: 'not on the waiting list',
      fields: { clientVisitId: ['not on the waiting list'] },
    });
  if (event.status !== 'scheduled' || now >= event.endsAt)
    throw refusalError('classCancelled', 'clientVisitId');
  const { taken } = await countsOf(trx, event.id);
  if (taken >= event.capacity && !override) throw refusalError('classFull', 'clientVisitId');
  if (!(await tryPromote(trx, studio, event, visit, now, override)))
    throw refusalError('noPass', 'clientVisitId');
}

/** Moves a waiting visit to a 1-based place on the list; the others keep their order. */
export async function moveWaiting(
  trx: Db,
  studio: Studio,
  eventId: string,
  visitId: string,
  position: number,
): Promise<void> {
  const event = await lockEvent(trx, studio.id, eventId);
  const list = await waitingOf(trx, event.id);
  const index = list.findIndex((v) => v.id === visitId);
  if (index < 0) {
    const exists = await trx('client_visits')
      .where({ studioId: studio.id, id: visitId, scheduleEventId: event.id })
      .first('id');
    if (!exists) throw AppError.notFound('visit');
    throw new AppError('visit.notWaiting', {
      message: 'not on the waiting list',
      fields: { clientVisitId: ['not on the waiting list'] },
    });
  }
  const [moved] = list.splice(index, 1);
  list.splice(Math.min(position - 1, list.length), 0, moved!);
  for (const [i, v] of list.entries())
    if (v.waitingPosition !== i + 1)
      await trx('client_visits')
        .where({ id: v.id })
        .update({ waitingPosition: i + 1, updatedAt: trx.fn.now() });
}

/**
 * The schedule module's hook: events cancelled or removed. Everyone on them — booked, attended,
 * unconfirmed, waiting — becomes "class cancelled" (7), which gives every pass entry back, and is told.
 */
export async function cancelVisitsOfEvents(
  trx: Db,
  studio: Studio,
  eventIds: string[],
  now: Date,
): Promise<void> {
  if (eventIds.length === 0) return;
  const rows = (await trx('client_visits')
    .where({ studioId: studio.id })
    .whereIn('schedule_event_id', eventIds)
    .whereIn('status', setValues(ON_CLASS))
    .update({ status: V.classCancelled, waitingPosition: null, cancelledAt: now, updatedAt: trx.fn.now() })
    .returning(['id', 'client_id', 'client_pricing_option_id', 'schedule_event_id', 'starts_at'])) as Array<{
    id: string;
    clientId: string;
    clientPricingOptionId: string | null;
    scheduleEventId: string;
    startsAt: Date;
  }>;
  for (const passId of new Set(
    rows.flatMap((r) => (r.clientPricingOptionId ? [r.clientPricingOptionId] : [])),
  ))
    await refreshPassProjection(trx, studio, passId, now);
  await enqueueBookingMails(
    trx,
    studio.id,
    rows.map((r) => ({ clientId: r.clientId, visitId: r.id })),
    'classCancelled',
  );
  for (const r of rows)
    await notify(trx, studio.id, r.clientId, 'classCancelled', 'bookings:notifications.classCancelled', {
      scheduleEventId: r.scheduleEventId,
      startsAt: new Date(r.startsAt).toISOString(),
    });
}

/**
 * Attendance and staff cancellation for many visits (one transaction): present (check-in), absent
 * (no-show fee), reset (undo attendance, fees voided), cancel (early/late by the cut-off).
 */
export async function changeEnrollmentStatus(
  trx: Db,
  studio: Studio,
  ids: string[],
  action: 'present' | 'absent' | 'reset' | 'cancel',
  actorUserId: string,
  chargeFee: boolean,
  now: Date,
): Promise<void> {
  const rows = (await trx('client_visits')
    .where({ studioId: studio.id })
    .whereIn('id', ids)
    .select('id', 'schedule_event_id')) as Array<{ id: string; scheduleEventId: string }>;
  if (rows.length !== ids.length) throw AppError.notFound('visit');
  if (action === 'cancel') {
    for (const [i, id] of ids.entries()) {
      try {
        await cancelVisit(trx, studio, id, 'staff', actorUserId, now, { chargeFee });
      } catch (err) {
        if (err instanceof AppError && err.fields?.clientVisitId)
          throw new AppError(err.key, {
            message: err.message,
            fields: { [`clientVisitIds.${i}`]: err.fields.clientVisitId },
          });
        throw err;
      }
    }
    return;
  }
  const eventIds = [...new Set(rows.map((r) => r.scheduleEventId))].sort();
  const events = new Map<string, BookingEventRow>();
  for (const id of eventIds) events.set(id, await lockEvent(trx, studio.id, id));
  const settings = await settingsOf(trx, studio);
  const fields: Record<string, string[]> = {};
  const changes: Array<{ visit: VisitRow; status: ClientVisitStatus; event: BookingEventRow }> = [];
  for (const [i, id] of ids.entries()) {
    const visit = await lockVisit(trx, studio.id, id);
    const event = events.get(visit.scheduleEventId)!;
    if (action !== 'reset' && attendanceRefusal(action, event.startsAt, now)) {
      fields[`clientVisitIds.${i}`] = [
        action === 'present' ? 'check-in opens an hour before the class' : 'the class has not started yet',
      ];
      continue;
    }
    const next = nextStatus(visit.status, action as VisitAction, 'staff', isPaid(visit));
    if (!next.ok || event.status !== 'scheduled') {
      fields[`clientVisitIds.${i}`] = ['not possible for this visit'];
      continue;
    }
    changes.push({ visit, status: next.status, event });
  }
  if (Object.keys(fields).length > 0)
    throw new AppError(
      Object.values(fields).some((f) => f[0]!.includes('class'))
        ? 'visit.tooEarly'
        : 'visit.statusNotAllowed',
      { message: Object.values(fields)[0]![0], fields },
    );
  for (const { visit, status } of changes) {
    if (visit.status === status) continue;
    await trx('client_visits')
      .where({ id: visit.id })
      .update({
        status,
        checkedInAt:
          status === V.present ? (visit.checkedInAt ?? now) : action === 'reset' ? null : undefined,
        attendanceMarkedAt: action === 'reset' ? null : now,
        feeWaived: status === V.absent ? !chargeFee : false,
        updatedAt: trx.fn.now(),
      });
    if (visit.status === V.absent) await voidFees(trx, visit.id, now);
    if (status === V.absent && chargeFee) await recordFee(trx, studio, visit, status, settings, actorUserId);
    if (visit.clientPricingOptionId)
      await refreshPassProjection(trx, studio, visit.clientPricingOptionId, now);
  }
}

/**
 * 9 → 0: visits paid at the desk. The sales module owns `client-visits/pay` (the order and payment)
 * and calls this when it fulfils an order's `visit` lines.
 */
export async function markVisitsPaid(trx: Db, studio: Studio, ids: string[], now: Date): Promise<void> {
  const rows = (await trx('client_visits')
    .where({ studioId: studio.id })
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id', 'status', 'payment', 'paid_at')) as Array<
    Pick<VisitRow, 'id' | 'status' | 'payment' | 'paidAt'>
  >;
  if (rows.length !== ids.length) throw AppError.notFound('visit');
  const fields: Record<string, string[]> = {};
  const byId = new Map(rows.map((r) => [r.id, r]));
  ids.forEach((id, i) => {
    const r = byId.get(id)!;
    if (r.payment !== 'desk' || r.paidAt !== null) fields[`clientVisitIds.${i}`] = ['nothing to pay'];
  });
  if (Object.keys(fields).length > 0)
    throw new AppError('visit.statusNotAllowed', { message: 'nothing to pay', fields });
  await trx('client_visits')
    .whereIn('id', ids)
    .update({
      paidAt: now,
      status: trx.raw(`case when status = ${V.unconfirmed} then 0 else status end`),
      updatedAt: trx.fn.now(),
    });
}

/** The client's standing visit on an event, if any (for check-in). */
export async function standingVisit(db: Db, studioId: string, eventId: string, clientId: string) {
  return (await db('client_visits')
    .where({ studioId, scheduleEventId: eventId, clientId })
    .whereIn('status', setValues(ON_CLASS))
    .first('id', 'status')) as { id: string; status: ClientVisitStatus } | undefined;
}

export { isOnClass, overlaps };
