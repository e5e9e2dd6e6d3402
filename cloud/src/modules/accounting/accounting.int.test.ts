import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/domain/clients/csv';
import { DEMO, seedDemoStudio } from '../../db/seed/demo';
import { createLogger } from '../../logger';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { receiptedOrder } from '../invoices/testing/receipted-order';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';
import { composeKsefNumber } from '../invoices/ksef/ksef-crypto';

/**
 * The accountant's files (issue 19): JPK_FA(4) and JPK_V7M(3) validated with xmllint against the
 * Ministry of Finance's schemas copied in `shared/spec/jpk`, the sales register as CSV and XLSX, the
 * settings they need, rights and tenancy.
 */
const SPEC = path.resolve(__dirname, '../../../..', 'shared/spec/jpk');
const SCHEMAS = {
  fa: { xsd: path.join(SPEC, 'fa4/Schemat_JPK_FA(4)_v1-0.xsd'), catalog: path.join(SPEC, 'fa4/catalog.xml') },
  v7m: { xsd: path.join(SPEC, 'v7m3/Schemat_JPK_V7M(3)_v1-0E.xsd'), catalog: '' },
};

/** xmllint's verdict: 'validates', else its errors (a missing xmllint fails too). */
function validate(kind: keyof typeof SCHEMAS, xml: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpk-'));
  try {
    const file = path.join(dir, `${kind}.xml`);
    writeFileSync(file, xml);
    const { xsd, catalog } = SCHEMAS[kind];
    const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', xsd, file], {
      env: { ...process.env, XML_CATALOG_FILES: catalog },
      encoding: 'utf8',
    });
    const output = `${run.stderr ?? ''}${run.error ? String(run.error) : ''}`;
    return output.includes(`${file} validates`) ? 'validates' : output;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const MONTH = 'from=2026-11-01&to=2026-11-30';
const ACCOUNTING = {
  taxOfficeCode: '1435',
  email: 'ksiegowosc@harmonia.example',
  province: 'mazowieckie',
  county: 'Warszawa',
  commune: 'Śródmieście',
  street: 'Marszałkowska',
  houseNumber: '10',
  flatNumber: '4',
};
const PL_BUYER = {
  name: 'Firma Jogi & Syn sp. z o.o.',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: '7740001454',
};
const DE_BUYER = {
  ...PL_BUYER,
  name: 'Tanzschule GmbH',
  city: 'Berlin',
  country: 'DE',
  taxId: 'DE123456789',
};
const LINES = [
  { description: 'Wynajem sali', quantity: '2', unit: 'h', unitPrice: 10000, vatRate: 2300 },
  { description: 'Ręcznik', quantity: '1', unit: 'szt.', unitPrice: 3000, vatRate: 800 },
];

async function studioWithInvoices() {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const seller = await owner.request('PUT', api(scenario.studio, 'invoice-settings'), {
    ...TEST_SELLER_SETTINGS,
    vatExemptionBasis: 'art. 43 ust. 1 pkt 32 ustawy o VAT',
  });
  expect(seller.status, seller.text).toBe(200);
  const issue = async (body: Record<string, unknown>) => {
    const res = await owner.post(api(scenario.studio, 'invoice'), { buyer: PL_BUYER, lines: LINES, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; number: string };
  };
  const first = await issue({ priceBasis: 'net' });
  await issue({ lines: [...LINES, { ...LINES[0], description: 'Joga', vatRate: 'exempt' }] });
  await issue({
    buyer: DE_BUYER,
    currency: 'EUR',
    exchangeRate: { rate: '4.2512', table: '226/A/NBP/2026', date: '2026-11-20' },
    priceBasis: 'net',
  });
  await issue({ buyer: DE_BUYER, vatTreatment: 'reverseCharge', lines: [LINES[0]] });
  await issue({ buyer: { ...PL_BUYER, taxId: null, name: 'Jan Kowalski' } });
  const corrective = await owner.post(api(scenario.studio, `invoice/${first.id}/corrective`), {
    reason: 'Błędna liczba godzin',
    lines: [{ ...LINES[0], quantity: '1' }, LINES[1]],
  });
  expect(corrective.status, corrective.text).toBe(201);
  // A receipted sale invoiced to the NIP on its receipt (FP), printed as receipt no. 5.
  const order = await receiptedOrder(app, owner, scenario.studio, { paidAt: NOW, buyerNip: PL_BUYER.taxId });
  const fp = await owner.post(api(scenario.studio, `client-order/${order}/invoice`), { buyer: PL_BUYER });
  expect(fp.status, fp.text).toBe(201);
  return { ...scenario, owner };
}

async function download(client: HttpClient, studio: Studio, file: string) {
  const res = await fetch(app.url + api(studio, `accounting/${file}`), { headers: client.headers() });
  return { status: res.status, type: res.headers.get('content-type') ?? '', res };
}

describe('the accountant’s files', () => {
  it('JPK_FA(4) and JPK_V7M(3) of a month validate against the official schemas and hold every document', async () => {
    const { studio, owner } = await studioWithInvoices();
    // Without the tax office and the address parts, a JPK file cannot be made.
    const early = await owner.get(api(studio, `accounting/jpk-fa.xml?${MONTH}`));
    expect(early.status).toBe(409);
    expect(early.body.error.key).toBe('accounting.settingsMissing');
    const bad = await owner.request('PUT', api(studio, 'accounting/settings'), {
      ...ACCOUNTING,
      taxOfficeCode: '9999',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['taxOfficeCode']);
    const saved = await owner.request('PUT', api(studio, 'accounting/settings'), ACCOUNTING);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ settings: { taxOfficeCode: '1435' }, sellerReady: true });

    const summary = await owner.get(api(studio, `accounting/summary?${MONTH}`));
    expect(summary.body).toMatchObject({
      invoices: 6,
      corrections: 1,
      forReceipts: 1,
      receipts: 1,
      receiptDays: 1,
    });

    const fa = await download(owner, studio, `jpk-fa.xml?${MONTH}`);
    expect(fa.status).toBe(200);
    expect(fa.type).toContain('application/xml');
    expect(fa.res.headers.get('content-disposition')).toContain('JPK_FA_2026-11-01_2026-11-30.xml');
    const faXml = await fa.res.text();
    expect(validate('fa', faXml)).toBe('validates');
    expect(faXml.match(/<Faktura>/g)).toHaveLength(7);
    expect(faXml).toMatch(/<LiczbaFaktur>7<\/LiczbaFaktur>/);
    expect(faXml).toContain('<RodzajFaktury>KOREKTA</RodzajFaktury>');
    expect(faXml).toContain('<NrFaKorygowanej>FV/2026/000001</NrFaKorygowanej>');
    expect(faXml).toContain('<P_13_1>-100.00</P_13_1>');
    expect(faXml).toContain('<P_14_1W>');
    expect(faXml).toContain('<P_19A>art. 43 ust. 1 pkt 32 ustawy o VAT</P_19A>');
    expect(faXml).toContain('<P_18>true</P_18>');
    expect(faXml).toContain('<etd:Gmina>Śródmieście</etd:Gmina>');
    expect(faXml).toContain('Firma Jogi &amp; Syn');

    const v7 = await download(owner, studio, `jpk-v7m.xml?${MONTH}`);
    expect(v7.status).toBe(200);
    const v7Xml = await v7.res.text();
    expect(validate('v7m', v7Xml)).toBe('validates');
    expect(v7Xml).toContain('<Miesiac>11</Miesiac>');
    expect(v7Xml.match(/<SprzedazWiersz>/g)).toHaveLength(8); // 7 invoices and the day's receipts
    expect(v7Xml).toMatch(/<TypDokumentu>FP<\/TypDokumentu>/);
    expect(v7Xml).toMatch(
      /<DowodSprzedazy>RO 2026-11-23<\/DowodSprzedazy>\s*<DataWystawienia>2026-11-23<\/DataWystawienia>\s*<DI>1<\/DI>\s*<TypDokumentu>RO<\/TypDokumentu>\s*<K_17>111\.11<\/K_17>\s*<K_18>8\.89<\/K_18>/,
    );
    expect(v7Xml).toMatch(
      /<KodKrajuNadaniaTIN>DE<\/KodKrajuNadaniaTIN>\s*<NrKontrahenta>123456789<\/NrKontrahenta>/,
    );
    expect(v7Xml).toMatch(/<K_11>200\.00<\/K_11>\s*<K_12>200\.00<\/K_12>/); // reverse charge, EU buyer
    expect(v7Xml).toContain('<NrKontrahenta>BRAK</NrKontrahenta>');
    // Invoices that never went to KSeF are BFK.
    expect(v7Xml.match(/<BFK>1<\/BFK>/g)).toHaveLength(7);

    // Once KSeF accepted an invoice its row carries the KSeF number; one issued offline (KSeF was
    // unreachable) and not numbered yet is OFF.
    const [accepted, offline] = (await app
      .knex('invoices')
      .where({ studioId: studio.id, kind: 'invoice' })
      .orderBy('sequence')
      .limit(2)
      .select('id', 'number')) as Array<{ id: string; number: string }>;
    const ksefNumber = composeKsefNumber('5260250274', new Date('2026-11-20'), '0100A1B2C3D4');
    const ksefRow = { studioId: studio.id, environment: 'test' };
    await app.knex('invoice_ksef').insert([
      { ...ksefRow, invoiceId: accepted!.id, status: 'accepted', ksefNumber },
      { ...ksefRow, invoiceId: offline!.id, status: 'waiting', mode: 'offline' },
    ]);
    const withKsef = await (await download(owner, studio, `jpk-v7m.xml?${MONTH}`)).res.text();
    expect(validate('v7m', withKsef)).toBe('validates');
    const rowOf = (xml: string, number: string) =>
      [...xml.matchAll(/<SprzedazWiersz>([\s\S]*?)<\/SprzedazWiersz>/g)]
        .map((m) => m[1]!)
        .find((r) => r.includes(`<DowodSprzedazy>${number}</DowodSprzedazy>`))!;
    expect(rowOf(withKsef, accepted!.number)).toContain(`<NrKSeF>${ksefNumber}</NrKSeF>`);
    expect(rowOf(withKsef, accepted!.number)).not.toContain('<BFK>');
    expect(rowOf(withKsef, offline!.number)).toContain('<OFF>1</OFF>');
    expect(withKsef.match(/<BFK>1<\/BFK>/g)).toHaveLength(5);
    await app.knex('invoice_ksef').where({ studioId: studio.id }).delete();

    // The tax due counts the receipts' 8.89 once: the FP invoice's 8.89 is left out.
    const fpVat = 889;
    const rows = [...v7Xml.matchAll(/<SprzedazWiersz>([\s\S]*?)<\/SprzedazWiersz>/g)].map((m) => m[1]!);
    const vatOf = (row: string) =>
      [...row.matchAll(/<K_(16|18|20)>(-?[\d.]+)<\/K_\1>/g)].reduce(
        (a, m) => a + Math.round(Number(m[2]) * 100),
        0,
      );
    const all = rows.reduce((a, r) => a + vatOf(r), 0);
    const due = Number(/<PodatekNalezny>(-?[\d.]+)<\/PodatekNalezny>/.exec(v7Xml)![1]) * 100;
    expect(Math.round(due)).toBe(all - fpVat);

    // A sole trader files as a natural person: first name, surname and date of birth are needed.
    const person = { ...ACCOUNTING, naturalPerson: true, firstName: 'Anna', lastName: 'Żółkiewska' };
    const incomplete = await owner.request('PUT', api(studio, 'accounting/settings'), person);
    expect(Object.keys(incomplete.body.error.fields)).toEqual(['birthDate']);
    const asPerson = await owner.request('PUT', api(studio, 'accounting/settings'), {
      ...person,
      birthDate: '1985-03-31',
    });
    expect(asPerson.body.settings).toMatchObject({ naturalPerson: true, birthDate: '1985-03-31' });
    const personXml = await (await download(owner, studio, `jpk-v7m.xml?${MONTH}`)).res.text();
    expect(validate('v7m', personXml)).toBe('validates');
    expect(personXml).toMatch(
      /<OsobaFizyczna>\s*<etd:NIP>5260250274<\/etd:NIP>\s*<etd:ImiePierwsze>Anna<\/etd:ImiePierwsze>\s*<etd:Nazwisko>Żółkiewska<\/etd:Nazwisko>\s*<etd:DataUrodzenia>1985-03-31<\/etd:DataUrodzenia>/,
    );

    // The validator does refuse: a row without its document number is invalid.
    expect(validate('v7m', v7Xml.replace(/<DowodSprzedazy>[^<]*<\/DowodSprzedazy>/, ''))).toMatch(
      /DowodSprzedazy|Element/,
    );
  });

  it('the sales register opens in Polish Excel and LibreOffice: CSV with BOM and ";", XLSX with numbers', async () => {
    const { studio, owner } = await studioWithInvoices();
    const csv = await download(owner, studio, `sales-register.csv?${MONTH}`);
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    const bytes = Buffer.from(await csv.res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const table = parseCsv(bytes.toString('utf8'), ';');
    expect(table[0]).toContain('Data sprzedaży');
    const fp = table.find((r) => r[2] === 'FP')!;
    expect(fp).toMatchObject({ 1: 'Faktura do paragonu', 6: 'Firma Jogi & Syn sp. z o.o.', 9: '8%' });
    const ro = table.find((r) => r[2] === 'RO')!;
    expect(ro.slice(9, 15)).toEqual(['8%', '111,11', '8,89', '120,00', 'PLN', '1']);
    expect(table.find((r) => r[1] === 'Faktura korygująca')![10]).toBe('-100,00');

    const xlsx = await download(owner, studio, `sales-register.xlsx?${MONTH}`);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.res.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Rejestr sprzedaży')!;
    expect(sheet.getRow(1).getCell(6).value).toBe('Data sprzedaży');
    const roRow = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(3).value === 'RO')!;
    expect([roRow.getCell(11).value, roRow.getCell(12).value, roRow.getCell(13).value]).toEqual([
      111.11, 8.89, 120,
    ]);
    expect(roRow.getCell(11).numFmt).toBe('#,##0.00');
    expect(sheet.rowCount).toBe(table.length);
  });

  it('refuses ranges the files cannot cover, with field errors', async () => {
    const { studio, owner } = await studioWithInvoices();
    await owner.request('PUT', api(studio, 'accounting/settings'), ACCOUNTING);
    const v7Part = await owner.get(api(studio, 'accounting/jpk-v7m.xml?from=2026-11-01&to=2026-11-15'));
    expect(v7Part.status).toBe(400);
    expect(Object.keys(v7Part.body.error.fields)).toEqual(['query.to']);
    const reversed = await owner.get(api(studio, 'accounting/summary?from=2026-11-30&to=2026-11-01'));
    expect(reversed.status).toBe(400);
    const old = await owner.get(api(studio, 'accounting/jpk-v7m.xml?from=2025-11-01&to=2025-11-30'));
    expect(Object.keys(old.body.error.fields)).toEqual(['query.from']);
    const empty = await owner.get(api(studio, 'accounting/jpk-fa.xml?from=2026-10-01&to=2026-10-31'));
    expect(empty.status).toBe(409);
    expect(empty.body.error.key).toBe('accounting.nothingToReport');
    // A rate the Polish records have no field for: said so, not a server error; the register lists it.
    const odd = await owner.post(api(studio, 'invoice'), {
      buyer: PL_BUYER,
      lines: [{ ...LINES[0], vatRate: 1200 }],
    });
    expect(odd.status, odd.text).toBe(201);
    for (const file of ['jpk-fa.xml', 'jpk-v7m.xml']) {
      const res = await owner.get(api(studio, `accounting/${file}?${MONTH}`));
      expect(res.status, file).toBe(409);
      expect(res.body.error.key).toBe('accounting.rateNotInJpk');
    }
    expect(await (await download(owner, studio, `sales-register.csv?${MONTH}`)).res.text()).toContain(
      ';12%;',
    );
  });

  it('is for staff with report rights, and shows one studio only', async () => {
    const { studio, owner } = await studioWithInvoices();
    await owner.request('PUT', api(studio, 'accounting/settings'), ACCOUNTING);
    const accountant = await createUser(app.knex, { firstName: 'Anna', lastName: 'Księgowa' });
    await addMembership(app.knex, studio, accountant, { isMember: true, role: 'accountant' });
    const asAccountant = await app.signedIn(accountant.email, accountant.password);
    expect((await download(asAccountant, studio, `jpk-v7m.xml?${MONTH}`)).status).toBe(200);
    const desk = await createUser(app.knex, { firstName: 'Rita', lastName: 'Recepcja' });
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const asDesk = await app.signedIn(desk.email, desk.password);
    for (const file of ['jpk-fa.xml', 'jpk-v7m.xml', 'sales-register.csv', 'sales-register.xlsx', 'summary'])
      expect((await asDesk.get(api(studio, `accounting/${file}?${MONTH}`))).status, file).toBe(403);
    expect((await asDesk.get(api(studio, 'accounting/settings'))).status).toBe(403);
    expect((await asDesk.request('PUT', api(studio, 'accounting/settings'), ACCOUNTING)).status).toBe(403);
    expect((await (await app.anonymous()).get(api(studio, `accounting/summary?${MONTH}`))).status).toBe(401);
    for (const file of ['jpk-fa.xml', 'jpk-v7m.xml', 'sales-register.csv', 'summary'])
      await expectHiddenFromOtherStudio(
        app,
        { method: 'GET', path: api(studio, `accounting/${file}?${MONTH}`) },
        ['Harmonia', 'FV/2026'],
      );
    await expectHiddenFromOtherStudio(app, {
      method: 'PUT',
      path: api(studio, 'accounting/settings'),
      body: ACCOUNTING,
    });
    // Another studio's own files hold none of this studio's documents.
    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    const theirs = await otherOwner.get(api(other.studio, `accounting/summary?${MONTH}`));
    expect(theirs.body).toMatchObject({ invoices: 0, corrections: 0, receipts: 0, gross: 0 });
    const theirCsv = await download(otherOwner, other.studio, `sales-register.csv?${MONTH}`);
    expect(await theirCsv.res.text()).not.toContain('FV/2026');
  });

  it("the demo studio's last month has invoices and receipts in every file", async () => {
    clock.set(NOW);
    const demo = await seedDemoStudio(app.knex, createLogger('silent', false), NOW, {
      tag: `jpk${Date.now()}`,
    });
    const manager = await app.signedIn(demo!.managerEmail, DEMO.password);
    const studio = { id: demo!.studioUuid } as Studio;
    const october = 'from=2026-10-01&to=2026-10-31';
    const summary = await manager.get(api(studio, `accounting/summary?${october}`));
    expect(summary.body.invoices).toBeGreaterThanOrEqual(8);
    expect(summary.body.receiptDays).toBeGreaterThanOrEqual(20);
    expect(summary.body.forReceipts).toBe(1);
    for (const [kind, file] of [
      ['fa', 'jpk-fa.xml'],
      ['v7m', 'jpk-v7m.xml'],
    ] as const) {
      const res = await download(manager, studio, `${file}?${october}`);
      expect(res.status, file).toBe(200);
      const xml = await res.res.text();
      expect(validate(kind, xml), file).toBe('validates');
      if (kind === 'v7m') expect(xml).toContain('<TypDokumentu>FP</TypDokumentu>');
    }
    const csv = await download(manager, studio, `sales-register.csv?${october}`);
    expect(parseCsv(await csv.res.text(), ';').length).toBeGreaterThan(40);
  });
});
