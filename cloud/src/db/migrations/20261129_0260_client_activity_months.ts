import type { Knex } from 'knex';

/**
 * Reports (issue 20): the rollups behind the retention report and the dashboard's attendance charts.
 *
 * `client_activity_months`: per studio, month (the studio's calendar), location and client, how many of
 * the client's visits in that month took a place (booked, present, absent, unconfirmed — TAKES_PLACE in
 * shared/domain/bookings/visit-status.ts). Retention reads a year as one range of this table instead of
 * every visit of the year joined to its class, and "first visit ever" as the absence of an earlier row.
 *
 * `studio_visit_hours`: per studio, local day, location and local hour, the visits that took a place:
 * the dashboard's "attendance by weekday and hour" of 8 weeks is a few hundred rows of it, not some
 * 70,000 visits joined to their classes.
 *
 * Both kept on write, in the same transaction as the visit, by triggers (so it can never lag or drift):
 * - a visit inserted, deleted, or updated in status, start, client or class: −1 on the old key, +1 on
 *   the new (a visit moved with its class follows, as `schedule_events_moves_visits` updates visits);
 * - a class moved to another location: its visits move between the locations' rows;
 * - a studio's time zone changed: the studio's rows are rebuilt (months are local months).
 * A row whose count falls to 0 is deleted (an erased client's visits leave nothing behind).
 *
 * Index (studio_id, client_id, month): "did this client come before month m", once per client of a
 * retention report. The primary key (studio_id, month, location_id, client_id) reads a period's rows.
 */
const TAKES = '(0, 1, 2, 9)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table client_activity_months (
      studio_id uuid not null references studios(id) on delete cascade,
      month date not null,
      location_id uuid not null,
      client_id uuid not null,
      visits integer not null,
      primary key (studio_id, month, location_id, client_id)
    )`);
  await knex.raw(
    'create index client_activity_months_client on client_activity_months (studio_id, client_id, month)',
  );
  await knex.raw(`
    create table studio_visit_hours (
      studio_id uuid not null references studios(id) on delete cascade,
      day date not null,
      location_id uuid not null,
      hour smallint not null,
      visits integer not null,
      primary key (studio_id, day, location_id, hour)
    )`);

  await knex.raw(`
    create function client_activity_add(p_studio uuid, p_client uuid, p_at timestamptz, p_event uuid, p_delta int)
    returns void language plpgsql as $$
    declare tz text; loc uuid; local_at timestamp;
    begin
      select time_zone into tz from studios where id = p_studio;
      select location_id into loc from schedule_events where id = p_event;
      if tz is null or loc is null then return; end if;
      local_at := p_at at time zone tz;
      insert into studio_visit_hours as h (studio_id, day, location_id, hour, visits)
      values (p_studio, local_at::date, loc, extract(hour from local_at), p_delta)
      on conflict (studio_id, day, location_id, hour) do update set visits = h.visits + excluded.visits;
      insert into client_activity_months as a (studio_id, month, location_id, client_id, visits)
      values (p_studio, date_trunc('month', local_at)::date, loc, p_client, p_delta)
      on conflict (studio_id, month, location_id, client_id) do update set visits = a.visits + excluded.visits;
      if p_delta < 0 then
        delete from client_activity_months
         where studio_id = p_studio and month = date_trunc('month', local_at)::date
           and location_id = loc and client_id = p_client and visits <= 0;
        delete from studio_visit_hours
         where studio_id = p_studio and day = local_at::date and location_id = loc
           and hour = extract(hour from local_at) and visits <= 0;
      end if;
    end $$`);
  await knex.raw(`
    create function client_visits_activity() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.status in ${TAKES} and new.status in ${TAKES}
         and old.client_id = new.client_id and old.schedule_event_id = new.schedule_event_id
         and old.starts_at = new.starts_at then
        return null;
      end if;
      if tg_op <> 'INSERT' and old.status in ${TAKES} then
        perform client_activity_add(old.studio_id, old.client_id, old.starts_at, old.schedule_event_id, -1);
      end if;
      if tg_op <> 'DELETE' and new.status in ${TAKES} then
        perform client_activity_add(new.studio_id, new.client_id, new.starts_at, new.schedule_event_id, 1);
      end if;
      return null;
    end $$`);
  await knex.raw(`
    create trigger client_visits_activity_insert after insert on client_visits
      for each row when (new.status in ${TAKES}) execute function client_visits_activity()`);
  await knex.raw(`
    create trigger client_visits_activity_delete after delete on client_visits
      for each row when (old.status in ${TAKES}) execute function client_visits_activity()`);
  await knex.raw(`
    create trigger client_visits_activity_update
      after update of status, starts_at, client_id, schedule_event_id on client_visits
      for each row when (old.status in ${TAKES} or new.status in ${TAKES})
      execute function client_visits_activity()`);

  await knex.raw(`
    create function schedule_events_activity_location() returns trigger language plpgsql as $$
    declare tz text; local_at timestamp;
    begin
      select time_zone into tz from studios where id = new.studio_id;
      local_at := new.starts_at at time zone tz;
      insert into studio_visit_hours as h (studio_id, day, location_id, hour, visits)
      select new.studio_id, local_at::date, x.loc, extract(hour from local_at), x.d * count(v.id)
        from client_visits v
        cross join (values (old.location_id, -1), (new.location_id, 1)) x(loc, d)
       where v.schedule_event_id = new.id and v.status in ${TAKES} and x.loc is not null
       group by x.loc, x.d
      having count(v.id) > 0
      on conflict (studio_id, day, location_id, hour) do update set visits = h.visits + excluded.visits;
      delete from studio_visit_hours
       where studio_id = new.studio_id and day = local_at::date and location_id = old.location_id
         and visits <= 0;
      insert into client_activity_months as a (studio_id, month, location_id, client_id, visits)
      select v.studio_id, date_trunc('month', v.starts_at at time zone tz)::date, x.loc, v.client_id, sum(x.d)
        from client_visits v
        cross join (values (old.location_id, -1), (new.location_id, 1)) x(loc, d)
       where v.schedule_event_id = new.id and v.status in ${TAKES} and x.loc is not null
       group by 1, 2, 3, 4
      on conflict (studio_id, month, location_id, client_id) do update set visits = a.visits + excluded.visits;
      delete from client_activity_months
       where studio_id = new.studio_id and month = date_trunc('month', new.starts_at at time zone tz)::date
         and location_id = old.location_id and visits <= 0;
      return null;
    end $$`);
  await knex.raw(`
    create trigger schedule_events_activity_location after update of location_id on schedule_events
      for each row when (old.location_id is distinct from new.location_id)
      execute function schedule_events_activity_location()`);

  await knex.raw(`
    create function client_activity_rebuild(p_studio uuid) returns void language plpgsql as $$
    begin
      delete from client_activity_months where studio_id = p_studio;
      delete from studio_visit_hours where studio_id = p_studio;
      insert into client_activity_months (studio_id, month, location_id, client_id, visits)
      select v.studio_id, date_trunc('month', v.starts_at at time zone s.time_zone)::date, e.location_id,
             v.client_id, count(*)
        from client_visits v
        join studios s on s.id = v.studio_id
        join schedule_events e on e.id = v.schedule_event_id
       where v.studio_id = p_studio and v.status in ${TAKES}
       group by 1, 2, 3, 4;
      insert into studio_visit_hours (studio_id, day, location_id, hour, visits)
      select v.studio_id, (v.starts_at at time zone s.time_zone)::date, e.location_id,
             extract(hour from v.starts_at at time zone s.time_zone), count(*)
        from client_visits v
        join studios s on s.id = v.studio_id
        join schedule_events e on e.id = v.schedule_event_id
       where v.studio_id = p_studio and v.status in ${TAKES}
       group by 1, 2, 3, 4;
    end $$`);
  await knex.raw(`
    create function studios_activity_time_zone() returns trigger language plpgsql as $$
    begin
      perform client_activity_rebuild(new.id);
      return null;
    end $$`);
  await knex.raw(`
    create trigger studios_activity_time_zone after update of time_zone on studios
      for each row when (old.time_zone is distinct from new.time_zone)
      execute function studios_activity_time_zone()`);

  // The visits written so far.
  await knex.raw(`select client_activity_rebuild(id) from studios`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists studios_activity_time_zone on studios');
  await knex.raw('drop trigger if exists schedule_events_activity_location on schedule_events');
  for (const op of ['insert', 'delete', 'update'])
    await knex.raw(`drop trigger if exists client_visits_activity_${op} on client_visits`);
  for (const fn of [
    'studios_activity_time_zone()',
    'client_activity_rebuild(uuid)',
    'schedule_events_activity_location()',
    'client_visits_activity()',
    'client_activity_add(uuid, uuid, timestamptz, uuid, int)',
  ])
    await knex.raw(`drop function if exists ${fn}`);
  await knex.schema.dropTableIfExists('client_activity_months');
  await knex.schema.dropTableIfExists('studio_visit_hours');
}
