import { v7 as uuidv7 } from 'uuid';
import {
  validityIssues,
  type PricingOptionCategoryInput,
  type PricingOptionCategoryPatch,
  type PricingOptionCategoryView,
  type PricingOptionInput,
  type PricingOptionPatch,
  type PricingOptionView,
  type PromotionInput,
  type PromotionView,
} from '../../../../shared/contracts/api/catalog';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { PricingOptionExpirationType } from '../../../../shared/enums/pricing-options';
import { TagType } from '../../../../shared/enums/clients';
import { AppError, type FieldErrors } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import {
  presentCategory,
  presentPricingOption,
  presentPromotion,
  type CategoryRow,
  type PricingOptionRow,
  type PromotionRow,
} from './catalog.presenter';

// ------------------------------------------------------------------------------ categories

export async function listCategories(db: Db, studioId: string, includeArchived = true) {
  const query = db('pricing_option_categories')
    .where({ studioId })
    .orderBy([{ column: 'position' }, { column: 'id' }]);
  if (!includeArchived) query.whereNull('archived_at');
  const rows: CategoryRow[] = await query;
  return rows.map(presentCategory);
}

async function categoryRow(db: Db, studioId: string, id: string): Promise<CategoryRow> {
  const row: CategoryRow | undefined = await db('pricing_option_categories').where({ studioId, id }).first();
  if (!row) throw AppError.notFound('pricing option category');
  return row;
}

export async function createCategory(
  trx: Db,
  studioId: string,
  input: PricingOptionCategoryInput,
): Promise<PricingOptionCategoryView> {
  const id = uuidv7();
  await trx('pricing_option_categories').insert({
    id,
    studioId,
    name: JSON.stringify(input.name),
    position: input.position ?? 0,
  });
  return presentCategory(await categoryRow(trx, studioId, id));
}

export async function updateCategory(
  trx: Db,
  studioId: string,
  id: string,
  patch: PricingOptionCategoryPatch,
): Promise<PricingOptionCategoryView> {
  await categoryRow(trx, studioId, id);
  const changes: Record<string, unknown> = {};
  if (patch.name !== undefined) changes.name = JSON.stringify(patch.name);
  if (patch.position !== undefined) changes.position = patch.position;
  if (patch.archived !== undefined) changes.archived_at = patch.archived ? trx.fn.now() : null;
  if (Object.keys(changes).length)
    await trx('pricing_option_categories')
      .where({ studioId, id })
      .update({ ...changes, updatedAt: trx.fn.now() });
  return presentCategory(await categoryRow(trx, studioId, id));
}

// ------------------------------------------------------------------------- pricing options

function selectOptions(db: Db, studioId: string) {
  return db('pricing_options as po')
    .leftJoin('taxes as t', 't.id', 'po.tax_id')
    .where('po.studio_id', studioId)
    .select('po.*', 't.rate_bp as joined_tax_rate_bp');
}

async function promotionsOf(
  db: Db,
  studioId: string,
  optionIds: string[],
): Promise<Map<string, PromotionView[]>> {
  const byOption = new Map<string, PromotionView[]>();
  if (optionIds.length === 0) return byOption;
  const rows: PromotionRow[] = await db('pricing_option_promotions')
    .where({ studioId })
    .whereIn('pricing_option_id', optionIds)
    .orderBy([{ column: 'starts_on' }, { column: 'id' }]);
  for (const row of rows) {
    const list = byOption.get(row.pricingOptionId) ?? [];
    list.push(presentPromotion(row));
    byOption.set(row.pricingOptionId, list);
  }
  return byOption;
}

async function present(
  db: Db,
  studio: Studio,
  rows: PricingOptionRow[],
  now: Date,
): Promise<PricingOptionView[]> {
  const promotions = await promotionsOf(
    db,
    studio.id,
    rows.map((r) => r.id),
  );
  const today = localDateOf(now, studio.timeZone);
  return rows.map((row) => presentPricingOption(row, promotions.get(row.id) ?? [], studio.currency, today));
}

export async function listPricingOptions(
  db: Db,
  studio: Studio,
  filter: { categoryId?: string; archived: 'include' | 'only' | 'exclude'; channel?: 'desk' | 'online' },
  now: Date,
): Promise<PricingOptionView[]> {
  const query = selectOptions(db, studio.id).orderBy([
    { column: 'po.position' },
    { column: 'po.created_at' },
    { column: 'po.id' },
  ]);
  if (filter.categoryId) query.where('po.category_id', filter.categoryId);
  if (filter.archived === 'exclude') query.whereNull('po.archived_at');
  if (filter.archived === 'only') query.whereNotNull('po.archived_at');
  if (filter.channel === 'desk') query.where('po.sell_at_desk', true);
  if (filter.channel === 'online') query.where('po.sell_online', true);
  const rows: PricingOptionRow[] = await query.limit(2000);
  return present(db, studio, rows, now);
}

export async function pricingOptionRow(
  db: Db,
  studioId: string,
  id: string,
  lock = false,
): Promise<PricingOptionRow> {
  const query = selectOptions(db, studioId).where('po.id', id).first();
  if (lock) query.forUpdate('po');
  const row: PricingOptionRow | undefined = await query;
  if (!row) throw AppError.notFound('pricing option');
  return row;
}

export async function getPricingOption(
  db: Db,
  studio: Studio,
  id: string,
  now: Date,
): Promise<PricingOptionView> {
  const [view] = await present(db, studio, [await pricingOptionRow(db, studio.id, id)], now);
  return view!;
}

/** Ids in the body that name nothing of this studio: field errors, every one reported. */
async function referenceErrors(
  db: Db,
  studioId: string,
  input: Partial<PricingOptionInput>,
): Promise<FieldErrors> {
  const fields: FieldErrors = {};
  const missing = async (table: string, field: string, ids: string[], extra?: Record<string, unknown>) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const found: Array<{ id: string }> = await db(table)
      .where({ studio_id: studioId, ...extra })
      .whereIn('id', unique)
      .select('id');
    if (found.length !== unique.length) fields[field] = ['unknown in this studio'];
  };
  if (input.categoryId) await missing('pricing_option_categories', 'categoryId', [input.categoryId]);
  if (input.taxId) await missing('taxes', 'taxId', [input.taxId]);
  const r = input.restrictions;
  if (r) {
    await missing('class_services', 'restrictions.classServiceIds', r.classServiceIds);
    await missing('locations', 'restrictions.locationIds', r.locationIds);
    await missing('tags', 'restrictions.tagIds', r.tagIds, { type: TagType.client });
  }
  return fields;
}

function validityColumns(v: Partial<PricingOptionInput>) {
  // Only the fields the expiration type uses are kept, so a stale date never lingers.
  const t = v.expirationType;
  const counted = t === PricingOptionExpirationType.saleDate || t === PricingOptionExpirationType.firstVisit;
  return {
    expiration_type: t,
    validity_count:
      counted || t === PricingOptionExpirationType.calendarMonth ? (v.validityCount ?? null) : null,
    validity_unit: counted ? (v.validityUnit ?? null) : null,
    valid_until: t === PricingOptionExpirationType.specificDate ? (v.validUntil ?? null) : null,
    // The old column: days of a day-counted option, for readers that predate the catalog.
    validity_days: counted && v.validityUnit === 'day' ? (v.validityCount ?? null) : null,
  };
}

async function taxRate(db: Db, studioId: string, taxId: string | null): Promise<number> {
  if (!taxId) return 0;
  const row: { rateBp: number | null } | undefined = await db('taxes')
    .where({ studioId, id: taxId })
    .first('rate_bp');
  return row?.rateBp ?? 0;
}

export async function createPricingOption(
  trx: Db,
  studio: Studio,
  input: PricingOptionInput,
  now: Date,
): Promise<PricingOptionView> {
  const fields = await referenceErrors(trx, studio.id, input);
  if (Object.keys(fields).length) throw AppError.invalid(fields);
  let taxId = input.taxId;
  if (taxId === undefined) {
    const fallback: { id: string } | undefined = await trx('taxes')
      .where({ studioId: studio.id, isDefault: true })
      .first('id');
    taxId = fallback?.id ?? null;
  }
  const id = uuidv7();
  await trx('pricing_options').insert({
    id,
    studioId: studio.id,
    name: JSON.stringify(input.name),
    description: JSON.stringify(input.description ?? {}),
    categoryId: input.categoryId ?? null,
    price: input.price,
    taxId,
    taxRateBp: await taxRate(trx, studio.id, taxId),
    entries: input.entries,
    ...validityColumns(input),
    serviceTypes: JSON.stringify(input.serviceTypes),
    restrictions: JSON.stringify(input.restrictions ?? {}),
    sellAtDesk: input.sellAtDesk ?? true,
    sellOnline: input.sellOnline ?? true,
    limitPerClient: input.limitPerClient ?? null,
    shareable: input.shareable ?? false,
    shareLimit: input.shareLimit ?? null,
    position: input.position ?? 0,
  });
  return getPricingOption(trx, studio, id, now);
}

export async function updatePricingOption(
  trx: Db,
  studio: Studio,
  id: string,
  patch: PricingOptionPatch,
  now: Date,
): Promise<PricingOptionView> {
  await pricingOptionRow(trx, studio.id, id, true);
  const current = await getPricingOption(trx, studio, id, now);
  const merged = { ...current, ...patch } as PricingOptionInput;
  const issues = validityIssues(merged);
  const fields = await referenceErrors(trx, studio.id, patch);
  for (const issue of issues) fields[issue.path] = [issue.message];
  if (Object.keys(fields).length) throw AppError.invalid(fields);

  const changes: Record<string, unknown> = {};
  if (patch.name !== undefined) changes.name = JSON.stringify(patch.name);
  if (patch.description !== undefined) changes.description = JSON.stringify(patch.description);
  if (patch.categoryId !== undefined) changes.category_id = patch.categoryId;
  if (patch.price !== undefined) changes.price = patch.price;
  if (patch.taxId !== undefined) {
    changes.tax_id = patch.taxId;
    changes.tax_rate_bp = await taxRate(trx, studio.id, patch.taxId);
  }
  if (patch.entries !== undefined) changes.entries = patch.entries;
  if (
    patch.expirationType !== undefined ||
    patch.validityCount !== undefined ||
    patch.validityUnit !== undefined ||
    patch.validUntil !== undefined
  )
    Object.assign(changes, validityColumns(merged));
  if (patch.serviceTypes !== undefined) changes.service_types = JSON.stringify(patch.serviceTypes);
  if (patch.restrictions !== undefined) changes.restrictions = JSON.stringify(patch.restrictions);
  if (patch.sellAtDesk !== undefined) changes.sell_at_desk = patch.sellAtDesk;
  if (patch.sellOnline !== undefined) changes.sell_online = patch.sellOnline;
  if (patch.limitPerClient !== undefined) changes.limit_per_client = patch.limitPerClient;
  if (patch.shareable !== undefined) changes.shareable = patch.shareable;
  if (patch.shareLimit !== undefined) changes.share_limit = patch.shareLimit;
  if (patch.position !== undefined) changes.position = patch.position;
  if (patch.archived !== undefined) changes.archived_at = patch.archived ? trx.fn.now() : null;
  if (Object.keys(changes).length)
    await trx('pricing_options')
      .where({ studioId: studio.id, id })
      .update({ ...changes, updatedAt: trx.fn.now() });
  return getPricingOption(trx, studio, id, now);
}

// ------------------------------------------------------------------------------ promotions

export async function createPromotion(
  trx: Db,
  studio: Studio,
  optionId: string,
  input: PromotionInput,
): Promise<PromotionView> {
  await pricingOptionRow(trx, studio.id, optionId, true);
  const overlapping = await trx('pricing_option_promotions')
    .where({ studioId: studio.id, pricingOptionId: optionId })
    .where('starts_on', '<=', input.endsOn)
    .where('ends_on', '>=', input.startsOn)
    .first('id');
  if (overlapping)
    throw new AppError('resource.conflict', {
      message: 'another promotion runs in this period',
      fields: { startsOn: ['another promotion runs in this period'] },
    });
  const id = uuidv7();
  await trx('pricing_option_promotions').insert({
    id,
    studioId: studio.id,
    pricingOptionId: optionId,
    price: input.price,
    startsOn: input.startsOn,
    endsOn: input.endsOn,
  });
  const row = (await trx('pricing_option_promotions').where({ id }).first()) as PromotionRow;
  return presentPromotion(row);
}

export async function deletePromotion(trx: Db, studioId: string, optionId: string, promotionId: string) {
  await pricingOptionRow(trx, studioId, optionId, true);
  const deleted = await trx('pricing_option_promotions')
    .where({ studioId, pricingOptionId: optionId, id: promotionId })
    .delete();
  if (!deleted) throw AppError.notFound('promotion');
}
