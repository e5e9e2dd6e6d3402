import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';
import { TEST_SELLER_SETTINGS } from './testing/seller-settings';

// Monday 23 November 2026, 10:00 in Warsaw.
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const SETTINGS = { ...TEST_SELLER_SETTINGS, bankName: 'Santander Bank Polska', paymentTermDays: 7 };

const BUYER = {
  name: 'Żaneta Łęcka-Gąsior',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: 'PL 7740001454',
};

async function studioWithOwner(settings = true) {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  if (settings) {
    const res = await owner.request('PUT', api(scenario.studio, 'invoice-settings'), SETTINGS);
    expect(res.status, res.text).toBe(200);
  }
  return { ...scenario, owner };
}

const { staffWithRole } = studioSessions(() => app);

/**
 * A desk order as the sales module stores it: a pass at 23 %, two towels at 8 % and a 10,00 zł
 * voucher discount, paid by card on 20 November.
 */
async function paidOrder(studio: Studio, clientId: string | null, options: { status?: number } = {}) {
  const id = uuidv7();
  const lines = [
    { kind: 'pass', name: 'Karnet 10 wejść', quantity: 1, unitPrice: 25000, vatRate: '2300' },
    { kind: 'product', name: 'Ręcznik', quantity: 2, unitPrice: 3000, vatRate: '800' },
  ];
  const subtotal = 31000;
  await app.knex('client_orders').insert({
    id,
    studioId: studio.id,
    clientId,
    source: 'desk',
    status: options.status ?? 1,
    currency: 'PLN',
    subtotal,
    discount: 1000,
    total: 30000,
    paidAt: new Date('2026-11-20T15:00:00Z'),
  });
  await app.knex('client_order_lines').insert(
    lines.map((l, i) => ({
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
    clientId,
    method: 6,
    amount: 30000,
    currency: 'PLN',
    status: 'succeeded',
  });
  return id;
}

const manualInvoice = (over: Record<string, unknown> = {}) => ({
  buyer: BUYER,
  priceBasis: 'net',
  lines: [
    { description: 'Wynajem sali', quantity: '2', unit: 'h', unitPrice: 10000, vatRate: 2300 },
    { description: 'Zajęcia grupowe', quantity: '1.5', unit: 'usł.', unitPrice: 3333, vatRate: 800 },
  ],
  ...over,
});

describe('company/tax-identification-number/check', () => {
  it('validates the NIP checksum; 401 signed out, 404 for another studio', async () => {
    const { studio, owner } = await studioWithOwner(false);
    const path = (nip: string) =>
      api(
        studio,
        `company/tax-identification-number/check?taxIdentificationNumber=${encodeURIComponent(nip)}`,
      );
    const ok = await owner.get(path('PL 526-025-02-74'));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({
      isValid: true,
      taxIdentificationNumber: '5260250274',
      formatted: '526-025-02-74',
    });
    const bad = await owner.get(path('5260250275'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields['query.taxIdentificationNumber'][0]).toMatch(/check digit/);
    const short = await owner.get(path('12345'));
    expect(short.body.error.fields['query.taxIdentificationNumber'][0]).toMatch(/10 digits/);
    const anonymous = await app.anonymous();
    expect((await anonymous.get(path('5260250274'))).status).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: path('5260250274') });
  });
});

describe('invoice settings', () => {
  it('defaults to the studio, refuses a bad NIP and IBAN, saves for the accountant, not the front desk', async () => {
    const { studio, owner } = await studioWithOwner(false);
    const initial = await owner.get(api(studio, 'invoice-settings'));
    expect(initial.body).toMatchObject({
      sellerName: studio.name,
      city: 'Warszawa',
      taxId: null,
      complete: false,
    });

    const bad = await owner.request('PUT', api(studio, 'invoice-settings'), {
      ...SETTINGS,
      taxId: '1234567890',
      iban: 'PL61 1090 1014 0000 0712 1981 2875',
      sellerName: ' ',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['iban', 'sellerName', 'taxId']);

    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.request('PUT', api(studio, 'invoice-settings'), SETTINGS)).status).toBe(403);
    const accountant = await staffWithRole(studio, 'accountant');
    const saved = await accountant.request('PUT', api(studio, 'invoice-settings'), SETTINGS);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      taxId: '5260250274',
      iban: 'PL61109010140000071219812874',
      paymentTermDays: 7,
      complete: true,
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'PUT',
      path: api(studio, 'invoice-settings'),
      body: SETTINGS,
    });
  });

  it('refuses to issue before the seller has a NIP (409), and takes no number', async () => {
    const { studio, owner, client } = await studioWithOwner(false);
    const order = await paidOrder(studio, client.id);
    const res = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ key: 'invoice.sellerDetailsMissing', code: 2100 });
    await owner.request('PUT', api(studio, 'invoice-settings'), SETTINGS);
    const issued = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(issued.body.number).toBe('FV/2026/000001');
  });
});

describe('invoice for an order', () => {
  it('issues a VAT invoice with totals per rate, the payment and the seller and buyer', async () => {
    const { studio, owner, client } = await studioWithOwner();
    const order = await paidOrder(studio, client.id);

    const draft = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body).toMatchObject({
      invoiceable: true,
      reason: null,
      saleDate: '2026-11-20',
      paymentMethod: 6,
    });
    expect(draft.body.buyer).toMatchObject({ name: 'Kamil Client', clientId: client.id });

    const res = await owner.post(api(studio, `client-order/${order}/invoice`), {
      buyer: { ...BUYER, email: 'zaneta@example.com' },
      remarks: 'Dziękujemy!',
    });
    expect(res.status, res.text).toBe(201);
    const invoice = res.body;
    expect(invoice).toMatchObject({
      kind: 'invoice',
      number: 'FV/2026/000001',
      status: 'issued',
      issueDate: '2026-11-23',
      saleDate: '2026-11-20',
      currency: 'PLN',
      priceBasis: 'gross',
      vatTreatment: 'standard',
      language: 'pl',
      orderId: order,
      placeOfIssue: 'Warszawa',
      remarks: 'Dziękujemy!',
    });
    expect(invoice.seller).toMatchObject({ taxId: '5260250274', iban: 'PL61109010140000071219812874' });
    expect(invoice.buyer).toMatchObject({ name: BUYER.name, taxId: '7740001454', clientId: client.id });
    // 10,00 zł discount spread in proportion: 250 → 241,94; 60 → 58,06 (two towels at 29,03).
    expect(invoice.lines.map((l: { gross: number; unitPrice: number }) => [l.unitPrice, l.gross])).toEqual([
      [24194, 24194],
      [2903, 5806],
    ]);
    expect(invoice.rates).toEqual([
      { vatRate: 2300, net: 19670, vat: 4524, gross: 24194 },
      { vatRate: 800, net: 5376, vat: 430, gross: 5806 },
    ]);
    expect(invoice.totals).toEqual({ net: 25046, vat: 4954, gross: 30000, paid: 30000, due: 0 });
    expect(invoice.payment).toMatchObject({ method: 6, termDays: 7, dueDate: '2026-11-30', state: 'paid' });
    expect(invoice.notes).toEqual([]);

    const again = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('invoice.orderAlreadyInvoiced');
    const after = await owner.get(api(studio, `client-order/${order}/invoice/init`));
    expect(after.body).toMatchObject({ invoiceable: false, reason: 'alreadyInvoiced' });
    expect(after.body.existingInvoice.number).toBe('FV/2026/000001');

    // The next draft for the same client remembers the buyer's address.
    const second = await paidOrder(studio, client.id);
    const remembered = await owner.get(api(studio, `client-order/${second}/invoice/init`));
    expect(remembered.body.buyer).toMatchObject({ name: BUYER.name, city: 'Kraków', taxId: '7740001454' });
  });

  it('refuses cancelled orders (409), unknown and other studios’ orders (404), bad input (400), and callers without rights', async () => {
    const { studio, owner, client } = await studioWithOwner();
    const cancelled = await paidOrder(studio, client.id, { status: 3 });
    const refused = await owner.post(api(studio, `client-order/${cancelled}/invoice`), { buyer: BUYER });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ key: 'invoice.orderNotInvoiceable', code: 2107 });
    expect((await owner.post(api(studio, `client-order/${uuidv7()}/invoice`), { buyer: BUYER })).status).toBe(
      404,
    );

    const order = await paidOrder(studio, client.id);
    const bad = await owner.post(api(studio, `client-order/${order}/invoice`), {
      buyer: { ...BUYER, taxId: '7740001455', postalCode: '' },
      paymentTermDays: 400,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'buyer.postalCode',
      'buyer.taxId',
      'paymentTermDays',
    ]);

    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER })).status).toBe(
      403,
    );
    const anonymous = await app.anonymous();
    expect(
      (await anonymous.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER })).status,
    ).toBe(401);
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `client-order/${order}/invoice`),
      body: { buyer: BUYER },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: api(studio, `client-order/${order}/invoice/init`),
    });
    // None of the refusals took a number.
    const ok = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(ok.body.number).toBe('FV/2026/000001');
  });
});

describe('typed-in invoices', () => {
  it('computes net-based totals, refuses bad lines field by field, prints reverse charge for a foreign buyer', async () => {
    const { studio, owner } = await studioWithOwner();
    const res = await owner.post(api(studio, 'invoice'), manualInvoice({ paymentMethod: 1 }));
    expect(res.status, res.text).toBe(201);
    // 2 × 100,00 net at 23 %; 1,5 × 33,33 = 50,00 (49,995 rounds half up) net at 8 %.
    expect(res.body.rates).toEqual([
      { vatRate: 2300, net: 20000, vat: 4600, gross: 24600 },
      { vatRate: 800, net: 5000, vat: 400, gross: 5400 },
    ]);
    expect(res.body.totals).toMatchObject({ gross: 30000, paid: 0, due: 30000 });
    expect(res.body.payment).toMatchObject({ bankTransfer: true, state: 'due', dueDate: '2026-11-30' });

    const bad = await owner.post(
      api(studio, 'invoice'),
      manualInvoice({
        lines: [
          { description: '', quantity: '1.2345', unitPrice: -1, vatRate: 2300 },
          { description: 'x', quantity: '1', unitPrice: 100, vatRate: 'reverseCharge' },
        ],
      }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'lines.0.description',
      'lines.0.quantity',
      'lines.0.unitPrice',
      'lines.1.vatRate',
    ]);
    const noTaxId = await owner.post(
      api(studio, 'invoice'),
      manualInvoice({ vatTreatment: 'reverseCharge', buyer: { ...BUYER, taxId: null, country: 'DE' } }),
    );
    expect(noTaxId.body.error.fields['buyer.taxId']).toBeDefined();

    const foreign = await owner.post(
      api(studio, 'invoice'),
      manualInvoice({
        vatTreatment: 'reverseCharge',
        buyer: {
          name: 'Tanzschule GmbH',
          addressLine: 'Hauptstr. 1',
          postalCode: '10115',
          city: 'Berlin',
          country: 'de',
          taxId: 'DE 123456789',
        },
      }),
    );
    expect(foreign.status, foreign.text).toBe(201);
    expect(foreign.body).toMatchObject({
      number: 'FV/2026/000002',
      language: 'pl-en',
      vatTreatment: 'reverseCharge',
    });
    expect(foreign.body.buyer.taxId).toBe('DE123456789');
    expect(foreign.body.totals).toMatchObject({ net: 25000, vat: 0, gross: 25000 });
    expect(foreign.body.notes).toEqual([{ kind: 'reverseCharge' }]);
  });

  it('an exempt seller prints the legal basis', async () => {
    const { studio, owner } = await studioWithOwner();
    await owner.request('PUT', api(studio, 'invoice-settings'), { ...SETTINGS, vatExempt: true });
    const res = await owner.post(api(studio, 'invoice'), manualInvoice());
    expect(res.body.vatTreatment).toBe('exempt');
    expect(res.body.rates).toEqual([{ vatRate: 'exempt', net: 25000, vat: 0, gross: 25000 }]);
    expect(res.body.notes[0]).toMatchObject({
      kind: 'vatExempt',
      basis: expect.stringContaining('art. 113 ust. 1'),
    });
  });
});

describe('corrective invoices and cancelling', () => {
  it('corrects by difference, builds on the last correction, and refuses what the law does not allow', async () => {
    const { studio, owner } = await studioWithOwner();
    const invoice = (await owner.post(api(studio, 'invoice'), manualInvoice())).body;
    const lines = manualInvoice().lines;

    const noChange = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'x',
      lines,
    });
    expect(noChange.status).toBe(400);
    expect(noChange.body.error.key).toBe('invoice.correctionNoChange');
    const missing = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'x',
      lines: [lines[0]],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.lines).toBeDefined();

    // One hour of the room less.
    const first = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'Błędna liczba godzin',
      lines: [{ ...lines[0], quantity: '1' }, lines[1]],
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ kind: 'corrective', number: 'FK/2026/000001' });
    expect(first.body.totals).toMatchObject({ net: -10000, vat: -2300, gross: -12300, due: 0 });
    expect(first.body.payment.state).toBe('refundDue');
    expect(first.body.correction).toMatchObject({
      correctedInvoice: { id: invoice.id, number: 'FV/2026/000001' },
      reason: 'Błędna liczba godzin',
    });
    expect(first.body.correction.rates[0]).toEqual({
      vatRate: 2300,
      before: { net: 20000, vat: 4600, gross: 24600 },
      after: { net: 10000, vat: 2300, gross: 12300 },
      difference: { net: -10000, vat: -2300, gross: -12300 },
    });

    // The second correction starts from the first one's "after": taking the class back whole.
    const second = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'Zajęcia odwołane',
      lines: [
        { ...lines[0], quantity: '1' },
        { ...lines[1], quantity: '0' },
      ],
    });
    expect(second.body.number).toBe('FK/2026/000002');
    expect(second.body.correction.before[0].quantity).toBe('1');
    expect(second.body.totals.gross).toBe(-5400);

    const original = await owner.get(api(studio, `invoice/${invoice.id}`));
    expect(original.body.corrections.map((c: { number: string }) => c.number)).toEqual([
      'FK/2026/000001',
      'FK/2026/000002',
    ]);
    const ofCorrection = await owner.post(api(studio, `invoice/${first.body.id}/corrective`), {
      reason: 'x',
      lines,
    });
    expect(ofCorrection.body.error.key).toBe('invoice.correctiveNotCorrectable');

    // Cancelling goes newest first.
    const early = await owner.post(api(studio, `invoice/${invoice.id}/cancel`), { reason: 'x' });
    expect(early.body.error.key).toBe('invoice.hasCorrections');
    expect(
      (await owner.post(api(studio, `invoice/${first.body.id}/cancel`), { reason: 'x' })).body.error.key,
    ).toBe('invoice.hasCorrections');
    const c2 = await owner.post(api(studio, `invoice/${second.body.id}/cancel`), { reason: 'Pomyłka' });
    expect(c2.status, c2.text).toBe(200);
    expect(c2.body).toMatchObject({ status: 'cancelled', cancellation: { reason: 'Pomyłka' } });
    expect(
      (await owner.post(api(studio, `invoice/${second.body.id}/cancel`), { reason: 'x' })).body.error.key,
    ).toBe('invoice.alreadyCancelled');
    await owner.post(api(studio, `invoice/${first.body.id}/cancel`), { reason: 'x' });
    expect((await owner.post(api(studio, `invoice/${invoice.id}/cancel`), { reason: 'x' })).status).toBe(200);
    const cancelledCorrect = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'x',
      lines: [{ ...lines[0], quantity: '5' }, lines[1]],
    });
    expect(cancelledCorrect.body.error.key).toBe('invoice.cancelledNotCorrectable');

    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.post(api(studio, `invoice/${invoice.id}/cancel`), { reason: 'x' })).status).toBe(403);
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `invoice/${invoice.id}/corrective`),
      body: { reason: 'x', lines },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `invoice/${invoice.id}/cancel`),
      body: { reason: 'x' },
    });
  });

  it('a cancelled invoice frees its order for a new invoice', async () => {
    const { studio, owner, client } = await studioWithOwner();
    const order = await paidOrder(studio, client.id);
    const first = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    await owner.post(api(studio, `invoice/${first.body.id}/cancel`), { reason: 'Zły nabywca' });
    const second = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(second.status, second.text).toBe(201);
    expect(second.body.number).toBe('FV/2026/000002');
  });
});

describe('list, detail and PDF', () => {
  it('lists newest first with filters and a cursor; detail and PDF by id; rights and tenancy', async () => {
    const { studio, owner } = await studioWithOwner();
    for (const name of ['Alfa sp. z o.o.', 'Beta S.A.', 'Gamma Jan Kowalski']) {
      await owner.post(api(studio, 'invoice'), manualInvoice({ buyer: { ...BUYER, name } }));
    }
    const list = await owner.get(api(studio, 'invoice/all?limit=2'));
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((i: { number: string }) => i.number)).toEqual([
      'FV/2026/000003',
      'FV/2026/000002',
    ]);
    const rest = await owner.get(api(studio, `invoice/all?limit=2&cursor=${list.body.next}`));
    expect(rest.body.items.map((i: { number: string }) => i.number)).toEqual(['FV/2026/000001']);
    expect(rest.body.next).toBeNull();
    const byName = await owner.get(api(studio, 'invoice/all?q=beta'));
    expect(byName.body.items.map((i: { buyer: { name: string } }) => i.buyer.name)).toEqual(['Beta S.A.']);
    const byNumber = await owner.get(api(studio, 'invoice/all?q=000001'));
    expect(byNumber.body.items).toHaveLength(1);
    expect((await owner.get(api(studio, 'invoice/all?kind=corrective'))).body.items).toEqual([]);
    expect((await owner.get(api(studio, 'invoice/all?limit=0'))).status).toBe(400);

    const id = list.body.items[0].id;
    const pdfPath = api(studio, `invoice/${id}/pdf`);
    const res = await fetch(app.url + pdfPath, { headers: owner.headers() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('FV_2026_000003.pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000); // the embedded DejaVu subset

    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(pdfPath)).status).toBe(403);
    expect((await instructor.get(api(studio, 'invoice/all'))).status).toBe(403);
    const anonymous = await app.anonymous();
    expect((await anonymous.get(pdfPath)).status).toBe(401);
    expect((await owner.get(api(studio, `invoice/${uuidv7()}`))).status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: pdfPath });
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, `invoice/${id}`) }, ['Gamma']);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, 'invoice/all') });
    // Another studio's own list does not show these invoices.
    const other = await studioWithOwner();
    expect((await other.owner.get(api(other.studio, 'invoice/all'))).body.items).toEqual([]);
  });
});

describe('numbering', () => {
  it('gives parallel issues consecutive numbers without gaps; a refused issue takes none', async () => {
    const { studio, owner, client } = await studioWithOwner();
    const order = await paidOrder(studio, client.id);
    const requests = [
      ...Array.from({ length: 12 }, () => owner.post(api(studio, 'invoice'), manualInvoice())),
      // Five at once for the same order: one wins, four are refused.
      ...Array.from({ length: 5 }, () =>
        owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER }),
      ),
    ];
    const results = await Promise.all(requests);
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(13);
    expect(
      results
        .filter((r) => r.status === 409)
        .every((r) => r.body.error.key === 'invoice.orderAlreadyInvoiced'),
    ).toBe(true);
    const numbers = created.map((r) => r.body.number as string).sort();
    expect(numbers).toEqual(
      Array.from({ length: 13 }, (_, i) => `FV/2026/${String(i + 1).padStart(6, '0')}`),
    );
    const next = await owner.post(api(studio, 'invoice'), manualInvoice());
    expect(next.body.number).toBe('FV/2026/000014');
  });

  it('starts a new series in a new year, per studio', async () => {
    const { studio, owner, manager } = await studioWithOwner();
    await owner.post(api(studio, 'invoice'), manualInvoice());
    // 1 January 2027, 00:30 in Warsaw (still 2026 in UTC); a new sign-in, the old session has lapsed.
    clock.set(new Date('2026-12-31T23:30:00Z'));
    const later = await app.signedIn(manager.email, manager.password);
    const res = await later.post(api(studio, 'invoice'), manualInvoice());
    expect(res.body).toMatchObject({ number: 'FV/2027/000001', issueDate: '2027-01-01' });
    clock.set(NOW);
  });
});

describe("the client's own invoices (front office)", () => {
  it('a client lists and downloads their invoices; another client, staff route rules and other studios get nothing', async () => {
    const { studio, owner, client } = await studioWithOwner();
    const order = await paidOrder(studio, client.id);
    const issued = await owner.post(api(studio, `client-order/${order}/invoice`), { buyer: BUYER });
    expect(issued.status, issued.text).toBe(201);
    const invoiceId = issued.body.id as string;
    // A second, cancelled invoice is void: the client does not see it.
    const other = await paidOrder(studio, client.id);
    const voided = await owner.post(api(studio, `client-order/${other}/invoice`), { buyer: BUYER });
    await owner.post(api(studio, `invoice/${voided.body.id}/cancel`), { reason: 'wrong buyer' });

    const me = await app.signedIn(client.email, client.password);
    const list = await me.get(api(studio, 'purchases/invoices'));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({
      items: [
        {
          id: invoiceId,
          kind: 'invoice',
          number: 'FV/2026/000001',
          issueDate: '2026-11-23',
          orderId: order,
          currency: 'PLN',
          gross: 30000,
          correctedInvoiceNumber: null,
          downloadPath: `/api/v4/${studio.id}/purchases/invoice/${invoiceId}/pdf`,
        },
      ],
      next: null,
    });

    const pdfPath = list.body.items[0].downloadPath as string;
    const res = await fetch(app.url + pdfPath, { headers: me.headers() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('FV_2026_000001.pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('FV/2026/000001');
    expect((await me.get(api(studio, `purchases/invoice/${voided.body.id}/pdf`))).status).toBe(404);
    expect((await me.get(api(studio, `purchases/invoice/${uuidv7()}/pdf`))).status).toBe(404);
    expect((await me.get(api(studio, 'purchases/invoices?limit=0'))).status).toBe(400);
    // The staff routes stay staff's.
    expect((await me.get(api(studio, `invoice/${invoiceId}/pdf`))).status).toBe(403);

    // Another client of the same studio: the invoice does not exist for them.
    const stranger = await createUser(app.knex, { firstName: 'Obca', lastName: 'Klientka' });
    await addMembership(app.knex, studio, stranger, { isClient: true });
    const strangerHttp = await app.signedIn(stranger.email, stranger.password);
    const foreign = await strangerHttp.get(pdfPath);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.key).toBe('resource.notFound');
    expect((await strangerHttp.get(api(studio, 'purchases/invoices'))).body.items).toEqual([]);

    expect((await (await app.anonymous()).get(pdfPath)).status).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: pdfPath }, ['FV/2026']);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, 'purchases/invoices') });
  });
});
