import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { PaymentMethod } from '../../../../shared/enums';
import type { Studio } from '../identity/rows';
import { paymentRows } from './invoice-pdf';
import { validateFa3 } from './testing/fa3-schema';
import { TEST_SELLER_SETTINGS } from './testing/seller-settings';

/**
 * Issue 26: an order paid several ways (part cash, part terminal; wallet and card) keeps the split on
 * its invoice: the draft, the invoice's view and the PDF's payment rows name each method with its amount.
 */
const NOW = new Date('2026-11-27T09:00:00Z');
const app = useTestApp({ clock: new ManualClock(NOW) });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const BUYER = { name: 'Julia Nowak', addressLine: 'ul. Złota 44/12', postalCode: '00-120', city: 'Warszawa' };

async function setUp() {
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const saved = await owner.request('PUT', api(scenario.studio, 'invoice-settings'), TEST_SELLER_SETTINGS);
  expect(saved.status, saved.text).toBe(200);
  return { ...scenario, owner };
}

/** A paid desk order of one pass and its payments (`[method, amount, refunded?]`). */
async function paidOrder(studio: Studio, payments: [number, number, number?][]) {
  const id = uuidv7();
  const total = payments.reduce((a, [, amount]) => a + amount, 0);
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
  await app.knex('client_order_lines').insert({
    id: uuidv7(),
    studioId: studio.id,
    orderId: id,
    position: 0,
    kind: 'pass',
    name: 'Karnet 8 wejść',
    quantity: 1,
    unitPrice: total,
    vatRate: '2300',
    total,
  });
  for (const [method, amount, refunded] of payments) {
    const paymentId = uuidv7();
    await app.knex('client_order_payments').insert({
      id: paymentId,
      studioId: studio.id,
      orderId: id,
      method,
      amount,
      currency: 'PLN',
      status: 'succeeded',
    });
    if (refunded)
      await app.knex('client_order_refunds').insert({
        id: uuidv7(),
        studioId: studio.id,
        orderId: id,
        paymentId,
        amount: refunded,
        status: 'success',
      });
  }
  return id;
}

describe('a split payment on the invoice', () => {
  it('the draft, the issued invoice and its PDF rows name each method with its amount', async () => {
    const { studio, owner } = await setUp();
    const order = await paidOrder(studio, [
      [PaymentMethod.terminal, 3000],
      [PaymentMethod.cash, 25000],
      [PaymentMethod.cash, 2000],
    ]);
    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.status, draft.text).toBe(200);
    // Summed per method, largest first.
    expect(draft.body.paymentSplit).toEqual([
      { method: PaymentMethod.cash, amount: 27000 },
      { method: PaymentMethod.terminal, amount: 3000 },
    ]);
    const issued = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.payment.split).toEqual(draft.body.paymentSplit);
    const read = await owner.get(api(studio, `invoice/${issued.body.id}`));
    expect(read.body.payment.split).toEqual(draft.body.paymentSplit);
    expect(paymentRows(read.body)[0]).toEqual([
      'Sposoby płatności',
      'Gotówka 270,00 PLN, Terminal płatniczy 30,00 PLN',
    ]);
    const pdf = await owner.request('GET', api(studio, `invoice/${issued.body.id}/pdf`));
    expect(pdf.status).toBe(200);

    // KSeF FA(3): paid in full in two parts, each with its amount, date and form of payment.
    const res = await fetch(app.url + api(studio, `invoice/${issued.body.id}/ksef.xml`), {
      headers: owner.headers(),
    });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(validateFa3({ split: xml })).toEqual({ split: 'validates' });
    const platnosc = xml.slice(xml.indexOf('<Platnosc>'), xml.indexOf('</Platnosc>'));
    const compact = platnosc.replace(/\s+/g, '');
    expect(compact).toBe(
      '<Platnosc><ZnacznikZaplatyCzesciowej>2</ZnacznikZaplatyCzesciowej>' +
        '<ZaplataCzesciowa><KwotaZaplatyCzesciowej>270.00</KwotaZaplatyCzesciowej>' +
        '<DataZaplatyCzesciowej>2026-11-27</DataZaplatyCzesciowej><FormaPlatnosci>1</FormaPlatnosci></ZaplataCzesciowa>' +
        '<ZaplataCzesciowa><KwotaZaplatyCzesciowej>30.00</KwotaZaplatyCzesciowej>' +
        '<DataZaplatyCzesciowej>2026-11-27</DataZaplatyCzesciowej><FormaPlatnosci>2</FormaPlatnosci></ZaplataCzesciowa>',
    );
    expect(xml).toContain('<P_15>300.00</P_15>');
  });

  it('KSeF: a wallet + online split names the other forms; an unsplit paid invoice keeps Zaplacono', async () => {
    const { studio, owner } = await setUp();
    const split = await paidOrder(studio, [
      [PaymentMethod.online, 6000],
      [PaymentMethod.wallet, 4000],
    ]);
    const one = await paidOrder(studio, [[PaymentMethod.cash, 5000]]);
    const xmls: Record<string, string> = {};
    for (const [name, order] of Object.entries({ split, one })) {
      const issued = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
      expect(issued.status, issued.text).toBe(201);
      const res = await fetch(app.url + api(studio, `invoice/${issued.body.id}/ksef.xml`), {
        headers: owner.headers(),
      });
      xmls[name] = await res.text();
    }
    expect(validateFa3(xmls)).toEqual({ split: 'validates', one: 'validates' });
    for (const name of Object.keys(xmls)) xmls[name] = xmls[name]!.replace(/\s+/g, '');
    expect(xmls.split).toContain(
      '<KwotaZaplatyCzesciowej>60.00</KwotaZaplatyCzesciowej><DataZaplatyCzesciowej>2026-11-27</DataZaplatyCzesciowej>' +
        '<PlatnoscInna>1</PlatnoscInna><OpisPlatnosci>płatnośćonline</OpisPlatnosci>',
    );
    expect(xmls.split).toContain('<KwotaZaplatyCzesciowej>40.00</KwotaZaplatyCzesciowej>');
    expect(xmls.split).toContain('<OpisPlatnosci>portfel(przedpłata)</OpisPlatnosci>');
    expect(xmls.split).not.toContain('<Zaplacono>');
    expect(xmls.one).toContain(
      '<Zaplacono>1</Zaplacono><DataZaplaty>2026-11-27</DataZaplaty><FormaPlatnosci>1</FormaPlatnosci>',
    );
    expect(xmls.one).not.toContain('ZaplataCzesciowa');
  });

  it('one method (after refunds) is no split: the single method is printed as before', async () => {
    const { studio, owner } = await setUp();
    // The card part was refunded in full: what is left was paid in cash only.
    const order = await paidOrder(studio, [
      [PaymentMethod.cash, 16000],
      [PaymentMethod.paymentCard, 4000, 4000],
    ]);
    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.body.paymentSplit).toBeNull();
    const issued = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.payment.split).toBeNull();
    expect(paymentRows(issued.body)[0]![0]).toBe('Sposób płatności');
    // A typed-in invoice has no split either.
    const typed = await owner.post(api(studio, 'invoice'), {
      buyer: { ...BUYER, taxId: '7740001454' },
      paymentMethod: PaymentMethod.cash,
      paidAmount: 1000,
      lines: [{ description: 'Mata', quantity: '1', unit: 'szt.', unitPrice: 1000, vatRate: 2300 }],
    });
    expect(typed.status, typed.text).toBe(201);
    expect(typed.body.payment.split).toBeNull();
  });
});
