import type { AppointmentInit, StaffCalendar } from '../../../../shared/contracts/api/appointments';
import { HOLDING_STATUSES, workingRanges } from '../../../../shared/domain/appointments';
import { localDays } from '../../../../shared/domain/appointments/slots';
import type { LocalDate } from '../../../../shared/domain/entitlements/local-dates';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  listCategories,
  listServices,
  locationsWithRooms,
  presentAppointments,
  presentCategory,
  presentService,
  staffMembers,
} from './appointments.rows';
import { presentUnavailability } from './services-admin.service';
import { loadAvailability, spanOfDays } from './slots.service';

/** What the back office's appointment screens read: init data and the staff calendar. */

export async function appointmentInit(db: Db, studio: Studio): Promise<AppointmentInit> {
  const [services, categories, members, locations, passOptions] = await Promise.all([
    listServices(db, studio.id, { includeArchived: true }),
    listCategories(db, studio.id),
    staffMembers(db, studio.id),
    locationsWithRooms(db, studio.id),
    db('pricing_options')
      .where({ studioId: studio.id })
      .whereNull('archivedAt')
      .whereRaw(`service_types @> '["appointmentPricingOption"]'::jsonb`)
      .orderBy('position')
      .select('id', 'name', 'price'),
  ]);
  return {
    timeZone: studio.timeZone,
    currency: studio.currency,
    services: services.map((s) => presentService(s.row, s.memberIds, studio.currency)),
    categories: categories.map(presentCategory),
    members,
    locations,
    passOptions,
  };
}

/**
 * The staff calendar of a span (day or week): every member who performs a service or has hours,
 * their working hours as instants, appointments (not ended ones: cancelled, rejected, expired are
 * left out), the classes they teach and their unavailability.
 */
export async function staffCalendar(
  db: Db,
  studio: Studio,
  q: { from: LocalDate; to: LocalDate; locationId?: string },
  now: Date,
): Promise<StaffCalendar> {
  const span = spanOfDays(q.from, q.to, studio.timeZone);
  const everyone = await staffMembers(db, studio.id);
  const performing = new Set(
    [
      ...(await db('appointment_service_members').where({ studioId: studio.id }).distinct('memberId')),
      ...(await db('member_appointment_schedules').where({ studioId: studio.id }).distinct('memberId')),
    ].map((r) => r.memberId),
  );
  const members = everyone.filter((m) => performing.has(m.id));
  const ids = members.map((m) => m.id);
  const appointmentsQ = db('client_appointments')
    .where({ studioId: studio.id })
    .whereIn('memberId', ids)
    .whereIn('status', [...HOLDING_STATUSES, 'lateCancelled'])
    .where('endsAt', '>', span.from)
    .where('startsAt', '<', span.to)
    .orderBy('startsAt');
  if (q.locationId)
    appointmentsQ.where((w) => w.where('locationId', q.locationId!).orWhereNull('locationId'));
  const [rows, classes, unavailable, availability] = await Promise.all([
    appointmentsQ.select('*'),
    ids.length === 0
      ? Promise.resolve([])
      : db('schedule_events as e')
          .join('class_services as c', 'c.id', 'e.class_service_id')
          .where('e.studio_id', studio.id)
          .whereRaw('e.instructor_ids && ?::uuid[]', [ids])
          .whereNull('e.cancelled_at')
          .whereNull('e.removed_at')
          .where('e.ends_at', '>', span.from)
          .where('e.starts_at', '<', span.to)
          .select('e.id', 'c.name', 'e.instructor_ids', 'e.starts_at', 'e.ends_at', 'e.room_id'),
    db('appointment_unavailabilities')
      .where({ studioId: studio.id })
      .whereIn('memberId', ids)
      .where('endsAt', '>', span.from)
      .where('startsAt', '<', span.to)
      .select('id', 'memberId', 'startsAt', 'endsAt', 'reason'),
    loadAvailability(db, studio, ids, null, span, now),
  ]);
  const hours = availability.staff.flatMap((member) =>
    localDays(q.from, q.to).flatMap((date) =>
      workingRanges(member, date, q.locationId ?? null, studio.timeZone).map((r) => ({
        memberId: member.memberId,
        startsAt: r.startsAt.toISOString(),
        endsAt: r.endsAt.toISOString(),
      })),
    ),
  );
  return {
    timeZone: studio.timeZone,
    members,
    appointments: await presentAppointments(db, studio.id, rows),
    classes: (
      classes as Array<{
        id: string;
        name: Record<string, { value: string }>;
        instructorIds: string[];
        startsAt: Date;
        endsAt: Date;
        roomId: string | null;
      }>
    ).map((c) => ({
      id: c.id,
      name: c.name,
      memberIds: c.instructorIds.filter((i) => ids.includes(i)),
      startsAt: c.startsAt.toISOString(),
      endsAt: c.endsAt.toISOString(),
      roomId: c.roomId,
    })),
    unavailability: unavailable.map(presentUnavailability),
    hours,
  };
}
