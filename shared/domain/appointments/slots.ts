import { addLocalDays, localClockOf, localDateOf, type LocalDate } from '../entitlements/local-dates';
import { instantOfLocalTime } from '../schedule/occurrences';

/**
 * Finding free appointment times (issue 21). Pure: the service's terms, each staff member's weekly
 * hours, dated exceptions and busy times (unavailability, classes they teach, appointments they
 * hold), the room's busy times, and the clock come in; the free slots go out. All days are the
 * studio's calendar days in its IANA time zone, so a DST day (23 or 25 hours) is handled by turning
 * wall-clock hours into instants per day.
 *
 * Rules (module README "Slots"):
 * - An appointment occupies its **block**: [start − buffer before, end + buffer after). Blocks of two
 *   appointments of one staff member (or one room) never overlap — the database's exclusion
 *   constraint holds exactly this, so what is offered here is what the database accepts.
 * - The whole block lies inside one working range of the staff member's day.
 * - A class the member teaches, an unavailability, or a class in the service's room is busy time the
 *   block may not touch.
 * - Starts lie on the studio's wall-clock grid of `slotStepMinutes` (from midnight).
 */

const MINUTE = 60_000;

export interface Interval {
  startsAt: Date;
  endsAt: Date;
}

export interface WeeklyHours {
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  startMinute: number;
  endMinute: number;
  locationId: string | null;
}

/** A dated exception: its ranges replace the weekly hours of that day; no ranges = a day off. */
export interface DatedHours {
  date: LocalDate;
  ranges: Array<{ startMinute: number; endMinute: number; locationId: string | null }>;
}

export interface StaffAvailability {
  memberId: string;
  weekly: readonly WeeklyHours[];
  exceptions: readonly DatedHours[];
  /** Unavailability, classes taught, appointments' blocks: anything the block may not touch. */
  busy: readonly Interval[];
}

export interface SlotService {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  slotStepMinutes: number;
  /** Only working hours at this location count; null (online) = any location. */
  locationId: string | null;
}

export interface SlotQuery {
  from: LocalDate;
  /** Inclusive. */
  to: LocalDate;
  timeZone: string;
  /** Slots start at or after this instant (now, or now + the online booking close). */
  earliest: Date;
  /** Slots start at or before this instant (the online booking window); null = no limit. */
  latest: Date | null;
}

export interface Slot {
  memberId: string;
  startsAt: Date;
  endsAt: Date;
}

export function blockOf(
  startsAt: Date,
  service: Pick<SlotService, 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
): Interval {
  return {
    startsAt: new Date(startsAt.getTime() - service.bufferBeforeMinutes * MINUTE),
    endsAt: new Date(startsAt.getTime() + (service.durationMinutes + service.bufferAfterMinutes) * MINUTE),
  };
}

/** 0 Sunday … 6 Saturday of a calendar day (no time zone needed: a date names its own weekday). */
function weekdayOf(date: LocalDate): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

type InstantOf = (date: LocalDate, minute: number) => Date;

/** instantOfLocalTime, remembered per call of `findSlots` (members share hours; time zone maths is slow). */
function instantCache(timeZone: string): InstantOf {
  const cache = new Map<string, Date>();
  return (date, minute) => {
    const key = `${date}|${minute}`;
    let hit = cache.get(key);
    if (!hit) {
      hit =
        minute >= 1440
          ? instantOfLocalTime(addLocalDays(date, 1), minute - 1440, timeZone)
          : instantOfLocalTime(date, minute, timeZone);
      cache.set(key, hit);
    }
    return hit;
  };
}

/** Working ranges of one member on one day, as instants (with the wall-clock minute they start at). */
export function workingRanges(
  staff: Pick<StaffAvailability, 'weekly' | 'exceptions'>,
  date: LocalDate,
  locationId: string | null,
  timeZone: string,
  instantOf: InstantOf = instantCache(timeZone),
): Array<Interval & { startMinute: number }> {
  const exception = staff.exceptions.find((e) => e.date === date);
  const weekday = weekdayOf(date);
  const ranges = exception ? exception.ranges : staff.weekly.filter((w) => w.weekday === weekday);
  return ranges
    .filter((r) => locationId === null || r.locationId === null || r.locationId === locationId)
    .map((r) => ({
      startMinute: r.startMinute,
      startsAt: instantOf(date, r.startMinute),
      // 24:00 is the next day's midnight (25 or 23 hours after this one's on a DST day).
      endsAt: instantOf(date, r.endMinute),
    }))
    .filter((r) => r.startsAt < r.endsAt)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}

function sortedBusy(busy: readonly Interval[]): Interval[] {
  return [...busy].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}

/** Whether [start, end) touches any interval of a list sorted by start. */
function clashes(sorted: readonly Interval[], start: number, end: number): boolean {
  // Binary search for the first interval starting at or after `end`; any before it that ends after
  // `start` clashes. Busy lists are short per member, but a room or a long range may hold many.
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.startsAt.getTime() < end) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    if (sorted[i]!.endsAt.getTime() > start) return true;
    // Intervals may nest: keep looking back only while a long one could still reach `start`.
    if (i < lo - 64) break;
  }
  return false;
}

/** Whether a range's start fell in a DST gap (its instant does not read back as its wall minute). */
function gapAt(instant: Date, minute: number, timeZone: string): boolean {
  // Only a start between 00:00 and 04:00 can be in a European or American gap; skip the others.
  return minute < 240 && localClockOf(instant, timeZone).minutes !== minute;
}

/** The days from `from` to `to` inclusive. */
export function localDays(from: LocalDate, to: LocalDate): LocalDate[] {
  const days: LocalDate[] = [];
  for (let d = from; d <= to && days.length < 400; d = addLocalDays(d, 1)) days.push(d);
  return days;
}

/** Every free slot of every given member, by start then member order. */
export function findSlots(
  service: SlotService,
  staff: readonly StaffAvailability[],
  roomBusy: readonly Interval[],
  query: SlotQuery,
): Slot[] {
  const step = Math.max(5, service.slotStepMinutes) * MINUTE;
  const before = service.bufferBeforeMinutes * MINUTE;
  const length = (service.durationMinutes + service.bufferAfterMinutes) * MINUTE;
  const duration = service.durationMinutes * MINUTE;
  const room = sortedBusy(roomBusy);
  const earliest = query.earliest.getTime();
  const latest = query.latest?.getTime() ?? Infinity;
  const out: Slot[] = [];
  const days = localDays(query.from, query.to);
  const instantOf = instantCache(query.timeZone);
  staff.forEach((member) => {
    const busy = sortedBusy(member.busy);
    for (const date of days) {
      for (const range of workingRanges(member, date, service.locationId, query.timeZone, instantOf)) {
        const first = range.startsAt.getTime() + before;
        // The wall-clock grid: minutes since local midnight that are a multiple of the step, counted
        // from the range's own wall time (DST jumps are whole hours, so elapsed steps stay on it). A
        // range starting in a DST gap starts at the gap's end: read its wall time then.
        const wallStart =
          (instantOf(date, range.startMinute).getTime() === range.startsAt.getTime() &&
          !gapAt(range.startsAt, range.startMinute, query.timeZone)
            ? range.startMinute
            : localClockOf(range.startsAt, query.timeZone).minutes) + service.bufferBeforeMinutes;
        const aligned = Math.ceil((wallStart * MINUTE) / step) * step - wallStart * MINUTE;
        for (let start = first + aligned; start + length <= range.endsAt.getTime(); start += step) {
          if (start < earliest || start > latest) continue;
          const blockStart = start - before;
          const blockEnd = start + length;
          if (clashes(busy, blockStart, blockEnd) || clashes(room, blockStart, blockEnd)) continue;
          out.push({
            memberId: member.memberId,
            startsAt: new Date(start),
            endsAt: new Date(start + duration),
          });
        }
      }
    }
  });
  const order = new Map(staff.map((m, i) => [m.memberId, i]));
  return out.sort(
    (a, b) => a.startsAt.getTime() - b.startsAt.getTime() || order.get(a.memberId)! - order.get(b.memberId)!,
  );
}

/** Slots grouped by start for "anyone": each start with the members free then (in the given order). */
export function slotsForAnyone(
  slots: readonly Slot[],
): Array<{ startsAt: Date; endsAt: Date; memberIds: string[] }> {
  const out: Array<{ startsAt: Date; endsAt: Date; memberIds: string[] }> = [];
  for (const slot of slots) {
    const last = out[out.length - 1];
    if (last && last.startsAt.getTime() === slot.startsAt.getTime()) last.memberIds.push(slot.memberId);
    else out.push({ startsAt: slot.startsAt, endsAt: slot.endsAt, memberIds: [slot.memberId] });
  }
  return out;
}

/** Whether one start is a free slot of the member (the booking's re-check of what `findSlots` offered). */
export function isFreeSlot(
  service: SlotService,
  member: StaffAvailability,
  roomBusy: readonly Interval[],
  startsAt: Date,
  timeZone: string,
): boolean {
  const date = localDateOf(startsAt, timeZone);
  const slots = findSlots(service, [member], roomBusy, {
    from: addLocalDays(date, -1),
    to: date,
    timeZone,
    earliest: startsAt,
    latest: startsAt,
  });
  return slots.some((s) => s.startsAt.getTime() === startsAt.getTime());
}

/**
 * The latest start a client may book now: the booking window opens `bookingOpensHours` before the
 * start on the studio's wall clock (as for classes), so the latest start is now's wall time plus
 * those hours. Null = always open.
 */
export function latestBookableStart(
  now: Date,
  bookingOpensHours: number | null,
  timeZone: string,
): Date | null {
  if (bookingOpensHours === null) return null;
  const date = localDateOf(now, timeZone);
  const { minutes } = localClockOf(now, timeZone);
  const total = minutes + bookingOpensHours * 60;
  const days = Math.floor(total / 1440);
  return new Date(
    instantOfLocalTime(addLocalDays(date, days), total - days * 1440, timeZone).getTime() +
      (now.getTime() % MINUTE),
  );
}
