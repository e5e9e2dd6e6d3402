import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { lineColumnKeys, paymentRows, pdfTitleKey } from './invoice-pdf';
import { TEST_SELLER_SETTINGS } from './testing/seller-settings';

/** Issue 19: reverse charge where the law provides it, the exemption basis, paid invoices. */
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const SETTINGS = TEST_SELLER_SETTINGS;
const PL_BUYER = {
  name: 'Firma Jogi sp. z o.o.',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: '7740001454',
};
const DE_BUYER = {
  name: 'Tanzschule GmbH',
  addressLine: 'Hauptstr. 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  taxId: 'DE123456789',
};
const line = (over: Record<string, unknown> = {}) => ({
  description: 'Warsztaty jogi',
  quantity: '1',
  unit: 'usł.',
  unitPrice: 50000,
  vatRate: 2300,
  ...over,
});

async function setUp(settings: Record<string, unknown> = {}) {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const saved = await owner.request('PUT', api(scenario.studio, 'invoice-settings'), {
    ...SETTINGS,
    ...settings,
  });
  expect(saved.status, saved.text).toBe(200);
  return { ...scenario, owner };
}

async function order(studio: Studio, lines: { kind: string; name: string; price: number; rate: string }[]) {
  const id = uuidv7();
  const total = lines.reduce((a, l) => a + l.price, 0);
  await app.knex('client_orders').insert({
    id,
    studioId: studio.id,
    clientId: null,
    source: 'desk',
    status: 1,
    currency: 'PLN',
    subtotal: total,
    discount: 0,
    total,
    paidAt: NOW,
  });
  await app.knex('client_order_lines').insert(
    lines.map((l, i) => ({
      id: uuidv7(),
      studioId: studio.id,
      orderId: id,
      position: i,
      kind: l.kind,
      name: l.name,
      quantity: 1,
      unitPrice: l.price,
      vatRate: l.rate,
      total: l.price,
    })),
  );
  return id;
}

describe('reverse charge', () => {
  it('only for services to a business outside Poland: a Polish buyer and goods are field errors', async () => {
    const { studio, owner } = await setUp();
    const domestic = await owner.post(api(studio, 'invoice'), {
      buyer: PL_BUYER,
      vatTreatment: 'reverseCharge',
      lines: [line()],
    });
    expect(domestic.status).toBe(400);
    expect(domestic.body.error.fields.vatTreatment).toEqual([
      'reverse charge applies only to services for a business outside Poland',
    ]);
    const goods = await order(studio, [
      { kind: 'pass', name: 'Karnet', price: 20000, rate: '2300' },
      { kind: 'product', name: 'Mata', price: 9900, rate: '2300' },
    ]);
    const withGoods = await owner.post(api(studio, `client-order/${goods}/invoice`), {
      buyer: DE_BUYER,
      vatTreatment: 'reverseCharge',
    });
    expect(withGoods.status).toBe(400);
    expect(withGoods.body.error.fields.vatTreatment).toEqual([
      'reverse charge applies to services only: this order includes goods',
    ]);
    const services = await order(studio, [{ kind: 'pass', name: 'Karnet', price: 20000, rate: '2300' }]);
    const abroad = await owner.post(api(studio, `client-order/${services}/invoice`), {
      buyer: DE_BUYER,
      vatTreatment: 'reverseCharge',
    });
    expect(abroad.status, abroad.text).toBe(201);
    expect(abroad.body).toMatchObject({ number: 'FV/2026/000001', vatTreatment: 'reverseCharge' });
    expect(abroad.body.totals).toMatchObject({ net: 20000, vat: 0, gross: 20000 });
    // Correcting the buyer to a Polish one would make it domestic reverse charge.
    const corrected = await owner.post(api(studio, `invoice/${abroad.body.id}/corrective`), {
      reason: 'Zły nabywca',
      lines: [line({ description: 'Karnet', unitPrice: 20000 })],
      buyer: PL_BUYER,
    });
    expect(corrected.status).toBe(400);
    expect(corrected.body.error.fields['buyer.country']).toBeDefined();
  });
});

describe('exemption basis', () => {
  it('a VAT payer needs the basis saved before an exempt line is invoiced; it is printed as saved', async () => {
    const { studio, owner } = await setUp();
    const exemptLine = line({ vatRate: 'exempt' });
    const refused = await owner.post(api(studio, 'invoice'), {
      buyer: PL_BUYER,
      lines: [line(), exemptLine],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.exemptionBasis).toEqual([
      'the legal basis of the VAT exemption is required: save it in the invoice settings',
    ]);
    await owner.request('PUT', api(studio, 'invoice-settings'), {
      ...SETTINGS,
      vatExemptionBasis: 'art. 43 ust. 1 pkt 32 ustawy o VAT',
    });
    const res = await owner.post(api(studio, 'invoice'), { buyer: PL_BUYER, lines: [line(), exemptLine] });
    expect(res.status, res.text).toBe(201);
    // The refusal took no number.
    expect(res.body).toMatchObject({ number: 'FV/2026/000001', sellerVatExempt: false });
    expect(res.body.notes).toEqual([{ kind: 'vatExempt', basis: 'art. 43 ust. 1 pkt 32 ustawy o VAT' }]);
    expect(pdfTitleKey(res.body)).toBe('invoice');
    expect(lineColumnKeys(res.body)).toContain('vat');
    // Without an exempt line no basis is printed.
    const plain = await owner.post(api(studio, 'invoice'), { buyer: PL_BUYER, lines: [line()] });
    expect(plain.body.notes).toEqual([]);
  });

  it('a seller exempt under art. 113 issues a "Faktura" without VAT columns', async () => {
    const { studio, owner } = await setUp({ vatExempt: true });
    const res = await owner.post(api(studio, 'invoice'), { buyer: PL_BUYER, lines: [line()] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ vatTreatment: 'exempt', sellerVatExempt: true });
    expect(res.body.notes[0].basis).toMatch(/^art\. 113 ust\. 1 /);
    expect(pdfTitleKey(res.body)).toBe('invoiceNoVat');
    expect(lineColumnKeys(res.body)).toEqual(['lp', 'description', 'quantity', 'unit', 'price', 'gross']);
    const pdf = await fetch(app.url + api(studio, `invoice/${res.body.id}/pdf`), {
      headers: owner.headers(),
    });
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text).toContain('Faktura FV/2026/000001');
    expect(text).not.toContain('Faktura VAT');
  });
});

describe('payment on the printed invoice', () => {
  it('a paid invoice prints no deadline and no account; an unpaid one does', async () => {
    const { studio, owner } = await setUp();
    const paid = await owner.post(api(studio, 'invoice'), {
      buyer: PL_BUYER,
      paymentMethod: 1,
      paidAmount: 50000,
      lines: [line()],
    });
    expect(paid.body.payment.state).toBe('paid');
    const labels = (rows: [string, string][]) => rows.map(([label]) => label);
    expect(labels(paymentRows(paid.body))).toEqual(['Sposób płatności', 'Zapłacono']);
    const unpaid = await owner.post(api(studio, 'invoice'), { buyer: PL_BUYER, lines: [line()] });
    expect(labels(paymentRows(unpaid.body))).toEqual(['Sposób płatności', 'Termin płatności', 'Nr konta']);
  });
});
