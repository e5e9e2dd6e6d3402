import { describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { studioSessions } from '../../../../tests/support/sessions';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';

/**
 * Issue 25: the studio's bank accounts (IBAN checked; the default of a currency printed on that
 * currency's invoices and shown to clients as transfer instructions) and the studio's documents
 * (uploaded by staff, downloadable by clients once published). Every route's 401/400/403/404,
 * another studio's staff, and success.
 */
const app = useTestApp({ clock: new ManualClock(new Date('2026-11-23T09:00:00Z')) });
const { ownerStudio, staffWithRole } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const PL_IBAN = 'PL61 1090 1014 0000 0712 1981 2874';
const PL_IBAN_2 = '27 1140 2004 0000 3002 0135 5387';
const DE_IBAN = 'DE89 3704 0044 0532 0130 00';

async function signedInClient(studio: Studio): Promise<HttpClient> {
  const user = await createUser(app.knex, { firstName: 'Kinga', lastName: 'Client' });
  await addMembership(app.knex, studio, user, { isClient: true });
  return app.signedIn(user.email, user.password);
}

describe('studio bank accounts', () => {
  it('keeps accounts with checked IBANs, one default per currency, on invoices and transfer instructions', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const client = await signedInClient(studio);

    expect((await anonymous.get(api(studio, 'studio-bank-account/collection'))).status).toBe(401);
    expect((await desk.get(api(studio, 'studio-bank-account/collection'))).status).toBe(403);
    expect(
      (await desk.post(api(studio, 'studio-bank-account'), { name: 'X', iban: PL_IBAN, currency: 'PLN' }))
        .status,
    ).toBe(403);
    expect((await other.owner.get(api(studio, 'studio-bank-account/collection'))).status).toBe(404);
    expect((await client.get(api(studio, 'studio-bank-account/collection'))).status).toBe(403);

    const bad = await owner.post(api(studio, 'studio-bank-account'), {
      name: '',
      iban: 'PL61 1090 1014 0000 0712 1981 2875',
      currency: 'XXX',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      name: expect.any(Array),
      iban: ['the check digits do not match: a typo?'],
      currency: expect.any(Array),
    });
    const short = await owner.post(api(studio, 'studio-bank-account'), {
      name: 'Main',
      iban: 'DE89 3704 0044 0532 0130 0',
      currency: 'EUR',
    });
    expect(short.body.error.fields.iban).toEqual(['not an account number (IBAN) of a known country']);

    const main = await owner.post(api(studio, 'studio-bank-account'), {
      name: 'Main',
      iban: PL_IBAN,
      bankName: 'Santander',
      currency: 'PLN',
    });
    expect(main.status, main.text).toBe(201);
    expect(main.body).toMatchObject({
      iban: 'PL61109010140000071219812874',
      ibanPrinted: PL_IBAN,
      isDefault: true, // the first of its currency
    });
    const taken = await owner.post(api(studio, 'studio-bank-account'), {
      name: 'Again',
      iban: PL_IBAN,
      currency: 'PLN',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ key: 'studio.bankAccountTaken', code: 3130 });
    // Another studio may keep the same account.
    expect(
      (
        await other.owner.post(api(other.studio, 'studio-bank-account'), {
          name: 'M',
          iban: PL_IBAN,
          currency: 'PLN',
        })
      ).status,
    ).toBe(201);

    const second = await owner.post(api(studio, 'studio-bank-account'), {
      name: 'Savings',
      iban: PL_IBAN_2,
      currency: 'PLN',
      isDefault: true,
    });
    expect(second.body.isDefault).toBe(true);
    const euro = await owner.post(api(studio, 'studio-bank-account'), {
      name: 'Euro',
      iban: DE_IBAN,
      currency: 'EUR',
    });
    const list = await owner.get(api(studio, 'studio-bank-account/collection'));
    expect(list.body.items.map((a: { name: string; isDefault: boolean }) => [a.name, a.isDefault])).toEqual([
      ['Euro', true],
      ['Savings', true],
      ['Main', false],
    ]);

    // PATCH and DELETE: 404 for another studio's account and for another studio's staff.
    const otherAccount = (await other.owner.get(api(other.studio, 'studio-bank-account/collection'))).body
      .items[0].id;
    expect(
      (await owner.patch(api(studio, `studio-bank-account/${otherAccount}`), { name: 'Mine' })).status,
    ).toBe(404);
    expect((await other.owner.delete(api(studio, `studio-bank-account/${main.body.id}`))).status).toBe(404);
    expect(
      (await owner.patch(api(studio, `studio-bank-account/${main.body.id}`), { isDefault: false })).status,
    ).toBe(400);
    const renamed = await owner.patch(api(studio, `studio-bank-account/${main.body.id}`), {
      name: 'Main account',
      isDefault: true,
    });
    expect(renamed.body).toMatchObject({ name: 'Main account', isDefault: true });

    // Clients read where to send a transfer: the defaults, the studio's currency first.
    expect((await anonymous.get(api(studio, 'studio-bank-account/transfer'))).status).toBe(401);
    const transfer = await client.get(api(studio, 'studio-bank-account/transfer'));
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body.accounts).toEqual([
      { name: 'Main account', ibanPrinted: PL_IBAN, bankName: 'Santander', currency: 'PLN' },
      { name: 'Euro', ibanPrinted: DE_IBAN, bankName: '', currency: 'EUR' },
    ]);

    // An invoice names the default account of its currency, over the invoice settings' account.
    await owner.request('PUT', api(studio, 'invoice-settings'), { ...TEST_SELLER_SETTINGS, iban: PL_IBAN_2 });
    const line = { description: 'Warsztaty', quantity: '1', unit: 'usł.', unitPrice: 10000, vatRate: 2300 };
    const buyer = { name: 'Firma', addressLine: 'ul. Źródlana 3', postalCode: '31-100', city: 'Kraków' };
    const invoice = await owner.post(api(studio, 'invoice'), { buyer, lines: [line] });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.seller).toMatchObject({
      iban: 'PL61109010140000071219812874',
      bankName: 'Santander',
    });

    // Deleting the default makes the next account of its currency the default.
    expect((await desk.delete(api(studio, `studio-bank-account/${main.body.id}`))).status).toBe(403);
    expect((await owner.delete(api(studio, `studio-bank-account/${main.body.id}`))).status).toBe(204);
    const after = await owner.get(api(studio, 'studio-bank-account/collection'));
    expect(after.body.items.find((a: { id: string }) => a.id === second.body.id).isDefault).toBe(true);
    expect(euro.body.isDefault).toBe(true);
  });
});

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function upload(client: HttpClient, path: string, file: { bytes: Buffer; name: string } | null) {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  else form.append('comment', 'no file');
  const res = await fetch(app.url + path, { method: 'POST', headers: client.headers(), body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function download(client: HttpClient, path: string) {
  const res = await fetch(app.url + path, { headers: client.headers() });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('studio documents', () => {
  it('staff upload and publish; clients list and download only the published ones', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const client = await signedInClient(studio);
    const otherClient = await signedInClient(other.studio);

    expect(
      (await upload(anonymous, api(studio, 'studio-document'), { bytes: PDF, name: 'r.pdf' })).status,
    ).toBe(401);
    expect((await upload(desk, api(studio, 'studio-document'), { bytes: PDF, name: 'r.pdf' })).status).toBe(
      403,
    );
    expect(
      (await upload(other.owner, api(studio, 'studio-document'), { bytes: PDF, name: 'r.pdf' })).status,
    ).toBe(404);
    const none = await upload(owner, api(studio, 'studio-document'), null);
    expect(none.status).toBe(400);
    expect(none.body.error.fields.file).toEqual(['choose a file']);
    const html = await upload(owner, api(studio, 'studio-document'), {
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
      name: 'rules.pdf',
    });
    expect(html.status).toBe(400);

    const up = await upload(owner, api(studio, 'studio-document'), {
      bytes: PDF,
      name: 'Regulamin siłowni.pdf',
    });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      name: 'Regulamin siłowni',
      fileName: 'Regulamin siłowni.pdf',
      contentType: 'application/pdf',
      published: false,
    });
    const id = up.body.id as string;

    // Unpublished: staff see and download it, clients do not.
    expect((await owner.get(api(studio, 'studio-document/collection'))).body.items).toHaveLength(1);
    expect((await client.get(api(studio, 'studio-document/collection'))).status).toBe(403);
    expect((await client.get(api(studio, 'studio-document/published'))).body.items).toEqual([]);
    expect((await download(client, api(studio, `studio-document/${id}/file`))).status).toBe(404);
    const staffCopy = await download(owner, api(studio, `studio-document/${id}/download`));
    expect(staffCopy.status).toBe(200);
    expect(staffCopy.bytes.equals(PDF)).toBe(true);
    expect((await download(other.owner, api(studio, `studio-document/${id}/download`))).status).toBe(404);

    expect((await desk.patch(api(studio, `studio-document/${id}`), { published: true })).status).toBe(403);
    expect((await owner.patch(api(studio, `studio-document/${id}`), { name: '' })).status).toBe(400);
    expect((await other.owner.patch(api(studio, `studio-document/${id}`), { published: true })).status).toBe(
      404,
    );
    const published = await owner.patch(api(studio, `studio-document/${id}`), {
      name: 'Gym rules',
      published: true,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ name: 'Gym rules', published: true });

    const mine = await client.get(api(studio, 'studio-document/published'));
    expect(mine.body.items.map((d: { name: string }) => d.name)).toEqual(['Gym rules']);
    const file = await download(client, `/api${mine.body.items[0].downloadPath}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(file.bytes.equals(PDF)).toBe(true);
    // Another studio's client is no client here: not found.
    expect((await download(otherClient, api(studio, `studio-document/${id}/file`))).status).toBe(404);

    expect((await other.owner.delete(api(studio, `studio-document/${id}`))).status).toBe(404);
    expect((await owner.delete(api(studio, `studio-document/${id}`))).status).toBe(204);
    expect((await download(client, api(studio, `studio-document/${id}/file`))).status).toBe(404);
    expect((await owner.delete(api(studio, `studio-document/${id}`))).status).toBe(404);
  });
});

describe('client feedback', () => {
  it('a client writes to the studio; staff with the right read it; others get nothing', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const client = await signedInClient(studio);
    const otherClient = await signedInClient(other.studio);

    expect((await anonymous.post(api(studio, 'feedback'), { message: 'Hi' })).status).toBe(401);
    const bad = await client.post(api(studio, 'feedback'), { message: ' ', rating: 6 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['message', 'rating']);
    expect((await owner.post(api(studio, 'feedback'), { message: 'Staff are no clients' })).status).toBe(403);
    expect((await otherClient.post(api(studio, 'feedback'), { message: 'Not my studio' })).status).toBe(404);

    const sent = await client.post(api(studio, 'feedback'), {
      message: 'More evening classes, please!',
      rating: 5,
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({ message: 'More evening classes, please!', rating: 5 });

    expect((await anonymous.get(api(studio, 'feedback/collection'))).status).toBe(401);
    expect((await client.get(api(studio, 'feedback/collection'))).status).toBe(403);
    expect((await other.owner.get(api(studio, 'feedback/collection'))).status).toBe(404);
    expect((await other.owner.get(api(other.studio, 'feedback/collection'))).body.items).toEqual([]);
    const list = await owner.get(api(studio, 'feedback/collection'));
    expect(list.body.items).toEqual([
      expect.objectContaining({
        message: 'More evening classes, please!',
        rating: 5,
        client: expect.objectContaining({ firstName: 'Kinga', lastName: 'Client' }),
      }),
    ]);
  });
});

describe('premium apps bundle request', () => {
  it('a manager asks once; the operator is mailed; the state is shown; a withdrawal is told too', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const body = {
      contactName: 'Anna Owner',
      contactEmail: 'Anna@Studio.example',
      contactPhone: '+48 600 100 200',
      message: 'We would like our own app in the stores.',
    };

    expect((await anonymous.get(api(studio, 'bundle/request'))).status).toBe(401);
    expect((await anonymous.post(api(studio, 'bundle/request'), body)).status).toBe(401);
    expect((await desk.get(api(studio, 'bundle/request'))).status).toBe(403);
    expect((await desk.post(api(studio, 'bundle/request'), body)).status).toBe(403);
    expect((await other.owner.post(api(studio, 'bundle/request'), body)).status).toBe(404);
    expect((await other.owner.get(api(studio, 'bundle/request'))).status).toBe(404);
    const bad = await owner.post(api(studio, 'bundle/request'), {
      contactName: ' ',
      contactEmail: 'nope',
      contactPhone: '12',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'contactEmail',
      'contactName',
      'contactPhone',
    ]);
    expect((await owner.delete(api(studio, 'bundle/request'))).status).toBe(404);
    expect((await owner.get(api(studio, 'bundle/request'))).body).toEqual({ request: null });

    const sent = await owner.post(api(studio, 'bundle/request'), body);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toMatchObject({
      status: 'requested',
      contactEmail: 'anna@studio.example',
      contactPhone: '+48 600 100 200',
      requestedBy: expect.objectContaining({ firstName: expect.any(String) }),
      withdrawnAt: null,
    });
    // One open request per studio.
    const again = await owner.post(api(studio, 'bundle/request'), body);
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('studio.bundleRequested');
    // Another studio's request is its own.
    expect((await other.owner.post(api(other.studio, 'bundle/request'), body)).status).toBe(201);

    await app.drainJobs();
    const mails = app.mail.filter((m) => m.subject === `Premium apps bundle requested: ${studio.name}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'no-reply@studio.local', replyTo: 'anna@studio.example' });
    expect(mails[0]!.text).toContain(studio.id);
    expect(mails[0]!.text).toContain('We would like our own app in the stores.');

    const state = await owner.get(api(studio, 'bundle/request'));
    expect(state.body.request).toMatchObject({ id: sent.body.id, status: 'requested' });

    expect((await desk.delete(api(studio, 'bundle/request'))).status).toBe(403);
    expect((await other.owner.delete(api(studio, 'bundle/request'))).status).toBe(404);
    const withdrawn = await owner.delete(api(studio, 'bundle/request'));
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body.request).toMatchObject({ id: sent.body.id, status: 'withdrawn' });
    await app.drainJobs();
    expect(
      app.mail.filter((m) => m.subject === `Premium apps bundle request withdrawn: ${studio.name}`),
    ).toHaveLength(1);
    // Asked again after withdrawing: a new request.
    const renewed = await owner.post(api(studio, 'bundle/request'), { ...body, message: '' });
    expect(renewed.status).toBe(201);
    expect(renewed.body).toMatchObject({ status: 'requested', message: null });
    expect(renewed.body.id).not.toBe(sent.body.id);
  });
});
