import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ClientPricingOptionViewSchema } from '../../../shared/contracts/api/catalog';
import {
  ClientPricingOptionStatus,
  PricingOptionExpirationType,
} from '../../../shared/enums/pricing-options';
import { ClientVisitStatus } from '../../../shared/enums/visits';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { SyncEngine } from '../sync/engine';
import { OfflineApi } from './offline-api';
import { offlineClientPasses, offlineSharedPasses } from './offline-passes';

/**
 * The Passes tab offline: the client's passes derived from the station's copy (server rows as a pull
 * leaves them) with this desk's pending commands on top, and the same answer through OfflineApi.
 */
const ZONE = 'Europe/Warsaw';
const NOW = new Date('2026-11-26T10:00:00Z');
const DAY = 86_400_000;
let db: LocalDatabase | null = null;

afterEach(() => {
  db?.close();
  db = null;
});

function setup() {
  db = openLocalDatabase(':memory:');
  const studioId = uuidv7();
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?)`).run(studioId, uuidv7());
  const engine = new SyncEngine(db, { clock: () => NOW.getTime() });
  const server = (table: string, row: Record<string, unknown>) =>
    db!.transaction(() =>
      engine.store.applyPatch([
        { op: 'put', table, id: String(row.id), row: { studio_id: studioId, ...row } },
      ]),
    )();
  const userId = uuidv7();
  server('clients', { id: uuidv7(), user_id: userId, first_name: 'Ola', last_name: 'Nowak' });
  const serviceId = uuidv7();
  const locationId = uuidv7();
  server('class_services', { id: serviceId, name: { en: { value: 'Yoga' } }, service_type: 'classroom' });
  server('locations', { id: locationId, name: 'Main' });
  const option = (entries: number | null, extra: Record<string, unknown> = {}) => {
    const id = uuidv7();
    server('pricing_options', {
      id,
      name: { en: { value: `${entries ?? '∞'} entries` } },
      entries,
      service_types: ['classroomPricingOption'],
      restrictions: {},
      expiration_type: PricingOptionExpirationType.saleDate,
      validity_count: 30,
      validity_unit: 'day',
      ...extra,
    });
    return id;
  };
  const pass = (
    optionId: string,
    soldAt: Date,
    entries: number | null,
    extra: Record<string, unknown> = {},
  ) => {
    const id = uuidv7();
    server('client_pricing_options', {
      id,
      client_id: userId,
      pricing_option_id: optionId,
      status: 1,
      entries,
      sold_at: soldAt.toISOString(),
      price_paid: 20000,
      expiration_type: PricingOptionExpirationType.saleDate,
      validity_count: 30,
      validity_unit: 'day',
      valid_until: null,
      activated_at: soldAt.toISOString(),
      expires_at: null,
      ...extra,
    });
    return id;
  };
  const event = (startsAt: Date) => {
    const id = uuidv7();
    server('schedule_events', {
      id,
      class_service_id: serviceId,
      location_id: locationId,
      starts_at: startsAt.toISOString(),
      ends_at: new Date(startsAt.getTime() + 3_600_000).toISOString(),
      capacity: 10,
      waiting_list_size: 0,
      status: 'scheduled',
    });
    return id;
  };
  const visit = (eventId: string, startsAt: Date, status: number, passId: string | null) => {
    const id = uuidv7();
    server('client_visits', {
      id,
      client_id: userId,
      schedule_event_id: eventId,
      starts_at: startsAt.toISOString(),
      status,
      payment: 'pass',
      client_pricing_option_id: passId,
    });
    return id;
  };
  const passes = () => offlineClientPasses(engine.store, userId, NOW, ZONE);
  return { engine, studioId, userId, server, option, pass, event, visit, passes };
}

describe('offline passes (the client Passes tab from the station copy)', () => {
  it("derives entries and validity from the copy's facts, as the cloud does; nothing provisional", () => {
    const s = setup();
    const tenEntries = s.pass(s.option(10), new Date(NOW.getTime() - 5 * DAY), 10);
    const past = new Date(NOW.getTime() - DAY);
    const next = new Date(NOW.getTime() + DAY);
    s.visit(s.event(past), past, ClientVisitStatus.present, tenEntries);
    s.visit(s.event(next), next, ClientVisitStatus.booked, tenEntries);
    // An early cancellation gives its entry back.
    s.visit(s.event(next), next, ClientVisitStatus.earlyCancel, tenEntries);

    const [view] = s.passes();
    expect(ClientPricingOptionViewSchema.parse(view)).toBeTruthy();
    expect(view).toMatchObject({
      id: tenEntries,
      status: ClientPricingOptionStatus.active,
      entriesTotal: 10,
      entriesUsed: 2,
      entriesLeft: 8,
      // Sold 21 Nov (Warsaw), 30 days: valid through 20 Dec.
      lastValidDate: '2026-12-20',
      name: { en: { value: '10 entries' } },
    });
    expect(view!.provisional).toBeUndefined();
  });

  it("shows the cloud's end of validity (extensions and freezes are in its projection, not in the copy)", () => {
    const s = setup();
    const soldAt = new Date(NOW.getTime() - 5 * DAY);
    // The cloud extended it by 7 days: its projection ends on 28 Dec (first instant not valid).
    s.pass(s.option(10), soldAt, 10, { expires_at: '2026-12-27T23:00:00.000Z' });
    expect(s.passes()[0]).toMatchObject({
      lastValidDate: '2026-12-27',
      expiresAt: '2026-12-27T23:00:00.000Z',
    });
  });

  it('an expired pass and a used-up pass are inactive with their reason', () => {
    const s = setup();
    s.pass(s.option(null), new Date(NOW.getTime() - 40 * DAY), null);
    const one = s.pass(s.option(1), new Date(NOW.getTime() - 2 * DAY), 1);
    const past = new Date(NOW.getTime() - DAY);
    s.visit(s.event(past), past, ClientVisitStatus.present, one);
    const byId = new Map(s.passes().map((p) => [p.id, p]));
    expect(byId.get(one)).toMatchObject({ status: 0, inactiveReason: 'noEntriesLeft', entriesLeft: 0 });
    expect([...byId.values()].find((p) => p.id !== one)).toMatchObject({
      status: 0,
      inactiveReason: 'expired',
    });
  });

  it('an offline check-in takes an entry of the pass the cloud would choose (earliest to expire), provisionally', () => {
    const s = setup();
    const later = s.pass(s.option(10), new Date(NOW.getTime() - 2 * DAY), 10);
    const sooner = s.pass(s.option(5), new Date(NOW.getTime() - 20 * DAY), 5);
    const startsAt = new Date(NOW.getTime() + 3_600_000);
    const eventId = s.event(startsAt);
    s.engine.mutate('checkIn', 1, { visitId: uuidv7(), userId: s.userId, scheduleEventId: eventId });

    const byId = new Map(s.passes().map((p) => [p.id, p]));
    expect(byId.get(sooner)).toMatchObject({ entriesUsed: 1, entriesLeft: 4, provisional: true });
    expect(byId.get(later)).toMatchObject({ entriesUsed: 0, entriesLeft: 10 });
    expect(byId.get(later)!.provisional).toBeUndefined();
  });

  it('the Visits tab names the pass the Passes tab counts an offline check-in on', () => {
    const s = setup();
    s.pass(s.option(10), new Date(NOW.getTime() - 2 * DAY), 10);
    const sooner = s.pass(s.option(5), new Date(NOW.getTime() - 20 * DAY), 5);
    const eventId = s.event(new Date(NOW.getTime() + 3_600_000));
    const visitId = uuidv7();
    s.engine.mutate('checkIn', 1, { visitId, userId: s.userId, scheduleEventId: eventId });
    const studio = uuidv7();
    const api = new OfflineApi(s.engine, () => NOW);
    const visits = api.answer(
      { method: 'GET', path: `v4/${studio}/client/${s.userId}/client-visit/collection?when=upcoming` },
      studio,
      uuidv7(),
    )!;
    expect(visits.status).toBe(200);
    const [row] = (JSON.parse(visits.body) as { items: Array<Record<string, unknown>> }).items;
    expect(row).toMatchObject({ id: visitId, provisional: true, pass: { id: sooner } });
  });

  it("a pass another client shares with this one: listed as shared, counting every client's visits", () => {
    const s = setup();
    const ownerId = uuidv7();
    s.server('clients', { id: uuidv7(), user_id: ownerId, first_name: 'Jan', last_name: 'Nowak' });
    const passId = s.pass(s.option(5), new Date(NOW.getTime() - 2 * DAY), 5, { client_id: ownerId });
    s.server('client_pricing_option_shares', {
      id: uuidv7(),
      client_pricing_option_id: passId,
      user_id: s.userId,
      shared_by: ownerId,
    });
    const yesterday = new Date(NOW.getTime() - DAY);
    s.server('client_visits', {
      id: uuidv7(),
      client_id: ownerId,
      schedule_event_id: s.event(yesterday),
      starts_at: yesterday.toISOString(),
      status: ClientVisitStatus.present,
      payment: 'pass',
      client_pricing_option_id: passId,
    });
    const shared = () => offlineSharedPasses(s.engine.store, s.userId, NOW, ZONE);
    expect(s.passes()).toEqual([]); // none of their own
    expect(shared()).toMatchObject([{ id: passId, clientId: ownerId, entriesUsed: 1, entriesLeft: 4 }]);
    expect(shared()[0]!.provisional).toBeUndefined();
    // The client checks in here offline: the shared pass is the one that covers it.
    s.engine.mutate('checkIn', 1, {
      visitId: uuidv7(),
      userId: s.userId,
      scheduleEventId: s.event(new Date(NOW.getTime() + 3_600_000)),
    });
    expect(shared()).toMatchObject([{ id: passId, entriesUsed: 2, entriesLeft: 3, provisional: true }]);
    // The owner's tab says whom it is shared with.
    expect(offlineClientPasses(s.engine.store, ownerId, NOW, ZONE)).toMatchObject([
      { id: passId, sharedWith: [{ userId: s.userId, firstName: 'Ola', lastName: 'Nowak' }] },
    ]);
  });

  it('an offline cancellation of a visit paid with a pass gives the entry back, provisionally', () => {
    const s = setup();
    const passId = s.pass(s.option(10), new Date(NOW.getTime() - 2 * DAY), 10);
    const next = new Date(NOW.getTime() + 2 * DAY);
    const visitId = s.visit(s.event(next), next, ClientVisitStatus.booked, passId);
    expect(s.passes()[0]).toMatchObject({ entriesUsed: 1 });
    s.engine.mutate('cancelBooking', 1, { visitId, chargeFee: true });
    expect(s.passes()[0]).toMatchObject({ entriesUsed: 0, entriesLeft: 10, provisional: true });
  });

  it("a pass sold at this desk offline is listed, provisional, with its option's terms", () => {
    const s = setup();
    const optionId = s.option(8, { validity_count: 2, validity_unit: 'week' });
    const id = uuidv7();
    // As recordSale's local effect puts it (desktop/main/sync/local-commands.ts).
    s.engine.db.transaction(() =>
      s.engine.store.applyEffects([
        {
          op: 'put',
          tbl: 'client_pricing_options',
          id,
          data: {
            id,
            studio_id: s.studioId,
            client_id: s.userId,
            pricing_option_id: optionId,
            status: 1,
            entries: 8,
            price_paid: 16000,
            activated_at: null,
            expires_at: null,
            sold_at: NOW.toISOString(),
            created_at: NOW.toISOString(),
            provisional: true,
          },
        },
      ]),
    )();
    expect(s.passes()[0]).toMatchObject({
      id,
      entriesTotal: 8,
      entriesLeft: 8,
      pricePaid: 16000,
      // 26 Nov + 2 weeks: valid through 9 Dec.
      lastValidDate: '2026-12-09',
      provisional: true,
    });
  });

  it('OfflineApi answers the Passes tab calls (own passes; shared-for-me empty without shares) and 404 for an unknown client', () => {
    const s = setup();
    const passId = s.pass(s.option(10), new Date(NOW.getTime() - 2 * DAY), 10);
    const api = new OfflineApi(s.engine, () => NOW);
    const studio = uuidv7();
    const ask = (path: string) =>
      api.answer({ method: 'GET', path: `v4/${studio}/${path}` }, studio, uuidv7());
    const all = ask(`client/${s.userId}/client-pricing-option/all`)!;
    expect(all.status).toBe(200);
    const body = JSON.parse(all.body) as { items: unknown[] };
    expect(body.items.map((p) => ClientPricingOptionViewSchema.parse(p).id)).toEqual([passId]);
    const shared = ask(`client/${s.userId}/client-pricing-option/shared-for-me`)!;
    expect(JSON.parse(shared.body)).toEqual({ items: [], next: null });
    expect(() => ask(`client/${uuidv7()}/client-pricing-option/all`)).toThrow(/not found/);
  });
});
