import type { Knex } from 'knex';
import { RetailCheckoutSchema } from '../../../../shared/contracts/api/retail';
import {
  ChargeSaleArgsSchema,
  type ChargeSaleArgs,
  type ChargeSaleOutcomeData,
  type Outcome,
} from '../../../../shared/contracts/sync';
import { RetailItemStatus } from '../../../../shared/enums';
import { AppError, zodIssuesToFields } from '../../../../shared/errors';
import { checkoutBasket } from '../../modules/retail/index';
import type { CommandContext } from './registry';
import { registerCommand } from './registry';

/**
 * chargeSale@1 — an intent: a desk sale paid (in part) with what only the cloud holds — the client's
 * wallet, a voucher — or selling a contract. The station recorded it locally and waits for this
 * outcome before printing. It runs the retail module's own checkout (`checkoutBasket`) under the
 * station's sale id, so it is the same rows as a back-office POS sale: the wallet paid under the
 * client's row lock (never below zero), the voucher redeemed in the same transaction (used once),
 * contracts sold through the contracts module, the receipt made. Refusals (wallet too low, voucher
 * used up, an item no longer sold, the due amount not what the desk showed) roll the savepoint back
 * and answer `rejected`: nothing was printed. A replay (same mutation id: the push's stored outcome;
 * same sale id under another mutation: the sale as recorded) charges nothing again.
 */

interface ReceiptRow {
  id: string;
  lines: NonNullable<ChargeSaleOutcomeData['receipt']>['lines'];
  discount: number;
  payments: Array<{ type: string; amount: number }>;
  change: number;
  total: number;
  buyerNip: string | null;
}

/** The sale as the cloud holds it: its orders and the receipt the station prints. */
async function saleData(trx: Knex, saleId: string): Promise<ChargeSaleOutcomeData> {
  const orders: Array<{ id: string }> = await trx('retail_sale_orders as so')
    .join('client_orders as o', 'o.id', 'so.order_id')
    .where('so.sale_id', saleId)
    .orderBy('o.created_at')
    .orderBy('o.id')
    .select('o.id');
  const sale: { change: number } = await trx('retail_sales').where({ id: saleId }).first('change');
  const receipt: ReceiptRow | undefined = await trx('retail_receipts as r')
    .join('retail_receipt_orders as ro', 'ro.receipt_id', 'r.id')
    .whereIn(
      'ro.order_id',
      orders.map((o) => o.id),
    )
    .first('r.id', 'r.lines', 'r.discount', 'r.payments', 'r.change', 'r.total', 'r.buyer_nip');
  return {
    saleId,
    orderIds: orders.map((o) => o.id),
    change: Number(sale.change),
    receipt: receipt
      ? {
          id: receipt.id,
          lines: receipt.lines,
          discount: Number(receipt.discount),
          payments: receipt.payments,
          change: Number(receipt.change),
          total: Number(receipt.total),
          buyerNip: receipt.buyerNip,
        }
      : null,
  };
}

async function chargeSaleCommand(ctx: CommandContext<ChargeSaleArgs>): Promise<Outcome> {
  const { trx, studio, args, device } = ctx;
  if (!ctx.actorAllowed)
    throw new AppError('auth.forbidden', { message: 'the person at the desk may not sell' });

  // The same sale under another mutation id (a restored outbox): what was recorded, nothing new.
  const same: { studioId: string } | undefined = await trx('retail_sales')
    .where({ id: args.saleId })
    .first('studioId');
  if (same) {
    if (same.studioId !== studio.id)
      throw new AppError('resource.conflict', { message: 'this sale id belongs to someone else' });
    return { status: 'applied', data: { ...(await saleData(trx, args.saleId)), existed: true } };
  }

  const parsed = RetailCheckoutSchema.safeParse({
    clientId: args.clientId,
    items: args.items.map((i) => ({ ...i, status: RetailItemStatus.payNow })),
    voucherCode: args.voucherCode,
    payments: args.payments,
    stationSlug: args.stationSlug ?? null,
    note: args.note,
  });
  if (!parsed.success) throw AppError.invalid(zodIssuesToFields(parsed.error.issues));
  const staffId = ctx.actorId ?? device.registeredBy!;
  const result = await checkoutBasket(trx, studio, parsed.data, staffId, null, ctx.occurredAt, undefined, {
    saleId: args.saleId,
  });
  // The desk showed the client a total and took the money for it: a cloud that prices otherwise
  // (a price changed, a voucher worth less) refuses rather than charge a different amount.
  const due = result.orders
    .filter((o) => o.itemStatus === RetailItemStatus.payNow)
    .reduce((sum, o) => sum + o.total, 0);
  if (due !== args.total || result.change !== args.change)
    throw new AppError('pos.totalChanged', {
      message: 'the cloud prices this sale differently',
      fields: { total: [`due ${due}`] },
    });

  // A NIP receipt ("paragon z NIP-em"): the receipt the cloud made carries the buyer's NIP.
  if (args.buyerNip && result.receipt)
    await trx('retail_receipts')
      .where({ studioId: studio.id, id: result.receipt.id })
      .update({ buyerNip: args.buyerNip });
  const data = await saleData(trx, args.saleId);
  await trx('sync_sales').insert({
    saleId: args.saleId,
    studioId: studio.id,
    deviceId: device.id,
    mutationId: ctx.mutation.id,
    receiptId: data.receipt?.id ?? null,
    stationSlug: args.stationSlug ?? null,
    fiscalReceiptNumber: null,
    shiftId: args.shiftId ?? null,
    flags: JSON.stringify(ctx.clockFlags),
    soldAt: ctx.occurredAt,
  });
  return {
    status: 'applied',
    ...(ctx.clockFlags.length > 0 ? { flags: ctx.clockFlags } : {}),
    data: { ...data },
  };
}

registerCommand({
  name: 'chargeSale',
  version: 1,
  kind: 'intent',
  ability: 'sales.sell',
  args: ChargeSaleArgsSchema,
  references: (a) => [
    { kind: 'sale', id: a.saleId, field: 'saleId' },
    { kind: 'client', id: a.clientId, field: 'clientId' },
    { kind: 'shift', id: a.shiftId, field: 'shiftId' },
    ...a.items.map((item, i) => ({ kind: item.type, id: item.id, field: `items.${i}.id` })),
  ],
  handle: chargeSaleCommand,
});
