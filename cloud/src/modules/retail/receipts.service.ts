import { v7 as uuidv7 } from 'uuid';
import type {
  FiscalPaymentType,
  ReceiptBatchInit,
  ReceiptCollection,
  ReceiptCollectionQuery,
  ReceiptPrintJob,
  ReceiptPrintResult,
  ReceiptView,
} from '../../../../shared/contracts/api/retail';
import { parseVatRate } from '../../../../shared/domain/orders';
import {
  computeReceiptTotals,
  formatQuantity,
  type ReceiptLineInput,
  type VatSlotRate,
} from '../../../../shared/domain/receipts';
import { PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentReceipt, receiptStatusOf, type ReceiptRow } from './retail.presenter';
import { readAll } from '../../db/read-all';
import { invoicedReceipts } from '../invoices/index';

type Trx = Knex.Transaction;

/** How each payment method is told to a fiscal printer (its `trpayment` types). */
const FISCAL_TYPE: Record<number, FiscalPaymentType> = {
  [PaymentMethod.cash]: 'cash',
  [PaymentMethod.terminal]: 'card',
  [PaymentMethod.paymentCard]: 'card',
  [PaymentMethod.bankTransfer]: 'transfer',
  [PaymentMethod.online]: 'transfer',
  [PaymentMethod.test]: 'transfer',
  [PaymentMethod.gift]: 'voucher',
  [PaymentMethod.wallet]: 'other',
  [PaymentMethod.other]: 'other',
  [PaymentMethod.none]: 'other',
};

/** Payments summed per fiscal type, in the order first given. Cash is what was handed over (change apart). */
export function fiscalPaymentsOf(
  payments: Array<{ method: PaymentMethod; amount: number }>,
): Array<{ type: FiscalPaymentType; amount: number }> {
  const out: Array<{ type: FiscalPaymentType; amount: number }> = [];
  for (const p of payments) {
    const type = FISCAL_TYPE[p.method] ?? 'other';
    const same = out.find((o) => o.type === type);
    if (same) same.amount += p.amount;
    else out.push({ type, amount: p.amount });
  }
  return out;
}

/**
 * The VAT table of the fiscal printer at a station (what the station last reported reading from the
 * printer, else what the studio configured), or null when the station has no fiscal printer.
 */
export async function stationVatSlots(
  db: Db,
  studioId: string,
  stationSlug: string | null | undefined,
): Promise<VatSlotRate[] | null> {
  if (!stationSlug) return null;
  const row: { vatSlots: VatSlotRate[]; lastStatus: { vatSlots?: VatSlotRate[] | null } | null } | undefined =
    await db('studio_fiscal_printers')
      .where({ studioId })
      .whereRaw('lower(station_slug) = lower(?)', [stationSlug])
      .first('vatSlots', 'lastStatus');
  if (!row) return null;
  return row.lastStatus?.vatSlots ?? row.vatSlots;
}

/** Every station's printer VAT table in the studio, by lower-cased slug (receipt lists). */
export async function stationsVatSlots(db: Db, studioId: string): Promise<Map<string, VatSlotRate[]>> {
  const rows: Array<{
    stationSlug: string;
    vatSlots: VatSlotRate[];
    lastStatus: { vatSlots?: VatSlotRate[] | null } | null;
  }> = await db('studio_fiscal_printers').where({ studioId }).select('stationSlug', 'vatSlots', 'lastStatus');
  return new Map(rows.map((r) => [r.stationSlug.toLowerCase(), r.lastStatus?.vatSlots ?? r.vatSlots]));
}

export async function stationSlugs(db: Db, studioId: string): Promise<string[]> {
  const rows: Array<{ stationSlug: string }> = await db('studio_fiscal_printers')
    .where({ studioId })
    .orderBy('stationSlug')
    .select('stationSlug');
  return rows.map((r) => r.stationSlug);
}

function selectReceipts(db: Db, studioId: string) {
  return db('retail_receipts as r')
    .leftJoin('fiscal_documents as fd', function () {
      this.on('fd.studio_id', '=', 'r.studio_id').andOn('fd.sale_id', '=', 'r.id');
    })
    .leftJoin('users as u', 'u.id', 'r.client_id')
    .where('r.studio_id', studioId)
    .select(
      'r.*',
      'fd.status as document_status',
      'fd.receipt_number as document_receipt_number',
      'u.first_name as client_first_name',
      'u.last_name as client_last_name',
    );
}

/**
 * Still to print: no outcome yet, or the printer refused it (nothing fiscal was printed), and none
 * of its orders was invoiced since (an invoiced order's receipt is never printed).
 */
const whereToPrint = (q: Knex.QueryBuilder) =>
  q
    .where((w) => w.whereNull('fd.id').orWhere('fd.status', 'notPrinted'))
    .whereNotExists((s) =>
      s
        .select(s.client.raw('1'))
        .from('retail_receipt_orders as ro')
        .join('invoices as i', 'i.order_id', 'ro.order_id')
        .whereRaw('ro.receipt_id = r.id')
        .where('i.status', 'issued'),
    );

export async function toPrintCount(db: Db, studioId: string): Promise<number> {
  const [row]: Array<{ n: number | string }> = await whereToPrint(
    db('retail_receipts as r')
      .leftJoin('fiscal_documents as fd', function () {
        this.on('fd.studio_id', '=', 'r.studio_id').andOn('fd.sale_id', '=', 'r.id');
      })
      .where('r.studio_id', studioId),
  ).count({ n: '*' });
  return Number(row?.n ?? 0);
}

async function orderIdsOf(db: Db, receiptIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (receiptIds.length === 0) return map;
  const rows: Array<{ receiptId: string; orderId: string }> = await db('retail_receipt_orders')
    .whereIn('receiptId', receiptIds)
    .orderBy('orderId')
    .select('receiptId', 'orderId');
  for (const r of rows) map.set(r.receiptId, [...(map.get(r.receiptId) ?? []), r.orderId]);
  return map;
}

export async function receiptView(db: Db, studioId: string, id: string): Promise<ReceiptView> {
  const row: ReceiptRow | undefined = await selectReceipts(db, studioId).where('r.id', id).first();
  if (!row) throw AppError.notFound('receipt');
  const orderIds = (await orderIdsOf(db, [id])).get(id) ?? [];
  return presentReceipt(row, orderIds, (await stationVatSlots(db, studioId, row.stationSlug)) ?? undefined);
}

/**
 * Records the fiscal receipt that paid orders need: their lines as receipt lines, their discount as
 * the receipt-level discount, totals by the shared receipt-totals function (what the printer
 * computes). The stored total must equal what the orders cost: a difference is a bug, never printed.
 */
export async function createReceipt(
  trx: Trx,
  studio: Studio,
  input: {
    saleId: string | null;
    clientId: string | null;
    stationSlug: string | null;
    orderIds: string[];
    payments: Array<{ type: FiscalPaymentType; amount: number }>;
    change: number;
    createdBy: string | null;
    now: Date;
    /** The buyer's NIP printed on the receipt (the desk's recordSale), ten digits. */
    buyerNip?: string | null;
  },
): Promise<string> {
  const orders: Array<{ id: string; discount: number; total: number }> = await trx('client_orders')
    .whereIn('id', input.orderIds)
    .where({ studioId: studio.id })
    .select('id', 'discount', 'total');
  const lines: Array<{ name: string; quantity: number; unitPrice: number; vatRate: string; total: number }> =
    await trx('client_order_lines')
      .whereIn('orderId', input.orderIds)
      .orderBy([{ column: 'orderId' }, { column: 'position' }])
      .select('name', 'quantity', 'unitPrice', 'vatRate', 'total');
  const receiptLines: ReceiptLineInput[] = lines
    .filter((l) => l.total > 0)
    .map((l) => ({
      name: l.name.replace(/[\t\r\n]+/g, ' ').slice(0, 80),
      unitPrice: l.unitPrice,
      quantity: formatQuantity(l.quantity * 1000),
      vatRate: parseVatRate(l.vatRate) ?? 'exempt',
    }));
  const discount = orders.reduce((sum, o) => sum + o.discount, 0);
  const totals = computeReceiptTotals({ lines: receiptLines, discount });
  const expected = orders.reduce((sum, o) => sum + o.total, 0);
  if (totals.total !== expected)
    throw new Error(`receipt total ${totals.total} differs from the orders' ${expected}`);
  const id = uuidv7();
  await trx('retail_receipts').insert({
    id,
    studioId: studio.id,
    saleId: input.saleId,
    clientId: input.clientId,
    stationSlug: input.stationSlug,
    lines: JSON.stringify(receiptLines),
    discount,
    payments: JSON.stringify(input.payments),
    change: input.change,
    totals: JSON.stringify(totals),
    subtotal: totals.subtotal,
    total: totals.total,
    vat: totals.vat,
    currency: studio.currency,
    buyerNip: input.buyerNip ?? null,
    createdBy: input.createdBy,
    createdAt: input.now,
    updatedAt: input.now,
  });
  await trx('retail_receipt_orders').insert(
    orders.map((o) => ({ orderId: o.id, receiptId: id, studioId: studio.id })),
  );
  return id;
}

function jobOf(row: ReceiptRow, stationSlug: string | null): ReceiptPrintJob {
  return {
    saleId: row.id,
    stationSlug,
    lines: row.lines as ReceiptPrintJob['lines'],
    discount: row.discount,
    payments: row.payments,
    change: row.change,
    total: row.total,
  };
}

/**
 * Records a print request for each receipt and returns what the station prints (the desktop prints;
 * it reports the outcome as a fiscal document with the receipt's id as `saleId`). A receipt printed
 * already is refused (409): a receipt printed twice is a legal problem.
 */
async function requestPrints(
  trx: Trx,
  studio: Studio,
  ids: string[],
  stationSlug: string | null | undefined,
  now: Date,
  fieldOf: (index: number) => string,
): Promise<ReceiptPrintResult> {
  const unique = [...new Set(ids)];
  const locked: Array<{ id: string }> = await trx('retail_receipts')
    .where({ studioId: studio.id })
    .whereIn('id', unique)
    .forUpdate()
    .select('id');
  if (locked.length !== unique.length) throw AppError.notFound('receipt');
  const rows: ReceiptRow[] = await selectReceipts(trx, studio.id).whereIn('r.id', unique);
  const printed: Record<string, string[]> = {};
  ids.forEach((id, i) => {
    const row = rows.find((r) => r.id === id)!;
    if (receiptStatusOf(row) === 'printed') printed[fieldOf(i)] = ['alreadyPrinted'];
  });
  // An invoiced order's sale is registered by its invoice: its receipt is never printed (art. 106h).
  const invoiced = await invoicedReceipts(trx, studio.id, unique);
  const refused: Record<string, string[]> = {};
  ids.forEach((id, i) => {
    if (invoiced.has(id)) refused[fieldOf(i)] = ['orderInvoiced'];
  });
  if (Object.keys(refused).length > 0 && Object.keys(printed).length === 0)
    throw new AppError('receipt.orderInvoiced', {
      message: 'an invoice was issued for the order: its receipt is not printed',
      fields: refused,
    });
  if (Object.keys(printed).length > 0)
    throw new AppError('receipt.alreadyPrinted', {
      message: 'a receipt was printed already',
      fields: printed,
    });
  const batchId = uuidv7();
  const jobs: ReceiptPrintJob[] = [];
  for (const id of unique) {
    const row = rows.find((r) => r.id === id)!;
    const station = stationSlug ?? row.stationSlug;
    await trx('retail_receipts')
      .where({ id })
      .update({
        printRequests: row.printRequests + 1,
        lastPrintRequestedAt: now,
        lastBatchId: batchId,
        stationSlug: station,
        updatedAt: now,
      });
    jobs.push(jobOf(row, station));
  }
  return { batchId, jobs };
}

/**
 * `client-order/{id}/print-receipt`: the receipt of a paid order, printed (again) at the desk. An
 * order paid elsewhere (online, a later desk payment) gets its receipt now, from its own lines and
 * payments; an order with nothing paid has none (409).
 */
export async function printOrderReceipt(
  trx: Trx,
  studio: Studio,
  orderId: string,
  stationSlug: string | null | undefined,
  staffId: string,
  now: Date,
): Promise<ReceiptPrintResult> {
  const order: { id: string; clientId: string | null; total: number } | undefined = await trx('client_orders')
    .where({ studioId: studio.id, id: orderId })
    .forUpdate()
    .first('id', 'clientId', 'total');
  if (!order) throw AppError.notFound('order');
  const linked: { receiptId: string } | undefined = await trx('retail_receipt_orders')
    .where({ orderId })
    .first('receiptId');
  let receiptId = linked?.receiptId;
  if (!receiptId) {
    const payments: Array<{ method: PaymentMethod; amount: number }> = await trx('client_order_payments')
      .where({ orderId, status: 'succeeded' })
      .orderBy('id')
      .select('method', 'amount');
    const paid = payments.reduce((sum, p) => sum + p.amount, 0);
    if (order.total === 0 || paid < order.total)
      throw new AppError('receipt.orderNotPaid', {
        message: 'the order is not paid: there is no receipt to print',
      });
    receiptId = await createReceipt(trx, studio, {
      saleId: null,
      clientId: order.clientId,
      stationSlug: stationSlug ?? null,
      orderIds: [orderId],
      payments: fiscalPaymentsOf(payments),
      change: 0,
      createdBy: staffId,
      now,
    });
  }
  return requestPrints(trx, studio, [receiptId], stationSlug, now, () => 'clientOrder');
}

export async function printReceipts(
  trx: Trx,
  studio: Studio,
  ids: string[],
  stationSlug: string | null | undefined,
  now: Date,
): Promise<ReceiptPrintResult> {
  return requestPrints(trx, studio, ids, stationSlug, now, (i) => `receiptIds.${i}`);
}

export async function listReceipts(
  db: Db,
  studio: Studio,
  query: ReceiptCollectionQuery,
): Promise<ReceiptCollection> {
  const q = selectReceipts(db, studio.id)
    .orderBy('r.id', 'desc')
    .limit(query.limit + 1);
  if (query.status === 'toPrint') whereToPrint(q);
  if (query.status === 'needsAttention') q.where('fd.status', 'needsAttention');
  if (query.stationSlug) q.whereRaw('lower(r.station_slug) = lower(?)', [query.stationSlug]);
  // Days are the studio's calendar days.
  if (query.from) q.whereRaw(`(r.created_at at time zone ?)::date >= ?`, [studio.timeZone, query.from]);
  if (query.to) q.whereRaw(`(r.created_at at time zone ?)::date <= ?`, [studio.timeZone, query.to]);
  if (query.cursor) q.where('r.id', '<', query.cursor);
  const rows: ReceiptRow[] = await q;
  const page = rows.slice(0, query.limit);
  const orders = await orderIdsOf(
    db,
    page.map((r) => r.id),
  );
  // Slot letters as the printer of each receipt's station holds the rates.
  const slots = await stationsVatSlots(db, studio.id);
  return {
    items: page.map((r) =>
      presentReceipt(r, orders.get(r.id) ?? [], slots.get(r.stationSlug?.toLowerCase() ?? '')),
    ),
    next: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}

export async function batchInit(db: Db, studio: Studio): Promise<ReceiptBatchInit> {
  const [toPrint, attention, oldest, stations] = await readAll(db, [
    () => toPrintCount(db, studio.id),
    () =>
      db('retail_receipts as r')
        .join('fiscal_documents as fd', function () {
          this.on('fd.studio_id', '=', 'r.studio_id').andOn('fd.sale_id', '=', 'r.id');
        })
        .where({ 'r.studio_id': studio.id, 'fd.status': 'needsAttention' })
        .count({ n: '*' }) as Promise<Array<{ n: number | string }>>,
    () =>
      whereToPrint(
        db('retail_receipts as r')
          .leftJoin('fiscal_documents as fd', function () {
            this.on('fd.studio_id', '=', 'r.studio_id').andOn('fd.sale_id', '=', 'r.id');
          })
          .where('r.studio_id', studio.id),
      )
        .orderBy('r.id')
        .first('r.created_at') as Promise<{ createdAt: Date } | undefined>,
    () => stationSlugs(db, studio.id),
  ]);
  return {
    currency: studio.currency,
    counts: { toPrint, needsAttention: Number(attention[0]?.n ?? 0) },
    oldestToPrint: oldest ? new Date(oldest.createdAt).toISOString() : null,
    stations,
  };
}
