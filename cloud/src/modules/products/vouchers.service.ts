import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  voucherFieldProblems,
  type VoucherCreateInput,
  type VoucherList,
  type VoucherListQuery,
  type VoucherPatch,
  type VoucherRedeemInput,
  type VoucherRedemption,
  type VoucherRestrictionInit,
  type VoucherView,
} from '../../../../shared/contracts/api/products';
import { decodeCursor, encodeCursor, localDate } from '../../../../shared/domain/clients';
import {
  basketTotals,
  generateVoucherCode,
  usageLimitOf,
  voucherDiscount,
  voucherRefusal,
  type BasketLine,
  type VoucherRefusal,
} from '../../../../shared/domain/vouchers';
import { VoucherType } from '../../../../shared/enums/payments';
import { AppError, type ErrorKey } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { savingProduct } from './products.service';
import {
  presentRedemption,
  presentVoucher,
  type VoucherRow,
  type VoucherTargetRow,
} from './products.presenter';
import { readAll } from '../../db/read-all';
import type { VoucherTargetsInsert } from '../../db/generated/tables';

const TARGET_FIELDS = [
  ['productCategoryIds', 'productCategory', 'product_categories'],
  ['productIds', 'product', 'products'],
  ['pricingOptionIds', 'pricingOption', 'pricing_options'],
] as const;

const today = (studio: Studio, now: Date) => localDate(now, studio.timeZone);

/** Every voucher column, dates as YYYY-MM-DD text, with its use count. */
function selectVouchers(db: Db, studioId: string) {
  return db('vouchers as v')
    .where('v.studio_id', studioId)
    .select(
      'v.id',
      'v.code',
      'v.description',
      'v.type',
      'v.discount_type',
      'v.value',
      'v.currency',
      'v.usage_limit_total',
      'v.usage_limit_per_client',
      db.raw('v.valid_from::text as valid_from'),
      db.raw('v.valid_to::text as valid_to'),
      'v.applies_to',
      'v.archived_at',
      db.raw(
        '(select count(*) from voucher_redemptions r where r.voucher_id = v.id and r.released_at is null)::int as uses_total',
      ),
      'v.created_at',
      'v.updated_at',
    );
}

async function targetsOf(db: Db, voucherIds: string[]): Promise<VoucherTargetRow[]> {
  if (voucherIds.length === 0) return [];
  const rows: VoucherTargetRow[] = await db('voucher_targets')
    .whereRaw('voucher_id = any(?::uuid[])', [voucherIds])
    .orderBy('id')
    .select('voucher_id', 'target_type', 'target_id');
  return rows;
}

export async function voucherView(
  db: Db,
  studio: Studio,
  voucherId: string,
  now: Date,
): Promise<VoucherView> {
  const row: VoucherRow | undefined = await selectVouchers(db, studio.id).where('v.id', voucherId).first();
  if (!row) throw AppError.notFound('voucher');
  return presentVoucher(row, await targetsOf(db, [row.id]), today(studio, now));
}

/** The status each list filter means, as SQL over the select above (`s` = that select). */
const STATUS_SQL = `case
  when s.archived_at is not null then 'archived'
  when (case when s.type = ${VoucherType.singleUse} then 1 else s.usage_limit_total end) <= s.uses_total then 'usedUp'
  when s.valid_to is not null and s.valid_to < :today then 'expired'
  when s.valid_from is not null and s.valid_from > :today then 'scheduled'
  else 'active' end`;

/** Newest first (UUIDv7 ids are time-ordered), keyset pages by id. */
export async function listVouchers(
  db: Db,
  studio: Studio,
  query: VoucherListQuery,
  now: Date,
): Promise<VoucherList> {
  const day = today(studio, now);
  const q = db
    .from(selectVouchers(db, studio.id).as('s'))
    .select('s.*', db.raw(`${STATUS_SQL.replaceAll(':today', '?')} as status`, [day, day]));
  const outer = db.from(q.as('w')).select('w.*');
  if (query.status === 'current') outer.whereIn('w.status', ['active', 'scheduled']);
  else if (query.status !== 'all') outer.where('w.status', query.status);
  if (query.type !== undefined) outer.where('w.type', query.type);
  if (query.q) {
    const term = query.q.trim();
    const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
    outer.where((w) =>
      w
        .whereRaw(`upper(w.code) like ? escape '\\'`, [`${escaped.toUpperCase().replace(/\s+/g, '')}%`])
        .orWhereRaw(`lower(w.description) like ? escape '\\'`, [`%${escaped.toLowerCase()}%`]),
    );
  }
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, 'vouchers', 1);
    if (!cursor) throw AppError.invalid({ 'query.cursor': ['invalid cursor'] });
    outer.whereRaw('w.id < ?::uuid', [String(cursor.values[0])]);
  }
  const rows: VoucherRow[] = await outer.orderBy('w.id', 'desc').limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const targets = await targetsOf(
    db,
    page.map((r) => r.id),
  );
  const last = page.at(-1);
  return {
    items: page.map((row) => presentVoucher(row, targets, day)),
    next: rows.length > query.limit && last ? encodeCursor({ sort: 'vouchers', values: [last.id] }) : null,
  };
}

/** What a voucher can be limited to: the studio's categories, active products and pricing options. */
export async function restrictionInit(
  db: Db,
  studio: Studio,
  canEdit: boolean,
): Promise<VoucherRestrictionInit> {
  const [categories, products, pricingOptions] = await readAll(db, [
    () =>
      db('product_categories')
        .where('studio_id', studio.id)
        .orderByRaw('position, lower(name), id')
        .select('id', 'name'),
    () =>
      db('products')
        .where('studio_id', studio.id)
        .whereNull('archived_at')
        .orderByRaw('lower(name), id')
        .limit(5000)
        .select('id', 'name', 'category_id'),
    () => db('pricing_options').where('studio_id', studio.id).orderBy('id').limit(5000).select('id', 'name'),
  ]);
  return {
    currency: studio.currency,
    voucherTypes: Object.values(VoucherType).map((value) => ({
      value,
      labelKey: `enums:voucherType.${value}`,
    })),
    discountTypes: ['amount', 'percentage'],
    appliesTo: ['all', 'selected'],
    productCategories: categories as Array<{ id: string; name: string }>,
    products: products as Array<{ id: string; name: string; categoryId: string | null }>,
    pricingOptions: pricingOptions as Array<{ id: string; name: Record<string, unknown> }>,
    abilities: { edit: canEdit },
  };
}

type TargetInput = Pick<VoucherCreateInput, 'productCategoryIds' | 'productIds' | 'pricingOptionIds'>;

/** Replaces a voucher's targets; every id must be this studio's (404 otherwise). */
async function writeTargets(trx: Db, studioId: string, voucherId: string, input: TargetInput): Promise<void> {
  await trx('voucher_targets').where({ voucherId }).delete();
  const rows: VoucherTargetsInsert[] = [];
  for (const [field, type, table] of TARGET_FIELDS) {
    const ids = [...new Set(input[field] ?? [])];
    if (ids.length === 0) continue;
    const [found]: Array<{ n: number }> = await trx(table)
      .where('studio_id', studioId)
      .whereRaw('id = any(?::uuid[])', [ids])
      .count('*', { as: 'n' });
    if (Number(found?.n) !== ids.length) throw AppError.notFound(type);
    for (const id of ids)
      rows.push({
        id: uuidv7(),
        studioId,
        voucherId,
        targetType: type,
        targetId: id,
      });
  }
  if (rows.length > 0) await trx('voucher_targets').insert(rows);
}

async function unusedCode(trx: Db, studioId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const code = generateVoucherCode((n) => randomBytes(n));
    const taken = await trx('vouchers')
      .where('studio_id', studioId)
      .whereRaw('upper(code) = ?', [code])
      .first('id');
    if (!taken) return code;
  }
  throw new Error('could not generate an unused voucher code');
}

export async function createVoucher(
  trx: Db,
  studio: Studio,
  input: VoucherCreateInput,
  now: Date,
): Promise<VoucherView> {
  const id = uuidv7();
  const code = input.code ?? (await unusedCode(trx, studio.id));
  const selected = input.appliesTo === 'selected';
  await savingProduct(() =>
    trx('vouchers').insert({
      id,
      studioId: studio.id,
      code,
      description: input.description ?? '',
      type: input.type,
      discountType: input.discountType,
      value: input.value,
      currency: studio.currency,
      usageLimitTotal: input.type === VoucherType.singleUse ? null : (input.usageLimitTotal ?? null),
      usageLimitPerClient: input.usageLimitPerClient ?? null,
      validFrom: input.validFrom ?? null,
      validTo: input.validTo ?? null,
      appliesTo: input.appliesTo,
    }),
  );
  if (selected) await writeTargets(trx, studio.id, id, input);
  return voucherView(trx, studio, id, now);
}

async function lockVoucher(trx: Db, studio: Studio, voucherId: string): Promise<VoucherRow> {
  const locked = await trx('vouchers').where({ studioId: studio.id, id: voucherId }).forUpdate().first('id');
  if (!locked) throw AppError.notFound('voucher');
  const voucher: VoucherRow = await selectVouchers(trx, studio.id).where('v.id', voucherId).first();
  return voucher;
}

/**
 * Changes some fields; the rules between fields are checked on the voucher as it would be. Past
 * redemptions keep the discount they gave.
 */
export async function updateVoucher(
  trx: Db,
  studio: Studio,
  voucherId: string,
  input: VoucherPatch,
  now: Date,
): Promise<VoucherView> {
  const row = await lockVoucher(trx, studio, voucherId);
  const [current] = await targetsOf(trx, [voucherId]).then((targets) => [
    {
      productCategoryIds: targets.filter((t) => t.targetType === 'productCategory').map((t) => t.targetId),
      productIds: targets.filter((t) => t.targetType === 'product').map((t) => t.targetId),
      pricingOptionIds: targets.filter((t) => t.targetType === 'pricingOption').map((t) => t.targetId),
    },
  ]);
  const merged = {
    type: input.type ?? row.type,
    discountType: input.discountType ?? row.discountType,
    value: input.value ?? row.value,
    usageLimitTotal: input.usageLimitTotal !== undefined ? input.usageLimitTotal : row.usageLimitTotal,
    validFrom: input.validFrom !== undefined ? input.validFrom : row.validFrom,
    validTo: input.validTo !== undefined ? input.validTo : row.validTo,
    appliesTo: input.appliesTo ?? row.appliesTo,
    productCategoryIds: input.productCategoryIds ?? current!.productCategoryIds,
    productIds: input.productIds ?? current!.productIds,
    pricingOptionIds: input.pricingOptionIds ?? current!.pricingOptionIds,
  };
  const problems = voucherFieldProblems(merged);
  if (Object.keys(problems).length > 0)
    throw AppError.invalid(Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, [v]])));
  const patch: Record<string, unknown> = {};
  if (input.code !== undefined) patch.code = input.code;
  if (input.description !== undefined) patch.description = input.description;
  patch.type = merged.type;
  patch.discount_type = merged.discountType;
  patch.value = merged.value;
  patch.usage_limit_total = merged.type === VoucherType.singleUse ? null : merged.usageLimitTotal;
  if (input.usageLimitPerClient !== undefined) patch.usage_limit_per_client = input.usageLimitPerClient;
  patch.valid_from = merged.validFrom;
  patch.valid_to = merged.validTo;
  patch.applies_to = merged.appliesTo;
  if (input.archived !== undefined)
    patch.archived_at = input.archived ? (row.archivedAt ?? trx.fn.now()) : null;
  await savingProduct(() =>
    trx('vouchers')
      .where({ id: voucherId })
      .update({ ...patch, updatedAt: trx.fn.now() }),
  );
  const targetsChanged =
    input.appliesTo !== undefined ||
    input.productCategoryIds !== undefined ||
    input.productIds !== undefined ||
    input.pricingOptionIds !== undefined;
  if (targetsChanged)
    await writeTargets(trx, studio.id, voucherId, merged.appliesTo === 'selected' ? merged : {});
  return voucherView(trx, studio, voucherId, now);
}

/**
 * A voucher never redeemed is deleted; one with redemptions is archived (its history stays) — a use
 * given back by a failed payment counts here: its failed order still names it.
 */
export async function deleteVoucher(trx: Db, studio: Studio, voucherId: string): Promise<void> {
  const row = await lockVoucher(trx, studio, voucherId);
  const redeemed = await trx('voucher_redemptions').where({ voucherId }).first('id');
  if (Number(row.usesTotal) > 0 || redeemed) {
    if (!row.archivedAt)
      await trx('vouchers')
        .where({ id: voucherId })
        .update({ archivedAt: trx.fn.now(), updatedAt: trx.fn.now() });
    return;
  }
  await trx('vouchers').where({ id: voucherId }).delete();
}

const REFUSAL_MESSAGES: Record<VoucherRefusal, string> = {
  archived: 'this voucher has been withdrawn',
  notYetValid: 'this voucher is not valid yet',
  expired: 'this voucher has expired',
  usedUp: 'this voucher has been used up',
  clientRequired: 'this voucher is limited per client: choose the client',
  clientLimitReached: 'this client has used this voucher as often as allowed',
  notApplicable: 'this voucher does not apply to anything in the basket',
};

function refused(refusal: VoucherRefusal): AppError {
  const message = REFUSAL_MESSAGES[refusal];
  const field = refusal === 'clientRequired' || refusal === 'clientLimitReached' ? 'clientId' : 'code';
  return new AppError(`voucher.${refusal}` as ErrorKey, { message, fields: { [field]: [message] } });
}

/** The basket priced from the catalog: every product and pricing option must be this studio's. */
async function priceLines(
  trx: Db,
  studioId: string,
  input: VoucherRedeemInput['lines'],
): Promise<BasketLine[]> {
  const productIds = [...new Set(input.flatMap((l) => (l.productId ? [l.productId] : [])))];
  const optionIds = [...new Set(input.flatMap((l) => (l.pricingOptionId ? [l.pricingOptionId] : [])))];
  const [products, options] = await readAll(trx, [
    async () =>
      productIds.length
        ? trx('products')
            .where('studio_id', studioId)
            .whereRaw('id = any(?::uuid[])', [productIds])
            .select('id', 'categoryId', 'price')
        : [],
    async () =>
      optionIds.length
        ? trx('pricing_options')
            .where('studio_id', studioId)
            .whereRaw('id = any(?::uuid[])', [optionIds])
            .select('id', 'price')
        : [],
  ]);
  if (products.length !== productIds.length) throw AppError.notFound('product');
  if (options.length !== optionIds.length) throw AppError.notFound('pricing option');
  return input.map((line) => {
    if (line.productId) {
      const p = products.find((x) => x.id === line.productId)!;
      return {
        kind: 'product',
        id: p.id,
        categoryId: p.categoryId,
        unitPrice: p.price,
        quantity: line.quantity,
      };
    }
    const o = options.find((x) => x.id === line.pricingOptionId)!;
    return { kind: 'pricingOption', id: o.id, unitPrice: o.price, quantity: line.quantity };
  });
}

/**
 * Validates a voucher against a basket and records its redemption, atomically. The voucher's row
 * lock serializes redemptions of one voucher: the second of two simultaneous redemptions counts the
 * first one's use (READ COMMITTED takes a fresh snapshot per statement, after the lock is granted).
 * The unique (voucher_id, use_number) is the backstop should a caller ever skip the lock. Retail
 * checkout calls this inside its own transaction, so the discount and the sale commit together.
 */
export async function redeemVoucher(
  trx: Db,
  studio: Studio,
  input: VoucherRedeemInput,
  redeemedBy: string | null,
  now: Date,
): Promise<VoucherRedemption> {
  const locked: { id: string } | undefined = await trx('vouchers')
    .where('studio_id', studio.id)
    .whereRaw('upper(code) = ?', [input.code])
    .forUpdate()
    .first('id');
  if (!locked)
    throw new AppError('resource.notFound', {
      message: 'no voucher with this code',
      fields: { code: ['no voucher with this code'] },
    });
  const voucher: VoucherRow = await selectVouchers(trx, studio.id).where('v.id', locked.id).first();
  const clientId = input.clientId ?? null;
  if (clientId) {
    const client = await trx('clients').where({ studioId: studio.id, userId: clientId }).first('id');
    if (!client) throw AppError.notFound('client');
  }
  const targets = await targetsOf(trx, [voucher.id]);
  const lines = await priceLines(trx, studio.id, input.lines);
  const scope = {
    appliesTo: voucher.appliesTo,
    productCategoryIds: targets.filter((t) => t.targetType === 'productCategory').map((t) => t.targetId),
    productIds: targets.filter((t) => t.targetType === 'product').map((t) => t.targetId),
    pricingOptionIds: targets.filter((t) => t.targetType === 'pricingOption').map((t) => t.targetId),
  };
  const { basketTotal, eligibleTotal } = basketTotals(scope, lines);
  const usesTotal = Number(voucher.usesTotal);
  const usesByClient = clientId
    ? Number(
        (
          (await trx('voucher_redemptions')
            .where({ voucherId: voucher.id, clientId })
            .whereNull('releasedAt')
            .count('*', { as: 'n' })) as Array<{ n: number }>
        )[0]?.n ?? 0,
      )
    : 0;
  const rules = {
    type: voucher.type as VoucherType,
    archived: voucher.archivedAt !== null,
    validFrom: voucher.validFrom,
    validTo: voucher.validTo,
    usageLimitTotal: voucher.usageLimitTotal,
    usageLimitPerClient: voucher.usageLimitPerClient,
  };
  const refusal = voucherRefusal(rules, {
    today: today(studio, now),
    usesTotal,
    usesByClient,
    clientNamed: clientId !== null,
    eligibleTotal,
  });
  if (refusal) throw refused(refusal);
  const discount = voucherDiscount(voucher, eligibleTotal);
  const id = uuidv7();
  // Numbered after every earlier use, released ones too (their numbers stay taken).
  const last = (await trx('voucher_redemptions')
    .where({ voucherId: voucher.id })
    .max('useNumber', { as: 'n' })
    .first()) as { n: number | null } | undefined;
  const useNumber = Math.max(usesTotal, Number(last?.n ?? 0)) + 1;
  try {
    await trx('voucher_redemptions').insert({
      id,
      studioId: studio.id,
      voucherId: voucher.id,
      useNumber,
      clientId,
      redeemedBy,
      basketTotal,
      eligibleTotal,
      discount,
      currency: voucher.currency,
      reference: input.reference ?? null,
      createdAt: now,
    });
  } catch (err) {
    const code =
      (err as { code?: string; nativeError?: { code?: string } }).nativeError?.code ??
      (err as { code?: string }).code;
    if (code === '23505') throw refused('usedUp');
    throw err;
  }
  const limit = usageLimitOf(rules);
  return presentRedemption({
    id,
    voucher,
    useNumber,
    usesLeft: limit === null ? null : Math.max(0, limit - (usesTotal + 1)),
    basketTotal,
    eligibleTotal,
    discount,
    currency: voucher.currency,
    clientId,
    createdAt: now,
  });
}

/**
 * Gives back the voucher use of a checkout whose online payment failed or was cancelled (issue 26),
 * so the client's retry may use the voucher again; answers the voucher's code (null when there was
 * nothing to give back). Only the redemption row is updated — the voucher row is not locked, so this
 * may run with the order locked (sales' lock order puts the voucher before the order). A redemption
 * counting at the same moment sees the use still taken and refuses at worst: never a use too many.
 */
export async function releaseRedemption(trx: Db, redemptionId: string, now: Date): Promise<string | null> {
  const rows = (await trx('voucher_redemptions')
    .where({ id: redemptionId })
    .whereNull('releasedAt')
    .update({ releasedAt: now }, ['voucherId'])) as Array<{ voucherId: string }>;
  if (rows.length === 0) return null;
  const voucher = (await trx('vouchers').where({ id: rows[0]!.voucherId }).first('code')) as
    { code: string } | undefined;
  return voucher?.code ?? null;
}

/** A late success of an order whose voucher use was given back takes the use again (the money was taken). */
export async function reclaimRedemption(trx: Db, redemptionId: string): Promise<void> {
  await trx('voucher_redemptions')
    .where({ id: redemptionId })
    .whereNotNull('releasedAt')
    .update({ releasedAt: null });
}
