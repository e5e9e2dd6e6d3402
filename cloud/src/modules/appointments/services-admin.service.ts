import { v7 as uuidv7 } from 'uuid';
import type {
  AppointmentServiceInput,
  AppointmentServicePatch,
  AppointmentServiceView,
  MemberSchedule,
} from '../../../../shared/contracts/api/appointments';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { membersOfServices, presentService, serviceRow } from './appointments.rows';

/** Staff's editors: categories, services (with who performs them), hours and unavailability. */

async function checkPlace(db: Db, studioId: string, locationId: string | null, roomId: string | null) {
  if (locationId && !(await db('locations').where({ studioId, id: locationId }).first('id')))
    throw AppError.notFound('location');
  if (roomId) {
    const room = await db('location_rooms').where({ studioId, id: roomId }).first('id', 'locationId');
    if (!room) throw AppError.notFound('room');
    if (locationId && room.locationId !== locationId)
      throw new AppError('appointment.roomNotAtLocation', {
        message: 'the room is not at this location',
        fields: { roomId: ['the room is not at this location'] },
      });
  }
}

async function checkMembers(db: Db, studioId: string, memberIds: string[]) {
  if (memberIds.length === 0) return;
  const found = await db('memberships')
    .where({ studioId, isMember: true })
    .whereNull('archivedAt')
    .whereIn('userId', memberIds)
    .select('userId');
  if (found.length !== new Set(memberIds).size) throw AppError.notFound('member');
}

async function checkCategory(db: Db, studioId: string, categoryId: string | null | undefined) {
  if (
    categoryId &&
    !(await db('appointment_service_categories').where({ studioId, id: categoryId }).first('id'))
  )
    throw AppError.notFound('appointment service category');
}

async function setMembers(db: Db, studioId: string, serviceId: string, memberIds: string[]) {
  await db('appointment_service_members').where({ studioId, serviceId }).delete();
  const unique = [...new Set(memberIds)];
  if (unique.length > 0)
    await db('appointment_service_members').insert(
      unique.map((memberId) => ({ studioId, serviceId, memberId })),
    );
}

function columnsOf(input: AppointmentServicePatch) {
  return {
    ...(input.categoryId !== undefined ? { categoryId: input.categoryId } : {}),
    ...(input.name !== undefined ? { name: JSON.stringify(input.name) } : {}),
    ...(input.description !== undefined ? { description: JSON.stringify(input.description) } : {}),
    ...(input.eventType !== undefined ? { eventType: input.eventType } : {}),
    ...(input.durationMinutes !== undefined ? { durationMinutes: input.durationMinutes } : {}),
    ...(input.bufferBeforeMinutes !== undefined ? { bufferBeforeMinutes: input.bufferBeforeMinutes } : {}),
    ...(input.bufferAfterMinutes !== undefined ? { bufferAfterMinutes: input.bufferAfterMinutes } : {}),
    ...(input.slotStepMinutes !== undefined ? { slotStepMinutes: input.slotStepMinutes } : {}),
    ...(input.price !== undefined ? { price: input.price } : {}),
    ...(input.vatRate !== undefined ? { vatRate: input.vatRate } : {}),
    ...(input.locationId !== undefined ? { locationId: input.locationId } : {}),
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
    ...(input.online !== undefined ? { online: input.online } : {}),
    ...(input.confirmation !== undefined ? { confirmation: input.confirmation } : {}),
    ...(input.bookableOnline !== undefined ? { bookableOnline: input.bookableOnline } : {}),
    ...(input.bookingOpensHours !== undefined ? { bookingOpensHours: input.bookingOpensHours } : {}),
    ...(input.bookingClosesMinutes !== undefined ? { bookingClosesMinutes: input.bookingClosesMinutes } : {}),
    ...(input.cancellationCutoffMinutes !== undefined
      ? { cancellationCutoffMinutes: input.cancellationCutoffMinutes }
      : {}),
    ...(input.position !== undefined ? { position: input.position } : {}),
  };
}

export async function viewOfService(db: Db, studio: Studio, id: string): Promise<AppointmentServiceView> {
  const row = await serviceRow(db, studio.id, id);
  const members = await membersOfServices(db, studio.id, [id]);
  return presentService(row, members.get(id) ?? [], studio.currency);
}

export async function createService(
  db: Db,
  studio: Studio,
  input: AppointmentServiceInput,
): Promise<AppointmentServiceView> {
  await checkCategory(db, studio.id, input.categoryId);
  await checkPlace(db, studio.id, input.locationId ?? null, input.roomId ?? null);
  await checkMembers(db, studio.id, input.memberIds ?? []);
  const id = uuidv7();
  await db('appointment_services').insert({
    id,
    studioId: studio.id,
    ...columnsOf(input),
    name: JSON.stringify(input.name),
    durationMinutes: input.durationMinutes,
  });
  await setMembers(db, studio.id, id, input.memberIds ?? []);
  return viewOfService(db, studio, id);
}

export async function updateService(
  db: Db,
  studio: Studio,
  id: string,
  patch: AppointmentServicePatch,
): Promise<AppointmentServiceView> {
  const row = await serviceRow(db, studio.id, id);
  await checkCategory(db, studio.id, patch.categoryId);
  await checkPlace(
    db,
    studio.id,
    patch.locationId !== undefined ? patch.locationId : row.locationId,
    patch.roomId !== undefined ? patch.roomId : row.roomId,
  );
  if (patch.memberIds) await checkMembers(db, studio.id, patch.memberIds);
  const columns = columnsOf(patch);
  if (Object.keys(columns).length > 0)
    await db('appointment_services')
      .where({ studioId: studio.id, id })
      .update({ ...columns, updatedAt: new Date() });
  if (patch.memberIds) await setMembers(db, studio.id, id, patch.memberIds);
  return viewOfService(db, studio, id);
}

/** Archived services keep their appointments; they are no longer offered. */
export async function archiveService(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
): Promise<AppointmentServiceView> {
  await serviceRow(db, studio.id, id);
  await db('appointment_services')
    .where({ studioId: studio.id, id })
    .whereNull('archivedAt')
    .update({ archivedAt: now, updatedAt: now });
  return viewOfService(db, studio, id);
}

// ------------------------------------------------------------------------------ hours

/** A dated exception as the API reads it: the day as text (a `date` column would come back as a Date). */
type ExceptionOut = {
  date: string;
  startMinute: number | null;
  endMinute: number | null;
  locationId: string | null;
};

export async function memberSchedule(db: Db, studioId: string, memberId: string): Promise<MemberSchedule> {
  const weekly = await db('member_appointment_schedules')
    .where({ studioId, memberId })
    .orderBy([{ column: 'weekday' }, { column: 'startMinute' }])
    .select('weekday', 'startMinute', 'endMinute', 'locationId');
  const exceptions = await db('member_appointment_schedule_exceptions')
    .where({ studioId, memberId })
    .orderBy([{ column: 'date' }, { column: 'startMinute' }])
    .select<ExceptionOut[]>(
      db.raw(`to_char(date, 'YYYY-MM-DD') as date`),
      'startMinute',
      'endMinute',
      'locationId',
    );
  return {
    memberId,
    weekly,
    exceptions,
  };
}

function overlapping(ranges: Array<{ key: string; start: number; end: number }>): boolean {
  const sorted = [...ranges].sort((a, b) => a.key.localeCompare(b.key) || a.start - b.start);
  return sorted.some((r, i) => i > 0 && sorted[i - 1]!.key === r.key && sorted[i - 1]!.end > r.start);
}

/** Replaces a member's weekly hours and exceptions at once (the editor saves the whole week). */
export async function saveMemberSchedule(
  db: Db,
  studioId: string,
  memberId: string,
  input: { weekly: MemberSchedule['weekly']; exceptions: MemberSchedule['exceptions'] },
): Promise<MemberSchedule> {
  const locationIds = [
    ...new Set([...input.weekly, ...input.exceptions].flatMap((r) => (r.locationId ? [r.locationId] : []))),
  ];
  if (locationIds.length > 0) {
    const found = await db('locations').where({ studioId }).whereIn('id', locationIds).select('id');
    if (found.length !== locationIds.length) throw AppError.notFound('location');
  }
  const fields: Record<string, string[]> = {};
  if (
    overlapping(input.weekly.map((w) => ({ key: String(w.weekday), start: w.startMinute, end: w.endMinute })))
  )
    fields.weekly = ['ranges of one day overlap'];
  if (
    overlapping(
      input.exceptions.flatMap((e) =>
        e.startMinute === null ? [] : [{ key: e.date, start: e.startMinute, end: e.endMinute! }],
      ),
    )
  )
    fields.exceptions = ['ranges of one day overlap'];
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
  await db('member_appointment_schedules').where({ studioId, memberId }).delete();
  await db('member_appointment_schedule_exceptions').where({ studioId, memberId }).delete();
  if (input.weekly.length > 0)
    await db('member_appointment_schedules').insert(
      input.weekly.map((w) => ({ id: uuidv7(), studioId, memberId, ...w })),
    );
  if (input.exceptions.length > 0)
    await db('member_appointment_schedule_exceptions').insert(
      input.exceptions.map((e) => ({ id: uuidv7(), studioId, memberId, ...e })),
    );
  return memberSchedule(db, studioId, memberId);
}

// ------------------------------------------------------------------------------ unavailability

export function presentUnavailability(r: {
  id: string;
  memberId: string;
  startsAt: Date;
  endsAt: Date;
  reason: string;
}) {
  return {
    id: r.id,
    memberId: r.memberId,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    reason: r.reason,
  };
}

export async function unavailabilities(
  db: Db,
  studioId: string,
  memberId: string,
  from: Date,
  to: Date | null,
) {
  const q = db('appointment_unavailabilities')
    .where({ studioId, memberId })
    .where('endsAt', '>', from)
    .orderBy('startsAt')
    .limit(500);
  if (to) q.where('startsAt', '<', to);
  return (await q.select('id', 'memberId', 'startsAt', 'endsAt', 'reason')).map(presentUnavailability);
}
