import { v7 as uuidv7 } from 'uuid';
import type { OrderLineKind } from '../../../../shared/domain/orders';
import { AppError } from '../../../../shared/errors';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { sellPass } from '../catalog/index';
import { findStudio, type Studio } from '../identity/index';
import { enqueueDonationReceipt } from './donations.receipts';
import { markVisitsPaid, payVisitWithBoughtPass } from './visit-hooks';

export interface FulfilledLine {
  id: string;
  orderId: string;
  kind: OrderLineKind;
  refId: string | null;
  name: string;
  quantity: number;
  unitPrice: number;
  total: number;
  /** A pass bought to pay this visit (from "My visits"). */
  forVisitId: string | null;
}

export interface FulfilmentContext {
  trx: Knex.Transaction;
  studio: Studio;
  order: { id: string; clientId: string | null; createdBy: string | null; currency: string; source: string };
  /** The payment that settled the order, when one did (a wallet top-up is credited against it). */
  paymentId: string | null;
  now: Date;
}

/** Gives what a paid line sells; returns the id of what it created (a pass, a wallet entry), if any. */
export type LineFulfiller = (ctx: FulfilmentContext, line: FulfilledLine) => Promise<string | null>;

/**
 * What each line kind does once its order is paid. Sales fulfils passes, products and wallet
 * top-ups itself; other modules register theirs (contracts: `contract_instalment`) with
 * `registerLineFulfiller`. A kind with no fulfiller is only recorded as fulfilled.
 */
const fulfillers = new Map<OrderLineKind, LineFulfiller>();

export function registerLineFulfiller(kind: OrderLineKind, fulfiller: LineFulfiller): void {
  fulfillers.set(kind, fulfiller);
}

registerLineFulfiller('pass', async ({ trx, studio, order, now }, line) => {
  if (!order.clientId || !line.refId) return null;
  let first: string | null = null;
  for (let i = 0; i < line.quantity; i++) {
    // Through the catalog, which copies the option's terms onto the pass and refreshes its state.
    const pass = await sellPass(
      trx,
      studio,
      order.createdBy ?? order.clientId,
      order.clientId,
      line.refId,
      line.unitPrice,
      now,
      // Bought in the front office (the cart checked `sellOnline`); every other order is the desk's.
      order.source === 'online' ? 'online' : 'desk',
    );
    first ??= pass.id;
  }
  // Bought from "My visits": the new pass pays that visit now, in this transaction, if it is still
  // owed and the pass covers it; otherwise the visit stays owed and the pass is the client's anyway.
  if (first && line.forVisitId)
    await payVisitWithBoughtPass(trx, studio, order.clientId, line.forVisitId, first, now);
  return first;
});

registerLineFulfiller('product', async ({ trx, studio, order }, line) => {
  if (!line.refId) return null;
  const product = (await trx('products')
    .where({ studioId: studio.id, id: line.refId })
    .forUpdate()
    .first('id', 'trackStock')) as { id: string; trackStock: boolean } | undefined;
  if (!product || !product.trackStock) return null;
  const id = uuidv7();
  // Paid already: the sale is recorded even if it takes the count below zero (staff correct stock).
  await trx('product_stock_movements').insert({
    id,
    studioId: studio.id,
    productId: product.id,
    quantity: -line.quantity,
    reason: 'sale',
    note: `order ${order.id.slice(-8).toUpperCase()}`,
    createdBy: order.createdBy,
  });
  return id;
});

registerLineFulfiller('top_up', async ({ trx, studio, order, paymentId }, line) => {
  if (!order.clientId) return null;
  const id = uuidv7();
  await trx('client_wallet_payments').insert({
    id,
    studioId: studio.id,
    clientId: order.clientId,
    amount: line.total,
    currency: order.currency,
    kind: 'top_up',
    orderId: order.id,
    paymentId,
    createdBy: order.createdBy,
  });
  return id;
});

// The donor's receipt: a job of this transaction, sent after the commit (donations.receipts.ts).
registerLineFulfiller('donation', ({ trx, order }) => enqueueDonationReceipt(trx, order.id));

registerLineFulfiller('visit', async ({ trx, studio, now }, line) => {
  if (!line.refId) return null;
  // The bookings module owns the visit: 9 (unconfirmed) → 0 (booked) and its paid_at.
  await markVisitsPaid(trx, studio, [line.refId], now);
  return line.refId;
});

/**
 * Fulfils every line of a paid order not fulfilled yet. Each line runs in a savepoint: a line the
 * catalog now refuses (an option archived since checkout) stays unfulfilled and is logged, while the
 * payment and the other lines stand — money was taken, so staff settle that line by hand.
 */
export async function fulfilOrder(
  trx: Knex.Transaction,
  orderId: string,
  paymentId: string | null,
  now: Date,
  log?: Logger,
): Promise<{ unfulfilled: string[] }> {
  const order = (await trx('client_orders')
    .where({ id: orderId })
    .first('id', 'studioId', 'clientId', 'createdBy', 'currency', 'source')) as {
    id: string;
    studioId: string;
    clientId: string | null;
    createdBy: string | null;
    currency: string;
    source: string;
  };
  const lines = (await trx('client_order_lines')
    .where({ orderId, fulfilledAt: null })
    .orderBy('position')
    .select(
      'id',
      'orderId',
      'kind',
      'refId',
      'name',
      'quantity',
      'unitPrice',
      'total',
      'forVisitId',
    )) as FulfilledLine[];
  if (lines.length === 0) return { unfulfilled: [] };
  const studio = await findStudio(trx, order.studioId);
  if (!studio) throw AppError.notFound('studio');
  const unfulfilled: string[] = [];
  for (const line of lines) {
    const fulfiller = fulfillers.get(line.kind);
    try {
      const ref = await trx.transaction(async (sp) =>
        fulfiller ? fulfiller({ trx: sp, studio, order, paymentId, now }, line) : null,
      );
      await trx('client_order_lines')
        .where({ id: line.id })
        .update({ fulfilledRefId: ref, fulfilledAt: now });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      unfulfilled.push(line.id);
      log?.warn({ orderId, lineId: line.id, key: err.key, message: err.message }, 'order line not fulfilled');
    }
  }
  return { unfulfilled };
}
