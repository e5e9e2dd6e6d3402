import {
  findSlots,
  HOLDING_STATUSES,
  latestBookableStart,
  slotsForAnyone,
  type Interval,
  type SlotService,
  type StaffAvailability,
} from '../../../../shared/domain/appointments';
import { addLocalDays, type LocalDate } from '../../../../shared/domain/entitlements/local-dates';
import { instantOfLocalTime } from '../../../../shared/domain/schedule/occurrences';
import type { SlotList } from '../../../../shared/contracts/api/appointments';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import type { ServiceRow } from './appointments.rows';

/**
 * Loading what slot finding needs from the database — hours, exceptions, unavailability, classes
 * taught, appointments held, the room's bookings — for a set of members over a span, in a fixed
 * number of queries whatever the number of members (the benchmark's 30 staff, one week: 6 queries).
 */

export function slotServiceOf(row: ServiceRow): SlotService {
  return {
    durationMinutes: row.durationMinutes,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    slotStepMinutes: row.slotStepMinutes,
    locationId: row.online ? null : row.locationId,
  };
}

const holding = HOLDING_STATUSES as readonly string[];

/** A dated exception with its day as text (to_char: a `date` column would come back as a Date). */
type ExceptionOut = {
  memberId: string;
  date: LocalDate;
  startMinute: number | null;
  endMinute: number | null;
  locationId: string | null;
};

export async function loadAvailability(
  db: Db,
  studio: Studio,
  memberIds: string[],
  roomId: string | null,
  span: { from: Date; to: Date },
  now: Date,
  exceptAppointmentId?: string,
): Promise<{ staff: StaffAvailability[]; roomBusy: Interval[] }> {
  const s = studio.id;
  // One after the other: in a transaction they share one connection (and the pool's reads are few).
  const weekly = await db('member_appointment_schedules')
    .where({ studioId: s })
    .whereIn('memberId', memberIds)
    .select('memberId', 'weekday', 'startMinute', 'endMinute', 'locationId');
  const exceptions = await db('member_appointment_schedule_exceptions')
    .where({ studioId: s })
    .whereIn('memberId', memberIds)
    .whereBetween('date', [span.from.toISOString().slice(0, 10), span.to.toISOString().slice(0, 10)])
    .select<ExceptionOut[]>(
      'memberId',
      db.raw(`to_char(date, 'YYYY-MM-DD') as date`),
      'startMinute',
      'endMinute',
      'locationId',
    );
  const unavailable = await db('appointment_unavailabilities')
    .where({ studioId: s })
    .whereIn('memberId', memberIds)
    .where('endsAt', '>', span.from)
    .where('startsAt', '<', span.to)
    .select('memberId', 'startsAt', 'endsAt');
  const classes = await (memberIds.length === 0
    ? Promise.resolve([] as Array<{ instructorIds: string[]; startsAt: Date; endsAt: Date }>)
    : db('schedule_events')
        .where({ studioId: s })
        .whereRaw('instructor_ids && ?::uuid[]', [memberIds])
        .whereNull('cancelledAt')
        .whereNull('removedAt')
        .where('endsAt', '>', span.from)
        .where('startsAt', '<', span.to)
        .select('instructorIds', 'startsAt', 'endsAt'));
  const appointments = await activeAppointments(db, s, now, span, exceptAppointmentId)
    .whereIn('memberId', memberIds)
    .select('memberId', 'blockedFrom', 'blockedUntil');
  const roomClasses = await (roomId
    ? db('schedule_events')
        .where({ studioId: s, roomId })
        .whereNull('cancelledAt')
        .whereNull('removedAt')
        .where('endsAt', '>', span.from)
        .where('startsAt', '<', span.to)
        .select('startsAt', 'endsAt')
    : Promise.resolve([] as Array<{ startsAt: Date; endsAt: Date }>));
  const roomAppointments = await (roomId
    ? activeAppointments(db, s, now, span, exceptAppointmentId)
        .where({ roomId })
        .select('blockedFrom', 'blockedUntil')
    : Promise.resolve([] as Array<{ blockedFrom: Date; blockedUntil: Date }>));
  const staff = memberIds.map((memberId): StaffAvailability => {
    const byDate = new Map<string, StaffAvailability['exceptions'][number]>();
    for (const e of exceptions.filter((x) => x.memberId === memberId)) {
      const day = byDate.get(e.date) ?? { date: e.date, ranges: [] };
      if (e.startMinute !== null && e.endMinute !== null)
        day.ranges.push({ startMinute: e.startMinute, endMinute: e.endMinute, locationId: e.locationId });
      byDate.set(e.date, day);
    }
    return {
      memberId,
      weekly: weekly.filter((w) => w.memberId === memberId),
      exceptions: [...byDate.values()],
      busy: [
        ...unavailable.filter((u) => u.memberId === memberId),
        ...classes.filter((c) => c.instructorIds.includes(memberId)),
        ...appointments
          .filter((a) => a.memberId === memberId)
          .map((a) => ({ startsAt: a.blockedFrom, endsAt: a.blockedUntil })),
      ].map((b) => ({ startsAt: b.startsAt, endsAt: b.endsAt })),
    };
  });
  const roomBusy = [
    ...roomClasses,
    ...roomAppointments.map((a) => ({ startsAt: a.blockedFrom, endsAt: a.blockedUntil })),
  ];
  return { staff, roomBusy };
}

/** Appointments that hold time now: holding statuses, minus reservations whose hold ran out. */
function activeAppointments(
  db: Db,
  studioId: string,
  now: Date,
  span: { from: Date; to: Date },
  exceptId?: string,
) {
  const q = db('client_appointments')
    .where({ studioId })
    .whereIn('status', holding)
    .where((w) => w.whereNot('status', 'reserved').orWhere('heldUntil', '>', now))
    // The exclusion constraints' GiST indexes answer this overlap.
    .whereRaw('tstzrange(blocked_from, blocked_until) && tstzrange(?, ?)', [span.from, span.to]);
  if (exceptId) q.whereNot('id', exceptId);
  return q;
}

/** The instants around a span of studio days, wide enough for buffers and ranges past midnight. */
export function spanOfDays(from: LocalDate, to: LocalDate, timeZone: string) {
  return {
    from: instantOfLocalTime(addLocalDays(from, -1), 0, timeZone),
    to: instantOfLocalTime(addLocalDays(to, 2), 0, timeZone),
  };
}

export async function findServiceSlots(
  db: Db,
  studio: Studio,
  service: ServiceRow,
  memberIds: string[],
  query: { memberId?: string | null; from: LocalDate; to: LocalDate },
  now: Date,
  asClient: boolean,
): Promise<SlotList> {
  let members = memberIds;
  if (query.memberId) {
    if (!memberIds.includes(query.memberId))
      throw new AppError('appointment.memberNotOffering', {
        message: 'this member of staff does not perform this service',
        fields: { memberId: ['does not perform this service'] },
      });
    members = [query.memberId];
  }
  const { staff, roomBusy } = await loadAvailability(
    db,
    studio,
    members,
    service.roomId,
    spanOfDays(query.from, query.to, studio.timeZone),
    now,
  );
  const slots = findSlots(slotServiceOf(service), staff, roomBusy, {
    from: query.from,
    to: query.to,
    timeZone: studio.timeZone,
    earliest: asClient ? new Date(now.getTime() + service.bookingClosesMinutes * 60_000) : now,
    latest: asClient ? latestBookableStart(now, service.bookingOpensHours, studio.timeZone) : null,
  });
  return {
    serviceId: service.id,
    timeZone: studio.timeZone,
    items: slotsForAnyone(slots).map((s) => ({
      startsAt: s.startsAt.toISOString(),
      endsAt: s.endsAt.toISOString(),
      memberIds: s.memberIds,
    })),
    next: null,
  };
}
