import {
  findSlots,
  type DatedHours,
  type WeeklyHours,
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
 * taught, appointments held, the room's bookings — for a set of members over a span, in one
 * statement whatever the number of members.
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

/** What the one query of `loadAvailability` answers: each part a JSON array of tuples (instants in ms). */
type AvailabilityRow = {
  weekly: Array<[string, number, number, number, string | null]>;
  exceptions: Array<[string, LocalDate, number | null, number | null, string | null]>;
  unavailable: Array<[string, number, number]>;
  classes: Array<[string[], number, number]>;
  appointments: Array<[string, number, number]>;
  room: Array<[number, number]>;
};

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::bigint`;
const HOLDING_SQL = holding.map((h) => `'${h}'`).join(', ');

/**
 * One statement, one round trip (the slot search's cost was its seven queries one after another):
 * every part is a sub-select aggregated to a JSON array of tuples. Appointments use the exclusion
 * constraints' partial GiST indexes (same status predicate, `&&` on the block). Classes are read
 * through (studio, location, starts_at) with a lower bound on the start (no class lasts a week), so
 * a studio's years of past classes are not scanned.
 */
const AVAILABILITY_SQL = `
select
  (select coalesce(json_agg(json_build_array(member_id, weekday, start_minute, end_minute, location_id)), '[]')
     from member_appointment_schedules
    where studio_id = :s and member_id = any(:m::uuid[])) as weekly,
  (select coalesce(json_agg(json_build_array(member_id, to_char(date, 'YYYY-MM-DD'), start_minute, end_minute, location_id)), '[]')
     from member_appointment_schedule_exceptions
    where studio_id = :s and member_id = any(:m::uuid[]) and date between :dayFrom::date and :dayTo::date) as exceptions,
  (select coalesce(json_agg(json_build_array(member_id, ${ms('starts_at')}, ${ms('ends_at')})), '[]')
     from appointment_unavailabilities
    where studio_id = :s and member_id = any(:m::uuid[]) and ends_at > :from and starts_at < :to) as unavailable,
  (select coalesce(json_agg(json_build_array(instructor_ids, ${ms('starts_at')}, ${ms('ends_at')})), '[]')
     from schedule_events
    where studio_id = :s and instructor_ids && :m::uuid[] and cancelled_at is null and removed_at is null
      and ends_at > :from and starts_at < :to and starts_at > :from::timestamptz - interval '7 days') as classes,
  (select coalesce(json_agg(json_build_array(member_id, ${ms('blocked_from')}, ${ms('blocked_until')})), '[]')
     from client_appointments
    where studio_id = :s and member_id = any(:m::uuid[]) and status in (${HOLDING_SQL})
      and (status <> 'reserved' or held_until > :now) and id <> :except
      and tstzrange(blocked_from, blocked_until) && tstzrange(:from, :to)) as appointments,
  (select coalesce(json_agg(json_build_array(b.f, b.u)), '[]') from (
     select ${ms('starts_at')} as f, ${ms('ends_at')} as u from schedule_events
      where studio_id = :s and room_id = :room and cancelled_at is null and removed_at is null
        and ends_at > :from and starts_at < :to and starts_at > :from::timestamptz - interval '7 days'
     union all
     select ${ms('blocked_from')}, ${ms('blocked_until')} from client_appointments
      where studio_id = :s and room_id = :room and status in (${HOLDING_SQL})
        and (status <> 'reserved' or held_until > :now) and id <> :except
        and tstzrange(blocked_from, blocked_until) && tstzrange(:from, :to)) b) as room`;

const NO_ID = '00000000-0000-0000-0000-000000000000';

export async function loadAvailability(
  db: Db,
  studio: Studio,
  memberIds: string[],
  roomId: string | null,
  span: { from: Date; to: Date },
  now: Date,
  exceptAppointmentId?: string,
): Promise<{ staff: StaffAvailability[]; roomBusy: Interval[] }> {
  const result = (await db.raw(AVAILABILITY_SQL, {
    s: studio.id,
    m: memberIds,
    room: roomId ?? NO_ID,
    from: span.from,
    to: span.to,
    dayFrom: span.from.toISOString().slice(0, 10),
    dayTo: span.to.toISOString().slice(0, 10),
    now,
    except: exceptAppointmentId ?? NO_ID,
  })) as { rows: AvailabilityRow[] };
  const row = result.rows[0]!;
  const interval = (from: number, until: number): Interval => ({
    startsAt: new Date(Number(from)),
    endsAt: new Date(Number(until)),
  });
  const byMember = new Map<string, StaffAvailability & { busy: Interval[]; weekly: WeeklyHours[] }>(
    memberIds.map((memberId) => [memberId, { memberId, weekly: [], exceptions: [], busy: [] }]),
  );
  for (const [memberId, weekday, startMinute, endMinute, locationId] of row.weekly)
    byMember.get(memberId)?.weekly.push({ weekday, startMinute, endMinute, locationId });
  const exceptionDays = new Map<string, Map<string, DatedHours>>();
  for (const [memberId, date, startMinute, endMinute, locationId] of row.exceptions) {
    const days = exceptionDays.get(memberId) ?? new Map<string, DatedHours>();
    exceptionDays.set(memberId, days);
    const day = days.get(date) ?? { date, ranges: [] };
    days.set(date, day);
    if (startMinute !== null && endMinute !== null)
      (day.ranges as DatedHours['ranges'][number][]).push({ startMinute, endMinute, locationId });
  }
  for (const [memberId, days] of exceptionDays) {
    const member = byMember.get(memberId);
    if (member) member.exceptions = [...days.values()];
  }
  for (const [memberId, from, until] of row.unavailable)
    byMember.get(memberId)?.busy.push(interval(from, until));
  for (const [instructorIds, from, until] of row.classes)
    for (const id of instructorIds) byMember.get(id)?.busy.push(interval(from, until));
  for (const [memberId, from, until] of row.appointments)
    byMember.get(memberId)?.busy.push(interval(from, until));
  return { staff: [...byMember.values()], roomBusy: row.room.map(([from, until]) => interval(from, until)) };
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
