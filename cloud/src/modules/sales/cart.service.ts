import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type {
  CartItemInput,
  CartItemView,
  CartView,
  CheckoutInput,
  CheckoutResult,
  PurchasesView,
  WalletTopUpInput,
  WalletView,
} from '../../../../shared/contracts/api/sales';
import { WALLET_MAX_TOP_UP, WALLET_MIN_TOP_UP } from '../../../../shared/contracts/api/sales';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { orderTotals } from '../../../../shared/domain/orders';
import { topUpChoices } from '../../../../shared/domain/wallet';
import { normalizeVoucherCode } from '../../../../shared/domain/vouchers/code';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { getPricingOption } from '../catalog/index';
import type { Studio } from '../identity/index';
import { redeemVoucher } from '../products/index';
import { lockProductsForSale } from '../products/index';
import { fulfilOrder } from './fulfilment';
import { createOrder } from './order-factory';
import { PROVIDERS, providerViews } from './providers';
import { presentPurchase, presentWalletEntry, type OrderRow, type PaymentRow } from './sales.presenter';
import { startOnlinePayment } from './online-payments';
import { checkOptionForVisit } from './visit-hooks';
import { payOrderFromWallet, selectOrders, walletBalanceOf } from './sales.service';
import { readAll } from '../../db/read-all';

type Trx = Knex.Transaction;

// ------------------------------------------------------------------------------------ item kinds

export interface PricedItem {
  name: string;
  /** The name in every language (kept on the order line, issue 25); absent for names with none. */
  nameTexts?: LocaleText;
  unitPrice: number;
  vatRate: string;
  /** Null when it can be bought online now; else the i18n key (namespace sales) of why not. */
  problem: string | null;
}

/** Prices a cart item another module sells (contracts); registered with `registerCartItemResolver`. */
export type CartItemResolver = (
  db: Db,
  studio: Studio,
  clientId: string,
  id: string,
  locale: string | null,
  now: Date,
) => Promise<(PricedItem & { lineKind: 'contract_instalment' | 'fee' | 'video' }) | null>;

/** Cart item kinds another module prices (contracts, video courses bought one-off). */
export type ResolvedCartItemType = 'contract' | 'videoService';
const resolvers = new Map<ResolvedCartItemType, CartItemResolver>();

/**
 * The contracts module registers how a contract is priced in the cart (its first instalment) and
 * what line it becomes; without one a contract in the cart is shown as unavailable.
 */
export function registerCartItemResolver(type: ResolvedCartItemType, resolver: CartItemResolver): void {
  resolvers.set(type, resolver);
}

/** How the cart words a visit a pass in it can no longer pay (`sales` namespace). */
const VISIT_PROBLEMS: Record<string, string> = {
  'visit.alreadyPaid': 'cart.problem.visitPaid',
  'visit.notPayable': 'cart.problem.visitNotPayable',
  'visit.passDoesNotCover': 'cart.problem.doesNotCoverVisit',
};

/** The bookings module's check of a pass bought for a visit; a visit no longer the client's is a problem. */
async function optionForVisit(
  db: Db,
  studio: Studio,
  clientId: string,
  visitId: string,
  option: Awaited<ReturnType<typeof getPricingOption>>,
  index: number,
  now: Date,
) {
  return checkOptionForVisit(
    db,
    studio,
    clientId,
    visitId,
    option,
    { visit: `items.${index}.forVisitId`, option: `items.${index}.id` },
    now,
  );
}

const vatText = (taxId: string | null, rateBp: number | null) =>
  rateBp === null ? (taxId ? 'exempt' : '2300') : String(rateBp);

async function priceItem(
  db: Db,
  studio: Studio,
  clientId: string,
  item: CartItemInput,
  locale: string | null,
  now: Date,
): Promise<
  CartItemView & {
    lineKind: 'pass' | 'product' | 'contract_instalment' | 'fee' | 'video';
    nameTexts?: LocaleText;
  }
> {
  const base = { type: item.type, id: item.id, quantity: item.type === 'product' ? item.quantity : 1 };
  const unavailable = {
    ...base,
    name: '',
    unitPrice: 0,
    total: 0,
    vatRate: '2300',
    problem: 'cart.problem.unavailable',
    lineKind: 'fee' as const,
  };
  if (item.type === 'pricingOption') {
    try {
      const option = await getPricingOption(db, studio, item.id, now);
      let problem = option.archived || !option.sellOnline ? 'cart.problem.unavailable' : null;
      let forVisit: CartItemView['forVisit'];
      if (item.forVisitId) {
        const checked = await optionForVisit(db, studio, clientId, item.forVisitId, option, 0, now);
        forVisit = {
          id: checked.visit.id,
          className: resolveLocaleText(checked.visit.className, locale, studio.defaultLocale),
          startsAt: new Date(checked.visit.startsAt).toISOString(),
        };
        if (checked.refusal) problem ??= VISIT_PROBLEMS[checked.refusal.key] ?? 'cart.problem.unavailable';
      }
      return {
        ...base,
        ...(forVisit ? { forVisit } : {}),
        name: resolveLocaleText(option.name, locale, studio.defaultLocale),
        nameTexts: option.name,
        unitPrice: option.currentPrice,
        total: option.currentPrice,
        vatRate: vatText(option.taxId, option.taxRateBp),
        problem,
        lineKind: 'pass',
      };
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return unavailable;
      throw err;
    }
  }
  if (item.type === 'product') {
    const row = (await db('products as p')
      .leftJoin('taxes as t', 't.id', 'p.tax_id')
      .where({ 'p.studio_id': studio.id, 'p.id': item.id })
      .first(
        'p.name',
        'p.name_texts',
        'p.price',
        'p.track_stock',
        'p.archived_at',
        't.id as taxId',
        't.rate_bp',
        db.raw(
          '(select coalesce(sum(m.quantity), 0)::int from product_stock_movements m where m.product_id = p.id) as stock',
        ),
      )) as
      | {
          name: string;
          nameTexts: LocaleText | null;
          price: number;
          trackStock: boolean;
          archivedAt: Date | null;
          taxId: string;
          rateBp: number | null;
          stock: number;
        }
      | undefined;
    if (!row) return unavailable;
    const problem = row.archivedAt
      ? 'cart.problem.unavailable'
      : row.trackStock && row.stock < item.quantity
        ? 'cart.problem.outOfStock'
        : null;
    // The product's name is in the studio's language; its translations beside it (issue 25).
    const nameTexts: LocaleText = { ...(row.nameTexts ?? {}), [studio.defaultLocale]: { value: row.name } };
    return {
      ...base,
      name: resolveLocaleText(nameTexts, locale, studio.defaultLocale) || row.name,
      nameTexts,
      unitPrice: row.price,
      total: row.price * item.quantity,
      vatRate: vatText(row.taxId, row.rateBp),
      problem,
      lineKind: 'product',
    };
  }
  const resolver = resolvers.get(item.type);
  const priced = resolver ? await resolver(db, studio, clientId, item.id, locale, now) : null;
  if (!priced) return unavailable;
  return { ...base, ...priced, total: priced.unitPrice };
}

// ------------------------------------------------------------------------------------ the cart

interface CartRow {
  items: CartItemInput[];
  voucherCode: string | null;
}

async function cartRow(db: Db, studioId: string, clientId: string): Promise<CartRow> {
  const row = (await db('shopping_carts').where({ studioId, clientId }).first('items', 'voucherCode')) as
    CartRow | undefined;
  return row ?? { items: [], voucherCode: null };
}

/**
 * The first lock every cart mutation takes (sales README, "Lock order"): the client's cart row,
 * created empty if missing. Prepare, voucher redeem and checkout of one client then run one after
 * another instead of locking the cart, the voucher and the products in different orders (they
 * deadlocked). Returns the cart as it is under the lock.
 */
async function lockCart(trx: Trx, studioId: string, clientId: string): Promise<CartRow> {
  await trx.raw(
    `insert into shopping_carts (id, studio_id, client_id, items, voucher_code)
     values (?, ?, ?, '[]'::jsonb, null) on conflict (studio_id, client_id) do nothing`,
    [uuidv7(), studioId, clientId],
  );
  return (await trx('shopping_carts')
    .where({ studioId, clientId })
    .forUpdate()
    .first('items', 'voucherCode')) as CartRow;
}

async function saveCart(trx: Trx, studioId: string, clientId: string, cart: CartRow): Promise<void> {
  await trx.raw(
    `insert into shopping_carts (id, studio_id, client_id, items, voucher_code)
     values (?, ?, ?, ?::jsonb, ?)
     on conflict (studio_id, client_id) do update
       set items = excluded.items, voucher_code = excluded.voucher_code, updated_at = now()`,
    [uuidv7(), studioId, clientId, JSON.stringify(cart.items), cart.voucherCode],
  );
}

/** Rolls a savepoint back on purpose, carrying what was computed inside it. */
class Preview<T> extends Error {
  constructor(readonly value: T) {
    super('preview');
  }
}

/**
 * What a voucher would take off these items, computed by the products module's own redemption (so
 * the rules are the same ones checkout applies) inside a savepoint that is rolled back.
 */
async function voucherPreview(
  db: Db,
  studio: Studio,
  clientId: string,
  code: string,
  items: Array<CartItemView>,
  now: Date,
): Promise<{ discount: number; problem: string | null; error?: AppError }> {
  const lines = items
    .filter((i) => (i.type === 'pricingOption' || i.type === 'product') && i.problem === null)
    .map((i) =>
      i.type === 'product'
        ? { productId: i.id, quantity: i.quantity }
        : { pricingOptionId: i.id, quantity: 1 },
    );
  if (lines.length === 0) return { discount: 0, problem: 'voucher.notApplicable' };
  const run = async (trx: Trx) => {
    try {
      await trx.transaction(async (sp) => {
        const r = await redeemVoucher(sp, studio, { code, clientId, lines }, null, now);
        throw new Preview(r.discount);
      });
    } catch (err) {
      if (err instanceof Preview) return { discount: err.value as number, problem: null };
      if (err instanceof AppError)
        return {
          discount: 0,
          problem: err.key === 'resource.notFound' ? 'voucher.unknownCode' : err.key,
          error: err,
        };
      throw err;
    }
    return { discount: 0, problem: 'voucher.notApplicable' };
  };
  return (db as Trx).isTransaction ? run(db as Trx) : (db as Knex).transaction(run);
}

export async function cartView(
  db: Db,
  studio: Studio,
  clientId: string,
  cart: CartRow,
  locale: string | null,
  now: Date,
): Promise<CartView & { priced: Awaited<ReturnType<typeof priceItem>>[] }> {
  const priced = [];
  for (const item of cart.items) priced.push(await priceItem(db, studio, clientId, item, locale, now));
  const items: CartItemView[] = priced.map(({ lineKind: _k, nameTexts: _t, ...view }) => view);
  const voucher = cart.voucherCode
    ? await voucherPreview(db, studio, clientId, cart.voucherCode, items, now)
    : null;
  const totals = orderTotals(
    items
      .filter((i) => i.problem === null)
      .map((i) => ({ quantity: i.quantity, unitPriceMinor: i.unitPrice })),
    voucher?.discount ?? 0,
  );
  const walletBalance = await walletBalanceOf(db, studio.id, clientId);
  // The provider online payments go through (the first enabled one) decides whether a card can be
  // kept: only one that can charge a saved card later offers the "save my card" box.
  const onlineProvider = (await providerViews(db, studio.id)).find((p) => p.enabled) ?? null;
  const online = onlineProvider !== null;
  const paymentMethods: CartView['paymentMethods'] = [];
  if (online) paymentMethods.push('online');
  if (walletBalance >= totals.total && totals.total > 0) paymentMethods.push('wallet');
  return {
    items,
    priced,
    currency: studio.currency,
    subtotal: totals.subtotal,
    discount: totals.discount,
    total: totals.total,
    voucher: cart.voucherCode
      ? { code: cart.voucherCode, discount: totals.discount, problem: voucher?.problem ?? null }
      : null,
    walletBalance,
    paymentMethods,
    canSaveCard: onlineProvider !== null && PROVIDERS[onlineProvider.provider].chargeSavedCard !== undefined,
    canCheckout:
      items.length > 0 &&
      items.every((i) => i.problem === null) &&
      (paymentMethods.length > 0 || totals.total === 0),
  };
}

const strip = ({ priced: _p, ...view }: CartView & { priced: unknown }): CartView => view;

export async function cartStatus(db: Db, studio: Studio, clientId: string, locale: string | null, now: Date) {
  return strip(await cartView(db, studio, clientId, await cartRow(db, studio.id, clientId), locale, now));
}

/** Replaces the cart's items (the front office sends the whole cart); the voucher stays. */
export async function prepareCart(
  trx: Trx,
  studio: Studio,
  clientId: string,
  items: CartItemInput[],
  locale: string | null,
  now: Date,
): Promise<CartView> {
  // The same thing twice is one line (a pass is bought once per checkout; products add up).
  const forVisit = (i: CartItemInput) => (i.type === 'pricingOption' ? (i.forVisitId ?? null) : null);
  const merged: CartItemInput[] = [];
  for (const item of items) {
    const same = merged.find(
      (m) => m.type === item.type && m.id === item.id && forVisit(m) === forVisit(item),
    );
    if (!same) merged.push({ ...item });
    else if (same.type === 'product' && item.type === 'product')
      same.quantity = Math.min(99, same.quantity + item.quantity);
  }
  const locked = await lockCart(trx, studio.id, clientId);
  await checkVisitItems(trx, studio, clientId, merged, now);
  const cart = { ...locked, items: merged };
  await saveCart(trx, studio.id, clientId, cart);
  return strip(await cartView(trx, studio, clientId, cart, locale, now));
}

/**
 * Passes put in the cart for a visit (from "My visits") are checked when they go in: the visit is
 * the client's (404), still owed (409 `visit.alreadyPaid` / `visit.notPayable`), covered by the
 * option (409 `visit.passDoesNotCover`), and named once (400). Later changes show as item problems.
 */
async function checkVisitItems(
  trx: Trx,
  studio: Studio,
  clientId: string,
  items: CartItemInput[],
  now: Date,
): Promise<void> {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (item.type !== 'pricingOption' || !item.forVisitId) continue;
    if (seen.has(item.forVisitId))
      throw AppError.invalid({ [`items.${i}.forVisitId`]: ['this visit is already in the cart'] });
    seen.add(item.forVisitId);
    let option;
    try {
      option = await getPricingOption(trx, studio, item.id, now);
    } catch (err) {
      if (err instanceof AppError && err.status === 404)
        throw AppError.invalid({ [`items.${i}.id`]: ['unknown pricing option'] });
      throw err;
    }
    const checked = await optionForVisit(trx, studio, clientId, item.forVisitId, option, i, now);
    if (checked.refusal) throw checked.refusal;
  }
}

/** Puts a voucher on the cart (or takes it off with null). A voucher that does not apply is refused. */
export async function redeemCartVoucher(
  trx: Trx,
  studio: Studio,
  clientId: string,
  code: string | null,
  locale: string | null,
  now: Date,
): Promise<CartView> {
  const cart = await lockCart(trx, studio.id, clientId);
  const normalized = code ? normalizeVoucherCode(code) : '';
  const next = { ...cart, voucherCode: normalized || null };
  if (next.voucherCode) {
    const view = await cartView(trx, studio, clientId, next, locale, now);
    const problem = view.voucher?.problem;
    if (problem) {
      const preview = await voucherPreview(trx, studio, clientId, next.voucherCode, view.items, now);
      const err = preview.error;
      if (err && err.key !== 'resource.notFound')
        throw new AppError(err.key, { message: err.message, fields: { code: [err.message] } });
      throw new AppError('resource.notFound', {
        message: 'no voucher with this code',
        fields: { code: ['no voucher with this code'] },
      });
    }
  }
  await saveCart(trx, studio.id, clientId, next);
  return strip(await cartView(trx, studio, clientId, next, locale, now));
}

// ------------------------------------------------------------------------------------ idempotency

/**
 * Runs a charging request once per Idempotency-Key (per studio and user). The key's row is inserted
 * first, in the request's transaction: a concurrent retry waits on the unique key until the first
 * commits and then reads its stored answer; a retry after an error (rolled back, nothing stored)
 * runs again. The same key with another body is refused (409).
 */
export async function once<T>(
  trx: Trx,
  scope: { studioId: string; userId: string },
  key: string | undefined,
  body: unknown,
  run: () => Promise<T>,
): Promise<T> {
  if (!key || !/^[A-Za-z0-9_.:-]{8,100}$/.test(key))
    throw new AppError('checkout.idempotencyKeyRequired', {
      message: 'send an Idempotency-Key header (8–100 letters, digits, _ . : -)',
      fields: { idempotencyKey: ['required'] },
    });
  const hash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  const inserted = (await trx.raw(
    `insert into checkout_requests (studio_id, user_id, idempotency_key, request_hash)
     values (?, ?, ?, ?) on conflict do nothing returning idempotency_key`,
    [scope.studioId, scope.userId, key, hash],
  )) as { rows: unknown[] };
  if (inserted.rows.length === 0) {
    const stored = (await trx('checkout_requests')
      .where({ studioId: scope.studioId, userId: scope.userId, idempotencyKey: key })
      .first('requestHash', 'responseBody')) as { requestHash: string; responseBody: T | null };
    if (stored.requestHash !== hash)
      throw new AppError('checkout.idempotencyKeyReused', {
        message: 'this Idempotency-Key was used for another request',
      });
    if (stored.responseBody !== null) return stored.responseBody;
  }
  const result = await run();
  await trx('checkout_requests')
    .where({ studioId: scope.studioId, userId: scope.userId, idempotencyKey: key })
    .update({ responseStatus: 200, responseBody: JSON.stringify(result) });
  return result;
}

// ------------------------------------------------------------------------------------ checkout

/**
 * Turns the cart into an order and pays it: the voucher is redeemed for real, the order created
 * (source online), then paid from the wallet at once or sent to the online provider. A free order
 * (a voucher covering everything) is fulfilled straight away. The cart is emptied.
 */
export async function checkout(
  trx: Trx,
  studio: Studio,
  clientId: string,
  input: CheckoutInput,
  options: { locale: string | null; now: Date; log?: Logger },
): Promise<CheckoutResult> {
  const cart = await lockCart(trx, studio.id, clientId);
  if (cart.items.length === 0) throw new AppError('cart.empty', { message: 'the cart is empty' });
  // Then its products (the stock check below is exact), then the voucher (redeemVoucher).
  await lockProductsForSale(
    trx,
    studio.id,
    cart.items.flatMap((i) => (i.type === 'product' ? [i.id] : [])),
  );
  const view = await cartView(
    trx,
    studio,
    clientId,
    { ...cart, voucherCode: null },
    options.locale,
    options.now,
  );
  const problems: Record<string, string[]> = {};
  view.items.forEach((item, i) => {
    if (item.problem) problems[`items.${i}`] = [item.problem];
  });
  if (Object.keys(problems).length > 0)
    throw new AppError('cart.itemUnavailable', {
      message: 'something in the cart cannot be bought',
      fields: problems,
    });

  const orderId = uuidv7();
  let discount = 0;
  let redemptionId: string | null = null;
  if (cart.voucherCode) {
    const lines = view.priced
      .filter((i) => i.type === 'pricingOption' || i.type === 'product')
      .map((i) =>
        i.type === 'product'
          ? { productId: i.id, quantity: i.quantity }
          : { pricingOptionId: i.id, quantity: 1 },
      );
    if (lines.length > 0) {
      const redemption = await redeemVoucher(
        trx,
        studio,
        { code: cart.voucherCode, clientId, lines, reference: `order ${orderId.slice(-8).toUpperCase()}` },
        clientId,
        options.now,
      );
      discount = redemption.discount;
      redemptionId = redemption.id;
    }
  }
  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId,
    source: 'online',
    sourceId: orderId,
    createdBy: clientId,
    discountMinor: discount,
    voucherRedemptionId: redemptionId,
    lines: view.priced.map((item) => ({
      kind: item.lineKind,
      refId: item.id,
      name: item.name,
      nameTexts: item.nameTexts ?? null,
      quantity: item.quantity,
      unitPriceMinor: item.unitPrice,
      vatRate: item.vatRate,
      forVisitId: item.forVisit?.id ?? null,
    })),
  });
  await saveCart(trx, studio.id, clientId, { items: [], voucherCode: null });

  const order = (await trx('client_orders').where({ id }).first('total', 'status')) as {
    total: number;
    status: OrderStatus;
  };
  if (order.total === 0) {
    await fulfilOrder(trx, id, null, options.now, options.log);
    return { orderId: id, status: OrderStatus.freeOfCharge, redirectUrl: null };
  }
  if (input.paymentMethod === 'wallet') {
    await payOrderFromWallet(trx, studio, id, clientId, options.now, options.log);
    return { orderId: id, status: OrderStatus.paid, redirectUrl: null };
  }
  const started = await startOnlinePayment(trx, studio, id, {
    returnPath: input.returnPath ?? `/${studio.id}/frontoffice/purchases`,
    createdBy: clientId,
    saveCard: input.saveCard,
    locale: input.locale ?? options.locale,
  });
  return { orderId: id, status: OrderStatus.awaiting, redirectUrl: started.redirectUrl };
}

// ------------------------------------------------------------------------------------ purchases

export async function purchases(
  db: Db,
  studio: Studio,
  clientId: string,
  page: { limit: number; cursor?: string },
): Promise<PurchasesView> {
  const q = selectOrders(db, studio.id)
    .where('o.client_id', clientId)
    .orderBy('o.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q.where('o.id', '<', page.cursor);
  const rows = (await q) as OrderRow[];
  const shown = rows.slice(0, page.limit);
  const ids = shown.map((r) => r.id);
  const [lines, payments] = await readAll(db, [
    () =>
      db('client_order_lines')
        .whereIn('orderId', ids)
        .orderBy('position')
        .select('orderId', 'kind', 'name', 'quantity', 'total'),
    () =>
      db('client_order_payments').whereIn('orderId', ids).orderBy('id').select('orderId', 'method', 'status'),
  ]);
  return {
    items: shown.map((row) => {
      const last = (payments as Array<Pick<PaymentRow, 'orderId' | 'method' | 'status'>>)
        .filter((p) => p.orderId === row.id)
        .at(-1);
      return presentPurchase(
        row,
        (
          lines as Array<{ orderId: string; kind: never; name: string; quantity: number; total: number }>
        ).filter((l) => l.orderId === row.id),
        last ? { method: last.method, status: last.status } : null,
      );
    }),
    next: rows.length > page.limit ? shown[shown.length - 1]!.id : null,
  };
}

// ------------------------------------------------------------------------------------ wallet

export async function walletView(db: Db, studio: Studio, clientId: string): Promise<WalletView> {
  const [balance, entries, providers] = await readAll(db, [
    () => walletBalanceOf(db, studio.id, clientId),
    () =>
      db('client_wallet_payments').where({ studioId: studio.id, clientId }).orderBy('id', 'desc').limit(50),
    () => providerViews(db, studio.id),
  ]);
  return {
    balance,
    currency: studio.currency,
    entries: (entries as Parameters<typeof presentWalletEntry>[0][]).map(presentWalletEntry),
    topUpAmounts: topUpChoices(WALLET_MIN_TOP_UP, WALLET_MAX_TOP_UP),
    minTopUp: WALLET_MIN_TOP_UP,
    maxTopUp: WALLET_MAX_TOP_UP,
    onlinePayment: providers.some((p) => p.enabled),
  };
}

/** A top-up is an order of one `top_up` line paid online; the wallet is credited when it is paid. */
export async function topUpWallet(
  trx: Trx,
  studio: Studio,
  clientId: string,
  input: WalletTopUpInput,
  options: { label: string; locale?: string | null },
): Promise<CheckoutResult> {
  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId,
    source: 'top_up',
    createdBy: clientId,
    lines: [
      { kind: 'top_up', name: options.label, quantity: 1, unitPriceMinor: input.amount, vatRate: 'exempt' },
    ],
  });
  const started = await startOnlinePayment(trx, studio, id, {
    returnPath: input.returnPath ?? `/${studio.id}/frontoffice/wallet`,
    createdBy: clientId,
    locale: input.locale ?? options.locale,
  });
  return { orderId: id, status: OrderStatus.awaiting, redirectUrl: started.redirectUrl };
}

export { PaymentMethod };
