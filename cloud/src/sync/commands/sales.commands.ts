import type { Knex } from 'knex';
import {
  FiscalDocumentInputSchema,
  StationReportSchema,
} from '../../../../shared/contracts/api/fiscal-printers';
import {
  RecordSaleArgsSchema,
  recordSaleTotal,
  type Outcome,
  type RecordSaleArgs,
} from '../../../../shared/contracts/sync';
import { type OrderStatus, PaymentMethod, RetailItemStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import { getPricingOption } from '../../modules/catalog/index';
import { stationReport } from '../../modules/fiscal-printers/index';
import { createReceipt, fiscalPaymentsOf } from '../../modules/retail/index';
import { fulfilOrder } from '../../modules/sales/index';
import { createOrder } from '../../modules/sales/index';
import { recordDeskPayment } from '../../modules/sales/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';

/**
 * recordSale@1 — a fact: the desk sold, took the money and maybe printed the fiscal receipt. Never
 * rejected; recorded through the sales and retail modules' own services (createOrder,
 * recordDeskPayment → fulfilment, createReceipt, the fiscal printers' station report) so a sale made
 * offline is the same rows as one made at the back-office POS. Dedupes on the sale id and on the
 * station + fiscal receipt number; amounts are kept as charged; what moved on meanwhile is flagged.
 */

const vatText = (rate: number | 'exempt') => (rate === 'exempt' ? 'exempt' : String(rate));

interface KnownSale {
  saleId: string;
  studioId: string;
  receiptId: string | null;
}

async function knownSale(trx: Knex, saleId: string): Promise<KnownSale | undefined> {
  return (await trx('retail_sales as s')
    .leftJoin('sync_sales as x', 'x.sale_id', 's.id')
    .where('s.id', saleId)
    .first('s.id as saleId', 's.studio_id as studioId', 'x.receipt_id as receiptId')) as
    KnownSale | undefined;
}

/** What the catalog says now about each line, as flags (the sale stands as it was made). */
async function catalogFlags(
  trx: Knex.Transaction,
  ctx: CommandContext<RecordSaleArgs>,
): Promise<Array<{ kind: string; index: number; details: Record<string, unknown> }>> {
  const { studio, args } = ctx;
  const found: Array<{ kind: string; index: number; details: Record<string, unknown> }> = [];
  for (const [index, line] of args.lines.entries()) {
    if (line.type === 'product') {
      const product: { price: number; archivedAt: Date | null } | undefined = await trx('products')
        .where({ studioId: studio.id, id: line.id })
        .first('price', 'archivedAt');
      if (!product) throw AppError.notFound('product');
      if (product.archivedAt) found.push({ kind: 'archivedProduct', index, details: { productId: line.id } });
      if (product.price !== line.unitPrice)
        found.push({
          kind: 'priceChanged',
          index,
          details: { productId: line.id, charged: line.unitPrice, current: product.price },
        });
    } else {
      const option = await getPricingOption(trx, studio, line.id, ctx.occurredAt);
      if (option.archived || !option.sellAtDesk)
        found.push({ kind: 'archivedProduct', index, details: { pricingOptionId: line.id } });
      if (option.currentPrice !== line.unitPrice)
        found.push({
          kind: 'priceChanged',
          index,
          details: { pricingOptionId: line.id, charged: line.unitPrice, current: option.currentPrice },
        });
    }
  }
  return found;
}

/** The receipt the cloud made takes the id the station printed it under (nothing else refers to it yet). */
async function adoptReceiptId(trx: Knex.Transaction, studioId: string, drawn: string, wanted: string) {
  if (drawn === wanted) return;
  const orders: Array<{ orderId: string }> = await trx('retail_receipt_orders')
    .where({ receiptId: drawn })
    .select('orderId');
  await trx('retail_receipt_orders').where({ receiptId: drawn }).delete();
  await trx('retail_receipts').where({ id: drawn }).update({ id: wanted });
  await trx('retail_receipt_orders').insert(
    orders.map((o) => ({ orderId: o.orderId, receiptId: wanted, studioId })),
  );
}

async function recordSaleCommand(ctx: CommandContext<RecordSaleArgs>): Promise<Outcome> {
  const { trx, studio, args, device } = ctx;
  const flags = [...ctx.clockFlags];
  if (!ctx.actorAllowed) flags.push('actorNotAllowed');

  // The same sale again (a replay under another mutation id, a second push of a restored outbox).
  const same = await knownSale(trx, args.saleId);
  if (same) {
    if (same.studioId !== studio.id)
      throw new AppError('resource.conflict', { message: 'this sale id belongs to someone else' });
    return { status: 'applied', data: { saleId: args.saleId, receiptId: same.receiptId, existed: true } };
  }
  // The same printed receipt of this station under another sale id: one sale, flagged for the desk.
  const printedNumber =
    args.receipt?.outcome.status === 'printed' ? args.receipt.outcome.receiptNumber : null;
  if (printedNumber !== null) {
    const dup: { saleId: string } | undefined = await trx('sync_sales')
      .where({ deviceId: device.id, fiscalReceiptNumber: printedNumber })
      .first('saleId');
    if (dup) {
      await ctx.flag(
        'duplicateReceipt',
        { table: 'retail_sales', id: dup.saleId },
        {
          saleId: args.saleId,
          receiptNumber: printedNumber,
        },
      );
      return {
        status: 'flagged',
        flags: [...flags, 'duplicateReceipt'],
        data: { saleId: dup.saleId, duplicateOf: dup.saleId },
      };
    }
  }
  if (args.clientId) {
    const client = await trx('memberships')
      .where({ studioId: studio.id, userId: args.clientId, isClient: true })
      .first('id');
    if (!client) throw AppError.notFound('client');
  }

  const noticed = await catalogFlags(trx, ctx);
  const staffId = ctx.actorId ?? device.registeredBy;
  const at = ctx.occurredAt;
  const slug = args.receipt?.stationSlug ?? args.stationSlug ?? null;
  const tendered = args.payments.reduce((sum, p) => sum + p.amount, 0);
  await trx('retail_sales').insert({
    id: args.saleId,
    studioId: studio.id,
    clientId: args.clientId,
    createdBy: staffId,
    stationSlug: slug,
    note: args.note,
    scheduledFor: null,
    tendered,
    change: args.change,
    createdAt: at,
  });

  // Amounts as charged: the order's lines are the sale's lines, whatever the catalog says now.
  const { id: orderId } = await createOrder(trx, {
    studioId: studio.id,
    clientId: args.clientId,
    source: 'desk',
    sourceId: args.saleId,
    createdBy: staffId,
    note: args.note,
    discountMinor: args.discount,
    lines: args.lines.map((l) => ({
      kind: l.type === 'product' ? ('product' as const) : ('pass' as const),
      refId: l.id,
      name: l.name,
      quantity: l.quantity,
      unitPriceMinor: l.unitPrice,
      vatRate: vatText(l.vatRate),
    })),
  });
  await trx('retail_sale_orders').insert({
    orderId,
    saleId: args.saleId,
    studioId: studio.id,
    itemStatus: RetailItemStatus.payNow,
  });

  // The payments in the order given, cash less the change; paying in full hands the goods over
  // (passes made at the sale's time, stock taken — below zero if need be: the goods are gone).
  const total = recordSaleTotal(args);
  let change = args.change;
  let left = total;
  for (const payment of args.payments) {
    let amount = payment.amount;
    if (payment.method === PaymentMethod.cash && change > 0) {
      const back = Math.min(change, amount);
      amount -= back;
      change -= back;
    }
    const part = Math.min(left, amount);
    if (part <= 0) continue;
    await recordDeskPayment(trx, studio, orderId, { method: payment.method, amount: part }, staffId!, at);
    left -= part;
  }
  if (total === 0) await fulfilOrder(trx, orderId, null, at);

  for (const line of args.lines) {
    if (line.type !== 'product') continue;
    const stock: { stock: number } | undefined = await trx('products as p')
      .where({ 'p.id': line.id, 'p.trackStock': true })
      .first(
        trx.raw(
          '(select coalesce(sum(m.quantity), 0)::int from product_stock_movements m where m.product_id = p.id) as stock',
        ),
      );
    if (
      stock &&
      Number(stock.stock) < 0 &&
      !noticed.some((n) => n.kind === 'negativeStock' && n.details.productId === line.id)
    )
      noticed.push({
        kind: 'negativeStock',
        index: -1,
        details: { productId: line.id, stock: Number(stock.stock) },
      });
  }

  // The receipt of the sale, under the id the station printed it with, and the printer's outcome.
  let receiptId: string | null = null;
  if (total > 0) {
    receiptId = await createReceipt(trx, studio, {
      saleId: args.saleId,
      clientId: args.clientId,
      stationSlug: slug,
      orderIds: [orderId],
      payments: fiscalPaymentsOf(
        args.payments.map((p) => ({ method: p.method as PaymentMethod, amount: p.amount })),
      ),
      change: args.change,
      createdBy: staffId,
      now: at,
      buyerNip: args.buyerNip,
    });
    if (args.receipt) {
      await adoptReceiptId(trx, studio.id, receiptId, args.receipt.receiptId);
      receiptId = args.receipt.receiptId;
    }
  }
  if (receiptId && args.receipt) {
    const problem = await recordPrinterOutcome(trx, ctx, receiptId);
    if (problem) noticed.push({ kind: problem, index: -1, details: { receiptId } });
  }

  for (const n of noticed) {
    if (!flags.includes(n.kind)) flags.push(n.kind);
    await ctx.flag(n.kind, { table: 'retail_sales', id: args.saleId }, { ...n.details, line: n.index });
  }
  await trx('sync_sales').insert({
    saleId: args.saleId,
    studioId: studio.id,
    deviceId: device.id,
    mutationId: ctx.mutation.id,
    receiptId,
    stationSlug: slug,
    fiscalReceiptNumber: printedNumber,
    shiftId: args.shiftId ?? null,
    flags: JSON.stringify(flags),
    soldAt: at,
  });
  const order: { status: OrderStatus } = await trx('client_orders').where({ id: orderId }).first('status');
  return {
    status: flags.length > 0 ? 'flagged' : 'applied',
    ...(flags.length > 0 ? { flags } : {}),
    data: { saleId: args.saleId, orderId, orderStatus: order.status, receiptId },
  };
}

/**
 * The printer's outcome as the station's fiscal document for the receipt, when the studio has that
 * station's printer set up (the receipt then shows as printed in the batch list). Anything the
 * fiscal module refuses (e.g. the printed total differs from the receipt's lines) leaves the sale
 * standing and is flagged; nothing of a printed receipt is rewritten.
 */
async function recordPrinterOutcome(
  trx: Knex.Transaction,
  ctx: CommandContext<RecordSaleArgs>,
  receiptId: string,
): Promise<string | null> {
  const receipt = ctx.args.receipt!;
  const printer = await trx('studio_fiscal_printers')
    .where({ studioId: ctx.studio.id })
    .whereRaw('lower(station_slug) = lower(?)', [receipt.stationSlug])
    .first('id');
  if (!printer) return null;
  const row: { lines: unknown; discount: number; payments: unknown } = await trx('retail_receipts')
    .where({ id: receiptId })
    .first('lines', 'discount', 'payments');
  try {
    const document = FiscalDocumentInputSchema.parse({
      saleId: receiptId,
      lines: row.lines,
      discount: row.discount,
      payments: row.payments,
      outcome: receipt.outcome,
      ...(receipt.printedAt ? { printedAt: receipt.printedAt } : {}),
    });
    const report = StationReportSchema.parse({ documents: [document] });
    await trx.transaction((sp) => stationReport(sp, ctx.studio, receipt.stationSlug, report, ctx.receivedAt));
    return null;
  } catch (err) {
    if (err instanceof AppError || (err instanceof Error && err.name === 'ZodError'))
      return 'receiptNotRecorded';
    throw err;
  }
}

registerCommand({
  name: 'recordSale',
  version: 1,
  kind: 'fact',
  ability: 'sales.sell',
  args: RecordSaleArgsSchema,
  references: (a) => [
    { kind: 'sale', id: a.saleId, field: 'saleId' },
    { kind: 'client', id: a.clientId, field: 'clientId' },
    { kind: 'shift', id: a.shiftId, field: 'shiftId' },
    { kind: 'receipt', id: a.receipt?.receiptId, field: 'receipt.receiptId' },
    ...a.lines.map((line, i) => ({ kind: line.type, id: line.id, field: `lines.${i}.id` })),
  ],
  handle: recordSaleCommand,
});
