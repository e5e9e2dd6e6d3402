import type {
  InstructorView,
  PublicSchedule,
  PublicScheduleEvent,
  ScheduleEventView,
} from '../../../../shared/contracts/api/schedule';
import { TAKES_PLACE, V } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import { prepared, type Db } from '../../db/knex';

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
 * Each distinct instructor list of the range's events as its JSON array, in the list's order
 * (unknown ids dropped, like the presenter), from `people`: the week's instructors, read once (see
 * `timetableJson`). A week has a few distinct lists (one per teacher, a few pairs), so each is built
 * once and joined to its events by the array itself; built per event, the lists were a third of the
 * week's query (512 subplans). A per-event lookup in `users` before that let the planner scan the
 * whole users table once per event.
 */
const teamsOf = (range: string) => `teams as materialized (
       select d.ids, (select coalesce(json_agg(p.doc order by x.ord), '[]'::json)
                        from unnest(d.ids) with ordinality as x(uid, ord) join people p on p.id = x.uid) as doc
         from (select distinct e.instructor_ids as ids from schedule_events e where ${range}) d)`;

const INSTRUCTORS = `coalesce(tm.doc, '[]'::json)`;

const SERVICE = `json_build_object('id', s.id, 'name', s.name, 'color', s.color, 'serviceType', s.service_type)`;

/*
 * The shapes are column lists: each column's alias is its key in the event's JSON object, in the
 * presenter's order. `json_agg` of the rows writes them as objects (`row_to_json`), which costs less
 * than a `json_build_object` of 20 keys per event (it looks each value's output function up per call).
 */

/** `presentEvent`, in SQL. */
export const STAFF_EVENT_JSON = `e.id,
  e.schedule_meta_id as "scheduleMetaId",
  to_char(e.occurrence_date, 'YYYY-MM-DD') as "occurrenceDate",
  ${SERVICE} as "classService",
  e.location_id as "locationId",
  l.name as "locationName",
  e.room_id as "roomId",
  r.name as "roomName",
  ${INSTRUCTORS} as instructors,
  ${iso('e.starts_at')} as "startsAt",
  ${iso('e.ends_at')} as "endsAt",
  e.capacity,
  e.waiting_list_size as "waitingListSize",
  c.taken,
  c.waiting,
  e.status,
  e.is_hidden as hidden,
  e.bookable_online as "bookableOnline",
  e.livestream_url as "livestreamUrl",
  e.notes,
  e.edited_at is not null as edited`;

/** `presentPublicEvent`, in SQL: no notes, livestream link, hidden state or waiting list. */
export const PUBLIC_EVENT_JSON = `e.id,
  ${SERVICE} as "classService",
  json_build_object('id', l.id, 'name', l.name) as location,
  case when e.room_id is not null and r.name is not null
       then json_build_object('id', e.room_id, 'name', r.name) end as room,
  ${INSTRUCTORS} as instructors,
  ${iso('e.starts_at')} as "startsAt",
  ${iso('e.ends_at')} as "endsAt",
  e.capacity,
  e.status = 'cancelled' as cancelled,
  e.bookable_online and e.status = 'scheduled' as "bookableOnline"`;

/**
 * Places taken and people waiting among the visits `v` read (found in the (studio_id,
 * schedule_event_id, status) index).
 */
const COUNTS = `(count(*) filter (where v.status in ${sqlSet(TAKES_PLACE)}))::int as taken,
       (count(*) filter (where v.status = ${V.waitingList}))::int as waiting`;

/** The counts of the event `e` of the enclosing statement (a lateral subquery: one row, 0 for none). */
const COUNTS_OF_EVENT = `select ${COUNTS}
  from client_visits v
 where v.studio_id = e.studio_id and v.schedule_event_id = e.id`;

/** The same counts for a few events (the JS presenter's single events and small lists). */
export async function visitCounts(
  db: Db,
  studioId: string,
  ids: readonly string[],
): Promise<Map<string, { taken: number; waiting: number }>> {
  if (ids.length === 0) return new Map();
  const result = (await db.raw(
    `select v.schedule_event_id as id, ${COUNTS}
       from client_visits v
      where v.studio_id = ? and v.schedule_event_id = any(?::uuid[])
      group by v.schedule_event_id`,
    [studioId, [...ids]],
  )) as {
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
 * (studio_id, starts_at) or (studio_id, location_id, starts_at), joins by primary key, each distinct
 * instructor list built once (`teamsOf`). `json_agg` orders the rows it writes. `extra`
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
  // Staff see each class's places taken and waiting list: counted per class in the
  // (studio_id, schedule_event_id, status) index, so the cost follows the week's classes. A grouped
  // count over "the visits of the range's events" let the planner, its statistics behind a burst of
  // bookings, read every visit of the studio and keep the week's (4,000 visits: 4 ms of the 10).
  const counts = withCounts
    ? `
                       left join lateral (${COUNTS_OF_EVENT}) c on true`
    : '';
  // Ordered by start, then id: "startsAt" is ISO-8601 in UTC with a fixed width, so its text order (in
  // the "C" collation: bytes) is the instants' order. Prepared (planned once per connection): planning
  // took 0.9 ms, an eighth of the statement. Its text varies only with which filters are set.
  const result = (await prepared(
    db.raw(
      `with people as materialized (
       select u.id, json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name) as doc
         from users u
        where u.id in (select unnest(e.instructor_ids) from schedule_events e where ${range})),
     ${teamsOf(range)}
     select (select coalesce(json_agg(t order by t."startsAt" collate "C", t.id), '[]'::json)::text
               from (select ${shape}
                       from schedule_events e
                       join class_services s on s.id = e.class_service_id
                       join locations l on l.id = e.location_id
                       left join location_rooms r on r.id = e.room_id
                       left join teams tm on tm.ids = e.instructor_ids${counts}
                      where ${range}) t) as items${extra}`,
      [...bindings, ...bindings, ...bindings, ...(extra ? [studioId, studioId] : [])],
    ),
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
