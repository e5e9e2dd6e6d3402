import type {
  PublicRetailCheckoutInput,
  PublicRetailCheckoutResultSchema,
} from '../../../../shared/contracts/api/public-api';
import { PaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { z } from 'zod';
import type { Db, Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Studio } from '../identity/index';
import { lockProductsForSale } from '../products/index';
import {
  cartView,
  createOrder,
  fulfilOrder,
  orderDetail,
  recordDeskPayment,
  startOnlinePayment,
} from '../sales/index';

/** What a partner may do with the order afterwards through `client-order/{id}` (sales README). */
const API_KEY_ORDER_ABILITIES = { refund: false, changeStatus: true } as const;

/**
 * POST retail/orders/checkout (README, "The public calls added here"): the items are priced as the
 * front office's cart prices them (sold online, not archived, in stock), one order of source `online`
 * is made for the client, then either an online payment is started at the studio's provider (the
 * partner sends the client to `paymentUrl`; the goods are handed over when it is paid) or, for
 * `external`, the money the partner took is recorded (method "other") and the goods handed over now.
 */
export async function publicRetailCheckout(
  trx: Knex.Transaction,
  studio: Studio,
  input: PublicRetailCheckoutInput,
  now: Date,
  publicUrl: string,
  log?: Logger,
): Promise<z.infer<typeof PublicRetailCheckoutResultSchema>> {
  const client = await trx('memberships')
    .where({ studioId: studio.id, userId: input.userId, isClient: true })
    .whereNull('archivedAt')
    .first('id');
  if (!client) throw AppError.notFound('client');

  const sourceId = input.reference ? `api:${input.reference}` : undefined;
  if (sourceId) {
    const earlier = await trx('client_orders')
      .where({ studioId: studio.id, source: 'online', sourceId })
      .first('id', 'clientId');
    if (earlier) {
      if (earlier.clientId !== input.userId)
        throw new AppError('checkout.idempotencyKeyReused', {
          message: 'this reference names an order of another client',
          fields: { reference: ['usedByAnotherOrder'] },
        });
      return {
        order: await orderDetail(trx, studio, earlier.id, API_KEY_ORDER_ABILITIES),
        paymentUrl: await openPaymentUrl(trx, publicUrl, earlier.id),
        created: false,
      };
    }
  }

  await lockProductsForSale(
    trx,
    studio.id,
    input.items.flatMap((i) => (i.type === 'product' ? [i.id] : [])),
  );
  const view = await cartView(
    trx,
    studio,
    input.userId,
    {
      items: input.items.map((i) =>
        i.type === 'product' ? { type: i.type, id: i.id, quantity: i.quantity } : { type: i.type, id: i.id },
      ),
      voucherCode: null,
    },
    null,
    now,
  );
  const problems: Record<string, string[]> = {};
  view.items.forEach((item, i) => {
    if (item.problem) problems[`items.${i}.id`] = [item.problem];
  });
  if (Object.keys(problems).length > 0)
    throw new AppError('cart.itemUnavailable', {
      message: 'something in the order cannot be sold',
      fields: problems,
    });

  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId: input.userId,
    source: 'online',
    ...(sourceId ? { sourceId } : {}),
    createdBy: null,
    note: input.reference ? `API ${input.reference}` : 'API',
    lines: view.priced.map((item) => ({
      kind: item.lineKind,
      refId: item.id,
      name: item.name,
      nameTexts: item.nameTexts ?? null,
      quantity: item.quantity,
      unitPriceMinor: item.unitPrice,
      vatRate: item.vatRate,
    })),
  });
  const order: { total: number } = await trx('client_orders').where({ id }).first('total');
  let paymentUrl: string | null = null;
  if (order.total > 0 && input.payment === 'external')
    await recordDeskPayment(trx, studio, id, { method: PaymentMethod.other }, null, now, log);
  else if (order.total > 0)
    paymentUrl = payPage(
      publicUrl,
      (
        await startOnlinePayment(trx, studio, id, {
          returnPath: `/${studio.id}/frontoffice/purchases`,
          createdBy: null,
        })
      ).paymentId,
    );
  else await fulfilOrder(trx, id, null, now, log);
  return {
    order: await orderDetail(trx, studio, id, API_KEY_ORDER_ABILITIES),
    paymentUrl,
    created: true,
  };
}

/**
 * The page that takes the client to the studio's payment provider (the sales module's
 * `/app/form-redirect`, no session needed; it asks the provider when first opened).
 */
const payPage = (publicUrl: string, paymentId: string) =>
  new URL(`/app/form-redirect?payment=${paymentId}`, publicUrl).toString();

/** A repeated call answers the payment page of the order's payment still pending, if any. */
async function openPaymentUrl(db: Db, publicUrl: string, orderId: string): Promise<string | null> {
  const pending: { id: string } | undefined = await db('client_order_payments')
    .where({ orderId, status: 'pending' })
    .orderBy('createdAt', 'desc')
    .first('id');
  return pending ? payPage(publicUrl, pending.id) : null;
}
