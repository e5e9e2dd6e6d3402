import { canPromoteAt, nextStatus, V } from '../../../../shared/domain/bookings';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import { notify } from '../client-accounts/index';
import type { Studio } from '../identity/index';
import { enqueueBookingMail } from './booking-mails.service';
import {
  classNameOf,
  clientTagIds,
  conflictingVisits,
  countsOf,
  lockClient,
  lockEvent,
  lockSharedPasses,
  lockVisit,
  paymentFor,
  refusalError,
  settingsOf,
  type BookingEventRow,
  type VisitRow,
} from './booking-facts.service';

/** Joining a waiting list: an e-mail and an in-app notification saying which place (1-based). */
export async function toldWaiting(
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
  let { taken } = await countsOf(trx, studio.id, event.id);
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
  const { taken } = await countsOf(trx, studio.id, event.id);
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
