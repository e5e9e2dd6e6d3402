import type {
  AppointmentCategoryView,
  AppointmentServiceView,
  ClientAppointmentView,
} from '../../../../shared/contracts/api/appointments';
import type { AppointmentStatus } from '../../../../shared/domain/appointments';
import { AppError } from '../../../../shared/errors';
import type {
  AppointmentServiceCategoriesRow,
  AppointmentServicesRow,
  ClientAppointmentsRow,
} from '../../db/generated/tables';
import type { Db } from '../../db/knex';

/** Reading and presenting the appointment tables (no rules here). */

export type ServiceRow = AppointmentServicesRow;
export type AppointmentRow = ClientAppointmentsRow;

export function presentCategory(row: AppointmentServiceCategoriesRow): AppointmentCategoryView {
  return { id: row.id, name: row.name, position: row.position };
}

export function presentService(
  row: ServiceRow,
  memberIds: string[],
  currency: string,
): AppointmentServiceView {
  return {
    id: row.id,
    categoryId: row.categoryId,
    name: row.name,
    description: row.description,
    eventType: row.eventType === 'resource' ? 'resource' : 'visit',
    durationMinutes: row.durationMinutes,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    slotStepMinutes: row.slotStepMinutes,
    price: row.price,
    currency,
    vatRate: row.vatRate,
    locationId: row.locationId,
    roomId: row.roomId,
    online: row.online,
    confirmation: row.confirmation === 'manual' ? 'manual' : 'auto',
    bookableOnline: row.bookableOnline,
    bookingOpensHours: row.bookingOpensHours,
    bookingClosesMinutes: row.bookingClosesMinutes,
    cancellationCutoffMinutes: row.cancellationCutoffMinutes,
    position: row.position,
    memberIds,
    archived: row.archivedAt !== null,
  };
}

export async function membersOfServices(
  db: Db,
  studioId: string,
  serviceIds: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (serviceIds.length === 0) return out;
  const rows = await db('appointment_service_members')
    .where({ studioId })
    .whereIn('serviceId', serviceIds)
    .orderBy('memberId')
    .select('serviceId', 'memberId');
  for (const r of rows) out.set(r.serviceId, [...(out.get(r.serviceId) ?? []), r.memberId]);
  return out;
}

export async function listServices(
  db: Db,
  studioId: string,
  options: { includeArchived?: boolean; onlineOnly?: boolean } = {},
): Promise<Array<{ row: ServiceRow; memberIds: string[] }>> {
  const q = db('appointment_services')
    .where({ studioId })
    .orderBy([{ column: 'position' }, { column: 'id' }]);
  if (!options.includeArchived) q.whereNull('archivedAt');
  if (options.onlineOnly) q.where('bookableOnline', true);
  const rows = await q.select('*');
  const members = await membersOfServices(
    db,
    studioId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, memberIds: members.get(row.id) ?? [] }));
}

export async function serviceRow(db: Db, studioId: string, id: string): Promise<ServiceRow> {
  const row = await db('appointment_services').where({ studioId, id }).first();
  if (!row) throw AppError.notFound('appointment service');
  return row;
}

/** A service with who performs it (ordered as `membersOfServices`), in one query: the slot search's first. */
export async function serviceWithMembers(
  db: Db,
  studioId: string,
  id: string,
): Promise<{ service: ServiceRow; memberIds: string[] }> {
  const row = (await db('appointment_services as s')
    .where({ 's.studioId': studioId, 's.id': id })
    .first(
      's.*',
      db.raw(
        `coalesce((select array_agg(m.member_id order by m.member_id) from appointment_service_members m
          where m.studio_id = s.studio_id and m.service_id = s.id), '{}') as performer_ids`,
      ),
    )) as (ServiceRow & { performerIds: string[] }) | undefined;
  if (!row) throw AppError.notFound('appointment service');
  const { performerIds, ...service } = row;
  return { service: service as ServiceRow, memberIds: performerIds };
}

export async function listCategories(db: Db, studioId: string) {
  return db('appointment_service_categories')
    .where({ studioId })
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('*');
}

export interface MemberRef {
  id: string;
  firstName: string;
  lastName: string;
}

/** Live members of staff of the studio, by name. */
export async function staffMembers(db: Db, studioId: string): Promise<MemberRef[]> {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.is_member': true })
    .whereNull('m.archived_at')
    .orderBy([{ column: 'u.first_name' }, { column: 'u.last_name' }, { column: 'u.id' }])
    .select('u.id', 'u.first_name', 'u.last_name');
}

/** A live member of staff of the studio, or 404. */
export async function assertStaffMember(db: Db, studioId: string, userId: string): Promise<MemberRef> {
  const row: MemberRef | undefined = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studioId, 'm.is_member': true, 'm.user_id': userId })
    .whereNull('m.archived_at')
    .first('u.id', 'u.first_name', 'u.last_name');
  if (!row) throw AppError.notFound('member');
  return row;
}

/** A client of the studio, or 404. */
export async function assertClientOf(db: Db, studioId: string, userId: string): Promise<void> {
  const row = await db('memberships').where({ studioId, userId, isClient: true }).first('id');
  if (!row) throw AppError.notFound('client');
}

export async function locationsWithRooms(db: Db, studioId: string) {
  const locations = await db('locations')
    .where({ studioId })
    .whereNull('archivedAt')
    .orderBy('name')
    .select('id', 'name');
  const rooms = await db('location_rooms')
    .where({ studioId })
    .whereNull('archivedAt')
    .orderBy('name')
    .select('id', 'name', 'locationId');
  return locations.map((l) => ({
    id: l.id,
    name: l.name,
    rooms: rooms.filter((r) => r.locationId === l.id).map((r) => ({ id: r.id, name: r.name })),
  }));
}

const iso = (d: Date) => d.toISOString();

/** Appointments with their service, member and client, presented. */
export async function presentAppointments(
  db: Db,
  studioId: string,
  rows: AppointmentRow[],
): Promise<ClientAppointmentView[]> {
  if (rows.length === 0) return [];
  const serviceIds = [...new Set(rows.map((r) => r.serviceId))];
  const userIds = [...new Set(rows.flatMap((r) => (r.clientId ? [r.memberId, r.clientId] : [r.memberId])))];
  const services = new Map(
    (
      await db('appointment_services')
        .where({ studioId })
        .whereIn('id', serviceIds)
        .select('id', 'name', 'confirmation', 'cancellationCutoffMinutes')
    ).map((s) => [s.id, s]),
  );
  const users = new Map(
    (await db('users').whereIn('id', userIds).select('id', 'firstName', 'lastName', 'email')).map((u) => [
      u.id,
      u,
    ]),
  );
  return rows.map((r) => {
    const service = services.get(r.serviceId)!;
    const member = users.get(r.memberId);
    const client = r.clientId ? users.get(r.clientId) : undefined;
    return {
      id: r.id,
      service: {
        id: service.id,
        name: service.name,
        confirmation: service.confirmation === 'manual' ? 'manual' : 'auto',
      },
      member: { id: r.memberId, firstName: member?.firstName ?? '', lastName: member?.lastName ?? '' },
      client: client
        ? { id: client.id, firstName: client.firstName, lastName: client.lastName, email: client.email }
        : null,
      locationId: r.locationId,
      roomId: r.roomId,
      online: r.online,
      startsAt: iso(r.startsAt),
      endsAt: iso(r.endsAt),
      blockedFrom: iso(r.blockedFrom),
      blockedUntil: iso(r.blockedUntil),
      status: r.status as AppointmentStatus,
      heldUntil: r.heldUntil ? iso(r.heldUntil) : null,
      payment: r.payment as ClientAppointmentView['payment'],
      clientPricingOptionId: r.clientPricingOptionId,
      clientContractId: r.clientContractId,
      clientOrderId: r.clientOrderId,
      price: r.price,
      currency: r.currency,
      paid: r.paidAt !== null || r.payment === 'pass' || r.payment === 'free' || r.payment === 'contract',
      bookedBy: r.bookedBy === 'self' ? 'self' : 'staff',
      note: r.note,
      cancellationCutoffAt: iso(new Date(r.startsAt.getTime() - service.cancellationCutoffMinutes * 60_000)),
    };
  });
}

export async function appointmentRow(
  db: Db,
  studioId: string,
  id: string,
  lock = false,
): Promise<AppointmentRow> {
  const q = db('client_appointments').where({ studioId, id });
  if (lock) q.forUpdate();
  const row = await q.first();
  if (!row) throw AppError.notFound('client appointment');
  return row;
}

export async function presentOne(db: Db, studioId: string, id: string): Promise<ClientAppointmentView> {
  const [view] = await presentAppointments(db, studioId, [await appointmentRow(db, studioId, id)]);
  return view!;
}
