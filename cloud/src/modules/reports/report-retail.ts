import { baseValues, col, named, type ReportDef } from './report-def';

/**
 * Voucher liability at the end of the period: every voucher still open then (not archived, valid
 * after the period's last day) or used in the period — its uses and the discount given in the period,
 * the uses left of a limited voucher, and the liability: what a fixed-amount voucher with a use limit
 * can still take off (its amount × uses left). A percentage voucher or one without a limit has no
 * bounded liability: blank.
 */
export const voucherLiability: ReportDef = {
  id: 'voucher-liability',
  group: 'clients',
  filters: [],
  columns: () => [
    col('voucher', 'text'),
    col('discountType', 'label'),
    col('amountOff', 'money'),
    col('percentOff', 'percent'),
    col('uses', 'count', true),
    col('discountGiven', 'money', true),
    col('usesLeft', 'count'),
    col('liability', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `with used as (
         select r.voucher_id, count(*) filter (where r.created_at >= :start) as uses,
                coalesce(sum(r.discount) filter (where r.created_at >= :start), 0) as given,
                count(*) as used_total
           from voucher_redemptions r
          where r.studio_id = :studio and r.created_at < :end and r.released_at is null
          group by r.voucher_id),
       v as (
         select v.*, coalesce(u.uses, 0) as uses, coalesce(u.given, 0) as given,
                case when v.usage_limit_total is not null
                     then greatest(v.usage_limit_total - coalesce(u.used_total, 0), 0) end as uses_left,
                (v.archived_at is null or v.archived_at >= :end)
                  and (v.valid_to is null or v.valid_to > cast(:toDay as date)) as open
           from vouchers v
           left join used u on u.voucher_id = v.id
          where v.studio_id = :studio and v.created_at < :end)
       select v.code as voucher, 'reports:discountType.' || v.discount_type as "discountType",
              case when v.discount_type = 'amount' then v.value end as "amountOff",
              case when v.discount_type = 'percentage' then round(v.value / 100.0, 1)::float8 end as "percentOff",
              v.uses::int as uses, v.given::bigint as "discountGiven",
              case when v.open then v.uses_left end::int as "usesLeft",
              case when v.open and v.discount_type = 'amount' then v.value * v.uses_left end::bigint as liability,
              upper(v.code) as _k
         from v
        where v.open or v.uses > 0`,
      { ...baseValues(ctx), toDay: ctx.query.to },
    ),
};

/**
 * Stock of the products whose stock is tracked, over the period: what there was at its start, what
 * came in (initial stock and deliveries), what went out (sales less returns), adjustments and losses,
 * what is left at its end and its value at today's price. Stock is the sum of the product's
 * movements (products module), so the report adds them up to each instant.
 */
export const stock: ReportDef = {
  id: 'stock',
  group: 'sales',
  filters: [],
  columns: () => [
    col('product', 'text'),
    col('category', 'text'),
    col('opening', 'count', true),
    col('received', 'count', true),
    col('sold', 'count', true),
    col('adjusted', 'count', true),
    col('closing', 'count', true),
    col('stockValue', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `with m as (
         select product_id,
                coalesce(sum(quantity) filter (where created_at < :start), 0) as opening,
                coalesce(sum(quantity) filter (where created_at >= :start and reason in ('initial', 'delivery')), 0) as received,
                -coalesce(sum(quantity) filter (where created_at >= :start and reason in ('sale', 'return')), 0) as sold,
                coalesce(sum(quantity) filter (where created_at >= :start and reason in ('adjustment', 'loss')), 0) as adjusted
           from product_stock_movements
          where studio_id = :studio and created_at < :end
          group by product_id)
       select p.name as product, coalesce(c.name, '') as category, coalesce(m.opening, 0)::int as opening,
              coalesce(m.received, 0)::int as received, coalesce(m.sold, 0)::int as sold,
              coalesce(m.adjusted, 0)::int as adjusted,
              coalesce(m.opening + m.received - m.sold + m.adjusted, 0)::int as closing,
              (p.price * greatest(coalesce(m.opening + m.received - m.sold + m.adjusted, 0), 0))::bigint as "stockValue",
              lower(p.name) || p.id::text as _k
         from products p
         left join m on m.product_id = p.id
         left join product_categories c on c.id = p.category_id
        where p.studio_id = :studio and p.track_stock and p.created_at < :end
          and (p.archived_at is null or m.product_id is not null)`,
      baseValues(ctx),
    ),
};

/**
 * The fiscal receipts and invoices of the period, one row each: receipts printed (by the instant of
 * printing, in the studio's calendar), invoices and corrections issued (by their issue date; cancelled
 * ones left out). An invoice issued to a receipt repeats that receipt's sale: it is listed with the
 * receipt it belongs to, and its amounts are left blank, so the totals count each sale once.
 */
export const fiscalDocuments: ReportDef = {
  id: 'fiscal-documents',
  group: 'sales',
  filters: [],
  columns: () => [
    col('day', 'date'),
    col('documentType', 'label'),
    col('number', 'text'),
    col('buyer', 'text'),
    col('taxId', 'text'),
    col('receipt', 'text'),
    col('net', 'money', true),
    col('vat', 'money', true),
    col('gross', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select (d.printed_at at time zone :tz)::date::text as day, 'reports:documentType.receipt' as "documentType",
              d.station_slug || ' #' || d.receipt_number as number, '' as buyer, coalesce(d.buyer_nip, '') as "taxId",
              '' as receipt, (d.total - d.vat)::bigint as net, d.vat::bigint as vat, d.total::bigint as gross,
              to_char(d.printed_at at time zone :tz, 'YYYY-MM-DD HH24:MI:SS') || ' ' || d.id::text as _k
         from fiscal_documents d
        where d.studio_id = :studio and d.printed_at >= :start and d.printed_at < :end and d.status = 'printed'
       union all
       select i.issue_date::text,
              'reports:documentType.' || case when i.kind = 'corrective' then 'corrective'
                                              when i.receipt_id is not null then 'invoiceToReceipt'
                                              else 'invoice' end,
              i.number, i.buyer_name, coalesce(i.buyer_tax_id, ''), coalesce(i.receipt->>'number', ''),
              case when i.receipt_id is null then i.net_total end::bigint,
              case when i.receipt_id is null then i.vat_total end::bigint,
              case when i.receipt_id is null then i.gross_total end::bigint,
              i.issue_date::text || ' 99 ' || lpad(i.sequence::text, 10, '0') || i.id::text
         from invoices i
        where i.studio_id = :studio and i.issue_date >= cast(:fromDay as date)
          and i.issue_date <= cast(:toDay as date) and i.status = 'issued'`,
      { ...baseValues(ctx), fromDay: ctx.query.from, toDay: ctx.query.to },
    ),
};
