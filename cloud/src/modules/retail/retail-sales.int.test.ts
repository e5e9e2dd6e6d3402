import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod, RetailItemStatus } from '../../../../shared/enums';
import { createStudioScenario } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';

/**
 * The desk sales retail.int.test.ts does not walk: a contract sold at the POS, a voucher redeemed on a
 * sale (and not twice), and the VAT table of the station's fiscal printer (slot letters on the
 * receipt, a rate the printer has no slot for refused before the sale).
 */

const app = useTestApp();

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const key = () => `retail-${uuidv7()}`;
const sell = (http: HttpClient, studio: Studio, body: unknown, idempotencyKey = key()) =>
  http.post(api(studio, 'retail/checkout'), body, { headers: { 'idempotency-key': idempotencyKey } });
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

/** A studio with 23 % and 8 % taxes, water (5 zł, 23 %) and a protein bar (7,99 zł, 8 %). */
async function deskStudio() {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const vat23 = uuidv7();
  const vat8 = uuidv7();
  await app.knex('taxes').insert([
    { id: vat23, studioId: studio.id, name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A', isDefault: true },
    { id: vat8, studioId: studio.id, name: 'VAT 8%', rateBp: 800, fiscalSlot: 'B', isDefault: false },
  ]);
  const waterId = uuidv7();
  const barId = uuidv7();
  await app.knex('products').insert([
    { id: waterId, studioId: studio.id, name: 'Water', price: 500, taxId: vat23, trackStock: false },
    { id: barId, studioId: studio.id, name: 'Protein bar', price: 799, taxId: vat8, trackStock: false },
  ]);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  return { ...scenario, owner, waterId, barId };
}

describe('a contract sold at the desk', () => {
  it('creates the client contract, pays what is due today with the rest and puts it on the receipt', async () => {
    const { studio, owner, client, waterId } = await deskStudio();
    const created = await owner.post(api(studio, 'contract'), {
      name: lt('Open membership', 'Karnet open'),
      price: 19900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 12,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
      noticePeriods: 1,
      signUpFee: 4900,
      sellAtDesk: true,
    });
    expect(created.status, created.text).toBe(201);
    const contractId = created.body.id as string;

    const basket = {
      clientId: client.id,
      items: [
        { type: 'contract', id: contractId },
        { type: 'product', id: waterId, quantity: 1 },
      ],
    };
    const quote = await owner.post(api(studio, 'retail/validate'), basket);
    expect(quote.status, quote.text).toBe(200);
    const contractItem = quote.body.items.find((i: { type: string }) => i.type === 'contract');
    // What the contract asks on the day of sale: the first period and the sign-up fee.
    expect(contractItem.total).toBe(19900 + 4900);
    expect(quote.body.due).toBe(19900 + 4900 + 500);

    // A contract is paid now or left unpaid, never scheduled.
    const scheduled = await owner.post(api(studio, 'retail/validate'), {
      ...basket,
      items: [{ type: 'contract', id: contractId, status: RetailItemStatus.scheduled }],
      scheduledFor: '2099-01-01',
    });
    expect(scheduled.body.problems['items.0.status']).toEqual(['contractPayNowOrUnpaid']);

    const sold = await sell(owner, studio, {
      ...basket,
      payments: [{ method: PaymentMethod.terminal, amount: quote.body.due }],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.orders.every((o: { status: number }) => o.status === OrderStatus.paid)).toBe(true);
    expect(sold.body.receipt.totals.total).toBe(19900 + 4900 + 500);
    expect(sold.body.receipt.totals.lines.map((l: { name: string }) => l.name)).toContain('Water');

    const contracts = await app.knex('client_contracts').where({ studioId: studio.id, clientId: client.id });
    expect(contracts).toHaveLength(1);
    // The contract's own orders (instalment, fee) are paid by the sale, and only those are due.
    const contractOrders = await app
      .knex('client_orders')
      .where({ studioId: studio.id, clientId: client.id })
      .whereNot({ source: 'desk' });
    expect(contractOrders.length).toBeGreaterThan(0);
    expect(contractOrders.every((o: { status: number }) => o.status === OrderStatus.paid)).toBe(true);
    expect(contractOrders.reduce((sum: number, o: { total: number }) => sum + o.total, 0)).toBe(24800);
  });
});

describe('a voucher at the desk', () => {
  it('takes the discount off the pay-now products once; a used-up voucher is a problem of the basket', async () => {
    const { studio, owner, waterId } = await deskStudio();
    const voucher = await owner.post(api(studio, 'voucher'), {
      code: `DESK-${uuidv7().slice(-6)}`,
      type: 0,
      discountType: 'percentage',
      value: 1000,
      appliesTo: 'all',
    });
    expect(voucher.status, voucher.text).toBe(201);
    const basket = {
      clientId: null,
      items: [{ type: 'product', id: waterId, quantity: 4 }],
      voucherCode: (voucher.body.code as string).toLowerCase(),
    };
    const quote = await owner.post(api(studio, 'retail/validate'), basket);
    expect(quote.body.voucher).toMatchObject({ discount: 200 });
    expect(quote.body.due).toBe(1800);
    expect(quote.body.problems).toEqual({});
    // Validating previews the redemption without recording it.
    expect(await app.knex('voucher_redemptions').where({ voucherId: voucher.body.id })).toHaveLength(0);

    const sold = await sell(owner, studio, {
      ...basket,
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.change).toBe(200);
    expect(sold.body.receipt.totals).toMatchObject({ subtotal: 2000, discount: 200, total: 1800 });
    const order = await app.knex('client_orders').where({ id: sold.body.orders[0].id }).first();
    expect(order).toMatchObject({ discount: 200, total: 1800, status: OrderStatus.paid });
    expect(await app.knex('voucher_redemptions').where({ voucherId: voucher.body.id })).toHaveLength(1);

    // Single use: the next basket with it shows the problem and cannot be sold.
    const again = await owner.post(api(studio, 'retail/validate'), basket);
    expect(again.body.problems.voucherCode).toEqual(['voucherUsedUp']);
    expect(again.body.canCheckout).toBe(false);
    const refused = await sell(owner, studio, {
      ...basket,
      payments: [{ method: PaymentMethod.cash, amount: 2000 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.voucherCode).toEqual(['voucherUsedUp']);
    expect(await app.knex('voucher_redemptions').where({ voucherId: voucher.body.id })).toHaveLength(1);
  });
});

describe("the station printer's VAT table", () => {
  /** A fiscal printer at `front-1` programmed C 23 %, A 5 %, no 8 % slot. */
  async function withPrinter(studioId: string, reported: unknown[] | null = null) {
    await app.knex('studio_fiscal_printers').insert({
      id: uuidv7(),
      studioId,
      name: 'Front desk',
      stationSlug: 'front-1',
      connection: JSON.stringify({ kind: 'tcp', host: '127.0.0.1', port: 6666 }),
      vatSlots: JSON.stringify([500, 0, 2300, 'exempt', 'inactive', 'inactive', 'inactive']),
      lastStatus: reported ? JSON.stringify({ vatSlots: reported }) : null,
    });
  }

  it("letters the receipt by the station's slots and refuses a rate its printer cannot print", async () => {
    const { studio, owner, waterId, barId } = await deskStudio();
    await withPrinter(studio.id);
    const water = { clientId: null, items: [{ type: 'product', id: waterId, quantity: 2 }] };

    // Without a station: the default table (23 % is A).
    const plain = await owner.post(api(studio, 'retail/validate'), water);
    expect(plain.body.receipt.vatGroups.map((g: { slot: string }) => g.slot)).toEqual(['A']);
    // At front-1 (any case): 23 % is C there.
    const atStation = await owner.post(api(studio, 'retail/validate'), { ...water, stationSlug: 'FRONT-1' });
    expect(atStation.body.receipt.vatGroups.map((g: { slot: string }) => g.slot)).toEqual(['C']);
    expect(atStation.body.problems).toEqual({});

    // The bar is 8 %: the printer has no slot for it.
    const bar = {
      clientId: null,
      items: [
        { type: 'product', id: waterId, quantity: 1 },
        { type: 'product', id: barId, quantity: 1 },
      ],
      stationSlug: 'front-1',
    };
    const quote = await owner.post(api(studio, 'retail/validate'), bar);
    expect(quote.body.problems).toEqual({ 'items.1.id': ['noVatSlot'] });
    expect(quote.body.canCheckout).toBe(false);
    const refused = await sell(owner, studio, {
      ...bar,
      payments: [{ method: PaymentMethod.cash, amount: 1299 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      key: 'retail.basketInvalid',
      fields: { 'items.1.id': ['noVatSlot'] },
    });
    // Another station without a printer, or none: sold as before.
    const elsewhere = await sell(owner, studio, {
      ...bar,
      stationSlug: 'back-2',
      payments: [{ method: PaymentMethod.cash, amount: 1299 }],
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);

    // The sale at front-1 keeps the station's letters in the receipt lists too.
    const sold = await sell(owner, studio, {
      ...water,
      stationSlug: 'front-1',
      payments: [{ method: PaymentMethod.cash, amount: 1000 }],
    });
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.receipt.totals.vatGroups.map((g: { slot: string }) => g.slot)).toEqual(['C']);
    const list = await owner.get(api(studio, 'fiscal-receipt-batch-print/collection?status=all'));
    const letters = Object.fromEntries(
      list.body.items.map((r: { stationSlug: string | null; totals: { vatGroups: { slot: string }[] } }) => [
        r.stationSlug ?? 'none',
        r.totals.vatGroups.map((g) => g.slot).join(''),
      ]),
    );
    expect(letters).toEqual({ 'front-1': 'C', 'back-2': 'AB' });
  });

  it('what the station last read from its printer wins over the configured table', async () => {
    const { studio, owner, barId } = await deskStudio();
    await withPrinter(studio.id, [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive']);
    const quote = await owner.post(api(studio, 'retail/validate'), {
      clientId: null,
      items: [{ type: 'product', id: barId, quantity: 1 }],
      stationSlug: 'front-1',
    });
    expect(quote.body.problems).toEqual({});
    expect(quote.body.receipt.vatGroups.map((g: { slot: string }) => g.slot)).toEqual(['B']);
  });

  it('refuses a malformed station slug field by field', async () => {
    const { studio, owner, waterId } = await deskStudio();
    const res = await owner.post(api(studio, 'retail/validate'), {
      clientId: null,
      items: [{ type: 'product', id: waterId, quantity: 1 }],
      stationSlug: 'front 1!',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toEqual(['stationSlug']);
  });
});
