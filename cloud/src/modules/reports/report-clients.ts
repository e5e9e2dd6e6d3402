import { ClientPricingOptionStatus } from '../../../../shared/enums/pricing-options';
import { TAKES_PLACE } from '../../../../shared/domain/bookings';
import { sqlSet } from '../../../../shared/domain/sql';
import { baseValues, col, named, type ReportDef } from './report-def';
import { nameSql } from './report-period';

const TAKES = sqlSet(TAKES_PLACE);
const LIVE = sqlSet([ClientPricingOptionStatus.active, ClientPricingOptionStatus.notActivated]);

/**
 * Pass liabilities at the end of the period: passes sold by then and still valid after it, by pricing
 * option — entries sold and not used by the period's end, and the revenue not yet earned (an entry
 * pass earns its price per entry used; a time pass earns it day by day over its validity).
 */
export const passLiability: ReportDef = {
  id: 'pass-liability',
  group: 'clients',
  filters: ['pricingOption'],
  columns: () => [
    col('pricingOption', 'text'),
    col('passes', 'count', true),
    col('entriesLeft', 'count', true),
    col('sold', 'money', true),
    col('unearned', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `with p as (
         select cpo.id, cpo.pricing_option_id, cpo.entries, coalesce(cpo.price_paid, 0) as price,
                cpo.activated_at, cpo.expires_at,
                (select count(*) from client_visits v
                  where v.client_pricing_option_id = cpo.id and v.status in ${TAKES}
                    and v.starts_at < :end) as used
           from client_pricing_options cpo
          where cpo.studio_id = :studio and cpo.sold_at < :end
            and (cpo.expires_at is null or cpo.expires_at > :end) and cpo.status in ${LIVE}
            and (cast(:pricingOption as uuid) is null or cpo.pricing_option_id = :pricingOption))
       select ${nameSql('po.name', ctx.lang)} as "pricingOption", count(*)::int as passes,
              coalesce(sum(greatest(p.entries - p.used, 0)), 0)::int as "entriesLeft",
              sum(p.price)::bigint as sold,
              sum(case
                    when p.entries > 0 then round(p.price * greatest(p.entries - p.used, 0)::numeric / p.entries)
                    when p.expires_at is not null and p.activated_at is not null and p.expires_at > p.activated_at
                      then round(p.price * least(1, extract(epoch from p.expires_at - greatest(:end, p.activated_at))
                                            / extract(epoch from p.expires_at - p.activated_at)))
                    else 0 end)::bigint as unearned,
              po.id::text as _k
         from p join pricing_options po on po.id = p.pricing_option_id
        group by po.id, po.name`,
      baseValues(ctx),
    ),
};

/** Wallet balances at the end of the period: each client with money in the wallet (or owing). */
export const walletBalances: ReportDef = {
  id: 'wallet-balances',
  group: 'clients',
  filters: [],
  columns: () => [
    col('client', 'text'),
    col('email', 'text'),
    col('toppedUp', 'money', true),
    col('spent', 'money', true),
    col('balance', 'money', true),
  ],
  sql: (ctx) =>
    named(
      `select coalesce(c.last_name || ' ' || c.first_name, '') as client, coalesce(c.email, '') as email,
              w.topped_up::bigint as "toppedUp", w.spent::bigint as spent, w.balance::bigint as balance,
              coalesce(c.last_name || ' ' || c.first_name, '') || w.client_id::text as _k
         from (select client_id, sum(amount) filter (where amount > 0) as topped_up,
                      -coalesce(sum(amount) filter (where amount < 0), 0) as spent, sum(amount) as balance
                 from client_wallet_payments
                where studio_id = :studio and created_at < :end
                group by client_id) w
         left join clients c on c.studio_id = :studio and c.user_id = w.client_id
        where w.balance <> 0`,
      baseValues(ctx),
    ),
};
