import { V, attendanceRefusal, nextStatus, type VisitAction } from '../../../../shared/domain/bookings';
import type { ClientVisitStatus } from '../../../../shared/enums/visits';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { refreshPassProjection } from '../catalog/index';
import type { Studio } from '../identity/index';
import {
  isPaid,
  lockEvent,
  lockVisit,
  settingsOf,
  type BookingEventRow,
  type VisitRow,
} from './booking-facts.service';
import { cancelVisit, recordFee, voidFees } from './cancel-and-fees.service';
import { emitWebhookEvent } from '../../webhooks/emit';

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
    if (action !== 'reset' && attendanceRefusal(action, event.startsAt, now, settings.checkInOpensMinutes)) {
      fields[`clientVisitIds.${i}`] = [
        action === 'present'
          ? `check-in opens ${settings.checkInOpensMinutes} minutes before the class`
          : 'the class has not started yet',
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
    if (status === V.present)
      await emitWebhookEvent(
        trx,
        studio.id,
        'visit.attended',
        { visitId: visit.id, userId: visit.clientId },
        now,
      );
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
