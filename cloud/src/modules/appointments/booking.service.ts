import { v7 as uuidv7 } from 'uuid';
import {
  blockOf,
  canApply,
  clientCancellation,
  findSlots,
  latestBookableStart,
  type AppointmentAction,
  type AppointmentStatus,
} from '../../../../shared/domain/appointments';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { chooseEntitlementForVisit } from '../../../../shared/domain/contracts';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import { emitWebhookEvent } from '../../webhooks/emit';
import { passCandidatesFor, refreshPassProjection } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import type { Studio } from '../identity/index';
import { createOrder, payOrderFromWallet, startOnlinePayment } from '../sales/index';
import {
  appointmentRow,
  membersOfServices,
  serviceRow,
  type AppointmentRow,
  type ServiceRow,
} from './appointments.rows';
import { recordAppointmentFee, voidAppointmentFee } from './appointment-fees';
import { enqueueAppointmentMail } from './appointment-mails';
import { loadAvailability, slotServiceOf, spanOfDays } from './slots.service';

type Trx = Knex.Transaction;

/** How long a time reservation holds its slot while the client pays (online or at the phone). */
export const HOLD_MINUTES = 15;
const EXCLUSION_VIOLATION = '23P01';

export interface PlaceInput {
  serviceId: string;
  memberId?: string | null;
  startsAt: Date;
  clientId: string | null;
  bookedBy: 'staff' | 'self';
  actorId: string;
  /** Staff with `schedule.overrideRules`: outside hours or over a class (never over another appointment). */
  override?: boolean;
  note?: string;
}

const isExclusion = (e: unknown) =>
  typeof e === 'object' && e !== null && (e as { code?: string }).code === EXCLUSION_VIOLATION;

const slotTaken = () =>
  new AppError('appointment.slotTaken', {
    message: 'this time was just taken',
    fields: { startsAt: ['this time is no longer free'] },
  });

/**
 * Webhook events of issue 24, in the mutation's transaction: `appointment.booked` when a client's
 * appointment is made (booked or awaiting confirmation, not a reservation held for payment),
 * `appointment.changed` on every later change (confirmed, rejected, called off, cancelled, attended,
 * moved), with the change named.
 */
async function emitAppointmentEvent(
  trx: Trx,
  row: AppointmentRow,
  change: 'booked' | 'confirm' | 'reject' | 'callOff' | 'present' | 'absent' | 'cancel' | 'move',
  now: Date,
): Promise<void> {
  if (!row.clientId) return;
  await emitWebhookEvent(
    trx,
    row.studioId,
    change === 'booked' ? 'appointment.booked' : 'appointment.changed',
    {
      appointmentId: row.id,
      serviceId: row.serviceId,
      memberId: row.memberId,
      userId: row.clientId,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      status: row.status,
      ...(change === 'booked' ? {} : { change }),
    },
    now,
  );
}

/** The service to book, live, with who performs it. */
export async function bookableService(trx: Trx, studio: Studio, serviceId: string) {
  const service = await serviceRow(trx, studio.id, serviceId);
  if (service.archivedAt)
    throw new AppError('appointment.serviceArchived', {
      message: 'this service is no longer offered',
      fields: { serviceId: ['no longer offered'] },
    });
  const memberIds = (await membersOfServices(trx, studio.id, [serviceId])).get(serviceId) ?? [];
  return { service, memberIds };
}

/** The online rules a client books under: bookable online, the booking window. */
export function assertClientMayBook(service: ServiceRow, startsAt: Date, now: Date, timeZone: string): void {
  if (!service.bookableOnline)
    throw new AppError('appointment.notBookableOnline', { message: 'this service is booked at the desk' });
  if (startsAt.getTime() < now.getTime() + service.bookingClosesMinutes * 60_000)
    throw new AppError('appointment.bookingClosed', {
      message: 'booking for this time has closed',
      fields: { startsAt: ['booking has closed'] },
    });
  const latest = latestBookableStart(now, service.bookingOpensHours, timeZone);
  if (latest && startsAt > latest)
    throw new AppError('appointment.bookingNotOpen', {
      message: 'booking for this time is not open yet',
      fields: { startsAt: ['not open yet'] },
    });
}

/**
 * Writes an appointment holding the member's (and room's) time. The slot rules are re-checked
 * (unless overridden); the database's exclusion constraint decides races: of simultaneous bookings
 * of one time exactly one insert succeeds, the rest answer 409 `appointment.slotTaken`. For "anyone"
 * each free member is tried in turn, each insert in a savepoint.
 */
export async function placeAppointment(
  trx: Trx,
  studio: Studio,
  input: PlaceInput,
  row: Pick<AppointmentRow, 'status' | 'heldUntil' | 'payment' | 'clientPricingOptionId' | 'price'> & {
    clientContractId?: string | null;
  },
  now: Date,
): Promise<AppointmentRow> {
  const { service, memberIds } = await bookableService(trx, studio, input.serviceId);
  if (input.memberId && !memberIds.includes(input.memberId))
    throw new AppError('appointment.memberNotOffering', {
      message: 'this member of staff does not perform this service',
      fields: { memberId: ['does not perform this service'] },
    });
  const candidates = input.memberId ? [input.memberId] : memberIds;
  if (candidates.length === 0)
    throw new AppError('appointment.memberNotOffering', {
      message: 'nobody performs this service yet',
      fields: { memberId: ['nobody performs this service'] },
    });
  if (input.startsAt <= now && input.bookedBy === 'self')
    throw new AppError('appointment.bookingClosed', {
      message: 'this time has passed',
      fields: { startsAt: ['this time has passed'] },
    });

  const block = blockOf(input.startsAt, service);
  const endsAt = new Date(input.startsAt.getTime() + service.durationMinutes * 60_000);
  const free = await freeMembers(trx, studio, service, candidates, input.startsAt, now);
  const tryOrder = input.override ? candidates : free;
  if (tryOrder.length === 0) throw await whyNotFree(trx, studio, candidates, block, now);

  if (input.clientId) {
    const clash = await trx('client_appointments')
      .where({ studioId: studio.id, clientId: input.clientId })
      .whereIn('status', ['pending', 'booked', 'present'])
      .where('startsAt', '<', endsAt)
      .where('endsAt', '>', input.startsAt)
      .first('id');
    if (clash)
      throw new AppError('appointment.clientBusy', {
        message: 'the client has another appointment then',
        fields: { startsAt: ['the client has another appointment then'] },
      });
  }

  for (const memberId of tryOrder) {
    // Reservations whose hold ran out give their time back (the constraint still counts them).
    await trx('client_appointments')
      .where({ studioId: studio.id, status: 'reserved' })
      .where('heldUntil', '<=', now)
      .where((w) => {
        w.where('memberId', memberId);
        if (service.roomId) w.orWhere('roomId', service.roomId);
      })
      .where('blockedUntil', '>', block.startsAt)
      .where('blockedFrom', '<', block.endsAt)
      .update({ status: 'expired', updatedAt: now });
    const id = uuidv7();
    try {
      await trx.transaction(async (sp) => {
        await sp('client_appointments').insert({
          id,
          studioId: studio.id,
          serviceId: service.id,
          memberId,
          clientId: input.clientId,
          locationId: service.online ? null : service.locationId,
          roomId: service.online ? null : service.roomId,
          online: service.online,
          startsAt: input.startsAt,
          endsAt,
          blockedFrom: block.startsAt,
          blockedUntil: block.endsAt,
          status: row.status,
          heldUntil: row.heldUntil,
          payment: row.payment,
          clientPricingOptionId: row.clientPricingOptionId,
          clientContractId: row.clientContractId ?? null,
          price: row.price,
          currency: studio.currency,
          paidAt: row.payment === 'pass' || row.payment === 'free' || row.payment === 'contract' ? now : null,
          bookedBy: input.bookedBy,
          bookedByUserId: input.actorId,
          confirmedAt: row.status === 'booked' ? now : null,
          note: input.note ?? '',
        });
      });
      const placed = await appointmentRow(trx, studio.id, id);
      if (placed.status !== 'reserved') await emitAppointmentEvent(trx, placed, 'booked', now);
      return placed;
    } catch (e) {
      if (!isExclusion(e)) throw e;
    }
  }
  throw slotTaken();
}

/** Members among `candidates` for whom `startsAt` is a free slot, in order. */
async function freeMembers(
  trx: Trx,
  studio: Studio,
  service: ServiceRow,
  candidates: string[],
  startsAt: Date,
  now: Date,
) {
  const day = localDateOf(startsAt, studio.timeZone);
  const { staff, roomBusy } = await loadAvailability(
    trx,
    studio,
    candidates,
    service.roomId,
    spanOfDays(day, day, studio.timeZone),
    now,
  );
  const slots = findSlots(slotServiceOf(service), staff, roomBusy, {
    from: day,
    to: day,
    timeZone: studio.timeZone,
    earliest: startsAt,
    latest: startsAt,
  });
  return slots.map((s) => s.memberId);
}

async function whyNotFree(
  trx: Trx,
  studio: Studio,
  candidates: string[],
  block: { startsAt: Date; endsAt: Date },
  now: Date,
) {
  const taken = await trx('client_appointments')
    .where({ studioId: studio.id })
    .whereIn('memberId', candidates)
    .whereIn('status', ['pending', 'booked', 'present', 'absent', 'reserved'])
    .where((w) => w.whereNot('status', 'reserved').orWhere('heldUntil', '>', now))
    .where('blockedUntil', '>', block.startsAt)
    .where('blockedFrom', '<', block.endsAt)
    .first('id');
  if (taken) return slotTaken();
  return new AppError('appointment.outsideHours', {
    message: 'this time is not free in the staff member’s hours',
    fields: { startsAt: ['not a free time of this staff member'] },
  });
}

/** What covers an appointment: a pass (its entry is used) or a client contract (nothing is used). */
export type Entitlement = { passId: string; contractId: null } | { passId: null; contractId: string };

/**
 * What pays for an appointment "with my pass or membership": the pass named, else a covering
 * client contract before any pass (its periods are paid whether used or not), else the pass-choice
 * rule's pick — the classes' rule (`chooseEntitlementForVisit`). 409 `appointment.noPass` with the
 * closest reason when nothing covers it.
 */
export async function choosePass(
  trx: Trx,
  studio: Studio,
  service: ServiceRow,
  clientId: string,
  startsAt: Date,
  named?: string,
): Promise<Entitlement> {
  // One client's passes are used one booking at a time (the class booking path locks the same row).
  await trx('clients').where({ studioId: studio.id, userId: clientId }).forUpdate().first('id');
  let candidates = await passCandidatesFor(trx, studio, clientId);
  if (named) {
    candidates = candidates.filter((p) => p.id === named);
    if (candidates.length === 0) throw AppError.notFound('client pricing option');
  }
  const tags = (await trx('user_tags').where({ studioId: studio.id, userId: clientId }).select('tagId')).map(
    (t) => t.tagId,
  );
  const visit = {
    serviceType: 'appointment' as const,
    serviceId: service.id,
    locationId: service.locationId,
    startsAt,
    clientTagIds: tags,
  };
  // A pass named by staff: passes only (as for classes).
  const contracts = named
    ? []
    : await contractEntitlementsFor(trx, studio, clientId, localDateOf(startsAt, studio.timeZone));
  const choice = chooseEntitlementForVisit({ contracts, passes: candidates }, visit, studio.timeZone);
  if (!choice.ok)
    throw new AppError('appointment.noPass', {
      message: `no pass covers this appointment (${choice.reason})`,
      fields: { payment: [`no pass covers this appointment (${choice.reason})`] },
    });
  return choice.kind === 'contract'
    ? { passId: null, contractId: choice.clientContractId }
    : { passId: choice.passId, contractId: null };
}

/** An order of one appointment line (source `online`, once per appointment). */
async function orderFor(
  trx: Trx,
  studio: Studio,
  service: ServiceRow,
  appointment: AppointmentRow,
  clientId: string,
  actorId: string,
) {
  const day = appointment.startsAt.toLocaleString('sv-SE', { timeZone: studio.timeZone }).slice(0, 16);
  const name =
    service.name[studio.defaultLocale]?.value ??
    service.name.en?.value ??
    Object.values(service.name)[0]?.value ??
    '';
  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId,
    source: 'online',
    sourceId: `appointment:${appointment.id}`,
    createdBy: actorId,
    lines: [
      {
        kind: 'appointment',
        refId: appointment.id,
        name: `${name} ${day}`,
        quantity: 1,
        unitPriceMinor: appointment.price,
        vatRate: service.vatRate,
      },
    ],
  });
  await trx('client_appointments').where({ id: appointment.id }).update({ clientOrderId: id });
  return id;
}

export type ClientPayment = 'pass' | 'wallet' | 'online';

/**
 * A client's own booking (front office). Pass: booked at once (or pending for manual services).
 * Wallet: a reservation paid from the wallet in the same transaction. Online: a reservation held for
 * HOLD_MINUTES and an order awaiting the provider; the paid order's `appointment` line books it.
 */
export async function clientBook(
  trx: Trx,
  studio: Studio,
  clientId: string,
  input: {
    serviceId: string;
    memberId?: string | null;
    startsAt: Date;
    payment: ClientPayment;
    clientPricingOptionId?: string;
    returnPath?: string;
  },
  now: Date,
): Promise<{ appointment: AppointmentRow; redirectUrl: string | null }> {
  const { service } = await bookableService(trx, studio, input.serviceId);
  assertClientMayBook(service, input.startsAt, now, studio.timeZone);
  const settled: AppointmentStatus = service.confirmation === 'manual' ? 'pending' : 'booked';
  const place = {
    serviceId: input.serviceId,
    memberId: input.memberId,
    startsAt: input.startsAt,
    clientId,
    bookedBy: 'self' as const,
    actorId: clientId,
  };
  if (input.payment === 'pass') {
    const { passId, contractId } = await choosePass(
      trx,
      studio,
      service,
      clientId,
      input.startsAt,
      input.clientPricingOptionId,
    );
    const appointment = await placeAppointment(
      trx,
      studio,
      place,
      {
        status: settled,
        heldUntil: null,
        payment: contractId ? 'contract' : 'pass',
        clientPricingOptionId: passId,
        clientContractId: contractId,
        price: 0,
      },
      now,
    );
    if (passId) await refreshPassProjection(trx, studio, passId, now);
    return { appointment, redirectUrl: null };
  }
  if (service.price === null)
    throw new AppError('appointment.noPrice', {
      message: 'this service is paid with a pass only',
      fields: { payment: ['paid with a pass only'] },
    });
  const held = await placeAppointment(
    trx,
    studio,
    place,
    {
      status: 'reserved',
      heldUntil: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      payment: input.payment,
      clientPricingOptionId: null,
      price: service.price,
    },
    now,
  );
  const orderId = await orderFor(trx, studio, service, held, clientId, clientId);
  if (input.payment === 'wallet') {
    await payOrderFromWallet(trx, studio, orderId, clientId, now);
    return { appointment: await appointmentRow(trx, studio.id, held.id), redirectUrl: null };
  }
  const started = await startOnlinePayment(trx, studio, orderId, {
    returnPath: input.returnPath ?? `/${studio.id}/frontoffice/appointments`,
    createdBy: clientId,
  });
  return { appointment: await appointmentRow(trx, studio.id, held.id), redirectUrl: started.redirectUrl };
}

/**
 * The paid order's `appointment` line (registered with sales' fulfilment): the reservation becomes
 * the appointment. A reservation that ran out and whose time someone else took meanwhile violates
 * the constraint: the line stays unfulfilled (sales keeps the money for staff to refund).
 */
export async function fulfilAppointmentLine(
  trx: Trx,
  studio: Studio,
  appointmentId: string,
  now: Date,
): Promise<string | null> {
  const row = await trx('client_appointments')
    .where({ studioId: studio.id, id: appointmentId })
    .forUpdate()
    .first();
  if (!row || !['reserved', 'expired'].includes(row.status)) return row?.id ?? null;
  const service = await serviceRow(trx, studio.id, row.serviceId);
  const status = service.confirmation === 'manual' ? 'pending' : 'booked';
  await trx('client_appointments')
    .where({ id: row.id })
    .update({
      status,
      heldUntil: null,
      paidAt: now,
      confirmedAt: status === 'booked' ? now : null,
      updatedAt: now,
    });
  await emitAppointmentEvent(trx, await appointmentRow(trx, studio.id, row.id), 'booked', now);
  return row.id;
}

// ------------------------------------------------------------------------------ decisions

const NOT_ALLOWED = (action: AppointmentAction, status: string) =>
  new AppError('appointment.statusNotAllowed', {
    message: `cannot ${action} an appointment that is ${status}`,
  });

/** Gives back what paid an appointment that did not take place (pass entry: by status; money: the wallet). */
async function refund(trx: Trx, studio: Studio, row: AppointmentRow, actorId: string, now: Date) {
  if (row.clientPricingOptionId) await refreshPassProjection(trx, studio, row.clientPricingOptionId, now);
  if (row.paidAt && row.clientId && row.price > 0 && (row.payment === 'wallet' || row.payment === 'online'))
    await trx('client_wallet_payments').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientId: row.clientId,
      amount: row.price,
      currency: row.currency,
      kind: 'refund',
      orderId: row.clientOrderId,
      createdBy: actorId,
    });
}

export async function staffDecide(
  trx: Trx,
  studio: Studio,
  id: string,
  action: 'confirm' | 'reject' | 'callOff' | 'present' | 'absent',
  actorId: string,
  reason: string,
  now: Date,
): Promise<AppointmentRow> {
  const row = await appointmentRow(trx, studio.id, id, true);
  if (!canApply(action, row.status as AppointmentStatus)) throw NOT_ALLOWED(action, row.status);
  const next: Record<typeof action, Partial<AppointmentRow>> = {
    confirm: { status: 'booked', confirmedAt: now, decidedByUserId: actorId },
    reject: { status: 'rejected', decidedByUserId: actorId, cancelledAt: now },
    callOff: { status: 'calledOff', cancelledAt: now, cancelledByUserId: actorId },
    present: { status: 'present', checkedInAt: now },
    absent: { status: 'absent' },
  };
  await trx('client_appointments')
    .where({ id })
    .update({ ...next[action], heldUntil: null, updatedAt: now });
  const updated = await appointmentRow(trx, studio.id, id);
  await emitAppointmentEvent(trx, updated, action, now);
  if (action === 'reject' || action === 'callOff') await refund(trx, studio, updated, actorId, now);
  // Attendance corrected: a no-show fee recorded for this appointment no longer stands.
  if (action === 'present' && row.status === 'absent') await voidAppointmentFee(trx, id, 'noShow');
  if (updated.clientId && (action === 'confirm' || action === 'reject' || action === 'callOff'))
    await enqueueAppointmentMail(
      trx,
      studio,
      updated,
      action === 'confirm' ? 'confirmed' : action === 'reject' ? 'rejected' : 'calledOff',
      reason,
    );
  return updated;
}

/** A client's own cancellation: early (entry or money back) or late (kept), refused once started. */
export async function clientCancel(
  trx: Trx,
  studio: Studio,
  clientId: string,
  id: string,
  now: Date,
): Promise<AppointmentRow> {
  const row = await appointmentRow(trx, studio.id, id, true);
  if (row.clientId !== clientId) throw AppError.notFound('client appointment');
  const service = await serviceRow(trx, studio.id, row.serviceId);
  const outcome = canApply('cancel', row.status as AppointmentStatus)
    ? clientCancellation(row.startsAt, service.cancellationCutoffMinutes, now)
    : null;
  if (!outcome)
    throw new AppError('appointment.notCancellable', {
      message: 'this appointment can no longer be cancelled',
    });
  await trx('client_appointments')
    .where({ id })
    .update({ status: outcome, cancelledAt: now, cancelledByUserId: clientId, updatedAt: now });
  const updated = await appointmentRow(trx, studio.id, id);
  await emitAppointmentEvent(trx, updated, 'cancel', now);
  if (outcome === 'cancelled') await refund(trx, studio, updated, clientId, now);
  else {
    if (updated.clientPricingOptionId)
      await refreshPassProjection(trx, studio, updated.clientPricingOptionId, now);
    await recordAppointmentFee(trx, studio, updated, 'lateCancel', clientId);
  }
  return updated;
}

/** Staff mark a client absent (no-show): the studio's no-show fee unless they waive it (`chargeFee: false`). */
export async function markNoShow(
  trx: Trx,
  studio: Studio,
  id: string,
  actorId: string,
  chargeFee: boolean,
  now: Date,
): Promise<AppointmentRow> {
  const updated = await staffDecide(trx, studio, id, 'absent', actorId, '', now);
  if (chargeFee) await recordAppointmentFee(trx, studio, updated, 'noShow', actorId);
  return updated;
}

/** Staff move an appointment (the calendar's drag): the same rules as booking it there. */
export async function moveAppointment(
  trx: Trx,
  studio: Studio,
  id: string,
  to: { startsAt: Date; memberId?: string; override: boolean },
  now: Date,
): Promise<AppointmentRow> {
  const row = await appointmentRow(trx, studio.id, id, true);
  if (!canApply('move', row.status as AppointmentStatus)) throw NOT_ALLOWED('move', row.status);
  const { service, memberIds } = await bookableService(trx, studio, row.serviceId);
  const memberId = to.memberId ?? row.memberId;
  if (!memberIds.includes(memberId))
    throw new AppError('appointment.memberNotOffering', {
      message: 'this member of staff does not perform this service',
      fields: { memberId: ['does not perform this service'] },
    });
  const day = localDateOf(to.startsAt, studio.timeZone);
  const { staff, roomBusy } = await loadAvailability(
    trx,
    studio,
    [memberId],
    service.roomId,
    spanOfDays(day, day, studio.timeZone),
    now,
    id,
  );
  const free = findSlots(slotServiceOf(service), staff, roomBusy, {
    from: day,
    to: day,
    timeZone: studio.timeZone,
    earliest: to.startsAt,
    latest: to.startsAt,
  });
  const block = blockOf(to.startsAt, service);
  if (free.length === 0 && !to.override) throw await whyNotFree(trx, studio, [memberId], block, now);
  try {
    await trx.transaction(async (sp) => {
      await sp('client_appointments')
        .where({ id })
        .update({
          memberId,
          startsAt: to.startsAt,
          endsAt: new Date(to.startsAt.getTime() + service.durationMinutes * 60_000),
          blockedFrom: block.startsAt,
          blockedUntil: block.endsAt,
          updatedAt: now,
        });
    });
  } catch (e) {
    if (isExclusion(e)) throw slotTaken();
    throw e;
  }
  const updated = await appointmentRow(trx, studio.id, id);
  await emitAppointmentEvent(trx, updated, 'move', now);
  if (updated.clientPricingOptionId)
    await refreshPassProjection(trx, studio, updated.clientPricingOptionId, now);
  if (updated.clientId) await enqueueAppointmentMail(trx, studio, updated, 'moved', '');
  return updated;
}
