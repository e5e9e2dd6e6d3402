import { OrderStatus } from '../../../../shared/enums/orders';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { TAKES_PLACE } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import { baseValues, col, named, type ReportDef } from './report-def';
import { nameSql } from './report-period';

const TAKES = sqlSet(TAKES_PLACE);
const PAID = OrderStatus.paid;
const LATE = sqlSet([V.lateCancel, V.selfLateCancel]);
const EARLY = sqlSet([V.earlyCancel, V.selfEarlyCancel]);
/** Who came or was due to come: booked, present, unpaid (absent ones are no-shows). */
const ATTENDEES = sqlSet([V.booked, V.present, V.unconfirmed]);

/** The classes of the period (not cancelled or removed), with the filters every class report takes. */
const EVENTS_WHERE = `e.studio_id = :studio and e.starts_at >= :start and e.starts_at < :end
  and e.cancelled_at is null and e.removed_at is null
  and (cast(:location as uuid) is null or e.location_id = :location)
  and (cast(:instructor as uuid) is null or e.instructor_id = :instructor)
  and (cast(:classService as uuid) is null or e.class_service_id = :classService)`;

/**
 * Attendance by class service, instructor, hour or weekday: classes, places, bookings, who came, the
 * fill rate (places taken of places offered), the no-show rate (absent of booked) and the late-cancel
 * rate (late cancellations of all bookings made).
 */
export const attendance: ReportDef = {
  id: 'attendance',
  group: 'attendance',
  filters: ['location', 'instructor', 'classService', 'groupBy'],
  columns: () => [
    col('label', 'text'),
    col('classes', 'count', true),
    col('capacity', 'count', true),
    col('booked', 'count', true),
    col('present', 'count', true),
    col('absent', 'count', true),
    col('lateCancel', 'count', true),
    col('fillRate', 'percent'),
    col('noShowRate', 'percent'),
    col('lateCancelRate', 'percent'),
  ],
  sql: (ctx) => {
    const group = ctx.query.groupBy ?? 'classService';
    const label = {
      classService: [nameSql('cs.name', ctx.lang), nameSql('cs.name', ctx.lang)],
      instructor: [
        `coalesce(u.first_name || ' ' || u.last_name, '')`,
        `coalesce(u.last_name || ' ' || u.first_name, '')`,
      ],
      hour: [`lpad(ev.hour::text, 2, '0') || ':00'`, `lpad(ev.hour::text, 2, '0')`],
      weekday: [`'reports:weekday.' || ev.weekday`, `ev.weekday::text`],
    }[group];
    return named(
      `with ev as (
         select e.id, e.class_service_id, e.instructor_id, e.capacity,
                extract(hour from e.starts_at at time zone :tz)::int as hour,
                extract(isodow from e.starts_at at time zone :tz)::int as weekday,
                count(v.id) filter (where v.status in ${TAKES}) as booked,
                count(v.id) filter (where v.status = ${V.present}) as present,
                count(v.id) filter (where v.status = ${V.absent}) as absent,
                count(v.id) filter (where v.status in ${LATE}) as late,
                count(v.id) filter (where v.status in ${EARLY}) as early
           from schedule_events e
           -- A visit starts when its class does (schedule_events_moves_visits): the period bounds both,
           -- so the visits come from their (studio_id, starts_at) index, not the whole history of the studio.
           left join client_visits v on v.studio_id = e.studio_id and v.schedule_event_id = e.id
                 and v.starts_at >= :start and v.starts_at < :end
          where ${EVENTS_WHERE}
          group by e.id)
       select ${label[0]} as label, count(*)::int as classes, sum(ev.capacity)::int as capacity,
              sum(ev.booked)::int as booked, sum(ev.present)::int as present, sum(ev.absent)::int as absent,
              sum(ev.late)::int as "lateCancel",
              round(100.0 * sum(ev.booked) / nullif(sum(ev.capacity), 0), 1)::float8 as "fillRate",
              round(100.0 * sum(ev.absent) / nullif(sum(ev.booked), 0), 1)::float8 as "noShowRate",
              round(100.0 * sum(ev.late) / nullif(sum(ev.booked + ev.late + ev.early), 0), 1)::float8 as "lateCancelRate",
              ${label[1]} as _k
         from ev
         join class_services cs on cs.id = ev.class_service_id
         left join users u on u.id = ev.instructor_id
        group by 1, ${label[1]}`,
      baseValues(ctx),
    );
  },
};

/**
 * Retention by month: clients active (a visit that took a place), new (their first visit ever),
 * reactivated (active, not new, not active the month before), lapsed (active the month before, not
 * this month) and the churn rate (lapsed of last month's active). Whole months of the studio's
 * calendar, read from the monthly activity rollup `client_activity_months` (migration 0260, kept by
 * triggers on every visit write; a row exists only while its count is above 0): a year is one index
 * range of it, and "first visit ever" is asked only for a client's first active month of the period,
 * as "no earlier row".
 */
export const retention: ReportDef = {
  id: 'retention',
  group: 'clients',
  filters: ['location'],
  columns: () => [
    col('month', 'text'),
    col('active', 'count'),
    col('new', 'count', true),
    col('reactivated', 'count', true),
    col('lapsed', 'count', true),
    col('churnRate', 'percent'),
  ],
  sql: (ctx) => {
    const monthFrom = `${ctx.query.from.slice(0, 7)}-01`;
    const [y, m] = monthFrom.split('-').map(Number) as [number, number];
    const monthBefore = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
    return named(
      `with months as (
         select generate_series(cast(:monthFrom as date), cast(:monthTo as date), interval '1 month')::date as m),
       seen as (
         select a.client_id, a.month as m
           from client_activity_months a
          where a.studio_id = :studio and a.month >= cast(:monthBefore as date)
            and a.month <= cast(:monthTo as date)
            and (cast(:location as uuid) is null or a.location_id = :location)
          group by a.client_id, a.month),
       flags as materialized (
         select s.client_id, s.m, lag(s.m) over w as prev_m, lead(s.m) over w as next_m
           from seen s
         window w as (partition by s.client_id order by s.m)),
       came as (
         select f.m, count(*) as active, count(*) filter (where not x.earlier) as new,
                count(*) filter (where x.earlier and (f.prev_m is null
                                   or f.prev_m <> (f.m - interval '1 month')::date)) as reactivated
           from flags f
           cross join lateral (
             select case when f.prev_m is not null then true
                         else exists (select 1 from client_activity_months b
                                       where b.studio_id = :studio and b.client_id = f.client_id
                                         and b.month < f.m) end as earlier
              offset 0) x
          where f.m >= cast(:monthFrom as date)
          group by f.m),
       went as (
         select (f.m + interval '1 month')::date as m, count(*) as before,
                count(*) filter (where f.next_m is null or f.next_m <> (f.m + interval '1 month')::date) as lapsed
           from flags f
          where f.m < cast(:monthTo as date)
          group by 1)
       select to_char(months.m, 'YYYY-MM') as month, coalesce(came.active, 0)::int as active,
              coalesce(came.new, 0)::int as new, coalesce(came.reactivated, 0)::int as reactivated,
              coalesce(went.lapsed, 0)::int as lapsed,
              round(100.0 * went.lapsed / nullif(went.before, 0), 1)::float8 as "churnRate",
              to_char(months.m, 'YYYY-MM') as _k
         from months
         left join came on came.m = months.m
         left join went on went.m = months.m`,
      { ...baseValues(ctx), monthFrom, monthBefore, monthTo: `${ctx.query.to.slice(0, 7)}-01` },
    );
  },
};

/**
 * Payroll: each class of the period, who taught it (the class's own instructor — a substitute put on
 * one class is paid for it, not the instructor of the timetable), the rate that paid it (the
 * instructor's rate for the class service, else the instructor's default) and the pay:
 * per class; per attendee (booked, present or unpaid) with the class's minimum; per hour of the
 * class's length; basis points of the class's revenue (drop-in lines paid for its visits, and one
 * entry's worth of each entry pass used on it). Classes of an instructor without a rate pay 0.
 */
export const payroll: ReportDef = {
  id: 'payroll',
  group: 'payroll',
  filters: ['location', 'instructor', 'classService'],
  columns: () => [
    col('startsAt', 'datetime'),
    col('class', 'text'),
    col('instructor', 'text'),
    col('substitute', 'label'),
    col('attendees', 'count', true),
    col('revenue', 'money', true),
    col('rule', 'label'),
    col('pay', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `with vis as (
         select v.schedule_event_id as id,
                count(*) filter (where v.status in ${ATTENDEES}) as attendees,
                coalesce(sum(case when v.status in ${TAKES} and cpo.entries > 0
                                  then cpo.price_paid / cpo.entries else 0 end), 0) as pass_revenue
           from client_visits v
           left join client_pricing_options cpo on cpo.id = v.client_pricing_option_id
          where v.studio_id = :studio and v.starts_at >= :start and v.starts_at < :end
          group by v.schedule_event_id),
       drop_in as (
         select v.schedule_event_id as id, sum(l.total) as revenue
           from client_visits v
           -- A drop-in paid at the desk (client-visits/pay): a visit line whose ref_id is the visit.
           join client_order_lines l on l.studio_id = v.studio_id and l.kind = 'visit' and l.ref_id = cast(v.id as text)
           join client_orders o on o.id = l.order_id and o.status = ${PAID}
          where v.studio_id = :studio and v.starts_at >= :start and v.starts_at < :end
          group by v.schedule_event_id),
       ev as (
         select e.id, e.starts_at, e.ends_at, e.class_service_id, e.instructor_id, e.schedule_meta_id,
                coalesce(vis.attendees, 0) as attendees,
                coalesce(vis.pass_revenue, 0) + coalesce(drop_in.revenue, 0) as revenue
           from schedule_events e
           left join vis on vis.id = e.id
           left join drop_in on drop_in.id = e.id
          where ${EVENTS_WHERE} and e.instructor_id is not null)
       select ev.starts_at as "startsAt", ${nameSql('cs.name', ctx.lang)} as class,
              coalesce(u.first_name || ' ' || u.last_name, '') as instructor,
              case when m.id is not null and cardinality(m.instructor_ids) > 0
                        and m.instructor_ids[1] <> ev.instructor_id
                   then 'reports:substitute.yes' else 'reports:substitute.no' end as substitute,
              ev.attendees::int as attendees, ev.revenue::bigint as revenue,
              'reports:payRule.' || coalesce(r.kind, 'none') as rule,
              (case r.kind
                 when 'perClass' then r.amount
                 when 'perAttendee' then greatest(r.minimum, r.amount * ev.attendees)
                 when 'perHour' then round(r.amount * extract(epoch from ev.ends_at - ev.starts_at) / 3600.0)
                 when 'revenuePercent' then round(r.amount * ev.revenue / 10000.0)
                 else 0 end)::bigint as pay,
              to_char(ev.starts_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || ev.id::text as _k
         from ev
         join class_services cs on cs.id = ev.class_service_id
         left join users u on u.id = ev.instructor_id
         left join schedule_metas m on m.id = ev.schedule_meta_id
         left join lateral (
           select pr.kind, pr.amount, pr.minimum from instructor_pay_rates pr
            where pr.studio_id = :studio and pr.instructor_id = ev.instructor_id
              and (pr.class_service_id = ev.class_service_id or pr.class_service_id is null)
            order by pr.class_service_id nulls last limit 1) r on true`,
      baseValues(ctx),
    ),
};

/** Payroll by instructor: the payroll report's classes summed per instructor (what to pay each). */
export const payrollSummary: ReportDef = {
  id: 'payroll-summary',
  group: 'payroll',
  filters: ['location', 'instructor', 'classService'],
  columns: () => [
    col('instructor', 'text'),
    col('classes', 'count', true),
    col('substitutions', 'count', true),
    col('attendees', 'count', true),
    col('revenue', 'money', true),
    col('pay', 'money', true),
  ],
  sql: (ctx) => {
    const inner = payroll.sql(ctx);
    return {
      sql: `select p.instructor, count(*)::int as classes,
                   count(*) filter (where p.substitute = 'reports:substitute.yes')::int as substitutions,
                   sum(p.attendees)::int as attendees, sum(p.revenue)::bigint as revenue,
                   sum(p.pay)::bigint as pay, p.instructor as _k
              from (${inner.sql}) p
             group by p.instructor`,
      bindings: inner.bindings,
    };
  },
};
