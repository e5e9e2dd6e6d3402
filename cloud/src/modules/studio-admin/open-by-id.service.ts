import type { OpenByIdResult, RecordType } from '../../../../shared/contracts/api/studio-setup';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import { formatPriceIn } from '../../../../shared/domain/money/format-price';
import { AppError } from '../../../../shared/errors';
import type { Ability } from '../../../../shared/policies/abilities';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * "Open by id" (spec §7 POST uuid; README "Open by id"): staff paste an id found elsewhere (a webhook
 * delivery, an API log, a provider's statement, an e-mail link) and learn what it is and where the
 * back office shows it. Only this studio's tables are searched, each by `(studio_id, id)`; a kind of
 * record the caller's role may not see is not searched at all, so an id it cannot open is the same
 * 404 as an unknown one or another studio's (nothing tells which studio owns an id).
 */

interface Found {
  /** The record's own id or, for a client found by their user id, the user id the profile takes. */
  ref: string;
}

interface Kind {
  type: RecordType;
  /** Every ability needed to open what `path` shows. */
  abilities: Ability[];
  /** `select … where studio_id = ? and <id> = ?` as SQL with two bindings (studio, id). */
  sql: string;
  describe: (
    db: Db,
    studio: Studio,
    found: Found,
    locale: string,
  ) => Promise<Omit<OpenByIdResult, 'type' | 'id'>>;
}

const fullName = (row: { firstName: string; lastName: string } | undefined) =>
  row ? `${row.firstName} ${row.lastName}`.trim() : '';

/** A local date and time in the studio's zone, the same in every language: 2026-11-27 18:00. */
const localDateTime = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(instant);
const localDate = (instant: Date, timeZone: string) => localDateTime(instant, timeZone).slice(0, 10);

async function clientName(db: Db, studio: Studio, userId: string | null): Promise<string> {
  if (!userId) return '';
  const client = await db('clients').where({ studioId: studio.id, userId }).first('first_name', 'last_name');
  if (client) return fullName(client);
  return fullName(await db('users').where({ id: userId }).first('first_name', 'last_name'));
}

const joinLabel = (...parts: string[]) => parts.filter(Boolean).join(' · ');

async function row<T>(query: PromiseLike<T>): Promise<NonNullable<T>> {
  const found = await query;
  // Found a moment ago by the same key: gone now only if deleted in between.
  if (!found) throw AppError.notFound();
  return found;
}

const byId = (table: string, column = 'id') =>
  `select id::text as ref from ${table} where studio_id = ? and ${column} = ?`;

/** In the order an id is tried (ids are UUID v7 and unique across tables; the order only breaks ties). */
const KINDS: Kind[] = [
  {
    type: 'client',
    abilities: ['clients.view'],
    // A client's own id, or their user id (what the API's `{user}` and webhooks carry).
    sql: 'select user_id::text as ref from clients where studio_id = ? and (id = ?::uuid or user_id = ?::uuid)',
    describe: async (db, studio, { ref }) => ({
      label: await clientName(db, studio, ref),
      path: `/clients/${ref}`,
    }),
  },
  {
    type: 'staffMember',
    abilities: ['staff.view'],
    sql: 'select user_id::text as ref from memberships where studio_id = ? and user_id = ? and is_member',
    describe: async (db, _studio, { ref }) => ({
      label: fullName(await db('users').where({ id: ref }).first('first_name', 'last_name')),
      path: '/staff',
    }),
  },
  {
    type: 'order',
    abilities: ['sales.view'],
    sql: byId('client_orders'),
    describe: async (db, studio, { ref }, locale) => {
      const order = await row(
        db('client_orders')
          .where({ studioId: studio.id, id: ref })
          .first('client_id', 'total', 'currency', 'created_at'),
      );
      return {
        label: joinLabel(
          await clientName(db, studio, order.clientId),
          formatPriceIn(locale, order.total, order.currency),
          localDate(order.createdAt, studio.timeZone),
        ),
        path: `/orders/${ref}`,
      };
    },
  },
  {
    type: 'payment',
    abilities: ['sales.view'],
    sql: byId('client_order_payments'),
    describe: async (db, studio, { ref }, locale) => {
      const payment = await row(
        db('client_order_payments')
          .where({ studioId: studio.id, id: ref })
          .first('order_id', 'client_id', 'amount', 'currency', 'created_at'),
      );
      return {
        label: joinLabel(
          await clientName(db, studio, payment.clientId),
          formatPriceIn(locale, payment.amount, payment.currency),
          localDate(payment.createdAt, studio.timeZone),
        ),
        path: `/orders/${payment.orderId}`,
      };
    },
  },
  {
    type: 'visit',
    abilities: ['clients.view', 'schedule.view'],
    sql: byId('client_visits'),
    describe: async (db, studio, { ref }, locale) => {
      const visit = await row(
        db('client_visits as v')
          .join('schedule_events as e', function () {
            this.on('e.id', 'v.schedule_event_id').andOn('e.studio_id', 'v.studio_id');
          })
          .join('class_services as s', function () {
            this.on('s.id', 'e.class_service_id').andOn('s.studio_id', 'e.studio_id');
          })
          .where({ 'v.studio_id': studio.id, 'v.id': ref })
          .first('v.client_id', 'v.starts_at', 's.name'),
      );
      return {
        label: joinLabel(
          await clientName(db, studio, visit.clientId),
          resolveLocaleText(visit.name as LocaleText, locale, studio.defaultLocale),
          localDateTime(visit.startsAt, studio.timeZone),
        ),
        path: `/clients/${visit.clientId}/visits`,
      };
    },
  },
  {
    type: 'class',
    abilities: ['schedule.view'],
    sql: byId('schedule_events'),
    describe: async (db, studio, { ref }, locale) => {
      const event = await row(
        db('schedule_events as e')
          .join('class_services as s', function () {
            this.on('s.id', 'e.class_service_id').andOn('s.studio_id', 'e.studio_id');
          })
          .where({ 'e.studio_id': studio.id, 'e.id': ref })
          .first('e.starts_at', 's.name'),
      );
      return {
        label: joinLabel(
          resolveLocaleText(event.name as LocaleText, locale, studio.defaultLocale),
          localDateTime(event.startsAt, studio.timeZone),
        ),
        path: `/schedule?date=${localDate(event.startsAt, studio.timeZone)}&event=${ref}`,
      };
    },
  },
  {
    type: 'classSeries',
    abilities: ['schedule.view'],
    sql: byId('schedule_metas'),
    describe: async (db, studio, { ref }, locale) => {
      const meta = await row(
        db('schedule_metas as m')
          .join('class_services as s', function () {
            this.on('s.id', 'm.class_service_id').andOn('s.studio_id', 'm.studio_id');
          })
          .where({ 'm.studio_id': studio.id, 'm.id': ref })
          .first('m.first_date', 'm.start_time', 's.name'),
      );
      const firstDate = dateOnly(meta.firstDate);
      return {
        label: joinLabel(
          resolveLocaleText(meta.name as LocaleText, locale, studio.defaultLocale),
          `${firstDate} ${String(meta.startTime).slice(0, 5)}`,
        ),
        path: `/schedule?date=${firstDate}`,
      };
    },
  },
  {
    type: 'classService',
    abilities: ['schedule.view'],
    sql: byId('class_services'),
    describe: async (db, studio, { ref }, locale) => {
      const service = await row(db('class_services').where({ studioId: studio.id, id: ref }).first('name'));
      return {
        label: resolveLocaleText(service.name as LocaleText, locale, studio.defaultLocale),
        path: '/places/services',
      };
    },
  },
  {
    type: 'location',
    abilities: ['schedule.view'],
    sql: byId('locations'),
    describe: async (db, studio, { ref }) => ({
      label: (await row(db('locations').where({ studioId: studio.id, id: ref }).first('name'))).name,
      path: '/places/locations',
    }),
  },
  {
    type: 'room',
    abilities: ['schedule.view'],
    sql: byId('location_rooms'),
    describe: async (db, studio, { ref }) => {
      const room = await row(
        db('location_rooms as r')
          .join('locations as l', function () {
            this.on('l.id', 'r.location_id').andOn('l.studio_id', 'r.studio_id');
          })
          .where({ 'r.studio_id': studio.id, 'r.id': ref })
          .first('r.name as room_name', 'l.name as location_name'),
      );
      return {
        label: joinLabel(String(room.roomName), String(room.locationName)),
        path: '/places/locations',
      };
    },
  },
  {
    type: 'pricingOption',
    abilities: ['sales.view'],
    sql: byId('pricing_options'),
    describe: async (db, studio, { ref }, locale) => {
      const option = await row(
        db('pricing_options').where({ studioId: studio.id, id: ref }).first('name', 'price'),
      );
      return {
        label: joinLabel(
          resolveLocaleText(option.name as LocaleText, locale, studio.defaultLocale),
          formatPriceIn(locale, option.price, studio.currency),
        ),
        path: `/catalog/pricing-options/${ref}`,
      };
    },
  },
  {
    type: 'clientPass',
    abilities: ['clients.view'],
    sql: byId('client_pricing_options'),
    describe: async (db, studio, { ref }, locale) => {
      const pass = await row(
        db('client_pricing_options as c')
          .join('pricing_options as p', function () {
            this.on('p.id', 'c.pricing_option_id').andOn('p.studio_id', 'c.studio_id');
          })
          .where({ 'c.studio_id': studio.id, 'c.id': ref })
          .first('c.client_id', 'p.name'),
      );
      return {
        label: joinLabel(
          await clientName(db, studio, pass.clientId),
          resolveLocaleText(pass.name as LocaleText, locale, studio.defaultLocale),
        ),
        path: `/clients/${pass.clientId}/passes`,
      };
    },
  },
  {
    type: 'contract',
    abilities: ['sales.view'],
    sql: byId('contracts'),
    describe: async (db, studio, { ref }, locale) => ({
      label: resolveLocaleText(
        (await row(db('contracts').where({ studioId: studio.id, id: ref }).first('name'))).name as LocaleText,
        locale,
        studio.defaultLocale,
      ),
      path: `/contracts/${ref}`,
    }),
  },
  {
    type: 'clientContract',
    abilities: ['clients.view'],
    sql: byId('client_contracts'),
    describe: async (db, studio, { ref }, locale) => {
      const contract = await row(
        db('client_contracts').where({ studioId: studio.id, id: ref }).first('client_id', 'name'),
      );
      return {
        label: joinLabel(
          await clientName(db, studio, contract.clientId),
          resolveLocaleText(contract.name as LocaleText, locale, studio.defaultLocale),
        ),
        path: `/clients/${contract.clientId}/contracts`,
      };
    },
  },
  {
    type: 'invoice',
    abilities: ['sales.view'],
    sql: byId('invoices'),
    describe: async (db, studio, { ref }) => {
      const invoice = await row(
        db('invoices').where({ studioId: studio.id, id: ref }).first('number', 'buyer_name'),
      );
      return { label: joinLabel(invoice.number, invoice.buyerName), path: `/invoices/${ref}` };
    },
  },
  {
    type: 'product',
    abilities: ['sales.view'],
    sql: byId('products'),
    describe: async (db, studio, { ref }) => ({
      label: (await row(db('products').where({ studioId: studio.id, id: ref }).first('name'))).name,
      path: '/products',
    }),
  },
  {
    type: 'voucher',
    abilities: ['sales.view'],
    sql: byId('vouchers'),
    describe: async (db, studio, { ref }) => ({
      label: (await row(db('vouchers').where({ studioId: studio.id, id: ref }).first('code'))).code,
      path: '/products/vouchers',
    }),
  },
  {
    type: 'appointment',
    abilities: ['schedule.view'],
    sql: byId('client_appointments'),
    describe: async (db, studio, { ref }, locale) => {
      const appointment = await row(
        db('client_appointments as a')
          .join('appointment_services as s', function () {
            this.on('s.id', 'a.service_id').andOn('s.studio_id', 'a.studio_id');
          })
          .where({ 'a.studio_id': studio.id, 'a.id': ref })
          .first('a.client_id', 'a.starts_at', 's.name'),
      );
      return {
        label: joinLabel(
          resolveLocaleText(appointment.name as LocaleText, locale, studio.defaultLocale),
          await clientName(db, studio, appointment.clientId),
          localDateTime(appointment.startsAt, studio.timeZone),
        ),
        path: `/appointments?date=${localDate(appointment.startsAt, studio.timeZone)}`,
      };
    },
  },
  {
    type: 'appointmentService',
    abilities: ['schedule.view'],
    sql: byId('appointment_services'),
    describe: async (db, studio, { ref }, locale) => ({
      label: resolveLocaleText(
        (await row(db('appointment_services').where({ studioId: studio.id, id: ref }).first('name')))
          .name as LocaleText,
        locale,
        studio.defaultLocale,
      ),
      path: '/appointments/services',
    }),
  },
  {
    type: 'campaign',
    abilities: ['campaigns.view'],
    sql: byId('campaigns'),
    describe: async (db, studio, { ref }) => ({
      label: (await row(db('campaigns').where({ studioId: studio.id, id: ref }).first('name'))).name,
      path: `/campaigns/${ref}`,
    }),
  },
  {
    type: 'webhook',
    abilities: ['settings.view'],
    sql: byId('webhook_endpoints'),
    describe: async (db, studio, { ref }) => ({
      label: (await row(db('webhook_endpoints').where({ studioId: studio.id, id: ref }).first('url'))).url,
      path: `/integrations/webhooks/${ref}`,
    }),
  },
];

/** A `date` column as `YYYY-MM-DD` whether the driver gives a string or a Date at UTC midnight. */
function dateOnly(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/** The kinds of record whose ids are looked up, for the tests (every one must be findable). */
export const OPEN_BY_ID_TYPES: readonly RecordType[] = KINDS.map((kind) => kind.type);

/**
 * What `id` is in this studio, among the kinds the caller may see; 404 when none. One query finds
 * the kind (a UNION ALL of primary-key lookups, each scoped by the studio), a second names it.
 */
export async function openById(
  db: Db,
  studio: Studio,
  abilities: ReadonlySet<Ability>,
  id: string,
  locale: string,
): Promise<OpenByIdResult> {
  const kinds = KINDS.filter((kind) => kind.abilities.every((ability) => abilities.has(ability)));
  if (kinds.length === 0) throw AppError.notFound();
  const sql = kinds
    .map((kind, index) => `(select ${index} as kind, ref from (${kind.sql} limit 1) as k${index})`)
    .join(' union all ');
  const bindings = kinds.flatMap((kind) =>
    kind.sql.includes('or user_id = ?') ? [studio.id, id, id] : [studio.id, id],
  );
  const result = await db.raw<{ rows: { kind: number; ref: string }[] }>(
    `select kind, ref from (${sql}) as found order by kind limit 1`,
    bindings,
  );
  const hit = result.rows[0];
  if (!hit) throw AppError.notFound();
  const kind = kinds[hit.kind]!;
  const described = await kind.describe(db, studio, { ref: hit.ref }, locale);
  return { type: kind.type, id, ...described };
}
