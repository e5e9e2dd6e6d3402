import { v7 as uuidv7 } from 'uuid';
import type { BookingSettings } from '../../../../shared/contracts/api/bookings';
import {
  V,
  decideCancel,
  feeFor,
  feeKindOf,
  nextStatus,
  takesPlace,
  ON_CLASS,
  type Actor,
} from '../../../../shared/domain/bookings';
import { setValues } from '../../../../shared/domain/sql';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import { notify } from '../client-accounts/index';
import type { Studio } from '../identity/index';
import { enqueueBookingMail, enqueueBookingMails, type CancelMailDetails } from './booking-mails.service';
import {
  eventOfVisit,
  isPaid,
  lockEvent,
  lockVisit,
  settingsOf,
  type VisitRow,
} from './booking-facts.service';
import { billFee } from './fee-orders.service';
import { promoteWaiting } from './waiting-list.service';
import { emitWebhookEvent } from '../../webhooks/emit';

export async function recordFee(
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

export async function voidFees(trx: Db, visitId: string, now: Date): Promise<void> {
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
  await emitWebhookEvent(
    trx,
    studio.id,
    'visit.cancelled',
    {
      visitId: visit.id,
      scheduleEventId: eventId,
      userId: visit.clientId,
      late: decision.kind === 'lateCancel',
    },
    now,
  );
  return {
    outcome: decision.kind === 'leaveWaitingList' ? 'leftWaitingList' : decision.kind,
    visitId: visit.id,
  };
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
