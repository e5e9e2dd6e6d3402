import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { PaymentMethod } from '../../../../shared/enums';
import { createOrder } from '../sales/index';

/**
 * Demo data for invoicing: the seller's invoice details (a NIP and an IBAN that pass their check
 * digits, so the manager can issue at once) and one PAID order of the demo client — the "4 entries"
 * pass bought at the desk by card three days ago, with the pass it gave — so an invoice can be issued
 * from the order and then downloaded by the client from "My purchases".
 */
export async function seedDemoInvoicing(
  trx: Knex.Transaction,
  studioId: string,
  clientId: string,
  now: Date,
): Promise<{ orderId: string }> {
  await trx('studio_invoice_settings').insert({
    studioId,
    sellerName: 'Harmonia Studio Ruchu sp. z o.o.',
    addressLine: 'ul. Marszałkowska 10/4',
    postalCode: '00-590',
    city: 'Warszawa',
    country: 'PL',
    taxId: '5260250274',
    iban: 'PL61109010140000071219812874',
    bankName: 'Santander Bank Polska',
    placeOfIssue: 'Warszawa',
    paymentTermDays: 14,
  });

  const option:
    { id: string; name: Record<string, { value: string }>; price: number; validityDays: number } | undefined =
    await trx('pricing_options')
      .where({ studioId, price: 16000, entries: 4 })
      .first('id', 'name', 'price', 'validityDays');
  const paidAt = new Date(now.getTime() - 3 * 86_400_000);
  const passId = option ? uuidv7() : null;
  if (option)
    await trx('client_pricing_options').insert({
      id: passId!,
      studioId,
      clientId,
      pricingOptionId: option.id,
      status: 1,
      entries: 4,
      activatedAt: paidAt,
      expiresAt: new Date(paidAt.getTime() + option.validityDays * 86_400_000),
      soldAt: paidAt,
      pricePaid: option.price,
      expirationType: 0,
      validityCount: option.validityDays,
      validityUnit: 'day',
    });

  const { id: orderId } = await createOrder(trx, {
    studioId,
    clientId,
    source: 'desk',
    sourceId: 'demo-paid-order',
    status: 'paid',
    lines: [
      {
        kind: 'pass',
        refId: option?.id,
        name: option?.name.pl?.value ?? 'Karnet 4 wejścia',
        quantity: 1,
        unitPriceMinor: option?.price ?? 16000,
        vatRate: '2300',
      },
    ],
  });
  await trx('client_orders').where({ id: orderId }).update({ paidAt, createdAt: paidAt, updatedAt: paidAt });
  await trx('client_order_lines').where({ orderId }).update({ fulfilledAt: paidAt, fulfilledRefId: passId });
  await trx('client_order_payments').insert({
    id: uuidv7(),
    studioId,
    orderId,
    clientId,
    method: PaymentMethod.terminal,
    amount: option?.price ?? 16000,
    currency: 'PLN',
    status: 'succeeded',
    settledAt: paidAt,
    createdAt: paidAt,
  });
  return { orderId };
}
