import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { computeReceiptTotals } from '../../../../shared/domain/receipts';
import { createStudioScenario } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { TEST_SELLER_SETTINGS } from './testing/seller-settings';

/**
 * Invoices for receipted sales (faktura do paragonu): the fiscal receipt goes through the real
 * routes (print request, the station's report of the printer's outcome); only the buyer's NIP on the
 * receipt is written straight into the row (the desk side records it).
 */
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const SETTINGS = TEST_SELLER_SETTINGS;
const BUYER = {
  name: 'Firma Jogi sp. z o.o.',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: '7740001454',
};
const CONSUMER = { ...BUYER, name: 'Jan Kowalski', taxId: null };
const SERIAL = {
  kind: 'serial',
  path: '/dev/ttyUSB0',
  baudRate: 9600,
  parity: 'none',
  dataBits: 8,
  stopBits: 1,
  flowControl: 'none',
} as const;

// A discounted basket where spreading the discount per line and per rate differ by a grosz:
// 19,99 + 15,00 at 23 %, 12,50 at 8 %, 2,11 off. Per rate (the receipt): 1,55 / 0,56; per line: 1,56 / 0,55.
const BASKET = [
  { kind: 'pass', name: 'Karnet 4 wejścia', quantity: 1, unitPrice: 1999, vatRate: '2300' },
  { kind: 'pass', name: 'Wejście jednorazowe', quantity: 1, unitPrice: 1500, vatRate: '2300' },
  { kind: 'product', name: 'Woda', quantity: 1, unitPrice: 1250, vatRate: '800' },
];
const DISCOUNT = 211;

async function setUp() {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  expect((await owner.request('PUT', api(scenario.studio, 'invoice-settings'), SETTINGS)).status).toBe(200);
  const printer = await owner.post(api(scenario.studio, 'fiscal-printer'), {
    name: 'Recepcja POSNET',
    stationSlug: 'front-1',
    connection: SERIAL,
  });
  expect(printer.status, printer.text).toBe(201);
  return { ...scenario, owner };
}

async function paidOrder(studio: Studio, clientId: string | null) {
  const id = uuidv7();
  const subtotal = BASKET.reduce((a, l) => a + l.quantity * l.unitPrice, 0);
  await app.knex('client_orders').insert({
    id,
    studioId: studio.id,
    clientId: clientId,
    source: 'desk',
    status: 1,
    currency: 'PLN',
    subtotal,
    discount: DISCOUNT,
    total: subtotal - DISCOUNT,
    paidAt: new Date('2026-11-20T15:00:00Z'),
  });
  await app.knex('client_order_lines').insert(
    BASKET.map((l, i) => ({
      id: uuidv7(),
      studioId: studio.id,
      orderId: id,
      position: i,
      ...l,
      total: l.quantity * l.unitPrice,
    })),
  );
  await app.knex('client_order_payments').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    clientId: clientId,
    method: 1,
    amount: subtotal - DISCOUNT,
    currency: 'PLN',
    status: 'succeeded',
  });
  return id;
}

type Job = { saleId: string; lines: never[]; discount: number; payments: never[]; total: number };

async function requestPrint(owner: HttpClient, studio: Studio, orderId: string): Promise<Job> {
  const res = await owner.post(api(studio, `client-order/${orderId}/print-receipt`), {
    stationSlug: 'front-1',
  });
  expect(res.status, res.text).toBe(200);
  return res.body.jobs[0];
}

async function report(owner: HttpClient, studio: Studio, job: Job, outcome: Record<string, unknown>) {
  const res = await owner.post(api(studio, 'fiscal-printer/front-1'), {
    documents: [
      { saleId: job.saleId, lines: job.lines, discount: job.discount, payments: job.payments, outcome },
    ],
  });
  expect(res.status, res.text).toBe(200);
}

const printed = (job: Job) => ({ status: 'printed', receiptNumber: 17, total: job.total, recovered: false });

describe('an invoice for a printed receipt (faktura do paragonu)', () => {
  it('waits for the outcome, needs the NIP printed on the receipt, references it, takes its per-rate totals, FP', async () => {
    const { studio, owner, client } = await setUp();
    const order = await paidOrder(studio, client.id);
    const job = await requestPrint(owner, studio, order);

    // Sent to the printer, outcome unknown: nobody knows whether the sale is registered.
    const waiting = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(waiting.status).toBe(409);
    expect(waiting.body.error).toMatchObject({ key: 'invoice.receiptUnresolved', code: 2650 });
    expect((await owner.get(api(studio, `client-order/${order}/invoice/init`))).body).toMatchObject({
      invoiceable: false,
      reason: 'receiptUnresolved',
    });

    await report(owner, studio, job, printed(job));
    // Printed without the buyer's NIP: no invoice to a NIP buyer.
    const noNip = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(noNip.status).toBe(409);
    expect(noNip.body.error).toMatchObject({ key: 'invoice.receiptBuyerNipMismatch', code: 2652 });
    expect(noNip.body.error.fields['buyer.taxId']).toBeDefined();

    // The desk printed the buyer's NIP on the receipt.
    await app.knex('retail_receipts').where({ id: job.saleId }).update({ buyerNip: '7740001454' });
    const otherNip = await owner.post(api(studio, `client-order/${order}/invoice`), {
      buyer: { ...BUYER, taxId: '5260250274' },
    });
    expect(otherNip.body.error.key).toBe('invoice.receiptBuyerNipMismatch');
    const consumer = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: CONSUMER });
    expect(consumer.body.error.key).toBe('invoice.receiptBuyerNipMismatch');

    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.body).toMatchObject({
      invoiceable: true,
      receipt: { status: 'printed', number: 17, date: '2026-11-23', printerName: 'Recepcja POSNET' },
    });
    expect(draft.body.buyer.taxId).toBe('7740001454');

    const res = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(res.status, res.text).toBe(201);
    expect(res.body.receipt).toEqual({
      number: 17,
      date: '2026-11-23',
      printerName: 'Recepcja POSNET',
      stationSlug: 'front-1',
    });
    expect(res.body.notes).toContainEqual({
      kind: 'receipt',
      number: 17,
      date: '2026-11-23',
      printer: 'Recepcja POSNET',
    });
    // The per-rate totals are the receipt's, to the grosz (per line, 23 % would be 33,43 and 8 % 11,95).
    const receipt = computeReceiptTotals({
      lines: BASKET.map((l) => ({ name: l.name, unitPrice: l.unitPrice, vatRate: Number(l.vatRate) })),
      discount: DISCOUNT,
    });
    expect(receipt.vatGroups.map((g) => [g.vatRate, g.total, g.vat])).toEqual([
      [2300, 3344, 625],
      [800, 1194, 88],
    ]);
    expect(
      res.body.rates.map((r: { vatRate: number; gross: number; vat: number }) => [r.vatRate, r.gross, r.vat]),
    ).toEqual(receipt.vatGroups.map((g) => [g.vatRate, g.total, g.vat]));
    expect(res.body.totals).toMatchObject({ gross: 4538, vat: 713 });
    // The lines add up to the rates they show.
    const sum23 = res.body.lines
      .filter((l: { vatRate: number }) => l.vatRate === 2300)
      .reduce((a: number, l: { gross: number }) => a + l.gross, 0);
    expect(sum23).toBe(3344);

    const pdf = await fetch(app.url + api(studio, `invoice/${res.body.id}/pdf`), {
      headers: owner.headers(),
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // The accountant sees it marked FP in the list.
    const list = await owner.get(api(studio, 'invoice/all'));
    expect(list.body.items[0]).toMatchObject({ id: res.body.id, forReceipt: true });

    const stored = await app.knex('invoices').where({ id: res.body.id }).first('receipt_id as receiptRef');
    expect(stored.receiptRef).toBe(job.saleId);
  });

  it('a consumer invoice for a receipt printed without a NIP is allowed and references it', async () => {
    const { studio, owner } = await setUp();
    const order = await paidOrder(studio, null);
    const job = await requestPrint(owner, studio, order);
    await report(owner, studio, job, printed(job));
    const res = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: CONSUMER });
    expect(res.status, res.text).toBe(201);
    expect(res.body.receipt).toMatchObject({ number: 17 });
  });

  it('an order without a receipt spreads its discount per rate as a receipt would', async () => {
    const { studio, owner, client } = await setUp();
    const order = await paidOrder(studio, client.id);
    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.body.receipt).toBeNull();
    expect(draft.body.rates.map((r: { gross: number }) => r.gross)).toEqual([3344, 1194]);
  });
});

describe('the NIP as the station reported it', () => {
  it('the fiscal document of the printed receipt may carry the NIP (a desk sale reports it there)', async () => {
    const { studio, owner, client } = await setUp();
    const order = await paidOrder(studio, client.id);
    const job = await requestPrint(owner, studio, order);
    await report(owner, studio, job, printed(job));
    await app.knex('fiscal_documents').where({ saleId: job.saleId }).update({ buyerNip: '774-000-14-54' });
    const res = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(res.status, res.text).toBe(201);
    expect(res.body.receipt).toMatchObject({ number: 17, printerName: 'Recepcja POSNET' });
  });
});

describe('an invoiced order is never printed on a receipt', () => {
  it('refuses the print request and the batch print, and leaves the receipt off the list to print', async () => {
    const { studio, owner, client } = await setUp();
    const order = await paidOrder(studio, client.id);
    const job = await requestPrint(owner, studio, order);
    // The printer refused it (no daily report): nothing fiscal was printed.
    await report(owner, studio, job, {
      status: 'notPrinted',
      reason: 'dailyReportMissing',
      messageKey: 'printing:cashier.dailyReportMissing',
    });
    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.body).toMatchObject({ invoiceable: true, receipt: { status: 'notPrinted' } });
    const toPrint = async () =>
      (await owner.get(api(studio, 'fiscal-receipt-batch-print/collection?status=toPrint'))).body.items.map(
        (r: { id: string }) => r.id,
      );
    expect(await toPrint()).toEqual([job.saleId]);

    const invoice = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.receipt).toBeNull();
    expect((await owner.get(api(studio, 'invoice/all'))).body.items[0].forReceipt).toBe(false);

    const again = await owner.post(api(studio, `client-order/${order}/print-receipt`), {
      stationSlug: 'front-1',
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ key: 'receipt.orderInvoiced', code: 2653 });
    const batch = await owner.post(api(studio, 'fiscal-receipt-batch-print/print'), {
      receiptIds: [job.saleId],
    });
    expect(batch.status).toBe(409);
    expect(batch.body.error.fields).toEqual({ 'receiptIds.0': ['orderInvoiced'] });
    expect(await toPrint()).toEqual([]);
    const init = await owner.get(api(studio, 'fiscal-receipt-batch-print/init'));
    expect(init.body.counts.toPrint).toBe(0);

    // A cancelled invoice frees the order: its receipt may be printed again.
    await owner.post(api(studio, `invoice/${invoice.body.id}/cancel`), { reason: 'Klient chce paragon' });
    const printable = await owner.post(api(studio, `client-order/${order}/print-receipt`), {
      stationSlug: 'front-1',
    });
    expect(printable.status, printable.text).toBe(200);
  });
});
