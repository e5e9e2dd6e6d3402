import { v7 as uuidv7 } from 'uuid';
import type { CartItemInput } from '../../../../shared/contracts/api/sales';
import type { Knex } from '../../db/knex';

type Trx = Knex.Transaction;

/** The cart item each order line kind came from (cart.service `priceItem`'s `lineKind`, reversed). */
const CART_TYPE_OF_LINE: Record<string, CartItemInput['type']> = {
  pass: 'pricingOption',
  product: 'product',
  contract_instalment: 'contract',
  video: 'videoService',
};

const sameItem = (a: CartItemInput, b: CartItemInput) =>
  a.type === b.type &&
  a.id === b.id &&
  (a.type === 'pricingOption' ? (a.forVisitId ?? null) : null) ===
    (b.type === 'pricingOption' ? (b.forVisitId ?? null) : null);

/**
 * A checkout's online payment that failed or was cancelled puts the order's items back in the
 * client's cart (issue 26: the client tries again without shopping again). Items already in the cart
 * stay as they are; the voucher whose use the failure gave back (`releaseRedemption`) goes back on the
 * cart unless the client has put another one there meanwhile.
 * Called in the transaction that records the outcome, with the order row locked: the cart row comes
 * after the order here, which is safe because no cart transaction waits for an existing order (a
 * checkout locks the cart, then creates a new order).
 */
export async function restoreCartFromOrder(
  trx: Trx,
  order: { id: string; studioId: string; clientId: string | null; source: string },
  voucherCode: string | null = null,
): Promise<void> {
  if (order.source !== 'online' || !order.clientId) return;
  const lines = (await trx('client_order_lines')
    .where({ orderId: order.id })
    .orderBy('position')
    .select('kind', 'refId', 'quantity', 'forVisitId')) as Array<{
    kind: string;
    refId: string | null;
    quantity: number;
    forVisitId: string | null;
  }>;
  const restored: CartItemInput[] = [];
  for (const line of lines) {
    const type = CART_TYPE_OF_LINE[line.kind];
    if (!type || !line.refId) continue;
    restored.push(
      type === 'product'
        ? { type, id: line.refId, quantity: line.quantity }
        : type === 'pricingOption' && line.forVisitId
          ? { type, id: line.refId, forVisitId: line.forVisitId }
          : ({ type, id: line.refId } as CartItemInput),
    );
  }
  if (restored.length === 0) return;
  await trx.raw(
    `insert into shopping_carts (id, studio_id, client_id, items, voucher_code)
     values (?, ?, ?, '[]'::jsonb, null) on conflict (studio_id, client_id) do nothing`,
    [uuidv7(), order.studioId, order.clientId],
  );
  const cart = (await trx('shopping_carts')
    .where({ studioId: order.studioId, clientId: order.clientId })
    .forUpdate()
    .first('items', 'voucherCode')) as { items: CartItemInput[]; voucherCode: string | null };
  const items = [...cart.items];
  for (const item of restored) if (!items.some((i) => sameItem(i, item))) items.push(item);
  // The cart holds at most 20 items (CartPrepareSchema).
  await trx('shopping_carts')
    .where({ studioId: order.studioId, clientId: order.clientId })
    .update({
      items: JSON.stringify(items.slice(0, 20)),
      voucherCode: cart.voucherCode ?? voucherCode,
      updatedAt: new Date(),
    });
}
