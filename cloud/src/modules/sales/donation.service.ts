import type {
  CheckoutResult,
  DonationCheckoutInput,
  DonationInit,
  DonationStatusView,
} from '../../../../shared/contracts/api/sales';
import { DONATION_MAX, DONATION_MIN } from '../../../../shared/contracts/api/sales';
import { OrderStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { Studio } from '../identity/index';
import { v7 as uuidv7 } from 'uuid';
import { createOrder } from './order-factory';
import { providerViews } from './providers';
import type { PaymentRow } from './sales.presenter';
import { startOnlinePayment } from './online-payments';
import { readAll } from '../../db/read-all';

/** Suggested amounts on the donation page (minor units). */
const SUGGESTED = [20_00, 50_00, 100_00, 200_00];

/** The donation page's data: the studio, the amounts, and the signed-in donor to prefill. */
export async function donationInit(db: Db, studio: Studio, userId: string | null): Promise<DonationInit> {
  const [providers, user] = await readAll(db, [
    () => providerViews(db, studio.id),
    () =>
      userId
        ? (db('users').where({ id: userId }).first('firstName', 'lastName', 'email') as Promise<
            { firstName: string; lastName: string; email: string | null } | undefined
          >)
        : Promise.resolve(undefined),
  ]);
  return {
    studio: { id: studio.id, name: studio.name, logoUrl: studio.logoUrl },
    currency: studio.currency,
    amounts: SUGGESTED.filter((a) => a >= DONATION_MIN && a <= DONATION_MAX),
    min: DONATION_MIN,
    max: DONATION_MAX,
    available: providers.some((p) => p.enabled),
    donor: user ? { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email } : null,
  };
}

/**
 * A donation is an order (source `donation`, one VAT-exempt `donation` line) paid online, plus the
 * donor's details. Anyone may donate; a signed-in client of the studio is recorded as the order's
 * client. Idempotent per Idempotency-Key (the key is the order's source id): a retry — even a
 * concurrent one, which waits on the unique source index — gets the first order's payment back.
 */
export async function donationCheckout(
  trx: Knex.Transaction,
  studio: Studio,
  userId: string | null,
  input: DonationCheckoutInput,
  options: { key: string | undefined; label: string; locale?: string | null },
): Promise<CheckoutResult> {
  if (!options.key || !/^[A-Za-z0-9_.:-]{8,100}$/.test(options.key))
    throw new AppError('checkout.idempotencyKeyRequired', {
      message: 'send an Idempotency-Key header (8–100 letters, digits, _ . : -)',
      fields: { idempotencyKey: ['required'] },
    });
  const client = userId
    ? await trx('memberships').where({ studioId: studio.id, userId, isClient: true }).first('id')
    : undefined;
  const { id } = await createOrder(trx, {
    studioId: studio.id,
    clientId: client ? userId : null,
    source: 'donation',
    sourceId: options.key,
    createdBy: userId,
    lines: [
      { kind: 'donation', name: options.label, quantity: 1, unitPriceMinor: input.amount, vatRate: 'exempt' },
    ],
  });
  const order = (await trx('client_orders').where({ id }).forUpdate().first('status', 'total')) as {
    status: OrderStatus;
    total: number;
  };
  const started = (await trx('client_order_payments').where({ orderId: id }).orderBy('id').first()) as
    PaymentRow | undefined;
  if (started) {
    // A retry of a checkout that already ran: the same order, the same payment.
    if (order.total !== input.amount)
      throw new AppError('checkout.idempotencyKeyReused', {
        message: 'this Idempotency-Key was used for another request',
      });
    return {
      orderId: id,
      status: order.status,
      redirectUrl: started.status === 'pending' ? `/app/form-redirect?payment=${started.id}` : null,
    };
  }
  await trx('donations').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    donorName: input.name,
    donorEmail: input.email,
    message: input.message,
    anonymous: input.anonymous,
  });
  const payment = await startOnlinePayment(trx, studio, id, {
    returnPath: input.returnPath ?? `/${studio.id}/donation/payment-status`,
    createdBy: userId,
    // Back from the bank in the donor's language (`lang=` on the return path, issue 26).
    locale: input.locale ?? options.locale,
  });
  return { orderId: id, status: OrderStatus.awaiting, redirectUrl: payment.redirectUrl };
}

/**
 * What became of a donation's payment, for the payment-status page. The payment id (random, handed
 * to the donor's browser only) is the key: a payment of another studio or not of a donation is 404.
 */
export async function donationStatus(db: Db, studio: Studio, paymentId: string): Promise<DonationStatusView> {
  const row = (await db('client_order_payments as p')
    .join('client_orders as o', 'o.id', 'p.order_id')
    .where({ 'p.id': paymentId, 'o.studio_id': studio.id, 'o.source': 'donation' })
    .first('o.id as orderId', 'p.amount', 'p.currency', 'p.status')) as DonationStatusView | undefined;
  if (!row) throw AppError.notFound('payment');
  return row;
}
