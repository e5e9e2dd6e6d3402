import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../tests/support/test-app';
import { api, salesStudio, topUpDirect } from '../sales/sales-support';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';

/**
 * Issue 25, "texts in the viewer's language": a client shopping in English buys a pass named in
 * both languages; the order reads in each viewer's language and the (Polish) invoice in Polish, with
 * Polish units; a bilingual invoice names the line in both.
 */
const app = useTestApp();
const BUYER = {
  name: 'Żaneta Łęcka-Gąsior',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: 'PL 7740001454',
};

async function englishPurchase() {
  const s = await salesStudio(app);
  const en = { headers: { 'accept-language': 'en', cookie: 'locale=en' } };
  await topUpDirect(app, s.studio, s.client.id, 100000);
  const prepared = await s.clientHttp.post(
    api(s.studio, 'shopping-cart/prepare'),
    { items: [{ type: 'pricingOption', id: s.passId }] },
    en,
  );
  expect(prepared.body.items[0].name).toBe('10 entries');
  const checkout = await s.clientHttp.post(
    api(s.studio, 'shopping-cart/checkout'),
    { paymentMethod: 'wallet' },
    { headers: { ...en.headers, 'idempotency-key': `k-${uuidv7()}` } },
  );
  expect(checkout.status, checkout.text).toBe(201);
  const order = checkout.body.orderId ?? checkout.body.id;
  const settings = await s.owner.request('PUT', api(s.studio, 'invoice-settings'), TEST_SELLER_SETTINGS);
  expect(settings.status, settings.text).toBe(200);
  return { ...s, order: order as string };
}

describe('texts in the viewer language', () => {
  it('an order bought in English reads in Polish to a Polish viewer and on the Polish invoice', async () => {
    const s = await englishPurchase();
    const inPolish = await s.owner.get(api(s.studio, `client-order/${s.order}`), {
      headers: { cookie: 'locale=pl' },
    });
    expect(inPolish.status, inPolish.text).toBe(200);
    expect(inPolish.body.lines[0].name).toBe('Karnet 10 wejść');
    const inEnglish = await s.owner.get(api(s.studio, `client-order/${s.order}`), {
      headers: { cookie: 'locale=en' },
    });
    expect(inEnglish.body.lines[0].name).toBe('10 entries');

    const draft = await s.owner.get(api(s.studio, `client-order/${s.order}/invoice/init`));
    expect(draft.status, draft.text).toBe(200);
    expect(
      draft.body.lines.map((l: { description: string; unit: string }) => [l.description, l.unit]),
    ).toEqual([['Karnet 10 wejść', 'usł.']]);
    const invoice = await s.owner.post(api(s.studio, `client-order/${s.order}/invoice`), { buyer: BUYER });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.language).toBe('pl');
    expect(invoice.body.lines[0]).toMatchObject({ description: 'Karnet 10 wejść', unit: 'usł.' });
  });

  it('a bilingual invoice for a buyer abroad names the line and its unit in both languages', async () => {
    const s = await englishPurchase();
    const invoice = await s.owner.post(api(s.studio, `client-order/${s.order}/invoice`), {
      buyer: {
        name: 'Anna Schmidt',
        addressLine: 'Hauptstr. 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
      },
    });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.language).toBe('pl-en');
    expect(invoice.body.lines[0]).toMatchObject({
      description: 'Karnet 10 wejść / 10 entries',
      unit: 'usł./service',
    });
  });
});
