import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KSEF_SPEC } from '../testing/fa3-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../../tests/support/factories';
import type { HttpClient } from '../../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../../tests/support/test-app';
import type { Studio } from '../../identity/rows';
import { TEST_SELLER_SETTINGS } from '../testing/seller-settings';
import { fieldKeyring, keyringOf } from '../../../crypto/field-crypto';
import { isValidKsefNumber, sha256Base64 } from './ksef-crypto';
import { ksefTiming, requeueStalledKsefSends } from './ksef-send.service';
import { reencryptKsefSecrets } from './ksef-settings.service';
import { FakeKsef } from './testing/fake-ksef';
import { qrCodesOfPdf } from './testing/pdf-qr';

/**
 * Sending invoices to KSeF (issue 19) against the local fake of the KSeF API 2.0 (`testing/fake-ksef.ts`):
 * accepted with a number and UPO, refused with KSeF's reason, unreachable → offline mode (KOD I + KOD II
 * on the PDF) → sent when KSeF is back; no cancelling once sent; settings, rights and tenancy.
 */
// The real time: test files share the database, and the periodic KSeF sweep of another file's job
// runner would take rows written "days ago" by a clock in the past for stalled ones.
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const clock = new ManualClock(NOW);
const fake = new FakeKsef();
let app: TestApp;
const SCREENS = path.resolve(__dirname, '../../../../../test-results/screens');
const CERT = readFileSync(path.join(__dirname, 'testing/offline-cert.pem'), 'utf8');
const CERT_KEY = readFileSync(path.join(__dirname, 'testing/offline-cert.key.pem'), 'utf8');
/** A valid NIP of its own for each test studio (KSeF refuses the same number twice for one seller). */
function freshNip(): string {
  for (;;) {
    const digits = [
      1 + Math.floor(Math.random() * 9),
      ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 10)),
    ];
    const check = [6, 5, 7, 2, 3, 4, 5, 6, 7].reduce((sum, w, i) => sum + w * digits[i]!, 0) % 11;
    if (check < 10) return [...digits, check].join('');
  }
}
const TOKEN = '20261123-EC-2B7A1C0D9E-4F2A6B8C1D-7E|nip-5260250274|0123456789abcdef';

beforeAll(async () => {
  app = await startTestApp({ clock });
  app.deps.config.KSEF_API_URL = await fake.start();
  ksefTiming.pollDelayMs = 5;
});
afterAll(async () => {
  await app?.close();
  await fake.stop();
});

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const BUYER = {
  name: 'Firma Jogi & Syn sp. z o.o.',
  addressLine: 'ul. Źródlana 3',
  postalCode: '31-100',
  city: 'Kraków',
  taxId: '7740001454',
};
const LINES = [{ description: 'Wynajem sali', quantity: '2', unit: 'h', unitPrice: 10000, vatRate: 2300 }];

async function sendingStudio(ksef: Record<string, unknown> = {}, nip = freshNip()) {
  clock.set(NOW);
  fake.tokens.set(nip, TOKEN);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const seller = { ...TEST_SELLER_SETTINGS, taxId: nip };
  expect((await owner.request('PUT', api(scenario.studio, 'invoice-settings'), seller)).status).toBe(200);
  const res = await owner.request('PUT', api(scenario.studio, 'ksef-settings'), {
    environment: 'test',
    token: TOKEN,
    ...ksef,
  });
  expect(res.status, res.text).toBe(200);
  return { ...scenario, owner, nip };
}

async function issue(owner: HttpClient, studio: Studio, body: Record<string, unknown> = {}) {
  const res = await owner.post(api(studio, 'invoice'), { buyer: BUYER, lines: LINES, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; number: string; issueDate: string };
}

/** Issued and tried while KSeF is unreachable (the invoice goes offline), then KSeF is back. */
async function issueWhileKsefIsDown(owner: HttpClient, studio: Studio) {
  fake.reachable = false;
  try {
    const invoice = await issue(owner, studio);
    await app.drainJobs();
    return invoice;
  } finally {
    fake.reachable = true;
  }
}

const stateOf = async (owner: HttpClient, studio: Studio, id: string) => {
  const res = await owner.get(api(studio, `invoice/${id}/ksef`));
  expect(res.status, res.text).toBe(200);
  return res.body as {
    state: string;
    mode: string | null;
    ksefNumber: string | null;
    reason: string | null;
    statusCode: number | null;
    lastError: string | null;
    upoAvailable: boolean;
    verificationUrl: string | null;
    resendable: boolean;
  };
};

async function pdfOf(owner: HttpClient, studio: Studio, id: string): Promise<Buffer> {
  const res = await fetch(app.url + api(studio, `invoice/${id}/pdf`), { headers: owner.headers() });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('sending invoices to KSeF', { timeout: 120_000 }, () => {
  it('an issued invoice is sent, accepted with a KSeF number and UPO, printed with KOD I, and never cancelled after', async () => {
    const { studio, owner, nip: NIP } = await sendingStudio();
    const invoice = await issue(owner, studio);
    expect((await stateOf(owner, studio, invoice.id)).state).toBe('waiting');

    await app.drainJobs();
    const state = await stateOf(owner, studio, invoice.id);
    expect(state).toMatchObject({ state: 'accepted', mode: 'online', upoAvailable: true, resendable: false });
    expect(isValidKsefNumber(state.ksefNumber!)).toBe(true);
    expect(state.ksefNumber!.startsWith(`${NIP}-`)).toBe(true);

    // What KSeF received: the product's FA(3) document, decrypted by the fake and valid against the schema.
    const sent = fake.invoices.find((i) => i.ksefNumber === state.ksefNumber)!;
    expect(sent.offlineMode).toBe(false);
    expect(sent.xml).toContain(`<P_2>${invoice.number}</P_2>`);
    const hash = sha256Base64(Buffer.from(sent.xml, 'utf8'));
    expect(state.verificationUrl).toBe(
      `https://qr-test.ksef.mf.gov.pl/invoice/${NIP}/${invoice.issueDate.split('-').reverse().join('-')}/` +
        Buffer.from(hash, 'base64').toString('base64url'),
    );

    const upo = await fetch(app.url + api(studio, `invoice/${invoice.id}/ksef/upo.xml`), {
      headers: owner.headers(),
    });
    expect(upo.status).toBe(200);
    const upoXml = await upo.text();
    expect(upoXml).toContain(`<NumerKSeFDokumentu>${state.ksefNumber}</NumerKSeFDokumentu>`);
    expect(upoXml).toContain(`<SkrotDokumentu>${hash}</SkrotDokumentu>`);

    // The PDF carries KOD I, which a phone reads as the verification link.
    const codes = await qrCodesOfPdf(await pdfOf(owner, studio, invoice.id), {
      pngTo: path.join(SCREENS, 'ksef-invoice-pdf-accepted-pl.png'),
    });
    expect(codes).toEqual([state.verificationUrl]);

    const cancel = await owner.post(api(studio, `invoice/${invoice.id}/cancel`), { reason: 'pomyłka' });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.key).toBe('ksef.invoiceSent');
    expect(cancel.body.error.message).toContain('corrective');
    expect((await owner.post(api(studio, `invoice/${invoice.id}/ksef/resend`), {})).status).toBe(409);

    // A correction goes to KSeF naming the corrected invoice's KSeF number.
    const corr = await owner.post(api(studio, `invoice/${invoice.id}/corrective`), {
      reason: 'Rabat',
      lines: [{ ...LINES[0], unitPrice: 9000 }],
    });
    expect(corr.status, corr.text).toBe(201);
    await app.drainJobs();
    const corrState = await stateOf(owner, studio, corr.body.id);
    expect(corrState.state).toBe('accepted');
    const corrSent = fake.invoices.find((i) => i.ksefNumber === corrState.ksefNumber)!;
    expect(corrSent.xml).toContain(`<NrKSeFFaKorygowanej>${state.ksefNumber}</NrKSeFFaKorygowanej>`);
  });

  it('a bilingual invoice for a foreign buyer prints its KSeF number and KOD I (screenshot)', async () => {
    const { studio, owner } = await sendingStudio();
    const invoice = await issue(owner, studio, {
      buyer: {
        name: 'Tanzschule GmbH',
        addressLine: 'Hauptstr. 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        taxId: 'DE123456789',
      },
      vatTreatment: 'reverseCharge',
    });
    await app.drainJobs();
    const state = await stateOf(owner, studio, invoice.id);
    expect(state.state).toBe('accepted');
    const codes = await qrCodesOfPdf(await pdfOf(owner, studio, invoice.id), {
      pngTo: path.join(SCREENS, 'ksef-invoice-pdf-accepted-en.png'),
    });
    expect(codes).toEqual([state.verificationUrl]);
  });

  it('KSeF refuses: a wrong token, an invalid document, a duplicate — each with its reason; Resend sends again', async () => {
    const { studio, owner, nip } = await sendingStudio({ token: 'not-the-right-token-123' });
    const invoice = await issue(owner, studio);
    await app.drainJobs();
    let state = await stateOf(owner, studio, invoice.id);
    expect(state).toMatchObject({ state: 'refused', statusCode: 450, resendable: true });
    expect(state.reason).toContain('błędnego tokenu');
    // Refused means not in KSeF: no QR codes on the PDF.
    expect(await qrCodesOfPdf(await pdfOf(owner, studio, invoice.id))).toEqual([]);

    expect(
      (await owner.request('PUT', api(studio, 'ksef-settings'), { environment: 'test', token: TOKEN }))
        .status,
    ).toBe(200);
    expect((await owner.post(api(studio, `invoice/${invoice.id}/ksef/resend`), {})).status).toBe(200);
    await app.drainJobs();
    state = await stateOf(owner, studio, invoice.id);
    expect(state.state).toBe('accepted');

    // A document the schema refuses (as a generator bug would make it): 430 with xmllint's reason.
    const second = await issue(owner, studio);
    await app
      .knex('invoice_ksef')
      .where({ invoiceId: second.id })
      .update({
        xml: readFileSync(path.join(KSEF_SPEC, 'example-fa3.xml'), 'utf8').replace(
          '<P_2>',
          '<P_2X>x</P_2X><P_2>',
        ),
        invoiceHash: 'x',
      });
    await app.drainJobs();
    state = await stateOf(owner, studio, second.id);
    expect(state).toMatchObject({ state: 'refused', statusCode: 430 });
    expect(state.reason).toContain('Błąd weryfikacji pliku faktury');
    expect(state.reason).toContain('P_2X');

    // Another studio of the same company (same NIP) sending the same number: a duplicate.
    const other = await sendingStudio({}, nip);
    const dup = await issue(other.owner, other.studio);
    expect(dup.number).toBe(invoice.number);
    await app.drainJobs();
    state = await stateOf(other.owner, other.studio, dup.id);
    expect(state).toMatchObject({ state: 'refused', statusCode: 440 });
    expect(state.reason).toContain('Duplikat faktury');
    expect(state.reason).toContain('originalKsefNumber');
    // A refused invoice is not in KSeF: it may still be cancelled.
    expect(
      (await other.owner.post(api(other.studio, `invoice/${dup.id}/cancel`), { reason: 'duplikat' })).status,
    ).toBe(200);
  });

  it('KSeF unreachable: the invoice is issued in offline mode with KOD I and KOD II, and sent when KSeF is back', async () => {
    const {
      studio,
      owner,
      nip: NIP,
    } = await sendingStudio({
      offlineCertificate: { certificatePem: CERT, privateKeyPem: CERT_KEY },
    });
    fake.reachable = false;
    try {
      const invoice = await issue(owner, studio);
      await app.drainJobs();
      let state = await stateOf(owner, studio, invoice.id);
      expect(state).toMatchObject({ state: 'waiting', mode: 'offline', ksefNumber: null });
      expect(state.lastError).toBeTruthy();
      const codes = await qrCodesOfPdf(await pdfOf(owner, studio, invoice.id), {
        pngTo: path.join(SCREENS, 'ksef-invoice-pdf-offline-pl.png'),
      });
      expect(codes[0]).toBe(state.verificationUrl);
      expect(codes[1]).toMatch(
        new RegExp(
          `^https://qr-test\\.ksef\\.mf\\.gov\\.pl/certificate/Nip/${NIP}/${NIP}/[0-9A-F]+/[A-Za-z0-9_-]{43}/[A-Za-z0-9_-]+$`,
        ),
      );
      // Still down: retried, still offline.
      await app.drainJobs();
      expect((await stateOf(owner, studio, invoice.id)).state).toBe('waiting');

      fake.reachable = true;
      await app.drainJobs();
      state = await stateOf(owner, studio, invoice.id);
      expect(state).toMatchObject({ state: 'accepted', mode: 'offline' });
      const sent = fake.invoices.find((i) => i.ksefNumber === state.ksefNumber)!;
      expect(sent.offlineMode).toBe(true);
      // The document sent is the one whose hash the printed codes carry.
      expect(state.verificationUrl).toBe(codes[0]);
    } finally {
      fake.reachable = true;
    }
  });

  it('an offline invoice KSeF refuses after reading it is sent again as its technical correction', async () => {
    const { studio, owner } = await sendingStudio();
    const invoice = await issueWhileKsefIsDown(owner, studio);
    expect((await stateOf(owner, studio, invoice.id)).mode).toBe('offline');
    // The document kept for it breaks the schema (as a generator bug would): KSeF reads it and refuses.
    const broken = (await app.knex('invoice_ksef').where({ invoiceId: invoice.id }).first())!.xml!.replace(
      '<P_2>',
      '<P_2X>x</P_2X><P_2>',
    );
    const brokenHash = sha256Base64(Buffer.from(broken, 'utf8'));
    await app
      .knex('invoice_ksef')
      .where({ invoiceId: invoice.id })
      .update({ xml: broken, invoiceHash: brokenHash });
    await app.drainJobs();
    expect(await stateOf(owner, studio, invoice.id)).toMatchObject({ state: 'refused', statusCode: 430 });

    expect((await owner.post(api(studio, `invoice/${invoice.id}/ksef/resend`), {})).status).toBe(200);
    await app.drainJobs();
    const state = await stateOf(owner, studio, invoice.id);
    expect(state).toMatchObject({ state: 'accepted', mode: 'offline' });
    const sent = fake.invoices.find((i) => i.ksefNumber === state.ksefNumber)!;
    expect(sent).toMatchObject({ offlineMode: true, hashOfCorrectedInvoice: brokenHash });
    expect(sent.xml).not.toContain('P_2X');
  });

  it('the periodic sweep sends again an invoice stuck for hours while KSeF was down', async () => {
    const { studio, owner } = await sendingStudio();
    const invoice = await issueWhileKsefIsDown(owner, studio);
    // Its job is now in a long backoff (or out of retries). Fresh: the sweep leaves it alone.
    const attempt = async () =>
      (await app.knex('invoice_ksef').where({ invoiceId: invoice.id }).first('attempt'))!.attempt;
    await requeueStalledKsefSends(app.knex, clock.now());
    expect(await attempt()).toBe(1);
    // Three hours without progress: a fresh attempt.
    await app
      .knex('invoice_ksef')
      .where({ invoiceId: invoice.id })
      .update({ updatedAt: new Date(clock.now().getTime() - 3 * 3600_000) });
    await requeueStalledKsefSends(app.knex, clock.now());
    expect(await attempt()).toBe(2);
    await app.drainJobs();
    expect(await stateOf(owner, studio, invoice.id)).toMatchObject({ state: 'accepted', mode: 'offline' });
  });

  it('settings: the token is write-only; rights (403) and tenancy (404) of every KSeF route', async () => {
    const { studio, owner } = await sendingStudio();
    const settings = await owner.get(api(studio, 'ksef-settings'));
    expect(settings.body).toMatchObject({
      environment: 'test',
      tokenSaved: true,
      tokenHint: `…${TOKEN.slice(-4)}`,
    });
    expect(settings.text).not.toContain(TOKEN.slice(0, 20));
    const stored = await app.knex('studio_ksef_settings').where({ studioId: studio.id }).first();
    expect(JSON.stringify(stored)).not.toContain(TOKEN.slice(0, 20));
    const badCert = await owner.request('PUT', api(studio, 'ksef-settings'), {
      environment: 'test',
      offlineCertificate: {
        certificatePem: CERT,
        privateKeyPem: readFileSync(path.join(__dirname, 'testing/fake-mf.key.pem'), 'utf8'),
      },
    });
    expect(badCert.status).toBe(400);
    expect(badCert.body.error.fields.offlineCertificate).toBeDefined();

    const invoice = await issue(owner, studio);
    await app.drainJobs();
    const list = await owner.get(api(studio, 'ksef/invoices?state=accepted'));
    expect(list.body.items.map((i: { number: string }) => i.number)).toEqual([invoice.number]);

    const desk = await createUser(app.knex, { firstName: 'Desk', lastName: 'Staff' });
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const deskClient = await app.signedIn(desk.email, desk.password);
    expect((await deskClient.get(api(studio, `invoice/${invoice.id}/ksef`))).status).toBe(200);
    expect(
      (await deskClient.request('PUT', api(studio, 'ksef-settings'), { environment: 'production' })).status,
    ).toBe(403);
    expect((await deskClient.post(api(studio, `invoice/${invoice.id}/ksef/resend`), {})).status).toBe(403);
    const instructor = await createUser(app.knex, { firstName: 'In', lastName: 'Structor' });
    await addMembership(app.knex, studio, instructor, { isMember: true, role: 'instructor' });
    const instructorClient = await app.signedIn(instructor.email, instructor.password);
    expect((await instructorClient.get(api(studio, 'ksef/invoices'))).status).toBe(403);
    expect((await instructorClient.get(api(studio, 'ksef-settings'))).status).toBe(403);

    for (const request of [
      { method: 'GET' as const, path: api(studio, 'ksef-settings') },
      { method: 'PUT' as const, path: api(studio, 'ksef-settings'), body: { environment: 'production' } },
      { method: 'GET' as const, path: api(studio, 'ksef/invoices') },
      { method: 'GET' as const, path: api(studio, `invoice/${invoice.id}/ksef`) },
      { method: 'POST' as const, path: api(studio, `invoice/${invoice.id}/ksef/resend`), body: {} },
      { method: 'GET' as const, path: api(studio, `invoice/${invoice.id}/ksef/upo.xml`) },
    ])
      await expectHiddenFromOtherStudio(app, request, [invoice.number]);
    expect((await app.knex('studio_ksef_settings').where({ studioId: studio.id }).first())?.environment).toBe(
      'test',
    );
  });

  it('key rotation moves the KSeF token and certificate to the new key, and sending still works', async () => {
    const { studio, owner } = await sendingStudio({
      offlineCertificate: { certificatePem: CERT, privateKeyPem: CERT_KEY },
    });
    const old = fieldKeyring(app.deps.config);
    const rotated = keyringOf(randomBytes(32), [...old.byId.values()]);
    const moved = await reencryptKsefSecrets(app.knex, rotated);
    expect(moved.moved).toBeGreaterThanOrEqual(2);
    const row = await app.knex('studio_ksef_settings').where({ studioId: studio.id }).first();
    expect(row?.token?.split('.')[1]).toBe(rotated.current.id);
    expect(row?.offlineCertificate?.split('.')[1]).toBe(rotated.current.id);
    // The app still runs on the old key: put the old ciphertexts back for it (the rotation test
    // proved the new ones decrypt under the new ring by producing them from the old).
    await reencryptKsefSecrets(app.knex, keyringOf([...old.byId.values()][0]!, [...rotated.byId.values()]));
    const invoice = await issue(owner, studio);
    await app.drainJobs();
    // The whole state on failure: its refusal's code and reason (this once failed in a CI run).
    expect(await stateOf(owner, studio, invoice.id)).toMatchObject({ state: 'accepted' });
  });
});
