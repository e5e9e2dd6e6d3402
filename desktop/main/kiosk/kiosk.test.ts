import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
import { FakeSmartLockDriver } from '../../../shared/domain/smart-locks/http-relay';
import { KIOSK_DOOR_FILE, KioskDoorKeeper, openSealedDoor, sealDoor } from './kiosk-door';
import { KioskOffline } from './kiosk-offline';
import { KIOSK_FILE, KioskStation, type KioskStationOptions } from './kiosk-station';
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
  locationId: null,
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
  const engine = new SyncEngine(db, { clock: () => NOW.getTime() });
  const put = (tbl: string, data: Record<string, unknown> & { id: string }) =>
    db!
      .prepare('insert or replace into rows (tbl, id, data) values (?, ?, ?)')
      .run(tbl, data.id, JSON.stringify(data));
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
  return {
    engine,
    offline,
    ewa,
    jan,
    booked,
    later,
    full,
    bookedVisit,
    passId,
    event,
    put,
    client,
    locationId,
    serviceId,
  };
}

/**
 * The kiosk's main side in kiosk mode for the studio, on `engine`; its offline answers use the engine's
 * clock pinned to the test's "now".
 */
function kioskStation(
  engine: SyncEngine,
  dataDir: string,
  options: Omit<
    KioskStationOptions,
    'dataDir' | 'mode' | 'stationStudio' | 'lockStaff' | 'report' | 'engine'
  >,
): KioskStation {
  const main = new KioskStation({
    dataDir,
    mode: 'kiosk',
    stationStudio: () => STUDIO_UUID,
    lockStaff: async () => undefined,
    report: () => {},
    engine,
    ...options,
  });
  (main as unknown as { offline: KioskOffline }).offline = new KioskOffline(engine, () => NOW);
  return main;
}

/** A fresh data folder (removed after the test) holding the kiosk's sign-in: `token` and `device`. */
function signedInKioskDir(prefix: string, token: string, device: KioskDevice): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dataDir);
  writeFileSync(
    path.join(dataDir, KIOSK_FILE),
    JSON.stringify({ studioUuid: STUDIO_UUID, kioskId: device.id, kioskKey: 'k', token, device }),
  );
  return dataDir;
}

/** A kiosk request to the studio's `kiosk/<rest>` route. */
const post = (rest: string, body: unknown) => ({
  method: 'POST' as const,
  path: `v4/${STUDIO_UUID}/kiosk/${rest}`,
  body: JSON.stringify(body),
});

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
    // 20:00 Warsaw: more than an hour away: booking it is a provisional bookClass intent.
    const evening = event('2026-11-24T19:00:00Z');
    const client = offline.identify(kiosk, { method: 'code', code: 'AB123' });
    expect(client.bookings).toEqual([
      expect.objectContaining({ scheduleEventId: booked, state: 'booked', canCheckIn: true }),
    ]);
    expect(client.classes.map((c) => [c.scheduleEventId, c.canBook, c.reason])).toEqual([
      [later, true, null],
      [full, false, 'classFull'],
      [evening, true, null],
    ]);
    // Her pass is for classes only: no entry at the door.
    expect(client.entry).toEqual({ available: false, reason: 'serviceNotCovered' });
  });

  it('checks a booked client in as a checkIn fact, durable in the outbox, once', () => {
    const { engine, offline, ewa, booked, bookedVisit, passId } = setup();
    const result = offline.checkIn(kiosk, { clientId: ewa, scheduleEventId: booked });
    expect(result).toMatchObject({ outcome: 'checkedIn', lock: 'none', offline: true });
    expect(result.ticket).toMatchObject({ clientName: 'Łucja Żak', className: 'Joga dla początkujących' });
    // The booked visit already counts against the 2-entry pass: one left.
    expect(result.ticket).toMatchObject({ passName: 'Karnet 2 wejścia', entriesLeft: 1 });
    expect(outbox(engine)).toEqual([
      {
        name: 'checkIn',
        isFact: true,
        // checkIn@2: a booked visit keeps its own pass (none named).
        args: { visitId: bookedVisit, userId: ewa, scheduleEventId: booked, clientPricingOptionId: null },
      },
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

  it("lets a client in with a pass another client shares with them; its entries are the owner's too", () => {
    const { engine, offline, ewa, jan, later, passId, put } = setup();
    expect(
      offline.passFor(jan, { serviceType: 'classroom', serviceId: null, locationId: null, at: NOW }),
    ).toEqual({ ok: false, reason: 'noPasses' });
    put('client_pricing_option_shares', {
      id: uuidv7(),
      client_pricing_option_id: passId,
      user_id: jan,
      shared_by: ewa,
    });
    const done = offline.checkIn(kiosk, { clientId: jan, scheduleEventId: later });
    // Ewa's booked class took one of the two entries; Jan's check-in takes the other.
    expect(done.ticket).toMatchObject({ entriesLeft: 0 });
    expect(engine.outbox()).toMatchObject([{ name: 'checkIn', isFact: true }]);
    // Nothing is left for Jan's next class. (Ewa's own count offline still misses Jan's check-in until
    // it syncs: it has no pass until the cloud allocates one — the cloud flags it if both spent it.)
    expect(
      offline.passFor(jan, { serviceType: 'classroom', serviceId: null, locationId: null, at: NOW }),
    ).toEqual({ ok: false, reason: 'noEntriesLeft' });
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
    const dataDir = signedInKioskDir('kiosk-test-', 'secret-token', kiosk);
    const capture = new CaptureInterface();
    const fetch = vi.fn(() => Promise.reject(new Error('no network')));
    const main = kioskStation(s.engine, dataDir, {
      cloudUrl: 'http://cloud.invalid',
      locale: () => 'pl',
      online: () => online,
      ticketPrinter: capture,
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    return { ...s, main, capture, fetch, dataDir };
  }

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

  it('entry without an entry pass, another studio and a call before sign-in are refused clearly', async () => {
    const { main, ewa, dataDir } = station(false);
    await expect(main.request(post('entry', { clientId: ewa }))).rejects.toMatchObject({
      key: 'kiosk.noPassCovers',
      fields: { clientId: ['serviceNotCovered'] },
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

/** An unlimited entry pass (time-based) and a counted one, for the door. */
function withEntryPasses(s: ReturnType<typeof setup>) {
  const entryOption = uuidv7();
  s.put('pricing_options', {
    id: entryOption,
    name: { pl: { value: 'Open miesięczny' }, en: { value: 'Monthly open' } },
    service_types: ['entryPricingOption'],
    restrictions: {},
  });
  const countedOption = uuidv7();
  s.put('pricing_options', {
    id: countedOption,
    name: { pl: { value: 'Wejścia x5' } },
    service_types: ['entryPricingOption'],
    restrictions: {},
  });
  const open = s.client('Olga', 'Otwarta', '1992-02-02');
  s.put('client_pricing_options', {
    id: uuidv7(),
    client_id: open,
    pricing_option_id: entryOption,
    status: 1,
    entries: null,
    expires_at: '2026-12-31T00:00:00Z',
  });
  const counted = s.client('Karol', 'Liczony', '1993-03-03');
  s.put('client_pricing_options', {
    id: uuidv7(),
    client_id: counted,
    pricing_option_id: countedOption,
    status: 1,
    entries: 5,
    expires_at: '2026-12-31T00:00:00Z',
  });
  const expired = s.client('Ewa', 'Wygasła', '1994-04-04');
  s.put('client_pricing_options', {
    id: uuidv7(),
    client_id: expired,
    pricing_option_id: entryOption,
    status: 1,
    entries: null,
    expires_at: '2026-11-01T00:00:00Z',
  });
  return { open, counted, expired, entryOption };
}

describe('KioskOffline: entry services offline (issue 22)', () => {
  /** A sauna (one entry a day, two inside at once) and a gym closed at this hour. */
  function withServices(s: ReturnType<typeof setup>) {
    const passes = withEntryPasses(s);
    const sauna = uuidv7();
    const gym = uuidv7();
    s.put('entry_services', {
      id: sauna,
      name: { pl: { value: 'Sauna' }, en: { value: 'Sauna' } },
      location_id: null,
      max_entries_per_day: 1,
      capacity: 2,
      stay_minutes: 90,
      opening_hours: [],
      archived_at: null,
      created_at: '2026-11-01T00:00:00Z',
    });
    s.put('entry_services', {
      id: gym,
      name: { pl: { value: 'Siłownia' } },
      location_id: null,
      max_entries_per_day: null,
      capacity: null,
      stay_minutes: 120,
      // Mornings only (6:00–12:00 Warsaw); it is 17:30.
      opening_hours: [{ weekdays: [0, 1, 2, 3, 4, 5, 6], fromMinutes: 360, toMinutes: 720 }],
      archived_at: null,
      created_at: '2026-11-02T00:00:00Z',
    });
    return { ...passes, sauna, gym };
  }

  it('admits with the mirrored limits and passes as kioskEntry@2, the mirror one entry fuller at once', () => {
    const s = setup();
    const { open, counted, expired, sauna, gym, entryOption } = withServices(s);
    const byName = (firstName: string, lastName: string, birthDate: string) =>
      s.offline.identify(kiosk, { method: 'name', firstName, lastName, birthDate }).entry;
    expect(byName('Karol', 'Liczony', '1993-03-03')).toEqual({ available: true, reason: null });
    // A counted pass is fine now: the entry spends one of its entries (5 → 4 on the slip).
    const first = s.offline.entry(kiosk, { clientId: counted }, { door: true });
    expect(first).toMatchObject({ outcome: 'entered', offline: true, className: { pl: { value: 'Sauna' } } });
    expect(first.ticket).toMatchObject({ passName: 'Wejścia x5', entriesLeft: 4 });
    expect(outbox(s.engine)).toEqual([
      {
        name: 'kioskEntry',
        isFact: true,
        args: {
          entryId: expect.any(String),
          kioskId: kiosk.id,
          userId: counted,
          entryServiceId: sauna,
          lock: 'station',
        },
      },
    ]);
    const entryId = String(outbox(s.engine)[0]!.args.entryId);
    expect(s.engine.store.get('client_entries', entryId)).toMatchObject({
      entry_service_id: sauna,
      client_id: counted,
      client_pricing_option_id: null,
      leaves_at: new Date(NOW.getTime() + 90 * 60_000).toISOString(),
    });
    // One sauna a day: the same client again is refused, saying why.
    expect(byName('Karol', 'Liczony', '1993-03-03')).toEqual({
      available: false,
      reason: 'dailyLimitReached',
    });
    expect(() => s.offline.entry(kiosk, { clientId: counted }, { door: false })).toThrow(
      expect.objectContaining({ key: 'kiosk.noPassCovers', fields: { clientId: ['dailyLimitReached'] } }),
    );
    // The gym is closed at this hour; an expired pass does not cover the sauna.
    expect(() => s.offline.entry(kiosk, { clientId: open, entryServiceId: gym }, { door: false })).toThrow(
      expect.objectContaining({ fields: { clientId: ['closed'] } }),
    );
    expect(() => s.offline.entry(kiosk, { clientId: expired }, { door: false })).toThrow(
      expect.objectContaining({ fields: { clientId: ['expired'] } }),
    );
    // Two inside (one from the cloud's mirror, entered an hour ago and staying): the third is refused.
    const other = s.client('Ola', 'Druga', '1991-01-01');
    s.put('client_pricing_options', {
      id: uuidv7(),
      client_id: other,
      pricing_option_id: entryOption,
      status: 1,
      entries: null,
      expires_at: '2026-12-31T00:00:00Z',
    });
    s.put('client_entries', {
      id: uuidv7(),
      entry_service_id: sauna,
      client_id: other,
      entered_at: new Date(NOW.getTime() - 3_600_000).toISOString(),
      leaves_at: new Date(NOW.getTime() + 1_800_000).toISOString(),
      client_pricing_option_id: null,
    });
    expect(byName('Olga', 'Otwarta', '1992-02-02')).toEqual({ available: false, reason: 'full' });
    expect(s.engine.pendingCount()).toBe(1);
  });
});

describe('KioskOffline: entry at the door with an entry pass (issue 10)', () => {
  it('lets in an unlimited entry pass as one kioskEntry fact; refuses counted, expired and class passes, saying why', () => {
    const s = setup();
    const { open, counted, expired } = withEntryPasses(s);
    expect(
      s.offline.identify(kiosk, {
        method: 'name',
        firstName: 'Olga',
        lastName: 'Otwarta',
        birthDate: '1992-02-02',
      }).entry,
    ).toEqual({ available: true, reason: null });
    const result = s.offline.entry(kiosk, { clientId: open }, { door: true });
    expect(result).toMatchObject({ outcome: 'entered', offline: true, className: null, lock: 'none' });
    expect(result.ticket).toMatchObject({ clientName: 'Olga Otwarta', passName: 'Open miesięczny' });
    expect(result.ticket?.entriesLeft).toBeUndefined();
    expect(outbox(s.engine)).toEqual([
      {
        name: 'kioskEntry',
        isFact: true,
        args: { entryId: expect.any(String), kioskId: kiosk.id, userId: open, lock: 'station' },
      },
    ]);
    for (const [who, reason] of [
      [counted, 'countedEntryPass'],
      [expired, 'expired'],
      [s.ewa, 'serviceNotCovered'],
      [s.jan, 'noPasses'],
    ] as const) {
      let error: AppError | null = null;
      try {
        s.offline.entry(kiosk, { clientId: who }, { door: false });
      } catch (e) {
        error = e as AppError;
      }
      expect(error, reason).toMatchObject({ key: 'kiosk.noPassCovers', fields: { clientId: [reason] } });
    }
    // Nothing else was recorded.
    expect(s.engine.pendingCount()).toBe(1);
  });

  it("respects the pass's location restriction for the kiosk's location", () => {
    const s = setup();
    const { open, entryOption } = withEntryPasses(s);
    s.put('pricing_options', {
      id: entryOption,
      name: { en: { value: 'Monthly open' } },
      service_types: ['entryPricingOption'],
      restrictions: { locationIds: [s.locationId] },
    });
    expect(s.offline.entryFor({ ...kiosk, locationId: s.locationId }, open, NOW)).toMatchObject({ ok: true });
    expect(s.offline.entryFor({ ...kiosk, locationId: uuidv7() }, open, NOW)).toEqual({
      ok: false,
      reason: 'locationNotCovered',
    });
  });
});

describe('KioskOffline: booking ahead (issue 10)', () => {
  it('books a class more than an hour ahead as a provisional bookClass intent (the client’s own), once', () => {
    const s = setup();
    const evening = s.event('2026-11-24T19:00:00Z');
    const result = s.offline.checkIn(kiosk, { clientId: s.ewa, scheduleEventId: evening });
    expect(result).toMatchObject({
      outcome: 'booked',
      provisional: true,
      offline: true,
      lock: 'none',
      ticket: null,
      startsAt: '2026-11-24T19:00:00.000Z',
    });
    expect(outbox(s.engine)).toEqual([
      {
        name: 'bookClass',
        isFact: false,
        args: expect.objectContaining({
          userId: s.ewa,
          scheduleEventId: evening,
          waitingList: true,
          clientPresent: false,
          selfBooking: true,
        }),
      },
    ]);
    // The booking shows as hers (check-in opens an hour before); booking it again is not offered.
    const again = s.offline.identify(kiosk, { method: 'code', code: 'AB123' });
    expect(again.bookings.find((b) => b.scheduleEventId === evening)).toMatchObject({
      state: 'booked',
      canCheckIn: false,
    });
    expect(again.classes.some((c) => c.scheduleEventId === evening)).toBe(false);
  });

  it('counts the provisional booking against a counted pass: two entries, two bookings, no third', () => {
    const s = setup();
    // Ewa's pass has 2 entries; the 18:00 booking spends one. One more booking ahead fits, not two.
    const first = s.event('2026-11-24T19:00:00Z');
    const second = s.event('2026-11-24T20:00:00Z');
    s.offline.checkIn(kiosk, { clientId: s.ewa, scheduleEventId: first });
    let error: AppError | null = null;
    try {
      s.offline.checkIn(kiosk, { clientId: s.ewa, scheduleEventId: second });
    } catch (e) {
      error = e as AppError;
    }
    expect(error).toMatchObject({
      key: 'kiosk.noPassCovers',
      fields: { scheduleEventId: ['noEntriesLeft'] },
    });
  });

  it('refuses full classes and classes not booked online, as online', () => {
    const s = setup();
    const closed = s.event('2026-11-24T19:00:00Z');
    s.put('schedule_events', {
      ...(s.engine.store.get('schedule_events', closed) as { id: string }),
      bookable_online: false,
    });
    const tryBook = (eventId: string) => {
      try {
        s.offline.checkIn(kiosk, { clientId: s.ewa, scheduleEventId: eventId });
        return null;
      } catch (e) {
        return (e as AppError).key;
      }
    };
    expect(tryBook(s.full)).toBe('visit.classFull');
    expect(tryBook(closed)).toBe('visit.notBookableOnline');
    expect(s.engine.pendingCount()).toBe(0);
  });
});

describe("KioskOffline: the kiosk's location (issue 10)", () => {
  it("shows only the kiosk's location's classes and refuses a class elsewhere", () => {
    const s = setup();
    const elsewhere = uuidv7();
    const other = s.event('2026-11-24T17:20:00Z');
    s.put('schedule_events', {
      ...(s.engine.store.get('schedule_events', other) as { id: string }),
      location_id: elsewhere,
    });
    const bound = { ...kiosk, locationId: s.locationId };
    const here = s.offline.identify(bound, { method: 'code', code: 'AB123' });
    expect(here.classes.map((c) => c.scheduleEventId)).not.toContain(other);
    expect(here.classes.map((c) => c.scheduleEventId)).toContain(s.later);
    // Unbound: every location.
    expect(
      s.offline.identify(kiosk, { method: 'code', code: 'AB123' }).classes.map((c) => c.scheduleEventId),
    ).toContain(other);
    expect(() => s.offline.checkIn(bound, { clientId: s.ewa, scheduleEventId: other })).toThrow(
      expect.objectContaining({ key: 'resource.notFound' }) as Error,
    );
    expect(s.engine.pendingCount()).toBe(0);
  });
});

describe('The door offline: the relay kept sealed for this station and kiosk (issue 10)', () => {
  const lock = {
    id: uuidv7(),
    driver: 'httpRelay' as const,
    config: {
      url: 'http://127.0.0.1:9/relay',
      method: 'POST' as const,
      secret: 's3cret-relay',
      openSeconds: 5,
    },
  };

  it('seals with a key bound to the device token and the kiosk; another token, kiosk or a flipped byte opens nothing', () => {
    const sealed = sealDoor(lock, 'sdt.device.token', 'kiosk-1');
    expect(sealed).not.toContain('s3cret-relay');
    expect(openSealedDoor(sealed, 'sdt.device.token', 'kiosk-1')).toEqual(lock);
    expect(openSealedDoor(sealed, 'sdt.other.token', 'kiosk-1')).toBeNull();
    expect(openSealedDoor(sealed, 'sdt.device.token', 'kiosk-2')).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(
      openSealedDoor(
        [parts[0], parts[1], parts[2], body.toString('base64url')].join('.'),
        'sdt.device.token',
        'kiosk-1',
      ),
    ).toBeNull();
  });

  it('keeps the file 0600 without the secret in clear, wraps it in the secret box when there is one', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kiosk-door-'));
    dirs.push(dataDir);
    const box = {
      encrypt: (p: string) => `BOX(${Buffer.from(p).toString('base64')})`,
      decrypt: (s: string) => Buffer.from(s.slice(4, -1), 'base64').toString(),
    };
    const keeper = new KioskDoorKeeper({ dataDir, secretBox: box });
    keeper.store(lock, 'tok', 'kiosk-1');
    const file = path.join(dataDir, KIOSK_DOOR_FILE);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('s3cret');
    expect(text).toContain('BOX(');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keeper.load('tok', 'kiosk-1')).toEqual(lock);
    expect(new KioskDoorKeeper({ dataDir }).load('tok', 'kiosk-1')).toBeNull();
    keeper.store(null, 'tok', 'kiosk-1');
    expect(existsSync(file)).toBe(false);
  });
});

describe('KioskStation (main): the door, entry and booking ahead offline (issue 10)', () => {
  const DEVICE_TOKEN = 'sdt.0196a000-0000-7000-8000-0000000000aa.secret';
  const lock = {
    id: uuidv7(),
    driver: 'httpRelay' as const,
    config: {
      url: 'http://relay.local/open',
      method: 'POST' as const,
      secret: 'relay-secret',
      openSeconds: 4,
    },
  };

  function station(cloud: (url: string, init: RequestInit) => Response | Promise<Response>) {
    const s = setup();
    const dataDir = signedInKioskDir('kiosk-door-station-', 'kiosk-session', { ...kiosk, hasLock: true });
    let online = true;
    const relay = new FakeSmartLockDriver();
    const calls: Array<{ url: string; headers: Record<string, string> }> = [];
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, headers: init.headers as Record<string, string> });
      return cloud(url, init);
    });
    const capture = new CaptureInterface();
    const main = kioskStation(s.engine, dataDir, {
      cloudUrl: 'http://cloud.test',
      locale: () => 'en',
      online: () => online,
      ticketPrinter: capture,
      deviceToken: () => DEVICE_TOKEN,
      doorDriver: relay,
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    return { ...s, main, relay, calls, capture, dataDir, goOffline: () => (online = false) };
  }
  const jsonAnswer = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

  it('fetches the door with the kiosk session AND the device token, then opens it offline after the fact is durable', async () => {
    const s = station((url) =>
      url.endsWith('/kiosk/me')
        ? jsonAnswer({ ...kiosk, hasLock: true })
        : url.endsWith('/kiosk/door')
          ? jsonAnswer({ lock })
          : jsonAnswer({}, 404),
    );
    await s.main.request({ method: 'GET', path: `v4/${STUDIO_UUID}/kiosk/me` });
    const door = s.calls.find((c) => c.url.endsWith('/kiosk/door'))!;
    expect(door.headers.authorization).toBe(`Bearer ${DEVICE_TOKEN}`);
    expect(door.headers['x-kiosk-session']).toBe('kiosk-session');
    expect(readFileSync(path.join(s.dataDir, KIOSK_DOOR_FILE), 'utf8')).not.toContain('relay-secret');

    s.goOffline();
    const pendingBefore = s.engine.pendingCount();
    let pendingWhenOpened = -1;
    const open = s.relay.open.bind(s.relay);
    s.relay.open = async (target, context) => {
      pendingWhenOpened = s.engine.pendingCount();
      return open(target, context);
    };
    const result = JSON.parse(
      (await s.main.request(post('check-in', { clientId: s.ewa, scheduleEventId: s.booked }))).body,
    ) as KioskCheckInResult;
    expect(result).toMatchObject({
      outcome: 'checkedIn',
      lock: 'opened',
      offline: true,
      ticketPrinted: true,
    });
    expect(s.relay.opened).toEqual([{ lockId: lock.id, reason: 'checkIn', clientId: s.ewa }]);
    // Durable before the door: the checkIn fact was in the outbox when the relay was called.
    expect(pendingWhenOpened).toBe(pendingBefore + 1);

    // A relay that does not answer: the check-in stands, the kiosk says so.
    s.relay.answer = { ok: false, reason: 'timeout', httpStatus: null, message: 'no answer' };
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failed = JSON.parse(
      (await s.main.request(post('check-in', { clientId: s.ewa, scheduleEventId: s.later }))).body,
    ) as KioskCheckInResult;
    expect(failed).toMatchObject({ outcome: 'checkedIn', lock: 'failed' });
  });

  it('entry with an entry pass offline: the fact, the door, the slip; booking ahead: provisional, no door', async () => {
    const s = station((url) =>
      url.endsWith('/kiosk/door') ? jsonAnswer({ lock }) : jsonAnswer({ ...kiosk, hasLock: true }),
    );
    const { open } = withEntryPasses(s);
    await s.main.request({ method: 'GET', path: `v4/${STUDIO_UUID}/kiosk/me` });
    s.goOffline();
    const entered = JSON.parse(
      (await s.main.request(post('entry', { clientId: open }))).body,
    ) as KioskCheckInResult;
    expect(entered).toMatchObject({ outcome: 'entered', lock: 'opened', offline: true, ticketPrinted: true });
    expect(s.relay.opened).toEqual([{ lockId: lock.id, reason: 'entry', clientId: open }]);
    expect(outbox(s.engine).at(-1)).toMatchObject({
      name: 'kioskEntry',
      args: { lock: 'station', userId: open },
    });
    expect(s.capture.jobs.at(-1)!.includes(Buffer.from('Olga Otwarta'))).toBe(true);

    const evening = s.event('2026-11-24T19:00:00Z');
    const booked = JSON.parse(
      (await s.main.request(post('check-in', { clientId: s.ewa, scheduleEventId: evening }))).body,
    ) as KioskCheckInResult;
    expect(booked).toMatchObject({ outcome: 'booked', provisional: true, lock: 'none' });
    expect(s.relay.opened).toHaveLength(1);
  });

  it('a kiosk whose lock was removed forgets the relay; a station the cloud refuses keeps nothing', async () => {
    let answer: Response = jsonAnswer({ lock });
    const s = station((url) =>
      url.endsWith('/kiosk/door') ? answer.clone() : jsonAnswer({ ...kiosk, hasLock: true }),
    );
    await s.main.refreshDoor(true);
    expect(existsSync(path.join(s.dataDir, KIOSK_DOOR_FILE))).toBe(true);
    answer = jsonAnswer({ lock: null });
    await s.main.refreshDoor(true);
    expect(existsSync(path.join(s.dataDir, KIOSK_DOOR_FILE))).toBe(false);
    answer = jsonAnswer({ lock });
    await s.main.refreshDoor(true);
    answer = jsonAnswer({ error: { key: 'kiosk.stationOnly' } }, 403);
    await s.main.refreshDoor(true);
    expect(existsSync(path.join(s.dataDir, KIOSK_DOOR_FILE))).toBe(false);
    // Offline with nothing kept: checked in, the door says so (`none`), no relay call.
    s.goOffline();
    const result = JSON.parse(
      (await s.main.request(post('check-in', { clientId: s.ewa, scheduleEventId: s.booked }))).body,
    ) as KioskCheckInResult;
    expect(result).toMatchObject({ outcome: 'checkedIn', lock: 'none' });
    expect(s.relay.opened).toHaveLength(0);
  });
});
