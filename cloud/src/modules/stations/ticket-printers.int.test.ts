import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { deviceCall, studioWithStation } from '../../sync/sync.test-support';

/**
 * Ticket printers of POS stations and kiosks: the back office sets them (PUT …/ticket-printer), the
 * collections and inits carry them, and a desk station reads its own with its device token
 * (GET …/station-ticket-printer/{pos|kiosk}/…). cloud/src/modules/stations/README.md "Ticket printers".
 */
let app: TestApp;
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const api = (studioId: string, path: string) => `/api/v4/${studioId}/${path}`;
const LAN = { kind: 'tcp', address: '192.168.1.50', port: 9100, widthChars: 42, cut: false } as const;

async function studioWithPos() {
  const station = await studioWithStation(app);
  const { owner, studio } = station;
  const slug = `desk-${uuidv7().slice(-8)}`;
  const pos = await owner.post(api(studio.id, 'studio-pos'), { name: 'Front desk', slug });
  expect(pos.status, pos.text).toBe(201);
  const kiosk = await owner.post(api(studio.id, 'studio-kiosk'), { name: 'Entrance' });
  expect(kiosk.status, kiosk.text).toBe(201);
  const kioskId = kiosk.body.id as string;
  const read = (path: string, token: string | null = station.token) =>
    deviceCall(app.url, token, 'GET', api(studio.id, `station-ticket-printer/${path}`));
  return { ...station, posId: pos.body.id as string, slug, kioskId, read };
}

describe('PUT studio-pos/{id}/ticket-printer and studio-kiosk/{id}/ticket-printer', () => {
  it('stores the printer, answers it in the collections, and offers the choices in init', async () => {
    const s = await studioWithPos();
    const before = await s.owner.get(api(s.studio.id, 'studio-pos/collection'));
    expect(before.body.items[0].ticketPrinter).toEqual({
      kind: 'none',
      address: '',
      port: null,
      widthChars: 48,
      cut: true,
    });

    const put = await s.owner.request('PUT', api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`), LAN);
    expect(put.status, put.text).toBe(200);
    expect(put.body.ticketPrinter).toEqual(LAN);
    const list = await s.owner.get(api(s.studio.id, 'studio-pos/collection'));
    expect(list.body.items.find((p: { id: string }) => p.id === s.posId).ticketPrinter).toEqual(LAN);

    const file = { kind: 'usb-file', address: '/dev/usb/lp0', port: 1234, widthChars: 32, cut: true };
    const kiosk = await s.owner.request(
      'PUT',
      api(s.studio.id, `studio-kiosk/${s.kioskId}/ticket-printer`),
      file,
    );
    expect(kiosk.status, kiosk.text).toBe(200);
    // A port means nothing to a device file: it is dropped.
    expect(kiosk.body.ticketPrinter).toEqual({ ...file, port: null });
    const kiosks = await s.owner.get(api(s.studio.id, 'studio-kiosk/collection'));
    const listed = kiosks.body.items.find((k: { id: string }) => k.id === s.kioskId);
    expect(listed.ticketPrinter).toEqual({ ...file, port: null });

    for (const path of ['studio-pos/init', 'studio-kiosk/init']) {
      const init = await s.owner.get(api(s.studio.id, path));
      expect(init.body.ticketPrinter, path).toEqual({
        kinds: ['none', 'tcp', 'usb-file'],
        widths: [32, 42, 48],
        defaultPort: 9100,
      });
    }

    // Back to none: stored as null, read as none; the port defaults for a LAN printer.
    await s.owner.request('PUT', api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`), { kind: 'none' });
    expect(await app.knex('studio_pos').where({ id: s.posId }).first('ticket_printer')).toEqual({
      ticketPrinter: null,
    });
    const defaults = await s.owner.request('PUT', api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`), {
      kind: 'tcp',
      address: 'printer.local',
    });
    expect(defaults.body.ticketPrinter).toEqual({
      kind: 'tcp',
      address: 'printer.local',
      port: 9100,
      widthChars: 48,
      cut: true,
    });
  });

  it('answers 400 with every invalid field', async () => {
    const s = await studioWithPos();
    const path = api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`);
    let res = await s.owner.request('PUT', path, {
      kind: 'tcp',
      address: 'not a host!',
      port: 70000,
      widthChars: 40,
      cut: 'y',
      x: 1,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['address', 'cut', 'port', 'widthChars', 'x']);
    res = await s.owner.request('PUT', path, { kind: 'tcp', address: 'not a host!', port: 70000 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['address', 'port']);
    res = await s.owner.request('PUT', path, { kind: 'tcp', address: '300.1.1.1' });
    expect(Object.keys(res.body.error.fields)).toEqual(['address']);
    res = await s.owner.request('PUT', path, { kind: 'usb-file', address: 'lp0' });
    expect(Object.keys(res.body.error.fields)).toEqual(['address']);
    res = await s.owner.request('PUT', path, { kind: 'serial' });
    expect(Object.keys(res.body.error.fields)).toEqual(['kind']);
    res = await s.owner.request('PUT', api(s.studio.id, `studio-kiosk/${s.kioskId}/ticket-printer`), {
      kind: 'tcp',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toEqual(['address']);
    // Nothing was stored.
    expect(
      (await s.owner.get(api(s.studio.id, 'studio-pos/collection'))).body.items[0].ticketPrinter.kind,
    ).toBe('none');
  });

  it('answers 401 without a session, 403 without settings.edit, 404 to another studio', async () => {
    const s = await studioWithPos();
    const anon = await app.anonymous();
    const posPath = api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`);
    const kioskPath = api(s.studio.id, `studio-kiosk/${s.kioskId}/ticket-printer`);
    expect((await anon.request('PUT', posPath, LAN)).status).toBe(401);
    expect((await anon.request('PUT', kioskPath, LAN)).status).toBe(401);

    const user = await createUser(app.knex, { firstName: 'Front', lastName: 'Desk' });
    await addMembership(app.knex, s.studio, user, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(user.email, user.password);
    expect((await desk.request('PUT', posPath, LAN)).status).toBe(403);
    expect((await desk.request('PUT', kioskPath, LAN)).status).toBe(403);

    await expectHiddenFromOtherStudio(app, { method: 'PUT', path: posPath, body: LAN });
    await expectHiddenFromOtherStudio(app, { method: 'PUT', path: kioskPath, body: LAN });
    expect(
      (await s.owner.request('PUT', api(s.studio.id, `studio-pos/${uuidv7()}/ticket-printer`), LAN)).status,
    ).toBe(404);
  });
});

describe('GET station-ticket-printer: the desk station reads its own', () => {
  it('answers the POS station’s and the kiosk’s printer to a device token of the studio', async () => {
    const s = await studioWithPos();
    expect((await s.read(`pos/${s.slug}`)).body).toEqual({
      ticketPrinter: { kind: 'none', address: '', port: null, widthChars: 48, cut: true },
    });
    await s.owner.request('PUT', api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`), LAN);
    await s.owner.request('PUT', api(s.studio.id, `studio-kiosk/${s.kioskId}/ticket-printer`), {
      kind: 'tcp',
      address: 'kiosk-printer.lan',
      port: 9101,
      widthChars: 32,
      cut: true,
    });
    const pos = await s.read(`pos/${s.slug}`);
    expect(pos.status, pos.text).toBe(200);
    expect(pos.headers.get('cache-control')).toBe('no-store');
    expect(pos.body).toEqual({ ticketPrinter: LAN });
    const kiosk = await s.read(`kiosk/${s.kioskId}`);
    expect(kiosk.body.ticketPrinter).toMatchObject({
      address: 'kiosk-printer.lan',
      port: 9101,
      widthChars: 32,
    });
    // Unknown station or kiosk of this studio: 404.
    expect((await s.read('pos/nope')).status).toBe(404);
    expect((await s.read(`kiosk/${uuidv7()}`)).status).toBe(404);
  });

  it('refuses without a valid token (401), and answers 404 to another studio’s station', async () => {
    const s = await studioWithPos();
    await s.owner.request('PUT', api(s.studio.id, `studio-pos/${s.posId}/ticket-printer`), LAN);
    expect((await s.read(`pos/${s.slug}`, null)).status).toBe(401);
    expect((await s.read(`pos/${s.slug}`, 'sdt.nope.nope')).status).toBe(401);
    // A staff session is not a station.
    const viaSession = await s.owner.get(api(s.studio.id, `station-ticket-printer/pos/${s.slug}`));
    expect(viaSession.status).toBe(401);

    const other = await studioWithPos();
    for (const path of [`pos/${s.slug}`, `kiosk/${s.kioskId}`]) {
      const res = await s.read(path, other.token);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('192.168.1.50');
    }
    // Another studio's token on its own studio's path does not see this studio's kiosk either.
    const cross = await deviceCall(
      app.url,
      other.token,
      'GET',
      api(other.studio.id, `station-ticket-printer/kiosk/${s.kioskId}`),
    );
    expect(cross.status).toBe(404);

    // A revoked station reads nothing.
    await s.call('DELETE', `/sync/devices/${s.deviceId}`);
    expect((await s.read(`pos/${s.slug}`)).status).toBe(401);
  });
});
