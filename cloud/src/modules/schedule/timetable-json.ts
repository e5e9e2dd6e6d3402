import type {
  InstructorView,
  PublicSchedule,
  PublicScheduleEvent,
  ScheduleEventView,
} from '../../../../shared/contracts/api/schedule';
import { TAKES_PLACE, V } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import type { Db } from '../../db/knex';

/**
 * The timetable's hot path presents in PostgreSQL: one query answers the week as one JSON document
 * shaped exactly like `presentEvent` / `presentPublicEvent` (schedule.presenter.ts) would, instructors
 * included. Node then parses one JSON string instead of 500 rows × 22 columns (pg's per-column
 * parsers, timestamp parsing, the camelCase key mapping, the presenter): the week's timetable was
 * mostly that CPU work (see the bookings README's benchmark figures). The JS presenters stay for
 * single events and small lists; `timetable-json.int.test.ts` holds both to the same output.
 */

/** ISO-8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The event's instructors in the order the event lists them (unknown ids dropped, like the
 * presenter), from `people`: the week's instructors, read once (see `timetableJson`). A per-event
 * lookup in `users` let the planner scan the whole users table once per event (0.4 ms × 500).
 */
const INSTRUCTORS = `(select coalesce(json_agg(p.doc order by x.ord), '[]'::json)
   from unnest(e.instructor_ids) with ordinality as x(uid, ord) join people p on p.id = x.uid)`;

const SERVICE = `json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'serviceType', s.service_type)`;

/** `presentEvent`, in SQL. */
export const STAFF_EVENT_JSON = `json_build_object(
  'id', e.id,
  'scheduleMetaId', e.schedule_meta_id,
  'occurrenceDate', to_char(e.occurrence_date, 'YYYY-MM-DD'),
  'classService', ${SERVICE},
  'locationId', e.location_id,
  'locationName', l.name,
  'roomId', e.room_id,
  'roomName', r.name,
  'instructors', ${INSTRUCTORS},
  'startsAt', ${iso('e.starts_at')},
  'endsAt', ${iso('e.ends_at')},
  'capacity', e.capacity,
  'waitingListSize', e.waiting_list_size,
  'taken', coalesce(c.taken, 0),
  'waiting', coalesce(c.waiting, 0),
  'status', e.status,
  'hidden', e.is_hidden,
  'bookableOnline', e.bookable_online,
  'livestreamUrl', e.livestream_url,
  'notes', e.notes,
  'edited', e.edited_at is not null)`;

/** `presentPublicEvent`, in SQL: no notes, livestream link, hidden state or waiting list. */
export const PUBLIC_EVENT_JSON = `json_build_object(
  'id', e.id,
  'classService', ${SERVICE},
  'location', json_build_object('id', l.id, 'name', l.name),
  'room', case when e.room_id is not null and r.name is not null
               then json_build_object('id', e.room_id, 'name', r.name) end,
  'instructors', ${INSTRUCTORS},
  'startsAt', ${iso('e.starts_at')},
  'endsAt', ${iso('e.ends_at')},
  'capacity', e.capacity,
  'cancelled', e.status = 'cancelled',
  'bookableOnline', e.bookable_online and e.status = 'scheduled')`;

/**
 * Places taken and people waiting per event, counted in one grouped scan of the events' visits
 * (the (schedule_event_id, client_id) index): `events` is a subquery of event ids.
 */
const countsOf = (events: string) => `select v.schedule_event_id as id,
       (count(*) filter (where v.status in ${sqlSet(TAKES_PLACE)}))::int as taken,
       (count(*) filter (where v.status = ${V.waitingList}))::int as waiting
  from client_visits v
 where v.studio_id = ? and v.schedule_event_id in (${events})
 group by v.schedule_event_id`;

/** The same counts for a few events (the JS presenter's single events and small lists). */
export async function visitCounts(
  db: Db,
  studioId: string,
  ids: readonly string[],
): Promise<Map<string, { taken: number; waiting: number }>> {
  if (ids.length === 0) return new Map();
  const result = (await db.raw(countsOf(`select unnest(?::uuid[])`), [studioId, [...ids]])) as {
    rows: Array<{ id: string; taken: number; waiting: number }>;
  };
  return new Map(result.rows.map((r) => [r.id, { taken: r.taken, waiting: r.waiting }]));
}

export interface TimetableFilter {
  from: Date;
  to: Date;
  locationId?: string | undefined;
  roomId?: string | undefined;
  classServiceId?: string | undefined;
  instructorId?: string | undefined;
  /** Back office: removed classes too. */
  includeRemoved?: boolean;
  /** Front office: hidden and removed classes never. */
  publicOnly?: boolean;
}

/**
 * The events of a range as one JSON array (ordered by start, then id): a single range scan on
 * (studio_id, starts_at) or (studio_id, location_id, starts_at), joins by primary key, instructors by
 * primary key per event. `json_agg` runs over the ordered subquery, so the order holds. `extra`
 * adds more JSON columns to the same statement (one round trip for the whole answer).
 */
async function timetableJson(
  db: Db,
  studioId: string,
  shape: string,
  f: TimetableFilter,
  extra = '',
  withCounts = false,
): Promise<Record<string, string>> {
  const where = ['e.studio_id = ?', 'e.starts_at >= ?', 'e.starts_at < ?'];
  const bindings: Array<string | Date> = [studioId, f.from, f.to];
  const filter = (sql: string, value: string | undefined) => {
    if (!value) return;
    where.push(sql);
    bindings.push(value);
  };
  filter('e.location_id = ?', f.locationId);
  filter('e.room_id = ?', f.roomId);
  filter('e.class_service_id = ?', f.classServiceId);
  filter('?::uuid = any(e.instructor_ids)', f.instructorId);
  if (f.publicOnly) where.push(`not e.is_hidden`, `e.status <> 'removed'`);
  else if (!f.includeRemoved) where.push(`e.status <> 'removed'`);
  const range = where.join(' and ');
  // Staff see each class's places taken and waiting list: one grouped count for the whole range.
  const counts = withCounts
    ? `, c as materialized (${countsOf(`select e.id from schedule_events e where ${range}`)})`
    : '';
  const result = (await db.raw(
    `with people as materialized (
       select u.id, json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name) as doc
         from users u
        where u.id in (select unnest(e.instructor_ids) from schedule_events e where ${range}))${counts}
     select (select coalesce(json_agg(t.doc order by t.starts_at, t.id), '[]'::json)::text
               from (select e.id, e.starts_at, ${shape} as doc
                       from schedule_events e
                       join class_services s on s.id = e.class_service_id
                       join locations l on l.id = e.location_id
                       left join location_rooms r on r.id = e.room_id${
                         withCounts
                           ? `
                       left join c on c.id = e.id`
                           : ''
                       }
                      where ${range}) t) as items${extra}`,
    [
      ...bindings,
      ...(withCounts ? [studioId, ...bindings] : []),
      ...bindings,
      ...(extra ? [studioId, studioId] : []),
    ],
  )) as { rows: Array<Record<string, string>> };
  return result.rows[0]!;
}

export async function staffTimetable(db: Db, studioId: string, f: TimetableFilter) {
  return JSON.parse(await staffTimetableText(db, studioId, f)) as ScheduleEventView[];
}

/** `staffTimetable` as PostgreSQL wrote it: a JSON array of `ScheduleEventView`, not parsed. */
export async function staffTimetableText(db: Db, studioId: string, f: TimetableFilter): Promise<string> {
  const row = await timetableJson(db, studioId, STAFF_EVENT_JSON, f, '', true);
  return row.items!;
}

/** What the front office's filters offer: active locations by name, active class services. */
const PUBLIC_FILTERS = `,
  (select coalesce(json_agg(json_build_object('id', x.id, 'name', x.name) order by x.name, x.id), '[]'::json)::text
     from locations x where x.studio_id = ? and x.archived_at is null) as locations,
  (select coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'color', x.color,
            'serviceType', x.service_type) order by x.created_at, x.id), '[]'::json)::text
     from class_services x where x.studio_id = ? and x.service_type in ('classroom', 'course')
      and x.archived_at is null) as services,
  (select coalesce(json_agg(p.doc), '[]'::json)::text from people p) as teachers`;

export async function publicTimetable(db: Db, studioId: string, f: TimetableFilter) {
  const text = await publicTimetableText(db, studioId, f);
  return {
    items: JSON.parse(text.items) as PublicScheduleEvent[],
    locations: JSON.parse(text.locations) as Array<{ id: string; name: string }>,
    classServices: JSON.parse(text.classServices) as PublicSchedule['filters']['classServices'],
  };
}

/**
 * `publicTimetable` as PostgreSQL wrote it (JSON texts, not parsed), with `teachers`: everyone
 * teaching in the range's events as read (for an unfiltered range, exactly the instructors of
 * its items, in no order).
 */
export async function publicTimetableText(db: Db, studioId: string, f: TimetableFilter) {
  const row = await timetableJson(
    db,
    studioId,
    PUBLIC_EVENT_JSON,
    { ...f, publicOnly: true },
    PUBLIC_FILTERS,
  );
  return {
    items: row.items!,
    locations: row.locations!,
    classServices: row.services!,
    teachers: JSON.parse(row.teachers!) as InstructorView[],
  };
}
