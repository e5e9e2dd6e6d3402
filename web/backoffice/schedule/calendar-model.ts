import type { ScheduleEventView, ScheduleInit } from '../../../shared/contracts/api/schedule';
import { SCHEDULE_CONFLICT } from '../../../shared/contracts/api/schedule';
import { ApiError } from '../../lib/api-client';
import { toWall } from '../appointments/appointments.api';

/**
 * The schedule calendar's pure parts: classes as react-big-calendar events on the studio's wall
 * clock, the columns of a day (rooms or instructors), the hours the grid spans, what a drop into
 * another column changes, and the words for the API's refusal of a move.
 */

export type ColumnMode = 'rooms' | 'instructors';
/** The column of classes without a room / without an instructor. */
export const NONE = 'none';

export interface CalEvent {
  /** Unique per column: a class taught by two instructors shows in both their columns. */
  key: string;
  event: ScheduleEventView;
  start: Date;
  end: Date;
  /**
   * The tile ends before the class (it runs past midnight, `shownEnd`): resizing it would set the
   * tile's end, not the class's, so it cannot be resized (it can still be moved, which keeps the
   * class's duration).
   */
  clipped: boolean;
  resourceId?: string;
}

export interface CalResource {
  id: string;
  title: string;
  /** A room's location (a drop into the room moves the class there too). */
  locationId?: string;
}

/**
 * Where a class's tile ends: its end, or the end of its first day when it runs past midnight
 * (23:40–00:25). The calendar puts an event that spans two days in its all-day row, which the
 * schedule hides, so such a class vanished from the week; its tile keeps the real times.
 */
function shownEnd(start: Date, end: Date): Date {
  if (end.getDate() === start.getDate() || end <= start) return end;
  return new Date(start.getFullYear(), start.getMonth(), start.getDate(), 23, 59, 59, 999);
}

export function calendarEvents(
  events: readonly ScheduleEventView[],
  timeZone: string,
  mode: ColumnMode | null,
): CalEvent[] {
  return events.flatMap((event) => {
    const start = toWall(event.startsAt, timeZone);
    const end = toWall(event.endsAt, timeZone);
    const shown = shownEnd(start, end);
    const base = { event, start, end: shown, clipped: shown.getTime() !== end.getTime() };
    if (mode === 'rooms') return [{ ...base, key: event.id, resourceId: event.roomId ?? NONE }];
    if (mode === 'instructors') {
      const ids = event.instructors.length > 0 ? event.instructors.map((i) => i.id) : [NONE];
      return ids.map((id) => ({ ...base, key: `${event.id}:${id}`, resourceId: id }));
    }
    return [{ ...base, key: event.id }];
  });
}

/**
 * A day's columns: the rooms of the chosen location (of every location, named with it, when none is
 * chosen), or the instructors; a "no room" / "no instructor" column only when a class needs it.
 */
export function dayColumns(
  init: ScheduleInit,
  events: readonly ScheduleEventView[],
  mode: ColumnMode,
  locationId: string | null,
  labels: { noRoom: string; noInstructor: string },
): CalResource[] {
  if (mode === 'rooms') {
    const locations = init.locations.filter((l) => !locationId || l.id === locationId);
    const rooms: CalResource[] = locations.flatMap((l) =>
      l.rooms.map((r) => ({
        id: r.id,
        title: locations.length > 1 ? `${r.name} · ${l.name}` : r.name,
        locationId: l.id,
      })),
    );
    // A class in a room no longer offered (archived) still gets its column.
    for (const e of events)
      if (e.roomId && !rooms.some((r) => r.id === e.roomId))
        rooms.push({ id: e.roomId, title: e.roomName ?? '—', locationId: e.locationId });
    if (rooms.length === 0 || events.some((e) => !e.roomId)) rooms.push({ id: NONE, title: labels.noRoom });
    return rooms;
  }
  const teaching = new Set(events.flatMap((e) => e.instructors.map((i) => i.id)));
  const people: CalResource[] = init.instructors
    .filter((p) => teaching.has(p.id))
    .map((p) => ({ id: p.id, title: `${p.firstName} ${p.lastName}`.trim() }));
  for (const e of events)
    for (const p of e.instructors)
      if (!people.some((x) => x.id === p.id))
        people.push({ id: p.id, title: `${p.firstName} ${p.lastName}`.trim() });
  if (people.length === 0 || events.some((e) => e.instructors.length === 0))
    people.push({ id: NONE, title: labels.noInstructor });
  return people;
}

/** The hours the grid shows: 06:00–22:00, widened to every class of the range (whole hours). */
export function hourRange(events: readonly CalEvent[]): { min: number; max: number } {
  let min = 6;
  let max = 22;
  for (const e of events) {
    min = Math.min(min, e.start.getHours());
    // A tile never runs past its day (shownEnd): one past midnight ends at 23:59, so the grid to 24.
    max = Math.max(max, e.end.getHours() + (e.end.getMinutes() > 0 ? 1 : 0));
  }
  return { min, max: Math.min(max, 24) };
}

/** What a drop into another column changes: the room (and its location), or one instructor for another. */
export function columnChange(
  event: ScheduleEventView,
  mode: ColumnMode | null,
  from: string | undefined,
  to: string | undefined,
  resources: readonly CalResource[],
): { locationId?: string; roomId?: string | null; instructorIds?: string[] } {
  if (!mode || to === undefined || from === to) return {};
  if (mode === 'rooms') {
    if (to === NONE) return { roomId: null };
    const room = resources.find((r) => r.id === to);
    return room?.locationId && room.locationId !== event.locationId
      ? { locationId: room.locationId, roomId: to }
      : { roomId: to };
  }
  const others = event.instructors.map((i) => i.id).filter((id) => id !== from && id !== to);
  return { instructorIds: to === NONE ? others : [to, ...others] };
}

export const CONFLICT_KEY = 'scheduleEvent.conflict';

/**
 * The class a refused move would have clashed with, from the week on screen: same room (or a shared
 * instructor), overlapping the new time, still scheduled.
 */
export function clashingClass(
  events: readonly ScheduleEventView[],
  moved: ScheduleEventView,
  change: { startsAt: string; endsAt: string; roomId?: string | null; instructorIds?: string[] },
  kind: 'room' | 'instructor',
): ScheduleEventView | undefined {
  const start = Date.parse(change.startsAt);
  const end = Date.parse(change.endsAt);
  const roomId = change.roomId === undefined ? moved.roomId : change.roomId;
  const teachers = change.instructorIds ?? moved.instructors.map((i) => i.id);
  return events.find(
    (o) =>
      o.id !== moved.id &&
      o.status === 'scheduled' &&
      Date.parse(o.startsAt) < end &&
      Date.parse(o.endsAt) > start &&
      (kind === 'room'
        ? roomId !== null && o.roomId === roomId
        : o.instructors.some((i) => teachers.includes(i.id))),
  );
}

/** Which rule a refusal names: the room or an instructor (null when it is not a clash). */
export function conflictKind(error: unknown): 'room' | 'instructor' | null {
  if (!(error instanceof ApiError) || error.key !== CONFLICT_KEY) return null;
  const messages = Object.values(error.fields).flat();
  return messages.includes(SCHEDULE_CONFLICT.instructor) && !messages.includes(SCHEDULE_CONFLICT.room)
    ? 'instructor'
    : 'room';
}

/**
 * The most classes running at once in one column (a day, or a day's room or instructor): the grid
 * gives each column room for that many tiles side by side, so names and rooms wrap rather than cut.
 */
export function lanesOf(events: readonly CalEvent[]): number {
  const columns = new Map<string, Array<[number, number]>>();
  for (const e of events) {
    const key = `${e.start.toDateString()}|${e.resourceId ?? ''}`;
    const list = columns.get(key) ?? [];
    list.push([e.start.getTime(), 1], [e.end.getTime(), -1]);
    columns.set(key, list);
  }
  let lanes = 1;
  for (const points of columns.values()) {
    // Ends before starts at the same instant: back-to-back classes share a lane.
    points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let open = 0;
    for (const [, step] of points) lanes = Math.max(lanes, (open += step));
  }
  return lanes;
}
