import { v7 as uuidv7 } from 'uuid';
import type {
  RetailBasketSchema,
  RetailCatalogItem,
  RetailCheckoutResult,
  RetailCheckoutSchema,
  RetailInit,
  RetailItemType,
  RetailQuote,
  RetailQuoteItem,
} from '../../../../shared/contracts/api/retail';
import { RETAIL_PAYMENT_METHODS } from '../../../../shared/contracts/api/retail';
import { buildSchedule, type ContractTerms } from '../../../../shared/domain/contracts';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import {
  computeReceiptTotals,
  mapRatesToSlots,
  vatRateKey,
  type VatRate,
} from '../../../../shared/domain/receipts';
import type { ContractActivationType } from '../../../../shared/enums/pricing-options';
import { OrderStatus, PaymentMethod, RetailItemStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { z } from 'zod';
import type { Db, Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { getPricingOption, listPricingOptions } from '../catalog/index';
import { sellContract } from '../contracts/index';
import { getContract, listContracts } from '../contracts/index';
import type { Studio } from '../identity/index';
import { redeemVoucher } from '../products/index';
import { lockProductsForSale } from '../products/index';
import { fulfilOrder } from '../sales/index';
import { createOrder } from '../sales/index';
import { payOrderFromWallet, recordDeskPayment, walletBalanceOf } from '../sales/index';
import { presentTotals } from './retail.presenter';
import {
  createReceipt,
  fiscalPaymentsOf,
  receiptView,
  stationSlugs,
  stationVatSlots,
  toPrintCount,
} from './receipts.service';
import { readAll } from '../../db/read-all';
import type { ProductsRow, TaxesRow } from '../../db/generated/tables';

type Trx = Knex.Transaction;
type Basket = z.output<typeof RetailBasketSchema>;
type CheckoutInput = z.output<typeof RetailCheckoutSchema>;

const vatOf = (taxId: string | null, rateBp: number | null): VatRate =>
  rateBp === null ? (taxId ? 'exempt' : 2300) : rateBp;
const vatText = (rate: VatRate) => (rate === 'exempt' ? 'exempt' : String(rate));
const reference = (id: string) => id.slice(-8).toUpperCase();

// ------------------------------------------------------------------------------------ catalog

/** A product as the desk sells it: its row, its tax's rate and its stock (a subquery). */
type ProductRow = Pick<
  ProductsRow,
  'id' | 'name' | 'price' | 'barcode' | 'trackStock' | 'archivedAt' | 'taxId'
> & { rateBp: TaxesRow['rateBp']; stock: number; categoryId: string | null; categoryName: string | null };

function selectProducts(db: Db, studioId: string) {
  return db('products as p')
    .leftJoin('taxes as t', 't.id', 'p.tax_id')
    .leftJoin('product_categories as pc', 'pc.id', 'p.category_id')
    .where('p.studio_id', studioId)
    .select(
      'p.id',
      'p.name',
      'p.price',
      'p.barcode',
      'p.track_stock',
      'p.archived_at',
      't.id as taxId',
      't.rate_bp',
      'pc.id as categoryId',
      'pc.name as categoryName',
      db.raw(
        '(select coalesce(sum(m.quantity), 0)::int from product_stock_movements m where m.product_id = p.id) as stock',
      ),
    );
}

/** What a contract sold today charges today (sign-up fee, pro-rata part, first period due now). */
function dueToday(contract: Awaited<ReturnType<typeof getContract>>, today: string): number {
  const terms: ContractTerms = {
    price: contract.price,
    period: { unit: contract.periodUnit, length: contract.periodLength },
    durationPeriods: contract.durationPeriods,
    activationType: contract.activationType as ContractActivationType,
    proRata: contract.proRata,
    signUpFee: contract.signUpFee,
    noticePeriods: contract.noticePeriods,
  };
  return buildSchedule(terms, today)
    .instalments.filter((i) => i.dueOn <= today)
    .reduce((sum, i) => sum + i.amount, 0);
}

export async function retailInit(
  db: Db,
  studio: Studio,
  locale: string | null,
  now: Date,
): Promise<RetailInit> {
  const today = localDateOf(now, studio.timeZone);
  const [products, options, contracts, stations, receiptsToPrint] = await readAll(db, [
    async (): Promise<ProductRow[]> =>
      selectProducts(db, studio.id).whereNull('p.archived_at').orderBy('p.name').limit(1000),
    () => listPricingOptions(db, studio, { archived: 'exclude', channel: 'desk' }, now),
    () => listContracts(db, studio, { archived: 'exclude', channel: 'desk' }),
    () => stationSlugs(db, studio.id),
    () => toPrintCount(db, studio.id),
  ]);
  const items: RetailCatalogItem[] = [
    ...products.map((p) => ({
      type: 'product' as const,
      id: p.id,
      name: p.name,
      price: p.price,
      vatRate: vatOf(p.taxId, p.rateBp),
      stock: p.trackStock ? Number(p.stock) : null,
      barcode: p.barcode,
      periodPrice: null,
      needsClient: false,
      category: p.categoryId ? { id: p.categoryId, name: p.categoryName ?? '' } : null,
    })),
    ...options.map((o) => ({
      type: 'pricingOption' as const,
      id: o.id,
      name: resolveLocaleText(o.name, locale, studio.defaultLocale),
      price: o.currentPrice,
      vatRate: vatOf(o.taxId, o.taxRateBp),
      stock: null,
      barcode: null,
      periodPrice: null,
      needsClient: true,
      category: null,
    })),
    ...contracts.items.map((c) => ({
      type: 'contract' as const,
      id: c.id,
      name: resolveLocaleText(c.name, locale, studio.defaultLocale),
      price: dueToday(c, today),
      vatRate: c.taxId ? vatOf(c.taxId, c.taxRateBp) : ('exempt' as const),
      stock: null,
      barcode: null,
      periodPrice: c.price,
      needsClient: true,
      category: null,
    })),
  ];
  return {
    currency: studio.currency,
    items,
    itemStatuses: Object.values(RetailItemStatus),
    paymentMethods: [...RETAIL_PAYMENT_METHODS],
    stations,
    receiptsToPrint,
  };
}

// ------------------------------------------------------------------------------------ quote

interface PricedItem extends RetailQuoteItem {
  index: number;
  /** A pass's name in every language (kept on the order line, issue 25). */
  nameTexts?: LocaleText;
}

interface Quote extends RetailQuote {
  priced: PricedItem[];
  /** Problems that are the catalog's state (stock, archived) rather than bad input. */
  conflicts: boolean;
  today: string;
}

/** Rolls a savepoint back on purpose, carrying what was computed inside it. */
class Preview extends Error {
  constructor(readonly discount: number) {
    super('preview');
  }
}

const VOUCHER_PROBLEMS: Record<string, string> = {
  'resource.notFound': 'voucherUnknown',
  'voucher.archived': 'voucherUnavailable',
  'voucher.notYetValid': 'voucherNotYetValid',
  'voucher.expired': 'voucherExpired',
  'voucher.usedUp': 'voucherUsedUp',
  'voucher.clientRequired': 'voucherClientRequired',
  'voucher.clientLimitReached': 'voucherUsedUp',
  'voucher.notApplicable': 'voucherNotApplicable',
};

function voucherLines(items: PricedItem[]) {
  return items
    .filter((i) => i.status === RetailItemStatus.payNow && i.type !== 'contract')
    .map((i) =>
      i.type === 'product'
        ? { productId: i.id, quantity: i.quantity }
        : { pricingOptionId: i.id, quantity: i.quantity },
    );
}

/** What the voucher takes off: the products module's own redemption, in a savepoint rolled back. */
async function voucherPreview(
  db: Db,
  studio: Studio,
  clientId: string | null,
  code: string,
  items: PricedItem[],
  now: Date,
): Promise<{ discount: number; problem: string | null }> {
  const lines = voucherLines(items);
  if (lines.length === 0) return { discount: 0, problem: 'voucherNotApplicable' };
  const run = async (trx: Trx) => {
    try {
      await trx.transaction(async (sp) => {
        const r = await redeemVoucher(sp, studio, { code, clientId, lines }, null, now);
        throw new Preview(r.discount);
      });
    } catch (err) {
      if (err instanceof Preview) return { discount: err.discount, problem: null };
      if (err instanceof AppError)
        return { discount: 0, problem: VOUCHER_PROBLEMS[err.key] ?? 'voucherUnknown' };
      throw err;
    }
    return { discount: 0, problem: 'voucherNotApplicable' };
  };
  return (db as Trx).isTransaction ? run(db as Trx) : (db as Knex).transaction(run);
}

export async function quoteBasket(
  db: Db,
  studio: Studio,
  input: Basket,
  locale: string | null,
  now: Date,
): Promise<Quote> {
  const today = localDateOf(now, studio.timeZone);
  const problems: Record<string, string[]> = {};
  const add = (path: string, code: string) => {
    const list = (problems[path] ??= []);
    if (!list.includes(code)) list.push(code);
  };
  let conflicts = false;

  let client: RetailQuote['client'] = null;
  if (input.clientId) {
    const row: RetailQuote['client'] | undefined = await db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.studio_id': studio.id, 'm.user_id': input.clientId, 'm.is_client': true })
      .first('u.id', 'u.first_name', 'u.last_name', 'u.email');
    if (!row) throw AppError.notFound('client');
    client = row;
  }

  const priced: PricedItem[] = [];
  const productQuantities = new Map<string, number>();
  for (const item of input.items)
    if (item.type === 'product')
      productQuantities.set(item.id, (productQuantities.get(item.id) ?? 0) + item.quantity);

  for (const [index, item] of input.items.entries()) {
    const at = (field: string) => `items.${index}.${field}`;
    const base = {
      index,
      type: item.type as RetailItemType,
      id: item.id,
      quantity: item.quantity,
      status: item.status as RetailItemStatus,
    };
    if (item.type !== 'product' && item.quantity !== 1) add(at('quantity'), 'onePerSale');
    if (item.status !== RetailItemStatus.payNow && !input.clientId) add('clientId', 'clientRequired');
    if (item.type === 'product') {
      const row: ProductRow | undefined = await selectProducts(db, studio.id).where('p.id', item.id).first();
      if (!row) throw AppError.notFound('product');
      if (row.archivedAt) {
        add(at('id'), 'unavailable');
        conflicts = true;
      } else if (row.trackStock && Number(row.stock) < (productQuantities.get(item.id) ?? 0)) {
        add(at('quantity'), 'outOfStock');
        conflicts = true;
      }
      const vatRate = vatOf(row.taxId, row.rateBp);
      priced.push({
        ...base,
        name: row.name,
        unitPrice: row.price,
        total: row.price * item.quantity,
        vatRate,
      });
    } else if (item.type === 'pricingOption') {
      const option = await getPricingOption(db, studio, item.id, now);
      if (option.archived || !option.sellAtDesk) {
        add(at('id'), 'unavailable');
        conflicts = true;
      }
      if (!input.clientId) add('clientId', 'clientRequired');
      const name = resolveLocaleText(option.name, locale, studio.defaultLocale);
      const vatRate = vatOf(option.taxId, option.taxRateBp);
      priced.push({
        ...base,
        name,
        nameTexts: option.name,
        unitPrice: option.currentPrice,
        total: option.currentPrice,
        vatRate,
      });
    } else {
      const contract = await getContract(db, studio, item.id);
      if (contract.archived || !contract.sellAtDesk) {
        add(at('id'), 'unavailable');
        conflicts = true;
      }
      if (!input.clientId) add('clientId', 'clientRequired');
      if (item.status !== RetailItemStatus.payNow && item.status !== RetailItemStatus.unpaid)
        add(at('status'), 'contractPayNowOrUnpaid');
      const due = dueToday(contract, today);
      const name = resolveLocaleText(contract.name, locale, studio.defaultLocale);
      const vatRate: VatRate = contract.taxId ? vatOf(contract.taxId, contract.taxRateBp) : 'exempt';
      priced.push({ ...base, name, unitPrice: due, total: due, vatRate });
    }
  }

  if (priced.some((i) => i.status === RetailItemStatus.scheduled)) {
    if (!input.scheduledFor) add('scheduledFor', 'required');
    else if (input.scheduledFor < today) add('scheduledFor', 'inPast');
  }

  const groupTotal = (status: number) =>
    priced.filter((i) => i.status === status).reduce((sum, i) => sum + i.total, 0);
  let voucher: RetailQuote['voucher'] = null;
  const code = input.voucherCode?.trim().toUpperCase() || null;
  if (code) {
    const preview = await voucherPreview(db, studio, input.clientId, code, priced, now);
    if (preview.problem) add('voucherCode', preview.problem);
    voucher = { code, discount: preview.discount };
  }
  const payNowSubtotal = groupTotal(RetailItemStatus.payNow);
  const discount = Math.min(voucher?.discount ?? 0, payNowSubtotal);
  const due = payNowSubtotal - discount;

  // Payments: only cash may exceed what is due (the rest is change); a wallet needs a client and money.
  let walletBalance: number | null = null;
  if (input.clientId) walletBalance = await walletBalanceOf(db, studio.id, input.clientId);
  const tendered = input.payments.reduce((sum, p) => sum + p.amount, 0);
  const cash = input.payments
    .filter((p) => p.method === PaymentMethod.cash)
    .reduce((sum, p) => sum + p.amount, 0);
  const wallet = input.payments
    .filter((p) => p.method === PaymentMethod.wallet)
    .reduce((sum, p) => sum + p.amount, 0);
  input.payments.forEach((p, i) => {
    if (p.method === PaymentMethod.wallet && !input.clientId)
      add(`payments.${i}.method`, 'walletNeedsClient');
  });
  if (wallet > 0 && walletBalance !== null && wallet > walletBalance) add('payments', 'walletTooLow');
  if (input.payments.length > 0 && due === 0) add('payments', 'nothingDue');
  const change = Math.max(0, tendered - due);
  if (change > 0 && due > 0 && (tendered - cash > due || cash < change)) add('payments', 'tooMuch');
  const remaining = Math.max(0, due - tendered);

  const onReceipt = priced.filter((i) => i.status === RetailItemStatus.payNow && i.total > 0);
  const receiptLines = onReceipt.map((i) => ({
    name: i.name,
    unitPrice: i.unitPrice,
    quantity: String(i.quantity),
    vatRate: i.vatRate,
  }));
  // The station's fiscal printer refuses a line whose rate has no active slot in its VAT table
  // (POSNET error 2000): say so on the item before the sale, not at the printer after it.
  const slots = await stationVatSlots(db, studio.id, input.stationSlug);
  if (slots) {
    const mapping = mapRatesToSlots(
      slots,
      onReceipt.map((i) => i.vatRate),
    );
    for (const item of onReceipt)
      if (mapping.find((m) => vatRateKey(m.rate) === vatRateKey(item.vatRate))?.slot === null)
        add(`items.${item.index}.id`, 'noVatSlot');
  }
  const receipt =
    due > 0 && receiptLines.length > 0
      ? presentTotals(computeReceiptTotals({ lines: receiptLines, discount }), slots ?? undefined)
      : null;

  return {
    currency: studio.currency,
    client,
    items: priced.map(({ index: _i, nameTexts: _t, ...view }) => view),
    priced,
    groups: {
      payNow: due,
      unpaid: groupTotal(RetailItemStatus.unpaid),
      scheduled: groupTotal(RetailItemStatus.scheduled),
      suspended: groupTotal(RetailItemStatus.suspended),
    },
    voucher,
    receipt,
    due,
    tendered,
    change: Object.keys(problems).includes('payments') ? 0 : change,
    remaining,
    walletBalance,
    problems,
    canCheckout: Object.keys(problems).length === 0 && remaining === 0,
    conflicts,
    today,
  };
}

export const publicQuote = ({ priced: _p, conflicts: _c, today: _t, ...quote }: Quote): RetailQuote => quote;

// ------------------------------------------------------------------------------------ checkout

interface SaleOrder {
  id: string;
  total: number;
  itemStatus: number;
}

async function contractOrders(trx: Trx, clientContractId: string): Promise<SaleOrder[]> {
  const rows: Array<{ id: string; total: number }> = await trx('client_contract_instalments as i')
    .join('client_orders as o', 'o.id', 'i.order_id')
    .where('i.client_contract_id', clientContractId)
    .orderBy('o.id')
    .select('o.id', 'o.total');
  return rows.map((r) => ({ id: r.id, total: r.total, itemStatus: RetailItemStatus.payNow }));
}

const STATUS_NAME: Record<number, string> = {
  [RetailItemStatus.unpaid]: 'unpaid',
  [RetailItemStatus.scheduled]: 'scheduled',
  [RetailItemStatus.suspended]: 'suspended',
};

/**
 * Sells the basket at the desk, in the request's transaction: the pay-now items become one desk
 * order (with the voucher) plus the orders a contract's sale creates, paid by the split payments;
 * unpaid, scheduled and suspended items become one order each in that status (unpaid and scheduled
 * are handed over at once, suspended ones when the order is paid). The pay-now part gets the fiscal
 * receipt it needs. Invalid baskets are refused whole: 400 with every problem, 409 when the catalog
 * refuses (stock, archived).
 */
export async function checkoutBasket(
  trx: Trx,
  studio: Studio,
  input: CheckoutInput,
  staffId: string,
  locale: string | null,
  now: Date,
  log?: Logger,
  /** The sale's id when the caller chose it (a desk's chargeSale@1: the station's id). */
  options: { saleId?: string } = {},
): Promise<RetailCheckoutResult> {
  // Lock order (sales README): the basket's products first, so the quote's stock check is exact.
  await lockProductsForSale(
    trx,
    studio.id,
    input.items.filter((i) => i.type === 'product').map((i) => i.id),
  );
  const quote = await quoteBasket(trx, studio, input, locale, now);
  if (Object.keys(quote.problems).length > 0)
    throw new AppError(quote.conflicts ? 'retail.itemUnavailable' : 'retail.basketInvalid', {
      message: 'the basket cannot be sold as it is',
      fields: quote.problems,
    });
  if (quote.remaining > 0)
    throw new AppError('retail.basketInvalid', {
      message: 'the payments do not cover what is due',
      fields: { payments: ['notCovered'] },
    });

  const saleId = options.saleId ?? uuidv7();
  await trx('retail_sales').insert({
    id: saleId,
    studioId: studio.id,
    clientId: input.clientId,
    createdBy: staffId,
    stationSlug: input.stationSlug ?? null,
    note: input.note,
    scheduledFor: input.scheduledFor ?? null,
    tendered: quote.tendered,
    change: quote.change,
    createdAt: now,
  });

  const orders: SaleOrder[] = [];
  const lineOf = (i: PricedItem) => ({
    kind: i.type === 'product' ? ('product' as const) : ('pass' as const),
    refId: i.id,
    name: i.name,
    nameTexts: i.nameTexts ?? null,
    quantity: i.quantity,
    unitPriceMinor: i.unitPrice,
    vatRate: vatText(i.vatRate),
  });
  const actor = { userId: staffId, via: 'staff' as const };

  // Pay now: the desk order (voucher redeemed for real), then the contracts' own orders.
  const payNow = quote.priced.filter((i) => i.status === RetailItemStatus.payNow);
  const payNowGoods = payNow.filter((i) => i.type !== 'contract');
  if (payNowGoods.length > 0) {
    let discount = 0;
    let redemptionId: string | null = null;
    if (quote.voucher) {
      const redemption = await redeemVoucher(
        trx,
        studio,
        {
          code: quote.voucher.code,
          clientId: input.clientId,
          lines: voucherLines(payNowGoods),
          reference: `sale ${reference(saleId)}`,
        },
        staffId,
        now,
      );
      discount = redemption.discount;
      redemptionId = redemption.id;
    }
    const { id } = await createOrder(trx, {
      studioId: studio.id,
      clientId: input.clientId,
      source: 'desk',
      sourceId: saleId,
      createdBy: staffId,
      note: input.note,
      discountMinor: discount,
      voucherRedemptionId: redemptionId,
      lines: payNowGoods.map(lineOf),
    });
    const row: { total: number } = await trx('client_orders').where({ id }).first('total');
    orders.push({ id, total: row.total, itemStatus: RetailItemStatus.payNow });
  }
  for (const item of payNow.filter((i) => i.type === 'contract')) {
    const sold = await sellContract(trx, studio, actor, input.clientId!, item.id, 'desk', now, input.note);
    orders.push(...(await contractOrders(trx, sold.id)));
  }

  // The other statuses: one order each, in that status.
  for (const status of [RetailItemStatus.unpaid, RetailItemStatus.scheduled, RetailItemStatus.suspended]) {
    const items = quote.priced.filter((i) => i.status === status);
    const goods = items.filter((i) => i.type !== 'contract');
    if (goods.length > 0) {
      const { id } = await createOrder(trx, {
        studioId: studio.id,
        clientId: input.clientId,
        source: 'desk',
        sourceId: `${saleId}:${status}`,
        createdBy: staffId,
        note: input.note,
        status: STATUS_NAME[status],
        lines: goods.map(lineOf),
      });
      const row: { total: number } = await trx('client_orders').where({ id }).first('total');
      orders.push({ id, total: row.total, itemStatus: status });
      // The client takes the goods now and owes for them; a suspended sale is handed over once paid.
      if (status !== RetailItemStatus.suspended) await fulfilOrder(trx, id, null, now, log);
    }
    for (const item of items.filter((i) => i.type === 'contract')) {
      const sold = await sellContract(trx, studio, actor, input.clientId!, item.id, 'desk', now, input.note);
      const created = await contractOrders(trx, sold.id);
      // The contract's due orders wait for money: at the desk they are recorded as unpaid (§3 status 2).
      await trx('client_orders')
        .whereIn(
          'id',
          created.map((o) => o.id),
        )
        .where({ status: OrderStatus.pending })
        .update({ status: OrderStatus.unpaid, updatedAt: now });
      orders.push(...created.map((o) => ({ ...o, itemStatus: status })));
    }
  }

  if (orders.length > 0)
    await trx('retail_sale_orders').insert(
      orders.map((o) => ({ orderId: o.id, saleId, studioId: studio.id, itemStatus: o.itemStatus })),
    );

  // Split payments over the pay-now orders: desk methods first (cash less its change), the wallet last.
  const payNowOrders = orders.filter((o) => o.itemStatus === RetailItemStatus.payNow);
  const left = new Map(payNowOrders.map((o) => [o.id, o.total]));
  let change = quote.change;
  for (const payment of input.payments.filter((p) => p.method !== PaymentMethod.wallet)) {
    let amount = payment.amount;
    if (payment.method === PaymentMethod.cash && change > 0) {
      const back = Math.min(change, amount);
      amount -= back;
      change -= back;
    }
    for (const order of payNowOrders) {
      const due = left.get(order.id)!;
      if (amount === 0) break;
      if (due === 0) continue;
      const part = Math.min(due, amount);
      await recordDeskPayment(
        trx,
        studio,
        order.id,
        { method: payment.method, amount: part },
        staffId,
        now,
        log,
      );
      left.set(order.id, due - part);
      amount -= part;
    }
  }
  const usesWallet = input.payments.some((p) => p.method === PaymentMethod.wallet);
  for (const order of payNowOrders) {
    if ((left.get(order.id) ?? 0) > 0 && usesWallet)
      await payOrderFromWallet(trx, studio, order.id, staffId, now, log);
    else if (order.total === 0) await fulfilOrder(trx, order.id, null, now, log);
  }

  const unfulfilled = (
    (await trx('client_order_lines')
      .whereIn(
        'orderId',
        payNowOrders.map((o) => o.id),
      )
      .whereNull('fulfilledAt')
      .select('id')) as Array<{ id: string }>
  ).map((r) => r.id);

  // The fiscal receipt of what was paid now.
  const paidNow = payNowOrders.filter((o) => o.total > 0);
  const receiptId =
    paidNow.length > 0
      ? await createReceipt(trx, studio, {
          saleId,
          clientId: input.clientId,
          stationSlug: input.stationSlug ?? null,
          orderIds: paidNow.map((o) => o.id),
          payments: fiscalPaymentsOf(
            input.payments.map((p) => ({ method: p.method as PaymentMethod, amount: p.amount })),
          ),
          change: quote.change,
          createdBy: staffId,
          now,
        })
      : null;

  const statuses: Array<{ id: string; status: OrderStatus }> = await trx('client_orders')
    .whereIn(
      'id',
      orders.map((o) => o.id),
    )
    .select('id', 'status');
  return {
    saleId,
    orders: orders.map((o) => ({
      id: o.id,
      reference: reference(o.id),
      status: statuses.find((s) => s.id === o.id)!.status,
      total: o.total,
      itemStatus: o.itemStatus,
    })),
    receipt: receiptId ? await receiptView(trx, studio.id, receiptId) : null,
    change: quote.change,
    unfulfilled,
  };
}
