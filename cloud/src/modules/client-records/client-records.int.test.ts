import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES } from '../../../../shared/contracts/api/client-records';
import { ClientCustomFieldType as T } from '../../../../shared/enums/clients';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';
import { fileStorage } from '../../storage';
import { documentKey } from './document-storage';
import { recordEmailBounce } from './email-bounce.service';

const NOW = new Date('2026-11-22T12:00:00Z');

const app = useTestApp({ clock: new ManualClock(NOW) });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-12);

const { ownerStudio, staffWithRole } = studioSessions(() => app);

async function seedClient(
  studio: Studio,
  seed: { email?: string; phone?: string | null; password?: boolean; firstName?: string } = {},
): Promise<string> {
  const user = await createUser(app.knex, {
    firstName: seed.firstName ?? 'Seed',
    lastName: 'Client',
    email: seed.email ?? `client-${unique()}@example.com`,
    phone: seed.phone ?? null,
    password: seed.password ? undefined : null,
  });
  await addMembership(app.knex, studio, user, { isClient: true });
  return user.id;
}

// ------------------------------------------------------------------------------ multipart helpers

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

async function upload(
  client: HttpClient,
  path: string,
  file: { bytes: Buffer; name: string; type?: string } | null,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  else form.append('comment', 'no file here');
  const res = await fetch(app.url + path, { method: 'POST', headers: client.headers(), body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function download(client: HttpClient, path: string) {
  const res = await fetch(app.url + path, { headers: client.headers() });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

// -------------------------------------------------------------------------------------- documents

describe('client documents', () => {
  it('uploads, lists, downloads under the original name and deletes a document', async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio);
    const up = await upload(owner, api(studio, `client/${clientId}/client-document/upload`), {
      bytes: PDF,
      name: 'Zaświadczenie lekarskie.pdf',
      type: 'application/pdf',
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({
      clientId,
      fileName: 'Zaświadczenie lekarskie.pdf',
      contentType: 'application/pdf',
      sizeBytes: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
      uploadedBy: { firstName: 'Maria', lastName: 'Manager' },
    });
    const storage = fileStorage(app.deps.config);
    const stored = documentKey(studio.id, up.body.id);
    expect((await storage.read(stored))?.equals(PDF)).toBe(true);

    const list = await owner.get(api(studio, `client/${clientId}/client-document/collection`));
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: { id: string }) => d.id)).toEqual([up.body.id]);
    expect(list.body.maxBytes).toBe(DOCUMENT_MAX_BYTES);

    const file = await download(owner, `/api/v4/${studio.id}/${up.body.downloadPath}`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PDF)).toBe(true);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Zaświadczenie lekarskie.pdf')}`,
    );

    const del = await owner.delete(api(studio, `client-document/${up.body.id}`));
    expect(del.status).toBe(204);
    expect(await storage.read(stored)).toBeNull();
    expect(
      (await owner.get(api(studio, `client/${clientId}/client-document/collection`))).body.items,
    ).toEqual([]);
    expect((await download(owner, `/api/v4/${studio.id}/${up.body.downloadPath}`)).status).toBe(404);
  });

  it('tells the kind of file by its bytes, refuses other kinds, empty uploads and missing files (400)', async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio);
    const path = api(studio, `client/${clientId}/client-document/upload`);
    // A PNG sent as octet-stream is stored as a PNG; HTML named .pdf is refused.
    const png = await upload(owner, path, { bytes: PNG, name: 'scan.png' });
    expect(png.status).toBe(201);
    expect(png.body.contentType).toBe('image/png');
    const html = await upload(owner, path, {
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
      name: 'contract.pdf',
      type: 'application/pdf',
    });
    expect(html.status).toBe(400);
    expect(html.body.error.fields.file[0]).toMatch(/not accepted/);
    const none = await upload(owner, path, null);
    expect(none.status).toBe(400);
    expect(none.body.error.fields.file).toEqual(['choose a file']);
    const empty = await upload(owner, path, { bytes: Buffer.alloc(0), name: 'x.pdf' });
    expect(empty.status).toBe(400);
    const json = await owner.post(path, { file: 'base64…' });
    expect(json.status).toBe(415);
    // A path in the name is only a label.
    const sneaky = await upload(owner, path, { bytes: PDF, name: '../../etc/passwd.pdf' });
    expect(sneaky.status).toBe(201);
    expect(sneaky.body.fileName).toBe('passwd.pdf');
    const count = await app.knex('client_documents').where({ studioId: studio.id }).count({ n: '*' }).first();
    expect(Number(count?.n)).toBe(2);
  });

  it('takes a .docx only when the ZIP really is a Word document', async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio);
    const path = api(studio, `client/${clientId}/client-document/upload`);
    const contentTypes = (main: string) =>
      strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          `<Default Extension="xml" ContentType="application/xml"/>` +
          `<Override PartName="/word/document.xml" ContentType="${main}"/></Types>`,
      );
    const WORD = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
    const SHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
    const word = Buffer.from(
      zipSync({ '[Content_Types].xml': contentTypes(WORD), 'word/document.xml': strToU8('<w:document/>') }),
    );
    const ok = await upload(owner, path, { bytes: word, name: 'contract.docx' });
    expect(ok.status).toBe(201);
    expect(ok.body.contentType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    // Any ZIP (here: a script and a page) named .docx, and a spreadsheet renamed .docx, are refused.
    const anyZip = Buffer.from(zipSync({ 'run.sh': strToU8('rm -rf /'), 'index.html': strToU8('<script>') }));
    const renamedSheet = Buffer.from(zipSync({ '[Content_Types].xml': contentTypes(SHEET) }));
    for (const bytes of [anyZip, renamedSheet]) {
      const refused = await upload(owner, path, { bytes, name: 'contract.docx' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields.file[0]).toMatch(/not accepted/);
    }
    const count = await app.knex('client_documents').where({ studioId: studio.id }).count('* as n').first();
    expect(Number((count as { n: unknown } | undefined)?.n)).toBe(1);
  });

  it('refuses a file over 10 MB with 413 and keeps nothing', async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio);
    const big = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES, 0x20)]);
    const res = await upload(owner, api(studio, `client/${clientId}/client-document/upload`), {
      bytes: big,
      name: 'big.pdf',
    });
    expect(res.status).toBe(413);
    expect(res.body.error.fields.file[0]).toMatch(/10 MB/);
    expect(await app.knex('client_documents').where({ studioId: studio.id }).first()).toBeUndefined();
  });

  it('answers 401 signed out, 403 without clients.documents, 404 for another studio', async () => {
    const { studio, owner } = await ownerStudio();
    const clientId = await seedClient(studio);
    const up = await upload(owner, api(studio, `client/${clientId}/client-document/upload`), {
      bytes: PDF,
      name: 'secret-contract.pdf',
    });
    const anonymous = await app.anonymous();
    expect(
      (
        await upload(anonymous, api(studio, `client/${clientId}/client-document/upload`), {
          bytes: PDF,
          name: 'a.pdf',
        })
      ).status,
    ).toBe(401);
    expect((await anonymous.get(api(studio, `client/${clientId}/client-document/collection`))).status).toBe(
      401,
    );
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.get(api(studio, `client/${clientId}/client-document/collection`))).status).toBe(
      403,
    );
    expect((await download(frontDesk, `/api/v4/${studio.id}/${up.body.downloadPath}`)).status).toBe(403);
    expect((await frontDesk.delete(api(studio, `client-document/${up.body.id}`))).status).toBe(403);
    expect(
      (
        await upload(frontDesk, api(studio, `client/${clientId}/client-document/upload`), {
          bytes: PDF,
          name: 'a.pdf',
        })
      ).status,
    ).toBe(403);
    await expectHiddenFromOtherStudio(
      app,
      { method: 'GET', path: api(studio, `client/${clientId}/client-document/collection`) },
      ['secret-contract'],
    );
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: api(studio, `client-document/${up.body.id}/download`),
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'DELETE',
      path: api(studio, `client-document/${up.body.id}`),
    });
    // Uploading onto another studio's client: 404 and nothing stored.
    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    const cross = await upload(otherOwner, api(other.studio, `client/${clientId}/client-document/upload`), {
      bytes: PDF,
      name: 'a.pdf',
    });
    expect(cross.status).toBe(404);
    expect(await app.knex('client_documents').where({ studioId: other.studio.id }).first()).toBeUndefined();
    expect(await fileStorage(app.deps.config).read(documentKey(studio.id, up.body.id))).not.toBeNull();
  });
});

// ---------------------------------------------------------------------------------- custom fields

async function makeFields(owner: HttpClient, studio: Studio) {
  const location = uuidv7();
  await app.knex('locations').insert({ id: location, studioId: studio.id, name: 'Centrum' });
  const make = async (body: object) => {
    const res = await owner.post(api(studio, 'client-field'), body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  return {
    location,
    text: await make({ name: { en: { value: 'Goal' }, pl: { value: 'Cel' } }, type: T.text, position: 1 }),
    numeric: await make({ name: 'Height', type: T.numeric, settings: { min: 50, max: 250 }, position: 2 }),
    checkbox: await make({ name: 'Photo consent', type: T.checkbox, required: true, position: 3 }),
    select: await make({
      name: 'Level',
      type: T.customSelect,
      options: [
        { value: 'beginner', label: { en: { value: 'Beginner' }, pl: { value: 'Początkujący' } } },
        { value: 'advanced', label: 'Advanced' },
      ],
      position: 4,
    }),
    locationSelect: await make({ name: 'Home club', type: T.locationSelect, position: 5 }),
    memberSelect: await make({ name: 'Coach', type: T.memberSelect, position: 6 }),
    multi: await make({
      name: 'Interests',
      type: T.customMultiSelect,
      options: [
        { value: 'yoga', label: 'Yoga' },
        { value: 'pilates', label: 'Pilates' },
        { value: 'dance', label: 'Dance' },
      ],
      position: 7,
    }),
    secret: await make({ name: 'PESEL', type: T.text, encrypted: true, position: 8 }),
  };
}

describe('client custom fields', () => {
  it('defines fields of all seven types and checks definitions (400 with every problem)', async () => {
    const { studio, owner } = await ownerStudio();
    const fields = await makeFields(owner, studio);
    const list = await owner.get(api(studio, 'client-field/collection'));
    expect(list.status).toBe(200);
    expect(list.body.items.map((f: { type: number }) => f.type)).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
    expect(list.body.items[0]).toMatchObject({
      id: fields.text,
      typeLabelKey: 'enums:clientCustomFieldType.0',
    });

    const bad = await owner.post(api(studio, 'client-field'), { name: '', type: 9, options: 'x' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['name', 'options', 'type']);
    const noOptions = await owner.post(api(studio, 'client-field'), { name: 'Size', type: T.customSelect });
    expect(noOptions.status).toBe(400);
    expect(noOptions.body.error.fields.options).toEqual(['give at least one option']);
    const bounds = await owner.post(api(studio, 'client-field'), {
      name: 'Weight',
      type: T.numeric,
      settings: { min: 10, max: 5 },
    });
    expect(bounds.body.error.fields['settings.min']).toEqual(['must not be above max']);

    const patched = await owner.patch(api(studio, `client-field/${fields.text}`), {
      name: 'Training goal',
      required: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Training goal', required: true, type: T.text });
    expect((await owner.delete(api(studio, `client-field/${fields.numeric}`))).status).toBe(204);
    expect((await owner.get(api(studio, 'client-field/collection'))).body.items).toHaveLength(7);
  });

  it('writes values per type, reports every invalid one at once and writes nothing then', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const fields = await makeFields(owner, studio);
    const clientId = await seedClient(studio);
    const path = api(studio, `client/${clientId}/client-field`);
    const bad = await owner.patch(path, {
      values: {
        [fields.text]: 'Lose 5 kg',
        [fields.numeric]: 300,
        [fields.checkbox]: false,
        [fields.select]: 'expert',
        [fields.locationSelect]: uuidv7(),
        [fields.memberSelect]: clientId,
        [fields.multi]: ['yoga', 'boxing'],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      [`values.${fields.numeric}`]: ['must be at most 250'],
      [`values.${fields.checkbox}`]: ['must be ticked'],
      [`values.${fields.select}`]: ['not one of the options'],
      [`values.${fields.locationSelect}`]: ['not a location of the studio'],
      [`values.${fields.memberSelect}`]: ['not a member of staff of the studio'],
      [`values.${fields.multi}`]: ['not one of the options'],
    });
    expect(await app.knex('client_field_values').where({ clientId }).first()).toBeUndefined();

    const good = await owner.patch(path, {
      values: {
        [fields.text]: '  Lose 5 kg ',
        [fields.numeric]: '182,5',
        [fields.checkbox]: true,
        [fields.select]: 'advanced',
        [fields.locationSelect]: fields.location,
        [fields.memberSelect]: manager.id,
        [fields.multi]: ['dance', 'yoga', 'dance'],
        [fields.secret]: '90010112345',
      },
    });
    expect(good.status, good.text).toBe(200);
    const byField = Object.fromEntries(good.body.items.map((i: any) => [i.field.id, i]));
    expect(byField[fields.text].value).toBe('Lose 5 kg');
    expect(byField[fields.numeric].value).toBe(182.5);
    expect(byField[fields.checkbox].value).toBe(true);
    expect(byField[fields.select].value).toBe('advanced');
    expect(byField[fields.locationSelect].value).toBe(fields.location);
    expect(byField[fields.memberSelect].value).toBe(manager.id);
    expect(byField[fields.multi].value).toEqual(['yoga', 'dance']);
    expect(byField[fields.secret]).toMatchObject({ value: null, masked: true, hasValue: true });
    expect(good.body.locations).toEqual([{ id: fields.location, name: 'Centrum' }]);
    expect(good.text).not.toContain('90010112345');

    // Read with the profile's tabs; a cleared value is gone.
    const cleared = await owner.patch(path, { values: { [fields.text]: null } });
    expect(cleared.status).toBe(200);
    const read = await owner.get(api(studio, `client/${clientId}/client-field/collection`));
    expect(read.body.items.find((i: any) => i.field.id === fields.text)).toMatchObject({
      value: null,
      hasValue: false,
    });
    expect(read.body).toMatchObject({ canEdit: true, canDecrypt: true });
    expect(read.text).not.toContain('90010112345');

    // Unknown field ids are named.
    const unknown = uuidv7();
    const wrong = await owner.patch(path, { values: { [unknown]: 'x' } });
    expect(wrong.body.error.fields).toEqual({ [`values.${unknown}`]: ['no such field'] });

    // The type of a field in use cannot change; an option in use cannot be removed.
    const retype = await owner.patch(api(studio, `client-field/${fields.numeric}`), { type: T.text });
    expect(retype.status).toBe(409);
    expect(retype.body.error.fields.type).toBeDefined();
    const dropOption = await owner.patch(api(studio, `client-field/${fields.multi}`), {
      options: [{ value: 'pilates', label: 'Pilates' }],
    });
    expect(dropOption.status).toBe(409);
    expect(dropOption.body.error.fields.options).toBeDefined();
  });

  it('keeps encrypted values encrypted at rest and reveals them only through an audited decrypt', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const fields = await makeFields(owner, studio);
    const clientId = await seedClient(studio);
    await owner.patch(api(studio, `client/${clientId}/client-field`), {
      values: { [fields.secret]: '90010112345' },
    });
    const row = await app.knex('client_field_values').where({ fieldId: fields.secret, clientId }).first();
    expect(row!.value).toBeNull();
    // v2.<key id>.<iv>.<tag>.<data>: the key id lets keys rotate (field-keys.int.test.ts).
    expect(row!.ciphertext).toMatch(/^v2\.[\w-]{8}\./);
    expect(row!.ciphertext).not.toContain('90010112345');
    expect(Buffer.from(row!.ciphertext!.split('.')[4]!, 'base64url').toString()).not.toContain('9001011');

    const decrypt = api(studio, `client/${clientId}/client-field/decrypt`);
    const res = await owner.post(decrypt, { fieldId: fields.secret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ fieldId: fields.secret, value: '90010112345' });
    const audits = await app.knex('client_field_decrypt_audits').where({ studioId: studio.id });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: manager.id, clientId, fieldId: fields.secret });

    // Ciphertext copied onto another client does not decrypt.
    const other = await seedClient(studio);
    await app.knex('client_field_values').insert({
      id: uuidv7(),
      studioId: studio.id,
      fieldId: fields.secret,
      clientId: other,
      ciphertext: row!.ciphertext,
    });
    // A 500 on purpose (tampered data is a fault, not bad input): announced for CI's zero-500 check.
    const moved = await owner.post(
      api(studio, `client/${other}/client-field/decrypt`),
      { fieldId: fields.secret },
      { headers: { 'x-expect-server-error': 'ciphertext bound to another client' } },
    );
    expect(moved.status).toBe(500);

    // Plain fields are not decrypted; bad input is 400; no audit row for refusals.
    const plain = await owner.post(decrypt, { fieldId: fields.text });
    expect(plain.status).toBe(400);
    expect(plain.body.error.fields.fieldId).toEqual(['this field is not encrypted']);
    expect((await owner.post(decrypt, { fieldId: 'nope' })).body.error.fields.fieldId).toBeDefined();

    // Front desk may edit clients but not reveal; instructors may not edit values.
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.post(decrypt, { fieldId: fields.secret })).status).toBe(403);
    expect(
      (await frontDesk.get(api(studio, `client/${clientId}/client-field/collection`))).body,
    ).toMatchObject({
      canDecrypt: false,
      canEdit: true,
    });
    expect((await frontDesk.post(api(studio, 'client-field'), { name: 'X', type: 0 })).status).toBe(403);
    const instructor = await staffWithRole(studio, 'instructor');
    expect(
      (
        await instructor.patch(api(studio, `client/${clientId}/client-field`), {
          values: { [fields.text]: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(await app.knex('client_field_decrypt_audits').where({ studioId: studio.id })).toHaveLength(1);

    const anonymous = await app.anonymous();
    expect((await anonymous.post(decrypt, { fieldId: fields.secret })).status).toBe(401);
    expect((await anonymous.get(api(studio, 'client-field/collection'))).status).toBe(401);
    await expectHiddenFromOtherStudio(
      app,
      { method: 'POST', path: decrypt, body: { fieldId: fields.secret } },
      ['90010112345'],
    );
    await expectHiddenFromOtherStudio(
      app,
      { method: 'GET', path: api(studio, `client/${clientId}/client-field/collection`) },
      ['PESEL'],
    );
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: api(studio, `client-field/${fields.text}`),
      body: { name: 'x' },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'DELETE',
      path: api(studio, `client-field/${fields.text}`),
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: api(studio, `client/${clientId}/client-field`),
      body: { values: { [fields.text]: 'x' } },
    });
    // Another studio's field on this studio's client: named as unknown.
    const otherStudio = await ownerStudio();
    const foreign = await makeFields(otherStudio.owner, otherStudio.studio);
    const cross = await owner.patch(api(studio, `client/${clientId}/client-field`), {
      values: { [foreign.text]: 'x' },
    });
    expect(cross.status).toBe(400);
  });
});

// ----------------------------------------------------------------------------------- email bounce

describe('email bounce state', () => {
  it('shows the bounce of the current address and lets staff clear it', async () => {
    const { studio, owner } = await ownerStudio();
    const email = `bouncy-${unique()}@example.com`;
    const clientId = await seedClient(studio, { email });
    const path = api(studio, `client/${clientId}/email-bounce`);
    expect((await owner.get(path)).body).toEqual({ emailBounce: null });
    await recordEmailBounce(app.knex, studio.id, clientId, {
      email,
      reason: 'noMailbox',
      message: '550 5.1.1 user unknown',
      at: new Date('2026-11-20T08:00:00Z'),
    });
    const shown = await owner.get(path);
    expect(shown.body.emailBounce).toEqual({
      reason: 'noMailbox',
      reasonLabelKey: 'enums:emailBounceReason.noMailbox',
      at: '2026-11-20T08:00:00.000Z',
      message: '550 5.1.1 user unknown',
      emailAddress: email,
    });
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(path)).status).toBe(200);
    expect((await instructor.delete(path)).status).toBe(403);
    expect((await (await app.anonymous()).get(path)).status).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path }, [email]);
    await expectHiddenFromOtherStudio(app, { method: 'DELETE', path });

    // A new address has not bounced.
    await owner.patch(api(studio, `client/${clientId}`), { emailAddress: `fixed-${unique()}@example.com` });
    expect((await owner.get(path)).body.emailBounce).toBeNull();
    await owner.patch(api(studio, `client/${clientId}`), { emailAddress: email });
    expect((await owner.get(path)).body.emailBounce).not.toBeNull();
    expect((await owner.delete(path)).status).toBe(204);
    expect((await owner.get(path)).body.emailBounce).toBeNull();
    expect((await owner.delete(path)).status).toBe(404);
  });
});

// ------------------------------------------------------------------------ duplicates, merge, link

describe('duplicates, merge and link', () => {
  it('lists duplicates by email or phone and merges one into the kept client in one go', async () => {
    const { studio, owner } = await ownerStudio();
    const fields = await makeFields(owner, studio);
    const kept = await seedClient(studio, { phone: '+48 600 100 200', firstName: 'Anna' });
    const dup = await seedClient(studio, { phone: '600-100-200', firstName: 'Ania' });
    const stranger = await seedClient(studio, { phone: '+48 700 000 000' });

    const dups = await owner.get(api(studio, `client/${kept}/duplicates`));
    expect(dups.status).toBe(200);
    expect(dups.body.items.map((d: any) => [d.id, d.matchedBy, d.linked])).toEqual([[dup, ['phone'], false]]);
    expect(dups.text).not.toContain(stranger);

    // What the duplicate holds.
    await owner.request('PUT', api(studio, 'client-note'), {
      userId: dup,
      type: 'private',
      content: 'Knee injury',
    });
    const tag = (await owner.post(api(studio, 'tag'), { name: `VIP ${unique()}`, type: 0 })).body.id;
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [dup] });
    const doc = await upload(owner, api(studio, `client/${dup}/client-document/upload`), {
      bytes: PDF,
      name: 'c.pdf',
    });
    await owner.patch(api(studio, `client/${kept}/client-field`), { values: { [fields.text]: 'Kept goal' } });
    await owner.patch(api(studio, `client/${dup}/client-field`), {
      values: {
        [fields.text]: 'Duplicate goal',
        [fields.secret]: '85050512345',
        [fields.select]: 'beginner',
      },
    });
    await owner.patch(api(studio, `client/${dup}`), { birthDate: '1990-05-05' });
    const option = uuidv7();
    await app
      .knex('pricing_options')
      .insert({ id: option, studioId: studio.id, name: { en: { value: 'Pass' } }, price: 100 });
    await app.knex('client_pricing_options').insert({
      id: uuidv7(),
      studioId: studio.id,
      clientId: dup,
      pricingOptionId: option,
      status: 1,
      expiresAt: null,
    });

    const res = await owner.post(api(studio, `client/${kept}/merge`), { duplicateId: dup });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      keptId: kept,
      mergedId: dup,
      moved: { notes: 1, tags: 1, documents: 1, fieldValues: 2, passes: 1, filled: ['birthDate'] },
    });
    const profile = await owner.get(api(studio, `client/${kept}/profile`));
    expect(profile.body.notes.map((n: any) => n.content)).toEqual(['Knee injury']);
    expect(profile.body.validPasses).toHaveLength(1);
    expect(profile.body.client.birthDate).toBe('1990-05-05');
    expect(profile.body.client.tags.map((t: any) => t.id)).toEqual([tag]);
    const docs = await owner.get(api(studio, `client/${kept}/client-document/collection`));
    expect(docs.body.items.map((d: any) => d.id)).toEqual([doc.body.id]);
    const values = await owner.get(api(studio, `client/${kept}/client-field/collection`));
    const byField = Object.fromEntries(values.body.items.map((i: any) => [i.field.id, i]));
    expect(byField[fields.text].value).toBe('Kept goal');
    expect(byField[fields.select].value).toBe('beginner');
    const secret = await owner.post(api(studio, `client/${kept}/client-field/decrypt`), {
      fieldId: fields.secret,
    });
    expect(secret.body.value).toBe('85050512345');

    expect((await owner.get(api(studio, `client/${dup}`))).body.status).toBe('archived');
    expect((await owner.get(api(studio, `client/${kept}/duplicates`))).body.items).toEqual([]);
    const audit = await app.knex('client_merges').where({ studioId: studio.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ keptClientId: kept, mergedClientId: dup });
    // Merged once is merged.
    expect((await owner.post(api(studio, `client/${kept}/merge`), { duplicateId: dup })).status).toBe(409);
  });

  it('refuses self-merges and two sign-in accounts (link instead), and checks who may', async () => {
    const { studio, owner } = await ownerStudio();
    const email = `same-${unique()}@example.com`;
    const a = await seedClient(studio, { password: true, phone: '601 000 001' });
    const b = await seedClient(studio, { password: true, phone: '601000001' });
    const self = await owner.post(api(studio, `client/${a}/merge`), { duplicateId: a });
    expect(self.status).toBe(409);
    expect(self.body.error.fields.duplicateId).toEqual(['a client cannot be merged into itself']);
    const both = await owner.post(api(studio, `client/${a}/merge`), { duplicateId: b });
    expect(both.status).toBe(409);
    expect(both.body.error.fields.duplicateId[0]).toMatch(/link them instead/);
    const noAccount = await seedClient(studio, { email });
    const wrongWay = await owner.post(api(studio, `client/${noAccount}/merge`), { duplicateId: a });
    expect(wrongWay.status).toBe(409);

    const link = await owner.post(api(studio, `client/${a}/link`), { otherId: b });
    expect(link.status).toBe(200);
    expect((await owner.post(api(studio, `client/${b}/link`), { otherId: a })).status).toBe(200);
    expect((await owner.get(api(studio, `client/${a}/duplicates`))).body.items).toMatchObject([
      { id: b, linked: true, hasAccount: true },
    ]);
    expect(await app.knex('client_links').where({ studioId: studio.id })).toHaveLength(1);

    const bad = await owner.post(api(studio, `client/${a}/merge`), { duplicateId: 'x', extra: 1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['duplicateId', 'extra']);
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.post(api(studio, `client/${noAccount}/merge`), { duplicateId: b })).status).toBe(
      403,
    );
    expect((await frontDesk.get(api(studio, `client/${a}/duplicates`))).status).toBe(200);
    const accountant = await staffWithRole(studio, 'accountant');
    expect((await accountant.post(api(studio, `client/${a}/link`), { otherId: b })).status).toBe(403);
    expect(
      (await (await app.anonymous()).post(api(studio, `client/${a}/merge`), { duplicateId: b })).status,
    ).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, `client/${a}/duplicates`) });
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `client/${noAccount}/merge`),
      body: { duplicateId: b },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, `client/${a}/link`),
      body: { otherId: b },
    });
    // A client of another studio is not found, and nothing moved.
    const other = await ownerStudio();
    const foreign = await seedClient(other.studio);
    expect(
      (await owner.post(api(studio, `client/${noAccount}/merge`), { duplicateId: foreign })).status,
    ).toBe(404);
    expect(await app.knex('client_merges').where({ studioId: studio.id })).toHaveLength(0);
  });
});

// ------------------------------------------------------------------------------------ XLSX export

async function readXlsx(client: HttpClient, path: string, body: object) {
  const res = await fetch(app.url + path, {
    method: 'POST',
    headers: { ...client.headers(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, headers: res.headers, rows: [] as unknown[][] };
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { status: res.status, headers: res.headers, rows };
}

describe('XLSX export', () => {
  it('streams the filtered list and the bulk choice as a workbook with the CSV columns', async () => {
    const { studio, owner } = await ownerStudio();
    const a = await seedClient(studio, { firstName: 'Żaneta', email: `zaneta-${unique()}@example.com` });
    const b = await seedClient(studio, { firstName: '=HYPERLINK("x")' });
    const all = await readXlsx(owner, api(studio, 'client/export'), { format: 'xlsx', q: 'client' });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(all.headers.get('content-disposition')).toMatch(/attachment; filename="clients-2026-11-22\.xlsx"/);
    expect(all.rows[0]).toEqual([
      'id',
      'firstName',
      'lastName',
      'emailAddress',
      'phone',
      'birthDate',
      'sex',
      'status',
      'tags',
      'hasValidPass',
      'createdAt',
    ]);
    const ids = all.rows.slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
    // A would-be formula is a plain string cell.
    expect(all.rows.find((r) => r[0] === b)?.[1]).toBe('=HYPERLINK("x")');

    const bulk = await readXlsx(owner, api(studio, 'client/bulk'), {
      action: 'export',
      format: 'xlsx',
      clientIds: [a],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.rows.slice(1).map((r) => [r[0], r[1], r[7]])).toEqual([[a, 'Żaneta', 'active']]);
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await readXlsx(instructor, api(studio, 'client/export'), { format: 'xlsx' })).status).toBe(403);
  });
});
