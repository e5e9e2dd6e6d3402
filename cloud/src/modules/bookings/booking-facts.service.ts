import type {
  BookingRefusal,
  BookingSettings,
  BookingSettingsPatch,
} from '../../../../shared/contracts/api/bookings';
import {
  type Actor,
  type Payment,
  CHECK_IN_OPENS_MINUTES,
  ON_CLASS,
  TAKES_PLACE,
  V,
} from '../../../../shared/domain/bookings';
import { chooseEntitlementForVisit } from '../../../../shared/domain/contracts';
import {
  addLocalDays,
  localDateOf,
  type PassFacts,
  type PassRejection,
} from '../../../../shared/domain/entitlements';
import { setValues, sqlSet } from '../../../../shared/domain/sql';
import type { ServiceType } from '../../../../shared/enums/services';
import type { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { passCandidatesFor } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import type { Studio } from '../identity/index';

/*
 * Locks and facts of the booking rules: the event with its rules, the locks every change of who is on
 * a class takes (README "Concurrency": booking locks client, shared passes, event; changes of a
 * booked visit lock event, visit; a promotion event, client, shared passes), the studio's booking settings,
 * what pays for a visit, and the refusals as errors. `book`, `cancel-and-fees`, `waiting-list` and
 * `attendance` build on these.
 */

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
 * entry already used and an entry is never spent twice. Booking (a class, a course) and reconciling
 * lock the client before the events (the class's lock is then held for the least time); a waiting-list
 * promotion can only learn whom to promote under the event's lock, so it locks event, then client
 * (README "Concurrency": why that cannot deadlock with a booking, and the retry if a chain does).
 */
export async function lockClient(trx: Db, studioId: string, clientId: string): Promise<void> {
  const row = await trx('clients').where({ studioId, userId: clientId }).forUpdate().first('id');
  if (!row) throw AppError.notFound('client');
}

export async function countsOf(
  db: Db,
  studioId: string,
  eventId: string,
): Promise<{ taken: number; waiting: number }> {
  // By (studio_id, schedule_event_id, status): without the studio the planner could only walk that
  // whole index, every studio's visits.
  const row = (await db('client_visits')
    .where({ studioId, scheduleEventId: eventId })
    .first(
      db.raw(`count(*) filter (where status in ${sqlSet(TAKES_PLACE)})::int as taken`),
      db.raw(`count(*) filter (where status = ${V.waitingList})::int as waiting`),
    )) as { taken: number; waiting: number };
  return { taken: Number(row.taken), waiting: Number(row.waiting) };
}

export const DEFAULT_SETTINGS = {
  lateCancelFee: 0,
  noShowFee: 0,
  forgiveFirstOffence: false,
  promotionCutoffMinutes: 60,
  payAtDeskAllowed: false,
  checkInOpensMinutes: CHECK_IN_OPENS_MINUTES,
  walkInMinutes: null as number | null,
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
    checkInOpensMinutes: s.checkInOpensMinutes,
    walkInMinutes: s.walkInMinutes,
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
      checkInOpensMinutes: next.checkInOpensMinutes,
      walkInMinutes: next.walkInMinutes,
    })
    .onConflict('studio_id')
    .merge({
      lateCancelFee: next.lateCancelFee,
      noShowFee: next.noShowFee,
      forgiveFirstOffence: next.forgiveFirstOffence,
      promotionCutoffMinutes: next.promotionCutoffMinutes,
      payAtDeskAllowed: next.payAtDeskAllowed,
      checkInOpensMinutes: next.checkInOpensMinutes,
      walkInMinutes: next.walkInMinutes,
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

export interface PaymentChoice {
  payment: VisitPayment;
  passId: string | null;
  /** The chosen pass's facts as read (its projection is refreshed from them after the visit is written). */
  passFacts?: PassFacts;
  clientContractId?: string | null;
  /** The chosen pass's or contract's name, as read with it (a booking's answer shows what paid). */
  passName?: Record<string, { value: string }>;
  contractName?: Record<string, { value: string }>;
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
  options: {
    actor: Actor;
    passId?: string;
    payAtDesk?: boolean;
    payAtDeskAllowed: boolean;
    /** False when the caller knows the client has no contract at all (no query for them then). */
    hasContracts?: boolean;
  },
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
  const contracts =
    options.passId || options.hasContracts === false
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
      contractName: contracts.find((c) => c.id === choice.clientContractId)?.name,
      passRejection: null,
    };
  if (choice.ok) {
    const chosen = candidates.find((c) => c.id === choice.passId);
    return {
      payment: 'pass',
      passId: choice.passId,
      passFacts: chosen?.facts,
      passName: chosen?.name,
      passRejection: null,
    };
  }
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
 * Row-locks, in id order, the passes a client may spend that someone else may spend too (their own
 * passes shared with someone, and those shared with them); unshared passes are not touched (the
 * `exists` on the shares' unique index finds nothing). Parameters `:studioId`, `:clientId`. The
 * client's passes are found by two index lookups, (studio_id, client_id) and the shares'
 * (studio_id, user_id): as `client_id = … or exists (a share with them)` the planner hashed every
 * share of every studio.
 */
export const SHARED_PASSES_LOCK = `
  select p.id from client_pricing_options p
   where p.studio_id = :studioId
     and p.id in (select own.id from client_pricing_options own
                   where own.studio_id = :studioId and own.client_id = :clientId
                  union all
                  select sh.client_pricing_option_id from client_pricing_option_shares sh
                   where sh.studio_id = :studioId and sh.user_id = :clientId)
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

/** The class's name in the studio's language, for notification values. */
export const classNameOf = (studio: Studio, event: BookingEventRow) =>
  event.serviceName[studio.defaultLocale]?.value ?? Object.values(event.serviceName)[0]?.value ?? '';

export async function lockVisit(trx: Db, studioId: string, visitId: string): Promise<VisitRow> {
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

export const isPaid = (v: Pick<VisitRow, 'payment' | 'paidAt'>) => v.payment !== 'desk' || v.paidAt !== null;

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

/** The client's standing visit on an event, if any (for check-in). */
export async function standingVisit(db: Db, studioId: string, eventId: string, clientId: string) {
  return (await db('client_visits')
    .where({ studioId, scheduleEventId: eventId, clientId })
    .whereIn('status', setValues(ON_CLASS))
    .first('id', 'status')) as { id: string; status: ClientVisitStatus } | undefined;
}
