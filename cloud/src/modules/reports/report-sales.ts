import { OrderStatus } from '../../../../shared/enums/orders';
import { sqlSet } from '../../../../shared/domain/sql';
import { baseValues, col, named, type ReportDef } from './report-def';

/** Orders still owed: not paid, not given up (cancelled, void, rejected). */
const OWED = sqlSet([OrderStatus.unpaid, OrderStatus.failed, OrderStatus.awaiting, OrderStatus.pending]);
const PAID = OrderStatus.paid;

/**
 * Sales (the back office's Sales section): what was sold, by item, payment method and day. A sale
 * counts on the instant its order was paid (`paid_at`, studio's calendar); an order's discount is a
 * row of its own, so the report's total is the orders' totals to the grosz.
 */
export const salesByItem: ReportDef = {
  id: 'sales-by-item',
  group: 'sales',
  filters: ['pricingOption'],
  columns: () => [
    col('kind', 'label'),
    col('item', 'text'),
    // An order with two items counts on both rows: the orders column has no total.
    col('orders', 'count'),
    col('quantity', 'count', true),
    col('amount', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select 'reports:lineKind.' || l.kind as kind, l.name as item, count(distinct o.id)::int as orders,
              sum(l.quantity)::int as quantity, sum(l.total)::bigint as amount, l.kind || ':' || l.name as _k
         from client_orders o
         join client_order_lines l on l.order_id = o.id
        where o.studio_id = :studio and o.paid_at >= :start and o.paid_at < :end and o.status = ${PAID}
          and (cast(:pricingOption as text) is null or (l.kind = 'pass' and l.ref_id = :pricingOption))
        group by l.kind, l.name
       union all
       select 'reports:lineKind.discount', '', count(*)::int, 0, -sum(o.discount)::bigint, '~discount'
         from client_orders o
        where o.studio_id = :studio and o.paid_at >= :start and o.paid_at < :end and o.status = ${PAID}
          and o.discount <> 0 and cast(:pricingOption as text) is null
       having count(*) > 0`,
      baseValues(ctx),
    ),
};

export const salesByMethod: ReportDef = {
  id: 'sales-by-method',
  group: 'sales',
  filters: ['method'],
  columns: () => [
    col('method', 'label'),
    col('payments', 'count', true),
    col('amount', 'money', true),
    col('refunded', 'money', true),
    col('net', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `with paid as (
         select p.method, count(*) as n, sum(p.amount) as amount
           from client_order_payments p
          where p.studio_id = :studio and p.settled_at >= :start and p.settled_at < :end
            and p.status = 'succeeded' and (cast(:method as int) is null or p.method = :method)
          group by p.method),
       refunded as (
         select p.method, sum(r.amount) as amount
           from client_order_refunds r
           join client_order_payments p on p.id = r.payment_id
          where r.studio_id = :studio and r.created_at >= :start and r.created_at < :end
            and r.status = 'success' and (cast(:method as int) is null or p.method = :method)
          group by p.method)
       select 'enums:paymentMethod.' || coalesce(paid.method, refunded.method) as method,
              coalesce(paid.n, 0)::int as payments, coalesce(paid.amount, 0)::bigint as amount,
              coalesce(refunded.amount, 0)::bigint as refunded,
              (coalesce(paid.amount, 0) - coalesce(refunded.amount, 0))::bigint as net,
              lpad(coalesce(paid.method, refunded.method)::text, 3, '0') as _k
         from paid full join refunded on refunded.method = paid.method`,
      baseValues(ctx),
    ),
};

export const salesByDay: ReportDef = {
  id: 'sales-by-day',
  group: 'sales',
  filters: [],
  columns: () => [
    col('day', 'date'),
    col('orders', 'count', true),
    col('discount', 'money', true),
    col('amount', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select x.day, count(*)::int as orders, sum(x.discount)::bigint as discount,
              sum(x.total)::bigint as amount, x.day as _k
         from (select (o.paid_at at time zone :tz)::date::text as day, o.discount, o.total
                 from client_orders o
                where o.studio_id = :studio and o.paid_at >= :start and o.paid_at < :end
                  and o.status = ${PAID}) x
        group by x.day`,
      baseValues(ctx),
    ),
};

/** Every payment settled and refund made in the period, one row each (refunds negative). */
export const payments: ReportDef = {
  id: 'payments',
  group: 'sales',
  filters: ['method'],
  columns: () => [
    col('at', 'datetime'),
    col('type', 'label'),
    col('method', 'label'),
    col('order', 'text'),
    col('client', 'text'),
    col('amount', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select p.settled_at as at, 'reports:paymentType.payment' as type,
              'enums:paymentMethod.' || p.method as method, upper(right(p.order_id::text, 8)) as "order",
              coalesce(c.first_name || ' ' || c.last_name, '') as client, p.amount::bigint as amount,
              to_char(p.settled_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || p.id::text as _k
         from client_order_payments p
         left join clients c on c.studio_id = p.studio_id and c.user_id = p.client_id
        where p.studio_id = :studio and p.settled_at >= :start and p.settled_at < :end
          and p.status = 'succeeded' and (cast(:method as int) is null or p.method = :method)
       union all
       select r.created_at, 'reports:paymentType.refund', 'enums:paymentMethod.' || p.method,
              upper(right(r.order_id::text, 8)), coalesce(c.first_name || ' ' || c.last_name, ''),
              -r.amount::bigint, to_char(r.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || r.id::text
         from client_order_refunds r
         join client_order_payments p on p.id = r.payment_id
         left join clients c on c.studio_id = p.studio_id and c.user_id = p.client_id
        where r.studio_id = :studio and r.created_at >= :start and r.created_at < :end
          and r.status = 'success' and (cast(:method as int) is null or p.method = :method)`,
      baseValues(ctx),
    ),
};

/** Orders of the period still owed (unpaid, failed, awaiting a payment), oldest first. */
export const outstanding: ReportDef = {
  id: 'outstanding',
  group: 'sales',
  filters: [],
  columns: () => [
    col('createdAt', 'datetime'),
    col('order', 'text'),
    col('client', 'text'),
    col('status', 'label'),
    col('amount', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select o.created_at as "createdAt", upper(right(o.id::text, 8)) as "order",
              coalesce(c.first_name || ' ' || c.last_name, '') as client,
              'enums:orderStatus.' || o.status as status, o.total::bigint as amount,
              to_char(o.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') || o.id::text as _k
         from client_orders o
         left join clients c on c.studio_id = o.studio_id and c.user_id = o.client_id
        where o.studio_id = :studio and o.created_at >= :start and o.created_at < :end
          and o.status in ${OWED} and o.total > 0`,
      baseValues(ctx),
    ),
};
