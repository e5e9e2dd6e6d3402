import type {
  ManagerPassList,
  ManagerPassQuery,
  MyPasses,
  PassVisitView,
  PublicPriceList,
  PublicPricingOption,
  VoucherRedemptionList,
} from '../../../../shared/contracts/api/catalog-screens';
import { BULK_CHANGE_MAX, type PricingOptionView } from '../../../../shared/contracts/api/catalog';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { visitHoldsEntry } from '../../../../shared/domain/entitlements/pass-validity';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import {
  ClientPricingOptionStatus,
  PricingOptionExpirationType,
} from '../../../../shared/enums/pricing-options';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { iso } from './catalog.presenter';
import {
  assertClient,
  linkedClients,
  listClientPasses,
  passesSharedWith,
  passViewsByIds,
} from './client-pricing-options.service';
import { listCategories, listPricingOptions, pricingOptionRow } from './pricing-options.service';
import { readAll } from '../../db/read-all';

type Person = { userId: string; firstName: string; lastName: string };

// ------------------------------------------------------------------------- front office

function publicOption(option: PricingOptionView, today: string): PublicPricingOption {
  const running = option.promotions.find((p) => p.startsOn <= today && today <= p.endsOn);
  return {
    id: option.id,
    name: option.name,
    description: option.description,
    categoryId: option.categoryId,
    price: option.price,
    currentPrice: option.currentPrice,
    currency: option.currency,
    entries: option.entries,
    expirationType: option.expirationType,
    validityCount: option.validityCount,
    validityUnit: option.validityUnit,
    validUntil: option.validUntil,
    serviceTypes: option.serviceTypes,
    limitPerClient: option.limitPerClient,
    shareable: option.shareable,
    promotionEndsOn: running ? running.endsOn : null,
  };
}

/**
 * The front office's price list: options sold online, not archived, not past their specific date,
 * in the studio's category order; options of archived or no category come last.
 */
export async function publicPriceList(
  db: Db,
  studio: Studio,
  filter: { categoryId?: string },
  now: Date,
): Promise<PublicPriceList> {
  const today = localDateOf(now, studio.timeZone);
  const [categories, options] = await readAll(db, [
    () => listCategories(db, studio.id, false),
    () => listPricingOptions(db, studio, { archived: 'exclude', channel: 'online', ...filter }, now),
  ]);
  const sellable = options
    .filter(
      (o) =>
        o.expirationType !== PricingOptionExpirationType.specificDate ||
        o.validUntil === null ||
        o.validUntil >= today,
    )
    .map((o) => publicOption(o, today));
  const known = new Set(categories.map((c) => c.id));
  return {
    currency: studio.currency,
    categories: categories
      .map((c) => ({
        category: { id: c.id, name: c.name, position: c.position },
        items: sellable.filter((o) => o.categoryId === c.id),
      }))
      .filter((group) => group.items.length > 0),
    uncategorized: sellable.filter((o) => o.categoryId === null || !known.has(o.categoryId)),
  };
}

/** The signed-in client's passes, and the passes linked accounts shared with them (with the owner). */
export async function myPasses(db: Db, studio: Studio, userId: string, now: Date): Promise<MyPasses> {
  await assertClient(db, studio.id, userId);
  const [own, shared, shareCandidates] = await readAll(db, [
    () => listClientPasses(db, studio, userId, now),
    () => passesSharedWith(db, studio, userId, now),
    () => linkedClients(db, studio.id, userId),
  ]);
  const optionIds = [...new Set(own.map((p) => p.pricingOptionId))];
  const shareableIds = new Set(
    optionIds.length === 0
      ? []
      : (
          await db('pricing_options')
            .where({ studioId: studio.id, shareable: true })
            .whereIn('id', optionIds)
            .select('id')
        ).map((r) => r.id),
  );
  const owners = await peopleById(
    db,
    shared.map((p) => p.clientId),
  );
  return {
    own: own.map((p) => ({ ...p, shareable: shareableIds.has(p.pricingOptionId) })),
    shareCandidates,
    sharedWithMe: shared.map((p) => ({
      ...p,
      owner: owners.get(p.clientId) ?? { userId: p.clientId, firstName: '', lastName: '' },
    })),
  };
}

async function peopleById(db: Db, ids: string[]): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows: Person[] = await db('users')
    .whereIn('id', unique)
    .select('id as user_id', 'first_name', 'last_name');
  return new Map(rows.map((r) => [r.userId, r]));
}

// ------------------------------------------------------------------------- back office

/**
 * The visits a pass paid for, newest first, with the class's name (`client_visits` belongs to the
 * bookings module, migration 0015).
 */
export async function passVisits(
  db: Db,
  studio: Studio,
  passId: string,
  locale: string | null,
): Promise<PassVisitView[]> {
  const exists = await db('client_pricing_options').where({ studioId: studio.id, id: passId }).first('id');
  if (!exists) throw AppError.notFound('client pricing option');
  const rows: Array<{ id: string; startsAt: Date; status: number; serviceName: LocaleText | null }> =
    await db('client_visits as v')
      .leftJoin('schedule_events as e', 'e.id', 'v.schedule_event_id')
      .leftJoin('class_services as s', 's.id', 'e.class_service_id')
      .where({ 'v.studio_id': studio.id, 'v.client_pricing_option_id': passId })
      .orderBy([
        { column: 'v.starts_at', order: 'desc' },
        { column: 'v.id', order: 'desc' },
      ])
      .limit(500)
      .select('v.id', 'v.starts_at', 'v.status', 's.name as service_name');
  return rows.map((r) => ({
    id: r.id,
    startsAt: iso(r.startsAt),
    status: r.status,
    name: r.serviceName ? resolveLocaleText(r.serviceName, locale, studio.defaultLocale) || null : null,
    usesEntry: visitHoldsEntry(r.status),
  }));
}

const STATUS_OF: Record<Exclude<ManagerPassQuery['status'], 'all'>, number> = {
  active: ClientPricingOptionStatus.active,
  notActivated: ClientPricingOptionStatus.notActivated,
  inactive: ClientPricingOptionStatus.inactive,
};

/**
 * Passes for the manager tool's bulk change, filtered by pricing option and by DERIVED status (the
 * stored projection may lag for demo rows, so it is only a pre-filter wide enough never to miss
 * one: passes sold at most `BULK_CHANGE_MAX` at a time, newest first).
 */
export async function managerPassList(
  db: Db,
  studio: Studio,
  query: ManagerPassQuery,
  now: Date,
): Promise<ManagerPassList> {
  if (query.pricingOptionId) await pricingOptionRow(db, studio.id, query.pricingOptionId);
  const base = db('client_pricing_options as cpo')
    .join('users as u', 'u.id', 'cpo.client_id')
    .where('cpo.studio_id', studio.id)
    .orderBy([
      { column: 'cpo.sold_at', order: 'desc' },
      { column: 'cpo.id', order: 'desc' },
    ])
    .limit(BULK_CHANGE_MAX + 1)
    .select('cpo.id', 'u.id as user_id', 'u.first_name', 'u.last_name');
  if (query.pricingOptionId) base.where('cpo.pricing_option_id', query.pricingOptionId);
  const rows: Array<Person & { id: string }> = await base;
  const truncated = rows.length > BULK_CHANGE_MAX;
  const kept = rows.slice(0, BULK_CHANGE_MAX);
  const people = new Map(
    kept.map((r) => [r.id, { userId: r.userId, firstName: r.firstName, lastName: r.lastName }]),
  );
  const views = await passViewsByIds(
    db,
    studio,
    kept.map((r) => r.id),
    now,
  );
  const wanted = query.status === 'all' ? null : STATUS_OF[query.status];
  return {
    items: views
      .filter((v) => wanted === null || v.status === wanted)
      .map((v) => ({ ...v, client: people.get(v.id)! })),
    truncated,
    next: null,
  };
}

/** A voucher's redemptions, newest first (keyset on the UUIDv7 id). */
export async function voucherRedemptions(
  db: Db,
  studio: Studio,
  voucherId: string,
  page: { limit: number; cursor?: string },
): Promise<VoucherRedemptionList> {
  const voucher = await db('vouchers').where({ studioId: studio.id, id: voucherId }).first('id');
  if (!voucher) throw AppError.notFound('voucher');
  const query = db('voucher_redemptions as r')
    .leftJoin('users as c', 'c.id', 'r.client_id')
    .leftJoin('users as s', 's.id', 'r.redeemed_by')
    .where({ 'r.studio_id': studio.id, 'r.voucher_id': voucherId })
    // A use given back by a failed online payment (issue 26) is no use.
    .whereNull('r.released_at')
    .orderBy('r.id', 'desc')
    .limit(page.limit + 1)
    .select(
      'r.*',
      'c.first_name as client_first_name',
      'c.last_name as client_last_name',
      's.first_name as staff_first_name',
      's.last_name as staff_last_name',
    );
  if (page.cursor) query.where('r.id', '<', page.cursor);
  const rows: Array<{
    id: string;
    useNumber: number;
    clientId: string | null;
    redeemedBy: string | null;
    basketTotal: number;
    eligibleTotal: number;
    discount: number;
    currency: string;
    reference: string | null;
    createdAt: Date;
    clientFirstName: string | null;
    clientLastName: string | null;
    staffFirstName: string | null;
    staffLastName: string | null;
  }> = await query;
  const items = rows.slice(0, page.limit);
  return {
    items: items.map((r) => ({
      id: r.id,
      useNumber: r.useNumber,
      client: r.clientId
        ? { userId: r.clientId, firstName: r.clientFirstName ?? '', lastName: r.clientLastName ?? '' }
        : null,
      redeemedBy: r.redeemedBy
        ? { userId: r.redeemedBy, firstName: r.staffFirstName ?? '', lastName: r.staffLastName ?? '' }
        : null,
      basketTotal: r.basketTotal,
      eligibleTotal: r.eligibleTotal,
      discount: r.discount,
      currency: r.currency,
      reference: r.reference,
      createdAt: iso(r.createdAt),
    })),
    next: rows.length > page.limit ? items[items.length - 1]!.id : null,
  };
}
