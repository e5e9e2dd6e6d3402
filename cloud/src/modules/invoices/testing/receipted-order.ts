import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import type { HttpClient } from '../../../../../tests/support/http-client';
import type { TestApp } from '../../../../../tests/support/test-app';
import type { Studio } from '../../identity/rows';

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;

/** An order paid at the desk whose fiscal receipt was printed with the buyer's NIP. */
export async function receiptedOrder(
  app: TestApp,
  owner: HttpClient,
  studio: Studio,
  options: { paidAt: Date; buyerNip: string | null; receiptNumber?: number },
): Promise<string> {
  const printer = await owner.post(api(studio, 'fiscal-printer'), {
    name: 'Recepcja POSNET',
    stationSlug: 'front-1',
    connection: { kind: 'tcp', host: '10.0.0.5', port: 6666 },
  });
  expect(printer.status, printer.text).toBe(201);
  const id = uuidv7();
  await app.knex('client_orders').insert({
    id,
    studioId: studio.id,
    source: 'desk',
    status: 1,
    currency: 'PLN',
    subtotal: 12000,
    discount: 0,
    total: 12000,
    paidAt: options.paidAt,
  });
  await app.knex('client_order_lines').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    position: 0,
    kind: 'pass',
    name: 'Karnet open',
    quantity: 1,
    unitPrice: 12000,
    vatRate: '800',
    total: 12000,
  });
  await app.knex('client_order_payments').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    method: 2,
    amount: 12000,
    currency: 'PLN',
    status: 'succeeded',
  });
  const job = (await owner.post(api(studio, `client-order/${id}/print-receipt`), { stationSlug: 'front-1' }))
    .body.jobs[0];
  const reported = await owner.post(api(studio, 'fiscal-printer/front-1'), {
    documents: [
      {
        saleId: job.saleId,
        lines: job.lines,
        discount: job.discount,
        payments: job.payments,
        outcome: {
          status: 'printed',
          receiptNumber: options.receiptNumber ?? 5,
          total: job.total,
          recovered: false,
        },
      },
    ],
  });
  expect(reported.status, reported.text).toBe(200);
  await app.knex('retail_receipts').where({ id: job.saleId }).update({ buyerNip: options.buyerNip });
  return id;
}
