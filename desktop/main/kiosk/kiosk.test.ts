import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KioskCheckInResult, KioskClient, KioskDevice } from '../../../shared/contracts/api/kiosk';
import { qrPayload } from '../../../shared/domain/accounts/identity';
import { foldSearchText } from '../../../shared/domain/clients';
import { ClientVisitStatus as V } from '../../../shared/enums/visits';
import type { AppError } from '../../../shared/errors';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { CaptureInterface } from '../printing/escpos/interfaces';
import { SyncEngine } from '../sync/engine';
import { KioskOffline } from './kiosk-offline';
import { KIOSK_FILE, KioskStation } from './kiosk-station';
import { KioskTicketPrinter, checkInSlipOf } from './kiosk-tickets';

const STUDIO_UUID = '0196a000-0000-7000-8000-000000000001';
const NOW = new Date('2026-11-24T16:30:00Z'); // 17:30 in Warsaw
const kiosk: KioskDevice = {
  id: uuidv7(),
  name: 'Entrance',
  studio: {
    uuid: STUDIO_UUID,
    name: 'Studio Ruchu Harmonia',
    timeZone: 'Europe/Warsaw',
    defaultLocale: 'pl',
  },
  settings: { checkInMethods: ['card', 'qr', 'name'], printTicket: true, idleSeconds: 45 },
  hasLock: false,
};

let db: LocalDatabase | null = null;
const dirs: string[] = [];
afterEach(() => {
  db?.close();
  db = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A registered station with a mirror: a class at 18:00 (booked), one at 19:00 with places, a pass. */
function setup() {
  db = openLocalDatabase(':memory:');
  const studioId = uuidv7();
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?)`).run(studioId, uuidv7());
  const engine = new SyncEngine(db);
  const put = (tbl: string, data: Record<string, unknown> & { id: string }) =>
    db!.prepare('insert into rows (tbl, id, data) values (?, ?, ?)').run(tbl, data.id, JSON.stringify(data));
  const client = (first: string, last: string, birth: string, extra: Record<string, unknown> = {}) => {
    const userId = uuidv7();
    put('clients', {
      id: uuidv7(),
      studio_id: studioId,
      user_id: userId,
      first_name: first,
      last_name: last,
      first_key: foldSearchText(first),
      last_key: foldSearchText(last),
      birth_date: birth,
      archived_at: null,
      ...extra,
    });
    return userId;
  };
  const ewa = client('Łucja', 'Żak', '1990-05-01');
  const jan = client('Jan', 'Nowak', '1985-01-01');
  const locationId = uuidv7();
  const serviceId = uuidv7();
  put('class_services', {
    id: serviceId,
    name: { pl: { value: 'Joga dla początkujących' }, en: { value: 'Yoga for beginners' } },
    service_type: 'classroom',
  });
  const event = (startsAt: string, capacity = 10) => {
    const id = uuidv7();
    const ends = new Date(Date.parse(startsAt) + 3_600_000).toISOString();
    put('schedule_events', {
      id,
      class_service_id: serviceId,
      location_id: locationId,
      starts_at: startsAt,
      ends_at: ends,
      capacity,
      status: 'scheduled',
      bookable_online: true,
    });
    return id;
  };
  const booked = event('2026-11-24T17:00:00Z'); // 18:00 Warsaw: check-in open (an hour before)
  const later = event('2026-11-24T17:30:00Z'); // 18:30
  const full = event('2026-11-24T17:45:00Z', 1);
  const optionId = uuidv7();
  put('pricing_options', {
    id: optionId,
    name: { pl: { value: 'Karnet 2 wejścia' } },
    service_types: ['classroomPricingOption'],
    restrictions: {},
  });
  const passId = uuidv7();
  put('client_pricing_options', {
    id: passId,
    client_id: ewa,
    pricing_option_id: optionId,
    status: 1,
    entries: 2,
    expires_at: '2026-12-31T00:00:00Z',
  });
  const bookedVisit = uuidv7();
  put('client_visits', {
    id: bookedVisit,
    schedule_event_id: booked,
    client_id: ewa,
    status: V.booked,
    client_pricing_option_id: passId,
  });
  put('client_visits', { id: uuidv7(), schedule_event_id: full, client_id: jan, status: V.booked });
  put('client_identities', { id: uuidv7(), user_id: ewa, kind: 'card', value_key: 'ab123' });
  put('client_identities', { id: uuidv7(), user_id: ewa, kind: 'qr', value_key: 'Qr0123456789abcdefXYZ' });
  const offline = new KioskOffline(engine, () => NOW);
  return { engine, offline, ewa, jan, booked, later, full, bookedVisit, passId, event };
}

const outbox = (engine: SyncEngine) =>
  engine.outbox().map((row) => ({ name: row.name, isFact: row.isFact, args: row.args }));

describe('KioskOffline: finding the client in the mirror', () => {
  it('finds a client by card (any case, spaces, hyphens), by QR payload and by name + birth date', () => {
    const { offline, ewa } = setup();
    for (const body of [
      { method: 'code', code: 'ab-123' },
      { method: 'code', code: ' AB 123 ' },
      { method: 'code', code: qrPayload('Qr0123456789abcdefXYZ') },
      { method: 'name', firstName: 'lucja', lastName: 'ZAK', birthDate: '1990-05-01' },
    ]) {
      const found = offline.identify(kiosk, body);
      expect(found.client).toEqual({ id: ewa, firstName: 'Łucja', lastName: 'Żak' });
    }
    expect(offline.identify(kiosk, { method: 'code', code: 'ab123' }).identifiedBy).toBe('card');
    expect(
      offline.identify(kiosk, { method: 'code', code: qrPayload('Qr0123456789abcdefXYZ') }).identifiedBy,
    ).toBe('qr');
  });

  it('says not found, ambiguous, method disabled and bad input as the cloud does', () => {
    const { offline } = setup();
    const key = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as AppError).key;
      }
      return null;
    };
    expect(key(() => offline.identify(kiosk, { method: 'code', code: 'nope-999' }))).toBe(
      'kiosk.clientNotFound',
    );
    expect(
      key(() =>
        offline.identify(kiosk, {
          method: 'name',
          firstName: 'Łucja',
          lastName: 'Żak',
          birthDate: '1990-05-02',
        }),
      ),
    ).toBe('kiosk.clientNotFound');
    const cardOnly = { ...kiosk, settings: { ...kiosk.settings, checkInMethods: ['card' as const] } };
    expect(
      key(() =>
        offline.identify(cardOnly, {
          method: 'name',
          firstName: 'Jan',
          lastName: 'Nowak',
          birthDate: '1985-01-01',
        }),
      ),
    ).toBe('kiosk.methodDisabled');
    expect(key(() => offline.identify(kiosk, { method: 'name', firstName: '' }))).toBe('request.invalid');
  });
});

describe('KioskOffline: today, check-in and entries', () => {
  it("shows today's booking (check-in open), a class with places and a full one", () => {
    const { offline, booked, later, full, event } = setup();
    // 20:00 Warsaw: more than an hour away, so booking it is an intent left to the cloud.
    const evening = event('2026-11-24T19:00:00Z');
    const client = offline.identify(kiosk, { method: 'code', code: 'AB123' });
    expect(client.bookings).toEqual([
      expect.objectContaining({ scheduleEventId: booked, state: 'booked', canCheckIn: true }),
    ]);
    expect(client.classes.map((c) => [c.scheduleEventId, c.canBook, c.reason])).toEqual([
      [later, true, null],
      [full, false, 'classFull'],
      [evening, false, 'bookAheadOffline'],
    ]);
    expect(client.entry).toEqual({ available: false, reason: 'needsConnection' });
  });

  it('checks a booked client in as a checkIn fact, durable in the outbox, once', () => {
    const { engine, offline, ewa, booked, bookedVisit, passId } = setup();
    const result = offline.checkIn(kiosk, { clientId: ewa, scheduleEventId: booked });
    expect(result).toMatchObject({ outcome: 'checkedIn', lock: 'none', offline: true });
    expect(result.ticket).toMatchObject({ clientName: 'Łucja Żak', className: 'Joga dla początkujących' });
    // The booked visit already counts against the 2-entry pass: one left.
    expect(result.ticket).toMatchObject({ passName: 'Karnet 2 wejścia', entriesLeft: 1 });
    expect(outbox(engine)).toEqual([
      { name: 'checkIn', isFact: true, args: { visitId: bookedVisit, userId: ewa, scheduleEventId: booked } },
    ]);
    expect(engine.store.get('client_visits', bookedVisit)).toMatchObject({
      status: V.present,
      client_pricing_option_id: passId,
    });
    // Again (a second scan): already present, no second fact.
    offline.checkIn(kiosk, { clientId: ewa, scheduleEventId: booked });
    expect(engine.outbox()).toHaveLength(1);
    const after = offline.identify(kiosk, { method: 'code', code: 'AB123' });
    expect(after.bookings[0]).toMatchObject({ state: 'present', canCheckIn: false });
  });

  it('books and checks in on a class with places; counted entries run out offline', () => {
    const { engine, offline, ewa, later, booked, full } = setup();
    const first = offline.checkIn(kiosk, { clientId: ewa, scheduleEventId: later });
    expect(first.ticket).toMatchObject({ entriesLeft: 0 });
    const [fact] = engine.outbox();
    expect(fact).toMatchObject({ name: 'checkIn', isFact: true });
    expect(engine.store.get('client_visits', String(fact!.args.visitId))).toMatchObject({
      status: V.present,
      schedule_event_id: later,
    });
    // Two entries: the booked class and this one. Nothing is left for another class.
    const client = offline.identify(kiosk, { method: 'code', code: 'AB123' });
    expect(client.bookings.map((b) => [b.scheduleEventId, b.state])).toEqual([
      [booked, 'booked'],
      [later, 'present'],
    ]);
    expect(client.classes.find((c) => c.scheduleEventId === full)?.reason).toBe('classFull');
    expect(() =>
      offline.passFor(ewa, { serviceType: 'classroom', serviceId: null, locationId: null, at: NOW }),
    ).not.toThrow();
    expect(
      offline.passFor(ewa, { serviceType: 'classroom', serviceId: null, locationId: null, at: NOW }),
    ).toEqual({
      ok: false,
      reason: 'noEntriesLeft',
    });
  });

  it('refuses without a pass, with the reason the kiosk shows', () => {
    const { engine, offline, jan, later } = setup();
    let error: AppError | null = null;
    try {
      offline.checkIn(kiosk, { clientId: jan, scheduleEventId: later });
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.key).toBe('kiosk.noPassCovers');
    expect(error?.fields).toEqual({ scheduleEventId: ['noPasses'] });
    expect(engine.outbox()).toHaveLength(0);
    const client = offline.identify(kiosk, {
      method: 'name',
      firstName: 'Jan',
      lastName: 'Nowak',
      birthDate: '1985-01-01',
    });
    expect(client.classes.find((c) => c.scheduleEventId === later)).toMatchObject({
      canBook: false,
      reason: 'noPasses',
    });
  });
});

describe('check-in slip', () => {
  it('prints the slip in Polish (CP852) with times on the studio clock', async () => {
    const capture = new CaptureInterface();
    const ok = await new KioskTicketPrinter(capture).print(
      {
        kind: 'checkIn',
        studioName: 'Studio Ruchu Harmonia',
        clientName: 'Łucja Żak',
        checkedInAt: NOW.toISOString(),
        className: 'Joga dla początkujących',
        startsAt: '2026-11-24T17:00:00Z',
        passName: 'Karnet 2 wejścia',
        entriesLeft: 1,
      },
      'Europe/Warsaw',
      'pl',
    );
    expect(ok).toBe(true);
    const job = capture.jobs[0]!;
    for (const text of [
      'Łucja Żak',
      'Joga dla początkujących',
      'Wejście',
      'Pozostało wejść',
      '2026-11-24 17:30',
      '18:00',
    ])
      expect(job.includes(iconv.encode(text, 'cp852')), text).toBe(true);
  });

  it('prints English labels for an English kiosk; a failing printer does not fail the check-in', async () => {
    const capture = new CaptureInterface();
    await new KioskTicketPrinter(capture).print(
      { kind: 'checkIn', studioName: 'S', clientName: 'Jan Nowak', checkedInAt: NOW.toISOString() },
      'Europe/Warsaw',
      'en',
    );
    expect(capture.jobs[0]!.includes(Buffer.from('Check-in'))).toBe(true);
    const broken = {
      execute: () => Promise.reject(new Error('paper jam')),
      isPrinterConnected: async () => false,
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(
      await new KioskTicketPrinter(broken).print(
        { kind: 'checkIn', studioName: 'S', clientName: 'J', checkedInAt: NOW.toISOString() },
        'UTC',
        'en',
      ),
    ).toBe(false);
    expect(
      checkInSlipOf(
        { kind: 'checkIn', studioName: 'S', clientName: 'J', checkedInAt: '2026-03-29T01:30:00Z' },
        'Europe/Warsaw',
      ).checkedInAt,
    ).toBe('2026-03-29 03:30');
  });
});

describe('KioskStation (main): offline path, printing, no cloud call', () => {
  function station(online: boolean) {
    const s = setup();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kiosk-test-'));
    dirs.push(dataDir);
    writeFileSync(
      path.join(dataDir, KIOSK_FILE),
      JSON.stringify({
        studioUuid: STUDIO_UUID,
        kioskId: kiosk.id,
        kioskKey: 'k',
        token: 'secret-token',
        device: kiosk,
      }),
    );
    const capture = new CaptureInterface();
    const fetch = vi.fn(() => Promise.reject(new Error('no network')));
    const main = new KioskStation({
      dataDir,
      cloudUrl: 'http://cloud.invalid',
      mode: 'kiosk',
      stationStudio: () => STUDIO_UUID,
      lockStaff: async () => undefined,
      locale: () => 'pl',
      online: () => online,
      report: () => {},
      engine: s.engine,
      ticketPrinter: capture,
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    // The offline answers use the engine's clock; pin it to the test's "now".
    (main as unknown as { offline: KioskOffline }).offline = new KioskOffline(s.engine, () => NOW);
    return { ...s, main, capture, fetch, dataDir };
  }
  const post = (rest: string, body: unknown) => ({
    method: 'POST' as const,
    path: `v4/${STUDIO_UUID}/kiosk/${rest}`,
    body: JSON.stringify(body),
  });

  it('identifies and checks in from the mirror, prints the slip, never calls the cloud', async () => {
    const { main, capture, fetch, ewa, booked, engine } = station(false);
    const found = JSON.parse(
      (await main.request(post('identify', { method: 'code', code: 'AB123' }))).body,
    ) as KioskClient;
    expect(found.client.id).toBe(ewa);
    const answer = await main.request(post('check-in', { clientId: ewa, scheduleEventId: booked }));
    const result = JSON.parse(answer.body) as KioskCheckInResult;
    expect(result).toMatchObject({ outcome: 'checkedIn', offline: true, ticketPrinted: true });
    expect(capture.jobs).toHaveLength(1);
    expect(capture.jobs[0]!.includes(iconv.encode('Łucja Żak', 'cp852'))).toBe(true);
    expect(engine.pendingCount()).toBe(1);
    expect(fetch).not.toHaveBeenCalled();
    // The session token stays in main: kiosk.json holds it, the answer does not.
    expect(answer.body).not.toContain('secret-token');
  });

  it('entry offline, another studio and a call before sign-in are refused clearly', async () => {
    const { main, ewa, dataDir } = station(false);
    await expect(main.request(post('entry', { clientId: ewa }))).rejects.toMatchObject({
      key: 'kiosk.needsConnection',
    });
    await expect(
      main.request({ method: 'POST', path: `v4/${uuidv7()}/kiosk/identify`, body: '{}' }),
    ).rejects.toMatchObject({ key: 'station.pathNotAllowed' });
    await expect(
      main.request({ method: 'GET', path: `v4/${STUDIO_UUID}/client/search` }),
    ).rejects.toMatchObject({
      key: 'station.pathNotAllowed',
    });
    await main.request({ method: 'DELETE', path: `v4/${STUDIO_UUID}/kiosk/session` });
    expect(() => readFileSync(path.join(dataDir, KIOSK_FILE))).toThrow();
    await expect(main.request(post('identify', { method: 'code', code: 'AB123' }))).rejects.toMatchObject({
      key: 'kiosk.notSignedIn',
    });
  });
});
