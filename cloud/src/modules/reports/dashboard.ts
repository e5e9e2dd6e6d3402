import { addDays, addMonths, format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import type { Dashboard, DashboardQuery, MemberLocations } from '../../../../shared/contracts/api/reports';
import { AppError } from '../../../../shared/errors';
import { TAKES_PLACE } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { OrderStatus } from '../../../../shared/enums/orders';
import { ClientPricingOptionStatus } from '../../../../shared/enums/pricing-options';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  daysInMonth,
  formatLocalDate,
  parseLocalDate,
} from '../../../../shared/domain/entitlements/local-dates';
import { named } from './report-def';
import { nameSql, startOfLocalDay } from './report-period';

const TAKES = sqlSet(TAKES_PLACE);
const day = (d: Date) => format(d, 'yyyy-MM-dd');

export interface DashboardScope {
  /** The member's own locations. */
  mine: string[];
  /** The locations the figures cover; null: every location. */
  locations: string[] | null;
}

/**
 * Which locations a member's dashboard covers: the one asked for (404 if not the studio's), else their
 * own locations (`member_locations`) unless every location was asked for, or when they have none.
 */
export async function dashboardScope(
  db: Db,
  studio: Studio,
  userId: string,
  query: DashboardQuery,
): Promise<DashboardScope> {
  const rows: Array<{ locationId: string }> = await db('member_locations')
    .join('locations', 'locations.id', 'member_locations.locationId')
    .where('member_locations.studioId', studio.id)
    .andWhere('member_locations.userId', userId)
    .orderBy('locations.name')
    .select('member_locations.locationId as locationId');
  const mine = rows.map((r) => r.locationId);
  if (query.location) {
    const own = await db('locations').where({ id: query.location, studioId: studio.id }).first('id');
    if (!own) throw AppError.notFound('location');
    return { mine, locations: [query.location] };
  }
  return { mine, locations: query.scope === 'all' || mine.length === 0 ? null : mine };
}

/**
 * Sets the member's own locations (all of them of the studio, else 404), in the request's transaction.
 */
export async function setMemberLocations(
  trx: Knex.Transaction,
  studio: Studio,
  userId: string,
  locations: string[],
): Promise<MemberLocations> {
  const unique = [...new Set(locations)];
  if (unique.length) {
    const found = await trx('locations').where({ studioId: studio.id }).whereIn('id', unique).pluck('id');
    if (found.length !== unique.length) throw AppError.notFound('location');
  }
  await trx('member_locations').where({ studioId: studio.id, userId }).delete();
  if (unique.length)
    await trx('member_locations').insert(
      unique.map((locationId) => ({ studioId: studio.id, userId, locationId })),
    );
  return { locations: unique };
}

/**
 * The back office's first screen (issue 20): today at a glance. Every figure is one query bounded by
 * the studio and a short period on an index leading with studio_id (classes and visits by start,
 * orders by payment, clients by creation), so the screen costs the same in a studio's tenth year as in
 * its first. Revenue is what orders were paid (the Sales reports count the same way).
 */
export async function dashboard(
  db: Db,
  studio: Studio,
  now: Date,
  lang: string,
  scope: DashboardScope,
): Promise<Dashboard> {
  const tz = studio.timeZone;
  const at = (d: string) => startOfLocalDay(d, tz);
  const noon = (d: string) => {
    const { year, month, day: dd } = parseLocalDate(d);
    return new TZDate(year, month - 1, dd, 12, 0, 0, tz);
  };
  const local = new TZDate(now.getTime(), tz);
  const today = day(local);
  const monthFirst = format(local, 'yyyy-MM-01');
  const lastMonthFirst = day(addMonths(noon(monthFirst), -1));
  // Last month up to the same day of the month (30 March compares with 28 or 29 February).
  const last = parseLocalDate(lastMonthFirst);
  const lastMonthSameDay = formatLocalDate(
    last.year,
    last.month,
    Math.min(local.getDate(), daysInMonth(last.year, last.month)),
  );
  const todayStart = at(today);
  const tomorrowStart = at(day(addDays(noon(today), 1)));
  const lastMonthStart = at(lastMonthFirst);
  const daysBack30 = at(day(addDays(noon(today), -29)));
  const values = {
    studio: studio.id,
    tz,
    now,
    todayStart,
    tomorrowStart,
    monthStart: at(monthFirst),
    lastMonthStart,
    revenueSince: lastMonthStart < daysBack30 ? lastMonthStart : daysBack30,
    weekAhead: new Date(now.getTime() + 7 * 86_400_000),
    daysBack30,
    weeksBack8: at(day(addDays(noon(today), -56))),
    // A Postgres array literal of uuids (checked: the studio's own), bound as one value.
    locations: scope.locations ? `{${scope.locations.join(',')}}` : null,
  };
  const q = async <T>(sql: string): Promise<T[]> => {
    const built = named(sql, values);
    const result: { rows: T[] } = await db.raw(built.sql, built.bindings);
    return result.rows;
  };
  const where = `(cast(:locations as uuid[]) is null or e.location_id = any(cast(:locations as uuid[])))`;

  const [classes, clients, expiring, failed, waiting, byDay, charts] = await Promise.all([
    q<{
      id: string;
      startsAt: Date;
      name: string;
      location: string;
      booked: number;
      capacity: number;
      checkedIn: number;
      waiting: number;
    }>(
      `select e.id, e.starts_at as "startsAt", ${nameSql('cs.name', lang)} as name, l.name as location,
              e.capacity, count(v.id) filter (where v.status in ${TAKES})::int as booked,
              count(v.id) filter (where v.checked_in_at is not null or v.status = ${V.present})::int as "checkedIn",
              count(v.id) filter (where v.status = ${V.waitingList})::int as waiting
         from schedule_events e
         join class_services cs on cs.id = e.class_service_id
         join locations l on l.id = e.location_id
         left join client_visits v on v.studio_id = e.studio_id and v.schedule_event_id = e.id
        where e.studio_id = :studio and e.starts_at >= :todayStart and e.starts_at < :tomorrowStart
          and e.cancelled_at is null and e.removed_at is null and ${where}
        group by e.id, cs.name, l.name
        order by e.starts_at, e.id`,
    ),
    q<{ today: string; month: string }>(
      `select count(*) filter (where created_at >= :todayStart) as today, count(*) as month
         from clients where studio_id = :studio and created_at >= :monthStart and created_at < :tomorrowStart`,
    ),
    q<{ passes: string; contracts: string }>(
      `select (select count(*) from client_pricing_options
                where studio_id = :studio and status = ${ClientPricingOptionStatus.active}
                  and expires_at >= :now and expires_at < :weekAhead) as passes,
              (select count(*) from client_contracts
                where studio_id = :studio and terminated_at is null and ends_on is not null
                  and ends_on >= (cast(:now as timestamptz) at time zone :tz)::date
                  and ends_on < (cast(:weekAhead as timestamptz) at time zone :tz)::date) as contracts`,
    ),
    q<{ n: string }>(
      `select count(*) as n from client_orders o
         join client_contract_instalments i on i.order_id = o.id
        where o.studio_id = :studio and o.status = ${OrderStatus.failed}`,
    ),
    q<{ n: string }>(
      `select count(*) as n from schedule_events e
         join client_visits v on v.studio_id = e.studio_id and v.schedule_event_id = e.id
        where e.studio_id = :studio and e.starts_at >= :now and e.starts_at < :weekAhead
          and e.cancelled_at is null and e.removed_at is null and v.status = ${V.waitingList} and ${where}`,
    ),
    // Revenue today, this month, last month and by day for 30 days: one pass over the paid orders of
    // the period (since last month's first day, or 30 days back if earlier), from the index alone.
    q<{ day: string; amount: string }>(
      `select x.day::text as day, sum(x.total) as amount
         from (select (paid_at at time zone :tz)::date as day, total from client_orders
                where studio_id = :studio and paid_at >= :revenueSince
                  and paid_at < :tomorrowStart and status = ${OrderStatus.paid}) x
        group by x.day`,
    ),
    // Both charts from the hourly rollup (migration 0260): a few hundred rows for 8 weeks.
    q<{ weekday: number | null; hour: number | null; visits: string }>(
      `select extract(isodow from h.day)::int as weekday, h.hour::int as hour, sum(h.visits) as visits
         from studio_visit_hours h
        where h.studio_id = :studio and h.day >= (cast(:weeksBack8 as timestamptz) at time zone :tz)::date
          and h.day < (cast(:todayStart as timestamptz) at time zone :tz)::date and h.visits > 0
          and (cast(:locations as uuid[]) is null or h.location_id = any(cast(:locations as uuid[])))
        group by grouping sets ((1), (2))`,
    ),
  ]);

  const amounts = new Map(byDay.map((r) => [r.day, Number(r.amount)]));
  const revenueByDay: Dashboard['revenueByDay'] = [];
  for (let i = 29; i >= 0; i--) {
    const d = day(addDays(noon(today), -i));
    revenueByDay.push({ day: d, amount: amounts.get(d) ?? 0 });
  }
  const byWeekday = charts.filter((r) => r.weekday !== null);
  const byHour = charts.filter((r) => r.hour !== null);
  const weekdays = new Map(byWeekday.map((r) => [r.weekday, Number(r.visits)]));
  const hours = new Map(byHour.map((r) => [r.hour, Number(r.visits)]));
  const busyHours = byHour.map((r) => r.hour!);
  const firstHour = busyHours.length ? Math.min(...busyHours) : 6;
  const lastHour = busyHours.length ? Math.max(...busyHours) : 21;
  // Local days, so "today", "this month" and "last month to date" compare as text.
  const sumDays = (from: string, until: string) =>
    byDay.reduce((sum, d) => (d.day >= from && d.day < until ? sum + Number(d.amount) : sum), 0);
  const tomorrow = day(addDays(noon(today), 1));
  const lastMonthToDateEnd = day(addDays(noon(lastMonthSameDay), 1));
  return {
    today,
    myLocations: scope.mine,
    locations: scope.locations,
    currency: studio.currency,
    classes: classes.map((c) => ({ ...c, startsAt: c.startsAt.toISOString() })),
    revenue: {
      today: sumDays(today, tomorrow),
      month: sumDays(monthFirst, tomorrow),
      lastMonthToDate: sumDays(lastMonthFirst, lastMonthToDateEnd),
      lastMonth: sumDays(lastMonthFirst, monthFirst),
    },
    newClients: { today: Number(clients[0]?.today ?? 0), month: Number(clients[0]?.month ?? 0) },
    expiring: { passes: Number(expiring[0]?.passes ?? 0), contracts: Number(expiring[0]?.contracts ?? 0) },
    failedInstalments: Number(failed[0]?.n ?? 0),
    waitingList: Number(waiting[0]?.n ?? 0),
    revenueByDay,
    attendanceByWeekday: [1, 2, 3, 4, 5, 6, 7].map((w) => ({ weekday: w, visits: weekdays.get(w) ?? 0 })),
    attendanceByHour: Array.from({ length: lastHour - firstHour + 1 }, (_, i) => ({
      hour: firstHour + i,
      visits: hours.get(firstHour + i) ?? 0,
    })),
  };
}
