import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { computeReceiptTotals } from '../../../../shared/domain/receipts';
import { OrderStatus, PaymentMethod, RetailItemStatus } from '../../../../shared/enums';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { addStock, addTenEntryPass } from '../sales/sales-support';

const app = useTestApp();

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const key = () => `retail-${uuidv7()}`;
const sell = (http: HttpClient, studio: Studio, body: unknown, idempotencyKey = key()) =>
  http.post(api(studio, 'retail/checkout'), body, { headers: { 'idempotency-key': idempotencyKey } });

/** A studio with a 23 % and an 8 % tax, a pass (250 zł), water (5 zł, 10 in stock), a bar (7,99 zł at 8 %). */
async function retailStudio() {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const vat23 = uuidv7();
  const vat8 = uuidv7();
  await app.knex('taxes').insert([
    { id: vat23, studioId: studio.id, name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A', isDefault: true },
    { id: vat8, studioId: studio.id, name: 'VAT 8%', rateBp: 800, fiscalSlot: 'B', isDefault: false },
  ]);
  const passId = await addTenEntryPass(app, studio, vat23, 25000);
  const waterId = uuidv7();
  const barId = uuidv7();
  const drinksId = uuidv7();
  await app
    .knex('product_categories')
    .insert({ id: drinksId, studioId: studio.id, name: 'Drinks', position: 0 });
  await app.knex('products').insert([
    {
      id: waterId,
      studioId: studio.id,
      name: 'Water',
      price: 500,
      taxId: vat23,
      trackStock: true,
      categoryId: drinksId,
    },
    { id: barId, studioId: studio.id, name: 'Protein bar', price: 799, taxId: vat8, trackStock: false },
  ]);
  await addStock(app, studio, waterId, 10);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  return { ...scenario, owner, passId, waterId, barId, drinksId };
}

async function staff(studio: Studio, role: string): Promise<HttpClient> {
  const user = await createUser(app.knex, { firstName: 'Staff', lastName: role });
  await addMembership(app.knex, studio, user, { isMember: true, role });
  return app.signedIn(user.email, user.password);
}

const stockOf = async (productId: string) =>
  Number(
    (
      (await app.knex('product_stock_movements').where({ productId }).sum({ n: 'quantity' })) as Array<{
        n: string | number;
      }>
    )[0]?.n ?? 0,
  );
const passesOf = (studioId: string, clientId: string) =>
  app.knex('client_pricing_options').where({ studioId, clientId });

describe('retail routes: who may call them', () => {
  it('answers 401 without a session', async () => {
    const s = await retailStudio();
    const anon = await app.anonymous();
    // Valid bodies: input is validated before the session is looked at.
    const basket = { clientId: null, items: [{ type: 'product', id: s.waterId }] };
    for (const [method, path, body] of [
      ['GET', 'retail/init', undefined],
      ['POST', 'retail/validate', basket],
      ['POST', 'retail/checkout', basket],
      ['GET', 'fiscal-receipt-batch-print/init', undefined],
      ['GET', 'fiscal-receipt-batch-print/collection', undefined],
      ['POST', 'fiscal-receipt-batch-print/print', { receiptIds: [uuidv7()] }],
      ['POST', `client-order/${uuidv7()}/print-receipt`, {}],
    ] as const) {
      const res = await anon.request(method, api(s.studio, path), body);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('answers 403 to roles without the sales abilities', async () => {
    const s = await retailStudio();
    const instructor = await staff(s.studio, 'instructor');
    const accountant = await staff(s.studio, 'accountant');
    const basket = { clientId: null, items: [{ type: 'product', id: s.waterId }] };
    expect((await instructor.get(api(s.studio, 'retail/init'))).status).toBe(403);
    expect((await sell(instructor, s.studio, basket)).status).toBe(403);
    expect((await instructor.get(api(s.studio, 'fiscal-receipt-batch-print/collection'))).status).toBe(403);
    // The accountant reads receipts (sales.view) but does not sell or print (sales.sell).
    expect((await accountant.get(api(s.studio, 'fiscal-receipt-batch-print/collection'))).status).toBe(200);
    expect((await accountant.post(api(s.studio, 'retail/validate'), basket)).status).toBe(403);
    const print = await accountant.post(api(s.studio, 'fiscal-receipt-batch-print/print'), {
      receiptIds: [uuidv7()],
    });
    expect(print.status).toBe(403);
  });

  it('answers 400 with every invalid field', async () => {
    const s = await retailStudio();
    const res = await s.owner.post(api(s.studio, 'retail/validate'), {
      clientId: 'nope',
      items: [{ type: 'ticket', id: s.waterId, quantity: 0, status: 9 }],
      payments: [{ method: PaymentMethod.online, amount: -5 }],
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(
      [
        'clientId',
        'items.0.type',
        'items.0.quantity',
        'items.0.status',
        'payments.0.method',
        'payments.0.amount',
      ].sort(),
    );
    const empty = await s.owner.post(api(s.studio, 'retail/validate'), { clientId: null, items: [] });
    expect(empty.body.error.fields.items).toEqual(['the basket is empty']);
    const noKey = await s.owner.post(api(s.studio, 'retail/checkout'), {
      clientId: null,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.cash, amount: 500 }],
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.key).toBe('checkout.idempotencyKeyRequired');
  });

  it('hides one studio from another: its routes, clients, products and orders answer 404', async () => {
    const s = await retailStudio();
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(s.studio, 'retail/init') }, ['Water']);
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: api(s.studio, 'fiscal-receipt-batch-print/collection'),
    });
    const sold = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.cash, amount: 500 }],
    });
    expect(sold.status, sold.text).toBe(201);
    const orderId = sold.body.orders[0].id;
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(s.studio, `client-order/${orderId}/print-receipt`),
      body: {},
    });

    // Another studio's manager, in their own studio, naming this studio's things: 404 each.
    const other = await retailStudio();
    const foreignProduct = await other.owner.post(api(other.studio, 'retail/validate'), {
      clientId: null,
      items: [{ type: 'product', id: s.waterId }],
    });
    expect(foreignProduct.status).toBe(404);
    const foreignClient = await other.owner.post(api(other.studio, 'retail/validate'), {
      clientId: s.client.id,
      items: [{ type: 'product', id: other.waterId }],
    });
    expect(foreignClient.status).toBe(404);
    const foreignOrder = await other.owner.post(
      api(other.studio, `client-order/${orderId}/print-receipt`),
      {},
    );
    expect(foreignOrder.status).toBe(404);
    const foreignReceipt = await other.owner.post(api(other.studio, 'fiscal-receipt-batch-print/print'), {
      receiptIds: [sold.body.receipt.id],
    });
    expect(foreignReceipt.status).toBe(404);
    expect(await stockOf(s.waterId)).toBe(9);
  });
});

describe('selling at the desk', () => {
  it('init lists what the desk sells with today’s prices, stock, VAT and product category', async () => {
    const s = await retailStudio();
    const res = await s.owner.get(api(s.studio, 'retail/init'));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'product',
          id: s.waterId,
          price: 500,
          stock: 10,
          vatRate: 2300,
          category: { id: s.drinksId, name: 'Drinks' },
        }),
        expect.objectContaining({ type: 'product', id: s.barId, price: 799, stock: null, category: null }),
        expect.objectContaining({ type: 'pricingOption', id: s.passId, price: 25000, category: null }),
      ]),
    );
    expect(res.body.itemStatuses).toEqual([0, 1, 2, 3]);
    expect(res.body.receiptsToPrint).toBe(0);
  });

  it('sells products and a pass to a client with cash and card; the receipt matches the printer’s arithmetic', async () => {
    const s = await retailStudio();
    const basket = {
      clientId: s.client.id,
      items: [
        { type: 'product', id: s.waterId, quantity: 2 },
        { type: 'product', id: s.barId, quantity: 3 },
        { type: 'pricingOption', id: s.passId },
      ],
    };
    // 2 × 5,00 + 3 × 7,99 + 250,00 = 283,97
    const quote = await s.owner.post(api(s.studio, 'retail/validate'), {
      ...basket,
      payments: [{ method: PaymentMethod.cash, amount: 10000 }],
    });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body).toMatchObject({ due: 28397, tendered: 10000, remaining: 18397, canCheckout: false });
    expect(quote.body.items.map((i: { name: string }) => i.name)).toEqual([
      'Water',
      'Protein bar',
      'Karnet 10 wejść',
    ]);

    const sold = await sell(s.owner, s.studio, {
      ...basket,
      payments: [
        { method: PaymentMethod.cash, amount: 10000 },
        { method: PaymentMethod.terminal, amount: 18397 },
      ],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.orders).toHaveLength(1);
    expect(sold.body.orders[0]).toMatchObject({ status: OrderStatus.paid, total: 28397 });
    expect(sold.body.change).toBe(0);
    expect(sold.body.unfulfilled).toEqual([]);

    // The client has the pass; the water left the shelf.
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    expect(await stockOf(s.waterId)).toBe(8);

    // Both payments are on the order.
    const detail = await s.owner.get(api(s.studio, `client-order/${sold.body.orders[0].id}/init`));
    expect(detail.body.payments.map((p: { method: number; amount: number }) => [p.method, p.amount])).toEqual(
      [
        [PaymentMethod.cash, 10000],
        [PaymentMethod.terminal, 18397],
      ],
    );

    // The receipt: VAT per rate as the printer computes it (gross × rate / (1 + rate), half up).
    const receipt = sold.body.receipt;
    expect(receipt.status).toBe('toPrint');
    expect(receipt.totals.total).toBe(28397);
    expect(receipt.totals.vatGroups).toEqual([
      { vatRate: 2300, slot: 'A', gross: 26000, discount: 0, total: 26000, vat: 4862 },
      { vatRate: 800, slot: 'B', gross: 2397, discount: 0, total: 2397, vat: 178 },
    ]);
    expect(receipt.payments).toEqual([
      { type: 'cash', amount: 10000 },
      { type: 'card', amount: 18397 },
    ]);
    expect(receipt.totals).toEqual(
      expect.objectContaining({
        total: computeReceiptTotals({
          lines: [
            { name: 'Water', unitPrice: 500, quantity: '2', vatRate: 2300 },
            { name: 'Protein bar', unitPrice: 799, quantity: '3', vatRate: 800 },
            { name: 'Karnet 10 wejść', unitPrice: 25000, vatRate: 2300 },
          ],
        }).total,
      }),
    );
  });

  it('gives change from cash to a walk-in and refuses what a walk-in cannot buy', async () => {
    const s = await retailStudio();
    const sold = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.waterId, quantity: 3 }],
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.change).toBe(500);
    expect(sold.body.receipt.payments).toEqual([{ type: 'cash', amount: 2000 }]);
    expect(sold.body.receipt.change).toBe(500);
    const order = await s.owner.get(api(s.studio, `client-order/${sold.body.orders[0].id}/init`));
    expect(order.body).toMatchObject({ status: OrderStatus.paid, paid: 1500, client: null });

    const pass = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'pricingOption', id: s.passId }],
      payments: [{ method: PaymentMethod.cash, amount: 25000 }],
    });
    expect(pass.status).toBe(400);
    expect(pass.body.error).toMatchObject({
      key: 'retail.basketInvalid',
      fields: { clientId: ['clientRequired'] },
    });

    const card = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.terminal, amount: 900 }],
    });
    expect(card.status).toBe(400);
    expect(card.body.error.fields.payments).toEqual(['tooMuch']);

    const short = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.cash, amount: 100 }],
    });
    expect(short.status).toBe(400);
    expect(short.body.error.fields.payments).toEqual(['notCovered']);

    const tooMany = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.waterId, quantity: 20 }],
      payments: [{ method: PaymentMethod.cash, amount: 10000 }],
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({
      key: 'retail.itemUnavailable',
      fields: { 'items.0.quantity': ['outOfStock'] },
    });
    expect(await stockOf(s.waterId)).toBe(7);
  });

  it('records unpaid, scheduled and suspended items as orders in those statuses, without a receipt', async () => {
    const s = await retailStudio();
    const missingDate = await sell(s.owner, s.studio, {
      clientId: s.client.id,
      items: [{ type: 'product', id: s.barId, status: RetailItemStatus.scheduled }],
    });
    expect(missingDate.status).toBe(400);
    expect(missingDate.body.error.fields.scheduledFor).toEqual(['required']);

    const sold = await sell(s.owner, s.studio, {
      clientId: s.client.id,
      scheduledFor: '2099-01-31',
      items: [
        { type: 'pricingOption', id: s.passId, status: RetailItemStatus.unpaid },
        { type: 'product', id: s.barId, status: RetailItemStatus.scheduled },
        { type: 'product', id: s.waterId, quantity: 2, status: RetailItemStatus.suspended },
      ],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(
      sold.body.orders.map((o: { status: number; itemStatus: number; total: number }) => [
        o.itemStatus,
        o.status,
        o.total,
      ]),
    ).toEqual([
      [RetailItemStatus.unpaid, OrderStatus.unpaid, 25000],
      [RetailItemStatus.scheduled, OrderStatus.scheduled, 799],
      [RetailItemStatus.suspended, OrderStatus.suspended, 1000],
    ]);
    expect(sold.body.receipt).toBeNull();
    // The unpaid pass is the client's now; the suspended water stays on the shelf until paid.
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    expect(await stockOf(s.waterId)).toBe(10);
    const list = await s.owner.get(api(s.studio, `client-order/all?status=${OrderStatus.unpaid}`));
    expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([sold.body.orders[0].id]);
    // Nothing was paid: no receipt to print for it.
    const print = await s.owner.post(
      api(s.studio, `client-order/${sold.body.orders[0].id}/print-receipt`),
      {},
    );
    expect(print.status).toBe(409);
    expect(print.body.error.key).toBe('receipt.orderNotPaid');
  });

  it('charges once for a retried checkout with the same Idempotency-Key', async () => {
    const s = await retailStudio();
    const body = {
      clientId: s.client.id,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.cash, amount: 500 }],
    };
    const k = key();
    const first = await sell(s.owner, s.studio, body, k);
    const again = await sell(s.owner, s.studio, body, k);
    expect(first.status).toBe(201);
    expect(again.body.saleId).toBe(first.body.saleId);
    expect(await stockOf(s.waterId)).toBe(9);
    expect(await app.knex('client_order_payments').where({ studioId: s.studio.id })).toHaveLength(1);
  });

  it('pays from the wallet and cash together', async () => {
    const s = await retailStudio();
    await app.knex('client_wallet_payments').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      clientId: s.client.id,
      amount: 20000,
      currency: 'PLN',
      kind: 'top_up',
    });
    const tooMuch = await s.owner.post(api(s.studio, 'retail/validate'), {
      clientId: s.client.id,
      items: [{ type: 'pricingOption', id: s.passId }],
      payments: [{ method: PaymentMethod.wallet, amount: 25000 }],
    });
    expect(tooMuch.body).toMatchObject({
      walletBalance: 20000,
      canCheckout: false,
      problems: { payments: ['walletTooLow'] },
    });
    const sold = await sell(s.owner, s.studio, {
      clientId: s.client.id,
      items: [{ type: 'pricingOption', id: s.passId }],
      payments: [
        { method: PaymentMethod.wallet, amount: 20000 },
        { method: PaymentMethod.cash, amount: 5000 },
      ],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.orders[0].status).toBe(OrderStatus.paid);
    expect(sold.body.receipt.payments).toEqual([
      { type: 'other', amount: 20000 },
      { type: 'cash', amount: 5000 },
    ]);
    const wallet = await s.owner.get(api(s.studio, `client-wallet/${s.client.id}/init`));
    expect(wallet.body.wallet.balance).toBe(0);
  });
});

describe('receipts to print', () => {
  it('lists receipts still to print, hands them to the station, and keeps a printed one from printing twice', async () => {
    const s = await retailStudio();
    const printer = await s.owner.post(api(s.studio, 'fiscal-printer'), {
      name: 'Front desk',
      stationSlug: 'front-1',
      connection: { kind: 'tcp', host: '127.0.0.1', port: 6666 },
    });
    expect(printer.status, printer.text).toBe(201);
    const a = await sell(s.owner, s.studio, {
      clientId: null,
      items: [{ type: 'product', id: s.barId, quantity: 2 }],
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
      stationSlug: 'front-1',
    });
    const b = await sell(s.owner, s.studio, {
      clientId: s.client.id,
      items: [{ type: 'product', id: s.waterId }],
      payments: [{ method: PaymentMethod.terminal, amount: 500 }],
    });
    expect([a.status, b.status]).toEqual([201, 201]);

    const init = await s.owner.get(api(s.studio, 'fiscal-receipt-batch-print/init'));
    expect(init.body).toMatchObject({ counts: { toPrint: 2, needsAttention: 0 }, stations: ['front-1'] });
    const list = await s.owner.get(api(s.studio, 'fiscal-receipt-batch-print/collection'));
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([b.body.receipt.id, a.body.receipt.id]);

    const printed = await s.owner.post(api(s.studio, 'fiscal-receipt-batch-print/print'), {
      receiptIds: [a.body.receipt.id, b.body.receipt.id],
      stationSlug: 'front-1',
    });
    expect(printed.status, printed.text).toBe(200);
    const jobA = printed.body.jobs[0];
    expect(jobA).toMatchObject({
      saleId: a.body.receipt.id,
      stationSlug: 'front-1',
      lines: [{ name: 'Protein bar', unitPrice: 799, quantity: '2', vatRate: 800 }],
      payments: [{ type: 'cash', amount: 2000 }],
      change: 402,
      total: 1598,
    });

    // The station prints receipt A and reports it; the cloud's own check accepts our totals.
    const report = await s.owner.post(api(s.studio, 'fiscal-printer/front-1'), {
      documents: [
        {
          saleId: jobA.saleId,
          lines: jobA.lines,
          discount: jobA.discount,
          payments: jobA.payments,
          outcome: { status: 'printed', receiptNumber: 17, total: jobA.total },
        },
      ],
    });
    expect(report.status, report.text).toBe(200);

    const after = await s.owner.get(api(s.studio, 'fiscal-receipt-batch-print/collection'));
    expect(after.body.items.map((r: { id: string }) => r.id)).toEqual([b.body.receipt.id]);
    const all = await s.owner.get(api(s.studio, 'fiscal-receipt-batch-print/collection?status=all'));
    const printedA = all.body.items.find((r: { id: string }) => r.id === a.body.receipt.id);
    expect(printedA).toMatchObject({ status: 'printed', receiptNumber: 17, printRequests: 1 });

    const twice = await s.owner.post(api(s.studio, `client-order/${a.body.orders[0].id}/print-receipt`), {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.key).toBe('receipt.alreadyPrinted');
    const batchTwice = await s.owner.post(api(s.studio, 'fiscal-receipt-batch-print/print'), {
      receiptIds: [b.body.receipt.id, a.body.receipt.id],
    });
    expect(batchTwice.status).toBe(409);
    expect(batchTwice.body.error.fields).toEqual({ 'receiptIds.1': ['alreadyPrinted'] });

    // Receipt B can be printed from its order.
    const fromOrder = await s.owner.post(
      api(s.studio, `client-order/${b.body.orders[0].id}/print-receipt`),
      {},
    );
    expect(fromOrder.status).toBe(200);
    expect(fromOrder.body.jobs[0]).toMatchObject({ saleId: b.body.receipt.id, total: 500 });
  });

  it('makes the receipt of an order paid outside the POS when it is asked for', async () => {
    const s = await retailStudio();
    const sold = await sell(s.owner, s.studio, {
      clientId: s.client.id,
      items: [{ type: 'product', id: s.barId, status: RetailItemStatus.unpaid }],
    });
    const orderId = sold.body.orders[0].id;
    const paid = await s.owner.post(api(s.studio, `client-order/${orderId}/payment`), {
      method: PaymentMethod.bankTransfer,
    });
    expect(paid.status, paid.text).toBe(201);
    const print = await s.owner.post(api(s.studio, `client-order/${orderId}/print-receipt`), {});
    expect(print.status, print.text).toBe(200);
    expect(print.body.jobs[0]).toMatchObject({
      lines: [{ name: 'Protein bar', unitPrice: 799, quantity: '1', vatRate: 800 }],
      payments: [{ type: 'transfer', amount: 799 }],
      total: 799,
    });
    // Asking again prints the same receipt (a reprint request), not a second one.
    const again = await s.owner.post(api(s.studio, `client-order/${orderId}/print-receipt`), {});
    expect(again.body.jobs[0].saleId).toBe(print.body.jobs[0].saleId);
    expect(await app.knex('retail_receipts').where({ studioId: s.studio.id })).toHaveLength(1);
  });
});
