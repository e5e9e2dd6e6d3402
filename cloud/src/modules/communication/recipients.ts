import type { Knex } from 'knex';
import {
  CampaignType,
  type CampaignFilter,
  type Recipients,
} from '../../../../shared/contracts/api/communication';
import type { Db } from '../../db/knex';
import { applyFilter, hasTrigramSearch, resolveFilter } from '../clients/index';
import type { Studio } from '../identity/index';

/**
 * Who a campaign reaches: the clients the client list's filter finds, with
 * - an address for the channel (e-mail: a real one, not the placeholder of a client without one;
 *   SMS: a phone; push: a subscribed browser, push notifications on; inbox: the client's account);
 * - marketing consent: their latest answer to the studio's marketing agreement is "accepted";
 * - not unsubscribed from this channel (`communication_opt_outs`), and for e-mail an address that
 *   never bounced or complained (`mail_suppressions`).
 */

const EMAIL_ADDRESS = `case when c.email is not null and c.email not like '%.invalid' then c.email end`;

function addressExpr(type: CampaignType): string {
  if (type === CampaignType.email) return EMAIL_ADDRESS;
  if (type === CampaignType.sms) return `nullif(c.phone, '')`;
  // Push: a browser subscribed in this studio's front office, and push notifications not turned off.
  if (type === CampaignType.push)
    return `case when exists (select 1 from push_subscriptions ps where ps.studio_id = c.studio_id and ps.user_id = c.user_id)
      and coalesce((select p.notify_push from user_profiles p where p.user_id = c.user_id), true) then c.user_id::text end`;
  return `c.user_id::text`;
}

const CHANNEL = ['email', 'sms', 'push', 'inbox'] as const;

/** The filtered clients, each with its address, consent and opt-out as columns (alias `r`). */
export async function candidates(
  db: Db,
  studio: Pick<Studio, 'id' | 'timeZone' | 'defaultLocale'>,
  type: CampaignType,
  filter: CampaignFilter,
  now: Date,
): Promise<{ qb: Knex.QueryBuilder }> {
  const { clientIds, ...listFilter } = filter;
  const resolved = resolveFilter(
    { ...listFilter, status: listFilter.status ?? 'active' },
    studio,
    now,
    clientIds,
  );
  const qb = db('clients as c')
    .join('users as u', 'u.id', 'c.user_id')
    .where('c.studio_id', studio.id)
    .select(
      'c.user_id',
      'c.first_name',
      'c.last_name',
      'c.last_key',
      db.raw(`${addressExpr(type)} as address`),
      db.raw(`coalesce(u.locale, ?) as locale`, [studio.defaultLocale]),
      db.raw(
        `coalesce((select a.accepted from client_agreement_acceptances a
           where a.studio_id = c.studio_id and a.user_id = c.user_id and a.kind = 'marketing'
           order by a.decided_at desc limit 1), false) as consent`,
      ),
      db.raw(
        `(exists (select 1 from communication_opt_outs o
           where o.studio_id = c.studio_id and o.user_id = c.user_id and o.channel = ?)
         ${type === CampaignType.email ? `or exists (select 1 from mail_suppressions s where s.studio_id = c.studio_id and s.address = lower(c.email))` : ''}) as opted_out`,
        [CHANNEL[type]],
      ),
    );
  applyFilter(db, qb, studio.id, resolved, await hasTrigramSearch(db));
  // Wrapped: a query builder is thenable, so an async function returning it would run it.
  return { qb };
}

interface CountRow {
  matched: string;
  reachable: string;
  without_address: string;
  without_consent: string;
  opted_out: string;
}

/** `find-recipients`: how many the filter finds and reaches, why the others are left out, a sample. */
export async function findRecipients(
  db: Db,
  studio: Studio,
  type: CampaignType,
  filter: CampaignFilter,
  now: Date,
): Promise<Recipients> {
  const { qb: base } = await candidates(db, studio, type, filter, now);
  const counts: { rows: CountRow[] } = await db.raw(
    `select count(*) as matched,
       count(*) filter (where address is not null and consent and not opted_out) as reachable,
       count(*) filter (where address is null) as without_address,
       count(*) filter (where address is not null and not consent) as without_consent,
       count(*) filter (where address is not null and consent and opted_out) as opted_out
     from (?) r`,
    [base],
  );
  const sampleRows: Array<{ userId: string; firstName: string; lastName: string; address: string }> = await db
    .from(base.clone().as('r'))
    .whereNotNull('r.address')
    .where('r.consent', true)
    .where('r.opted_out', false)
    .orderBy('r.last_key')
    .limit(5)
    .select('r.user_id', 'r.first_name', 'r.last_name', 'r.address');
  const c = counts.rows[0]!;
  return {
    matched: Number(c.matched),
    reachable: Number(c.reachable),
    withoutAddress: Number(c.without_address),
    withoutConsent: Number(c.without_consent),
    optedOut: Number(c.opted_out),
    sample: sampleRows.map((r) => ({
      id: r.userId,
      name: `${r.firstName} ${r.lastName}`.trim(),
      address: r.address,
    })),
  };
}

/**
 * Writes a campaign's recipients once, as the filter finds them when sending starts (a second call
 * adds nobody twice: the key is the campaign and client). Returns how many there are.
 */
export async function materialiseRecipients(
  trx: Knex.Transaction,
  studio: Studio,
  campaign: { id: string; type: CampaignType; filter: CampaignFilter },
  now: Date,
): Promise<number> {
  const { qb: base } = await candidates(trx, studio, campaign.type, campaign.filter, now);
  await trx.raw(
    `insert into campaign_recipients (campaign_id, user_id, address, locale, first_name, token)
     select ?, r.user_id, r.address, r.locale, r.first_name, replace(gen_random_uuid()::text, '-', '')
     from (?) r where r.address is not null and r.consent and not r.opted_out
     on conflict do nothing`,
    [campaign.id, base],
  );
  const [row] = await trx('campaign_recipients').where('campaign_id', campaign.id).count({ n: '*' });
  return Number(row?.n ?? 0);
}
