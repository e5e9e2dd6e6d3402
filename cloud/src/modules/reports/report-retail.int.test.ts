import ExcelJS from 'exceljs';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/domain/clients/csv';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { receiptedOrder } from '../invoices/testing/receipted-order';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';

/**
 * Voucher liability, stock, and the fiscal receipts and invoices of a period (issue 20): what each
 * shows for the period, its totals, its CSV and XLSX, and who may see it.
 */
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const NOVEMBER = 'from=2026-11-01&to=2026-11-30';
const at = (iso: string) => new Date(iso);

async function download(client: HttpClient, studio: Studio, path: string) {
  return fetch(app.url + api(studio, path), { headers: client.headers() });
}

describe('retail reports', () => {
  it('voucher liability: uses and discount of the period, uses left and what fixed amounts can still take off', async () => {
    clock.set(NOW);
    const { studio, manager, client } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const voucher = async (
      code: string,
      v: { discountType: string; value: number } & Record<string, unknown>,
    ) => {
      const id = uuidv7();
      await app.knex('vouchers').insert({
        id,
        studioId: studio.id,
        code,
        type: 1,
        currency: 'PLN',
        createdAt: at('2026-09-01T10:00:00Z'),
        ...v,
      });
      return id;
    };
    const redeem = async (voucherId: string, useNumber: number, discount: number, when: string) =>
      app.knex('voucher_redemptions').insert({
        id: uuidv7(),
        studioId: studio.id,
        voucherId,
        useNumber,
        clientId: client.id,
        basketTotal: 20000,
        eligibleTotal: 20000,
        discount,
        currency: 'PLN',
        createdAt: at(when),
      });
    const fixed = await voucher('LATO50', { discountType: 'amount', value: 5000, usageLimitTotal: 10 });
    await redeem(fixed, 1, 5000, '2026-10-20T10:00:00Z'); // October: a use, not of the period
    await redeem(fixed, 2, 5000, '2026-11-05T10:00:00Z');
    await redeem(fixed, 3, 5000, '2026-11-30T22:59:00Z'); // 23:59 on 30 November in Warsaw
    const percent = await voucher('JESIEN10', { discountType: 'percentage', value: 1000 });
    await redeem(percent, 1, 1800, '2026-11-10T10:00:00Z');
    // Ended in October, never used in November: not shown. Archived in November but used: shown, no liability.
    await voucher('STARY', {
      discountType: 'amount',
      value: 2000,
      usageLimitTotal: 5,
      validTo: '2026-10-31',
    });
    const archived = await voucher('ZAMKNIETY', {
      discountType: 'amount',
      value: 1000,
      usageLimitTotal: 3,
      archivedAt: at('2026-11-15T10:00:00Z'),
    });
    await redeem(archived, 1, 1000, '2026-11-02T10:00:00Z');

    const res = await owner.get(api(studio, `report/voucher-liability?${NOVEMBER}`));
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows).toEqual([
      {
        voucher: 'JESIEN10',
        discountType: 'reports:discountType.percentage',
        amountOff: null,
        percentOff: 10,
        uses: 1,
        discountGiven: 1800,
        usesLeft: null,
        liability: null,
      },
      {
        voucher: 'LATO50',
        discountType: 'reports:discountType.amount',
        amountOff: 5000,
        percentOff: null,
        uses: 2,
        discountGiven: 10000,
        usesLeft: 7,
        liability: 35000,
      },
      expect.objectContaining({ voucher: 'ZAMKNIETY', uses: 1, discountGiven: 1000, liability: null }),
    ]);
    expect(res.body.totals).toMatchObject({ uses: 4, discountGiven: 12800, liability: 35000 });

    // At the end of October: LATO50 had 9 uses left, ZAMKNIETY 3; STARY ended with October.
    const october = await owner.get(api(studio, 'report/voucher-liability?from=2026-10-01&to=2026-10-31'));
    expect(october.body.rows.map((r: { voucher: string }) => r.voucher)).toEqual([
      'JESIEN10',
      'LATO50',
      'ZAMKNIETY',
    ]);
    expect(october.body.totals.liability).toBe(9 * 5000 + 3 * 1000);

    const csv = await download(owner, studio, `report/voucher-liability/export?${NOVEMBER}&format=csv`);
    expect(csv.status).toBe(200);
    const rows = parseCsv(await csv.text(), ';');
    expect(rows[0]).toEqual([
      'Kod',
      'Rabat',
      'Kwota rabatu',
      'Rabat %',
      'Użycia',
      'Udzielony rabat',
      'Pozostałe użycia',
      'Zobowiązanie',
    ]);
    expect(rows[2]).toEqual(['LATO50', 'Kwotowy', '50,00', '', '2', '100,00', '7', '350,00']);
  });

  it('stock: at the start, received, sold, adjusted, at the end and its value', async () => {
    clock.set(NOW);
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    let tax = await app.knex('taxes').where({ studioId: studio.id }).first();
    if (!tax) {
      [tax] = await app
        .knex('taxes')
        .insert({ id: uuidv7(), studioId: studio.id, name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A' })
        .returning('*');
    }
    const product = async (name: string, price: number, trackStock = true) => {
      const id = uuidv7();
      await app.knex('products').insert({
        id,
        studioId: studio.id,
        name,
        price,
        taxId: tax!.id,
        trackStock,
        createdAt: at('2026-09-01T10:00:00Z'),
      });
      return id;
    };
    const move = (productId: string, quantity: number, reason: string, when: string) =>
      app.knex('product_stock_movements').insert({
        id: uuidv7(),
        studioId: studio.id,
        productId,
        quantity,
        reason,
        createdAt: at(when),
      });
    const water = await product('Woda', 399);
    await move(water, 50, 'initial', '2026-09-01T10:00:00Z');
    await move(water, -20, 'sale', '2026-10-15T10:00:00Z');
    await move(water, 24, 'delivery', '2026-11-03T10:00:00Z');
    await move(water, -10, 'sale', '2026-11-10T10:00:00Z');
    await move(water, 1, 'return', '2026-11-11T10:00:00Z');
    await move(water, -2, 'loss', '2026-11-12T10:00:00Z');
    await move(water, 5, 'delivery', '2026-12-01T10:00:00Z'); // after the period
    const mat = await product('Mata', 12900);
    await move(mat, 3, 'initial', '2026-11-20T10:00:00Z');
    await product('Karta podarunkowa', 5000, false); // stock not tracked: not in the report

    const res = await owner.get(api(studio, `report/stock?${NOVEMBER}`));
    expect(res.status, res.text).toBe(200);
    expect(res.body.rows).toEqual([
      {
        product: 'Mata',
        category: '',
        opening: 0,
        received: 3,
        sold: 0,
        adjusted: 0,
        closing: 3,
        stockValue: 3 * 12900,
      },
      {
        product: 'Woda',
        category: '',
        opening: 30,
        received: 24,
        sold: 9,
        adjusted: -2,
        closing: 43,
        stockValue: 43 * 399,
      },
    ]);
    expect(res.body.totals).toMatchObject({ closing: 46, stockValue: 3 * 12900 + 43 * 399 });

    const xlsx = await download(owner, studio, `report/stock/export?${NOVEMBER}&format=xlsx`);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Produkt');
    const woda = sheet.getRow(3);
    expect(woda.getCell(1).value).toBe('Woda');
    expect([3, 4, 5, 6, 7, 8].map((c) => woda.getCell(c).value)).toEqual([30, 24, 9, -2, 43, 171.57]);
  });

  it('receipts and invoices of the period: each document once, an invoice to a receipt not counted twice', async () => {
    clock.set(NOW);
    const scenario = await createStudioScenario(app.knex);
    const { studio } = scenario;
    const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
    const seller = await owner.request('PUT', api(studio, 'invoice-settings'), TEST_SELLER_SETTINGS);
    expect(seller.status, seller.text).toBe(200);
    const invoice = await owner.post(api(studio, 'invoice'), {
      buyer: {
        name: 'Firma Jogi sp. z o.o.',
        addressLine: 'ul. Źródlana 3',
        postalCode: '31-100',
        city: 'Kraków',
        taxId: '7740001454',
      },
      lines: [{ description: 'Wynajem sali', quantity: '2', unit: 'h', unitPrice: 12300, vatRate: 2300 }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    const order = await receiptedOrder(app, owner, studio, { paidAt: NOW, buyerNip: '7740001454' });
    const fp = await owner.post(api(studio, `client-order/${order}/invoice`), {
      buyer: {
        name: 'Firma Jogi sp. z o.o.',
        addressLine: 'ul. Źródlana 3',
        postalCode: '31-100',
        city: 'Kraków',
        taxId: '7740001454',
      },
    });
    expect(fp.status, fp.text).toBe(201);

    const res = await owner.get(api(studio, `report/fiscal-documents?${NOVEMBER}`));
    expect(res.status, res.text).toBe(200);
    const types = res.body.rows.map((r: { documentType: string }) => r.documentType);
    expect(types.sort()).toEqual([
      'reports:documentType.invoice',
      'reports:documentType.invoiceToReceipt',
      'reports:documentType.receipt',
    ]);
    const receipt = res.body.rows.find((r: { documentType: string }) => r.documentType.endsWith('.receipt'));
    expect(receipt).toMatchObject({ day: '2026-11-23', number: 'front-1 #5', gross: 12000 });
    const toReceipt = res.body.rows.find((r: { documentType: string }) =>
      r.documentType.endsWith('ToReceipt'),
    );
    expect(toReceipt).toMatchObject({ number: fp.body.number, gross: null, net: null });
    expect(toReceipt.receipt).not.toBe('');
    // The invoice 2 × 123.00 gross plus the receipt's 120.00; the invoice to the receipt adds nothing.
    expect(res.body.totals.gross).toBe(24600 + 12000);
    expect(res.body.totals.net + res.body.totals.vat).toBe(res.body.totals.gross);
    const december = await owner.get(api(studio, 'report/fiscal-documents?from=2026-12-01&to=2026-12-31'));
    expect(december.body.rowCount).toBe(0);
  });

  it('rights, bad input and other studios', async () => {
    clock.set(NOW);
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const desk = await createUser(app.knex);
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const frontDesk = await app.signedIn(desk.email, desk.password);
    const other = await createStudioScenario(app.knex);
    const stranger = await app.signedIn(other.manager.email, other.manager.password);
    for (const id of ['voucher-liability', 'stock', 'fiscal-documents']) {
      expect((await (await app.anonymous()).get(api(studio, `report/${id}?${NOVEMBER}`))).status).toBe(401);
      expect((await frontDesk.get(api(studio, `report/${id}?${NOVEMBER}`))).status).toBe(403);
      expect((await stranger.get(api(studio, `report/${id}?${NOVEMBER}`))).status).toBe(404);
      const bad = await owner.get(api(studio, `report/${id}?from=2026-11-30&to=2026-11-01`));
      expect(bad.status).toBe(400);
      expect(bad.body.error.fields['query.to']).toEqual(['the end is before the start']);
      expect((await owner.get(api(studio, `report/${id}?${NOVEMBER}`))).status).toBe(200);
    }
    const catalog = await owner.get(api(studio, 'report/all'));
    expect(catalog.body.items).toEqual(
      expect.arrayContaining([
        { id: 'voucher-liability', group: 'clients', filters: [] },
        { id: 'stock', group: 'sales', filters: [] },
        { id: 'fiscal-documents', group: 'sales', filters: [] },
      ]),
    );
  });
});
