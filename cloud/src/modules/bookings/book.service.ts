import { v7 as uuidv7 } from 'uuid';
import type { BookingOutcome, BookingSettings } from '../../../../shared/contracts/api/bookings';
import { V, decideBooking, ON_CLASS, TAKES_PLACE, type Actor } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/client-pricing-options.service';
import type { Studio } from '../identity/studio.model';
import { enqueueBookingMail } from './booking-mails.service';
import {
  DEFAULT_SETTINGS,
  SHARED_PASSES_LOCK,
  lockClient,
  lockEvent,
  paymentFor,
  paymentForDecision,
  refusalError,
  type BookingEventRow,
  type PaymentChoice,
  type VisitRow,
} from './booking-facts.service';
import { toldWaiting } from './waiting-list.service';

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
