import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { validateFa3 } from './testing/fa3-schema';
import { receiptedOrder } from './testing/receipted-order';
import { TEST_SELLER_SETTINGS } from './testing/seller-settings';

/**
 * Every kind of invoice the product issues, downloaded as KSeF FA(3) XML and validated with xmllint
 * against the Ministry of Finance's schema (`shared/spec/ksef`, beside the clone: `testing/fa3-schema.ts`).
 */
const validate = validateFa3;

const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const SETTINGS = {
  ...TEST_SELLER_SETTINGS,
  bankName: 'Santander Bank Polska',
  vatExemptionBasis: 'art. 43 ust. 1 pkt 32 ustawy o VAT',
};
const PL_BUYER = {
  name: 'Firma Jogi & Syn sp. z o.o.',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: '7740001454',
  email: 'faktury@example.com',
};
const DE_BUYER = {
  name: 'Tanzschule GmbH',
  addressLine: 'Hauptstr. 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  taxId: 'DE123456789',
};
const NO_BUYER = { ...DE_BUYER, name: 'Dansestudio AS', city: 'Oslo', country: 'NO', taxId: '923609016' };
const LINES = [
  { description: 'Wynajem sali', quantity: '2', unit: 'h', unitPrice: 10000, vatRate: 2300 },
  { description: 'Ręcznik', quantity: '1.5', unit: 'szt.', unitPrice: 3333, vatRate: 800 },
];

async function studioWith(settings: Record<string, unknown> = {}) {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const res = await owner.request('PUT', api(scenario.studio, 'invoice-settings'), {
    ...SETTINGS,
    ...settings,
  });
  expect(res.status, res.text).toBe(200);
  return { ...scenario, owner };
}

async function issue(owner: HttpClient, studio: Studio, body: Record<string, unknown>) {
  const res = await owner.post(api(studio, 'invoice'), { buyer: PL_BUYER, lines: LINES, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; number: string };
}

async function xmlOf(owner: HttpClient, studio: Studio, id: string): Promise<string> {
  const res = await fetch(app.url + api(studio, `invoice/${id}/ksef.xml`), { headers: owner.headers() });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/xml');
  return res.text();
}

describe('KSeF FA(3) XML', () => {
  it('every kind of invoice the product issues validates against the official schema', async () => {
    const { studio, owner } = await studioWith();
    const kinds: Record<string, string> = {};
    const domestic = await issue(owner, studio, { priceBasis: 'net' });
    kinds.domesticUnpaid = domestic.id;
    kinds.domesticPaidGross = (await issue(owner, studio, { paymentMethod: 2, paidAmount: 25000 })).id;
    kinds.exemptLine = (
      await issue(owner, studio, {
        lines: [...LINES, { ...LINES[0], vatRate: 'exempt', description: 'Joga' }],
      })
    ).id;
    kinds.zeroRate = (await issue(owner, studio, { lines: [{ ...LINES[0], vatRate: 0 }] })).id;
    kinds.foreignCurrency = (
      await issue(owner, studio, {
        buyer: DE_BUYER,
        currency: 'EUR',
        exchangeRate: { rate: '4.2512', table: '226/A/NBP/2026', date: '2026-11-20' },
        priceBasis: 'net',
      })
    ).id;
    kinds.reverseChargeEu = (
      await issue(owner, studio, { buyer: DE_BUYER, vatTreatment: 'reverseCharge' })
    ).id;
    kinds.reverseChargeOutsideEu = (
      await issue(owner, studio, {
        buyer: NO_BUYER,
        vatTreatment: 'reverseCharge',
        currency: 'EUR',
        exchangeRate: { rate: '4.2512', table: '226/A/NBP/2026', date: '2026-11-20' },
      })
    ).id;
    kinds.consumer = (
      await issue(owner, studio, {
        buyer: { ...PL_BUYER, taxId: null, name: 'Jan Kowalski' },
        paymentMethod: 0,
      })
    ).id;
    const corrective = await owner.post(api(studio, `invoice/${domestic.id}/corrective`), {
      reason: 'Błędna liczba godzin',
      lines: [{ ...LINES[0], quantity: '1' }, LINES[1]],
      buyer: { ...PL_BUYER, name: 'Firma Jogi sp. z o.o. (nowa nazwa)' },
    });
    expect(corrective.status, corrective.text).toBe(201);
    kinds.corrective = corrective.body.id;
    const order = await receiptedOrder(app, owner, studio, { paidAt: NOW, buyerNip: PL_BUYER.taxId });
    const fp = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: PL_BUYER });
    expect(fp.status, fp.text).toBe(201);
    kinds.forReceipt = fp.body.id;

    const exempt = await studioWith({ vatExempt: true, vatExemptionBasis: '' });
    const exemptSeller = await issue(exempt.owner, exempt.studio, {});

    const xml: Record<string, string> = {};
    for (const [name, id] of Object.entries(kinds)) xml[name] = await xmlOf(owner, studio, id);
    xml.exemptSeller = await xmlOf(exempt.owner, exempt.studio, exemptSeller.id);

    const verdicts = validate(xml);
    expect(verdicts).toEqual(Object.fromEntries(Object.keys(xml).map((k) => [k, 'validates'])));
    // The validator does refuse: the same invoice without its number does not validate.
    const broken = validate({ broken: xml.domesticUnpaid!.replace(/<P_2>.*<\/P_2>/, '') });
    expect(broken.broken).toMatch(/P_2|P_6|Element/);

    // What the accountant and KSeF read from them.
    expect(xml.domesticUnpaid).toContain('<P_2>FV/2026/000001</P_2>');
    expect(xml.domesticUnpaid).toMatch(/<P_13_1>200\.00<\/P_13_1>\s*<P_14_1>46\.00<\/P_14_1>/);
    expect(xml.domesticUnpaid).toContain('<NrRB>PL61109010140000071219812874</NrRB>');
    expect(xml.domesticPaidGross).toContain('<Zaplacono>1</Zaplacono>');
    expect(xml.domesticPaidGross).not.toContain('<NrRB>');
    expect(xml.domesticPaidGross).toContain('<P_11A>');
    expect(xml.exemptLine).toContain('<P_19A>art. 43 ust. 1 pkt 32 ustawy o VAT</P_19A>');
    expect(xml.exemptSeller).toMatch(/<P_19A>art\. 113 ust\. 1 /);
    expect(xml.exemptSeller).toContain('<P_13_7>');
    expect(xml.foreignCurrency).toContain('<KodWaluty>EUR</KodWaluty>');
    expect(xml.foreignCurrency).toContain('<P_14_1W>195.56</P_14_1W>'); // 46,00 EUR × 4,2512
    expect(xml.foreignCurrency).toContain('<KursWaluty>4.2512</KursWaluty>');
    expect(xml.foreignCurrency).toMatch(/<KodUE>DE<\/KodUE>\s*<NrVatUE>123456789<\/NrVatUE>/);
    expect(xml.reverseChargeEu).toContain('<P_13_9>');
    expect(xml.reverseChargeEu).toContain('<P_18>1</P_18>');
    expect(xml.reverseChargeEu).toContain('<P_12>np II</P_12>');
    expect(xml.reverseChargeOutsideEu).toContain('<P_13_8>');
    expect(xml.consumer).toContain('<BrakID>1</BrakID>');
    expect(xml.corrective).toContain('<RodzajFaktury>KOR</RodzajFaktury>');
    expect(xml.corrective).toContain('<NrFaKorygowanej>FV/2026/000001</NrFaKorygowanej>');
    expect(xml.corrective).toContain('<StanPrzed>1</StanPrzed>');
    expect(xml.corrective).toContain('<P_13_1>-100.00</P_13_1>');
    expect(xml.corrective).toContain('<Podmiot2K>');
    expect(xml.forReceipt).toContain('<FP>1</FP>');
    expect(xml.forReceipt).toContain('nr 5 z dnia 2026-11-23, drukarka Recepcja POSNET');
    expect(xml.domesticUnpaid).toContain('Firma Jogi &amp; Syn');
  });

  it('is for staff who may see invoices: 401 signed out, 403 without sales.view, 404 for another studio', async () => {
    const { studio, owner } = await studioWith();
    const invoice = await issue(owner, studio, {});
    const route = api(studio, `invoice/${invoice.id}/ksef.xml`);
    const res = await fetch(app.url + route, { headers: owner.headers() });
    expect(res.headers.get('content-disposition')).toContain('FV_2026_000001.xml');
    const accountant = await createUser(app.knex, { firstName: 'Anna', lastName: 'Księgowa' });
    await addMembership(app.knex, studio, accountant, { isMember: true, role: 'accountant' });
    expect((await (await app.signedIn(accountant.email, accountant.password)).get(route)).status).toBe(200);
    const instructor = await createUser(app.knex, { firstName: 'Ira', lastName: 'Instruktor' });
    await addMembership(app.knex, studio, instructor, { isMember: true, role: 'instructor' });
    expect((await (await app.signedIn(instructor.email, instructor.password)).get(route)).status).toBe(403);
    expect((await (await app.anonymous()).get(route)).status).toBe(401);
    expect((await owner.get(api(studio, `invoice/${uuidv7()}/ksef.xml`))).status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: route }, ['Harmonia']);
  });
});
