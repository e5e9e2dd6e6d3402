import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import {
  KioskCheckInInputSchema,
  KioskEntryInputSchema,
  KioskIdentifyInputSchema,
  type CheckInMethod,
  type KioskBooking,
  type KioskCheckInResult,
  type KioskClass,
  type KioskClient,
  type KioskDevice,
  type KioskPassReason,
} from '../../../shared/contracts/api/kiosk';
import { parseScannedIdentity } from '../../../shared/domain/accounts/identity';
import { CHECK_IN_OPENS_MINUTES, V, isCancelled, takesPlace } from '../../../shared/domain/bookings';
import { foldSearchText } from '../../../shared/domain/clients';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import type { PassTimeWindow } from '../../../shared/domain/entitlements/pass-choice';
import { entryRefusal } from '../../../shared/domain/entries/entry-limits';
import { PricingOptionServiceType } from '../../../shared/enums/services';
import { AppError, zodIssuesToFields } from '../../../shared/errors';
import type { SyncEngine } from '../sync/engine';
import type { Row } from '../sync/local-store';
import { passRowsUsableBy } from '../station/offline-passes';

type LocaleText = Record<string, { value: string } | undefined>;

const MINUTE = 60_000;

const clientNotFound = (field: string) =>
  new AppError('kiosk.clientNotFound', {
    message: 'no client found',
    fields: { [field]: ['no client found'] },
  });
const methodDisabled = () =>
  new AppError('kiosk.methodDisabled', { message: 'this kiosk does not check in that way' });

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw AppError.invalid(zodIssuesToFields(parsed.error.issues));
  return parsed.data;
}

/**
 * The kiosk's check-in when the cloud cannot be reached, answered from the station's mirror
 * (desktop/main/sync) in the cloud's own shapes (`shared/contracts/api/kiosk.ts`), so the web kiosk's
 * screens run unchanged. What the kiosk does becomes a `checkIn` fact in the outbox (durable before
 * the answer, before the ticket prints); the server allocates the pass when it arrives (it never
 * rejects a check-in; with no pass left it flags the visit for the desk). Decisions: desktop/README.md
 * "Kiosk mode".
 */
export class KioskOffline {
  constructor(
    private readonly engine: SyncEngine,
    private readonly now: () => Date = () => new Date(engine.serverNow()),
  ) {}

  private get store() {
    return this.engine.store;
  }

  private rows(sql: string, ...params: unknown[]): Row[] {
    return (this.store.db.prepare(sql).all(...params) as Array<{ data: string }>).map(
      (r) => JSON.parse(r.data) as Row,
    );
  }

  /** A live client of the studio by the person's id (archived ones are not found, as online). */
  private liveClient(userId: string): Row | null {
    const client = this.store.clientByUser(userId);
    return client && !client.archived_at ? client : null;
  }

  private findClient(kiosk: KioskDevice, body: unknown): { client: Row; by: CheckInMethod } {
    const input = parse(KioskIdentifyInputSchema, body);
    const allowed = kiosk.settings.checkInMethods;
    if (input.method === 'code') {
      const scanned = parseScannedIdentity(input.code);
      if (!scanned) throw clientNotFound('code');
      if (!allowed.includes(scanned.kind)) throw methodDisabled();
      const [identity] = this.rows(
        `select data from rows where tbl = 'client_identities'
           and json_extract(data, '$.kind') = ? and json_extract(data, '$.value_key') = ? limit 1`,
        scanned.kind,
        scanned.kind === 'qr' ? scanned.token : scanned.key,
      );
      const client = identity ? this.liveClient(String(identity.user_id)) : null;
      if (!client) throw clientNotFound('code');
      return { client, by: scanned.kind };
    }
    if (!allowed.includes('name')) throw methodDisabled();
    const matches = this.rows(
      `select data from rows where tbl = 'clients'
         and json_extract(data, '$.first_key') = ? and json_extract(data, '$.last_key') = ?
         and json_extract(data, '$.archived_at') is null`,
      foldSearchText(input.firstName),
      foldSearchText(input.lastName),
    ).filter((c) => String(c.birth_date ?? '').slice(0, 10) === input.birthDate);
    if (matches.length > 1)
      throw new AppError('kiosk.clientAmbiguous', { message: 'more than one client matches' });
    if (!matches[0]) throw clientNotFound('lastName');
    return { client: matches[0], by: 'name' };
  }

  /** Today's classes (studio time zone) not ended yet, at the kiosk's location (any: none set), in start order. */
  private todaysEvents(kiosk: KioskDevice, now: Date): Row[] {
    const timeZone = kiosk.studio.timeZone;
    const today = localDateOf(now, timeZone);
    const lo = new Date(now.getTime() - 36 * 60 * MINUTE).toISOString().slice(0, 10);
    const hi = new Date(now.getTime() + 36 * 60 * MINUTE).toISOString().slice(0, 10) + '~';
    return this.rows(
      `select data from rows where tbl = 'schedule_events'
         and json_extract(data, '$.starts_at') >= ? and json_extract(data, '$.starts_at') < ?`,
      lo,
      hi,
    )
      .filter(
        (e) =>
          (e.status ?? 'scheduled') === 'scheduled' &&
          (!kiosk.locationId || e.location_id === kiosk.locationId) &&
          localDateOf(new Date(String(e.starts_at)), timeZone) === today &&
          Date.parse(String(e.ends_at)) > now.getTime(),
      )
      .sort((a, b) => Date.parse(String(a.starts_at)) - Date.parse(String(b.starts_at)));
  }

  private visitsOf(eventId: string): Row[] {
    return this.rows(
      `select data from rows where tbl = 'client_visits' and json_extract(data, '$.schedule_event_id') = ?`,
      eventId,
    );
  }

  private standing(eventId: string, userId: string): Row | null {
    return (
      this.visitsOf(eventId).find((v) => v.client_id === userId && !isCancelled(Number(v.status))) ?? null
    );
  }

  /**
   * Entries a pass has left as the mirror sees it: its entries (null = unlimited) minus the visits in
   * the mirror it pays for. Visits older than the mirror's window are not there, so this can be too
   * generous; the server's rule decides when the fact arrives.
   */
  entriesLeft(pass: Row): number | null {
    if (pass.entries === null || pass.entries === undefined) return null;
    const used = (
      this.store.db
        .prepare(
          `select json_extract(data, '$.status') as status from rows where tbl = 'client_visits'
             and json_extract(data, '$.client_pricing_option_id') = ?`,
        )
        .all(pass.id) as Array<{ status: number }>
    ).filter((v) => takesPlace(Number(v.status))).length;
    // An entry into an entry service spends a pass entry like a visit (issue 22).
    const entered = (
      this.store.db
        .prepare(
          `select count(*) as n from rows where tbl = 'client_entries'
             and json_extract(data, '$.client_pricing_option_id') = ?`,
        )
        .get(pass.id) as { n: number }
    ).n;
    return Number(pass.entries) - used - entered;
  }

  /**
   * Check-ins made here and not yet confirmed by the cloud carry no pass yet (the server picks it):
   * each will spend an entry, so they are charged, in expiry order, against the client's counted passes.
   */
  private unallocatedSpends(userId: string): number {
    return (
      (
        this.store.db
          .prepare(
            `select json_extract(r.data, '$.status') as status from shadow s
             join rows r on r.tbl = s.tbl and r.id = s.id
            where s.tbl = 'client_visits' and json_extract(r.data, '$.client_id') = ?
              and json_extract(r.data, '$.client_pricing_option_id') is null`,
          )
          .all(userId) as Array<{ status: number }>
      ).filter((v) => takesPlace(Number(v.status))).length +
      (
        this.store.db
          .prepare(
            `select count(*) as n from shadow s join rows r on r.tbl = s.tbl and r.id = s.id
              where s.tbl = 'client_entries' and json_extract(r.data, '$.client_id') = ?
                and json_extract(r.data, '$.client_pricing_option_id') is null`,
          )
          .get(userId) as { n: number }
      ).n
    );
  }

  /**
   * Whether one of the client's passes in the mirror can pay for a service, and with how many entries
   * left after this one: active, valid at that time, entries left (counted passes: entries minus the
   * visits they paid for and minus check-ins still waiting to sync), the service type and the option's
   * class / location restrictions. The mirror has no freezes, time windows or tag rules: the server's
   * rule decides when the fact arrives.
   */
  passFor(
    userId: string,
    visit: { serviceType: string; serviceId: string | null; locationId: string | null; at: Date },
  ): { ok: true; pass: Row; entriesLeft: number | null } | { ok: false; reason: KioskPassReason } {
    // Own passes and those shared with the client (a shared pass lets them in too, as online).
    const passes = passRowsUsableBy(this.store, userId)
      .filter((p) => Number(p.status ?? 1) === 1)
      .sort((a, b) => String(a.expires_at ?? '9999').localeCompare(String(b.expires_at ?? '9999')));
    if (passes.length === 0) return { ok: false, reason: 'noPasses' };
    const order: KioskPassReason[] = ['serviceNotCovered', 'locationNotCovered', 'expired', 'noEntriesLeft'];
    let reason: KioskPassReason = 'serviceNotCovered';
    let spends = this.unallocatedSpends(userId);
    for (const p of passes) {
      const option = this.store.get('pricing_options', String(p.pricing_option_id));
      const types = Array.isArray(option?.service_types) ? (option.service_types as string[]) : [];
      const restrictions = (option?.restrictions ?? {}) as {
        classServiceIds?: string[];
        locationIds?: string[];
      };
      let why: KioskPassReason | null = null;
      let left = this.entriesLeft(p);
      if (left !== null) {
        const charged = Math.min(Math.max(left, 0), spends);
        spends -= charged;
        left -= charged;
      }
      // Pricing options name the kind of service they pay for as its pricing-option variant.
      const kind = PricingOptionServiceType[visit.serviceType as keyof typeof PricingOptionServiceType];
      if (!types.includes(kind) && !types.includes(visit.serviceType)) why = 'serviceNotCovered';
      else if (
        visit.serviceId &&
        restrictions.classServiceIds?.length &&
        !restrictions.classServiceIds.includes(visit.serviceId)
      )
        why = 'serviceNotCovered';
      else if (
        visit.locationId &&
        restrictions.locationIds?.length &&
        !restrictions.locationIds.includes(visit.locationId)
      )
        why = 'locationNotCovered';
      else if (p.expires_at && Date.parse(String(p.expires_at)) <= visit.at.getTime()) why = 'expired';
      else if (left !== null && left <= 0) why = 'noEntriesLeft';
      if (why === null) return { ok: true, pass: p, entriesLeft: left === null ? null : left - 1 };
      if (order.indexOf(why) > order.indexOf(reason)) reason = why;
    }
    return { ok: false, reason };
  }

  private passOnTicket(paid: { pass: Row; entriesLeft: number | null }, kiosk: KioskDevice) {
    const option = this.store.get('pricing_options', String(paid.pass.pricing_option_id));
    return passOnTicketOf(paid, option, kiosk.studio.defaultLocale);
  }

  /** The check-in slip when the kiosk prints one: the studio, the client, the time and `more`. */
  private checkInTicket(kiosk: KioskDevice, client: Row, now: Date, more: object) {
    return kiosk.settings.printTicket
      ? {
          kind: 'checkIn' as const,
          studioName: kiosk.studio.name,
          clientName: `${String(client.first_name ?? '')} ${String(client.last_name ?? '')}`.trim(),
          checkedInAt: now.toISOString(),
          ...more,
        }
      : null;
  }

  private serviceOf(event: Row): Row | null {
    return this.store.get('class_services', String(event.class_service_id));
  }

  /** POST identify, offline: the client, today's bookings and classes with places, entry (needs the cloud). */
  identify(kiosk: KioskDevice, body: unknown): KioskClient {
    const { client, by } = this.findClient(kiosk, body);
    const userId = String(client.user_id);
    const now = this.now();
    const bookings: KioskBooking[] = [];
    const classes: KioskClass[] = [];
    for (const event of this.todaysEvents(kiosk, now)) {
      const service = this.serviceOf(event);
      const startsAt = new Date(String(event.starts_at));
      const base = {
        scheduleEventId: event.id,
        className: (service?.name as LocaleText | undefined) ?? {},
        startsAt: startsAt.toISOString(),
        endsAt: new Date(String(event.ends_at)).toISOString(),
      };
      const visit = this.standing(event.id, userId);
      if (visit) {
        const status = Number(visit.status);
        if (![V.booked, V.present, V.unconfirmed, V.waitingList].includes(status as never)) continue;
        const state =
          status === V.present
            ? 'present'
            : status === V.unconfirmed
              ? 'unpaid'
              : status === V.waitingList
                ? 'waitingList'
                : 'booked';
        bookings.push({
          ...base,
          visitId: visit.id,
          state,
          canCheckIn: state === 'booked' && this.checkInOpen(event, now),
          checkInOpensAt: new Date(startsAt.getTime() - CHECK_IN_OPENS_MINUTES * MINUTE).toISOString(),
        });
        continue;
      }
      if (startsAt <= now) continue;
      const placesLeft = Math.max(
        0,
        Number(event.capacity ?? 0) -
          this.visitsOf(event.id).filter((v) => takesPlace(Number(v.status))).length,
      );
      let reason: string | null = null;
      // Booking ahead is a bookClass intent: provisional until the cloud decides (README).
      if (!event.bookable_online && event.bookable_online !== undefined) reason = 'notBookableOnline';
      else if (placesLeft === 0) reason = 'classFull';
      else {
        const why = this.passFor(userId, {
          serviceType: String(service?.service_type ?? 'classroom'),
          serviceId: String(event.class_service_id),
          locationId: String(event.location_id),
          at: startsAt,
        });
        if (!why.ok) reason = why.reason;
      }
      classes.push({ ...base, placesLeft, canBook: reason === null, reason });
    }
    return {
      client: {
        id: userId,
        firstName: String(client.first_name ?? ''),
        lastName: String(client.last_name ?? ''),
      },
      identifiedBy: by,
      bookings,
      classes,
      entry: ((e) => (e.ok ? { available: true, reason: null } : { available: false, reason: e.reason }))(
        this.entryServicesAt(kiosk).length > 0
          ? this.serviceEntryFor(kiosk, userId, now)
          : this.entryFor(kiosk, userId, now),
      ),
    };
  }

  /**
   * Entry at the door with an entry pass, the cloud's rule on the mirror: a pass for `entry` services
   * valid now at the kiosk's location; one that counts entries cannot be charged at the door
   * (`countedEntryPass`, as online: entries are derived from class visits).
   */
  entryFor(
    kiosk: KioskDevice,
    userId: string,
    at: Date,
  ): { ok: true; pass: Row } | { ok: false; reason: KioskPassReason } {
    const why = this.passFor(userId, {
      serviceType: 'entry',
      serviceId: null,
      locationId: kiosk.locationId,
      at,
    });
    if (!why.ok) return why;
    if (why.pass.entries !== null && why.pass.entries !== undefined)
      return { ok: false, reason: 'countedEntryPass' };
    return { ok: true, pass: why.pass };
  }

  /** Active entry services at the kiosk's location (or at none), in the cloud's order (issue 22). */
  entryServicesAt(kiosk: KioskDevice): Row[] {
    return this.rows(`select data from rows where tbl = 'entry_services'`)
      .filter(
        (e) => !e.archived_at && (!kiosk.locationId || !e.location_id || e.location_id === kiosk.locationId),
      )
      .sort((a, b) => String(a.created_at ?? '').localeCompare(String(b.created_at ?? '')));
  }

  /**
   * The entries rule of the cloud (modules/entries) on the mirror, per service: its limits first
   * (opening hours, the client's entries today in the studio's day, clients inside now — from the
   * mirrored entries and those made here), then a pass for `entry` that covers the service. Counted
   * passes are fine: an entry spends one of their entries, and entries left count the mirrored
   * entries and visits. The chosen service (`entryServiceId`), else the first that lets the client in,
   * else the first one's refusal.
   */
  serviceEntryFor(
    kiosk: KioskDevice,
    userId: string,
    at: Date,
    entryServiceId?: string,
  ):
    | { ok: true; pass: Row; entriesLeft: number | null; service: Row }
    | { ok: false; reason: KioskPassReason } {
    const timeZone = kiosk.studio.timeZone;
    const today = localDateOf(at, timeZone);
    const decisions = this.entryServicesAt(kiosk).map((service) => {
      const entries = this.rows(
        `select data from rows where tbl = 'client_entries' and json_extract(data, '$.entry_service_id') = ?`,
        service.id,
      );
      const refusal = entryRefusal(
        {
          openingHours: (Array.isArray(service.opening_hours)
            ? service.opening_hours
            : []) as PassTimeWindow[],
          maxEntriesPerDay: service.max_entries_per_day == null ? null : Number(service.max_entries_per_day),
          capacity: service.capacity == null ? null : Number(service.capacity),
        },
        {
          clientEntriesToday: entries.filter(
            (e) => e.client_id === userId && localDateOf(new Date(String(e.entered_at)), timeZone) === today,
          ).length,
          insideNow: entries.filter(
            (e) =>
              Date.parse(String(e.entered_at)) <= at.getTime() &&
              at.getTime() < Date.parse(String(e.leaves_at)),
          ).length,
        },
        at,
        timeZone,
      );
      if (refusal) return { service, ok: false as const, reason: refusal as KioskPassReason };
      const pass = this.passFor(userId, {
        serviceType: 'entry',
        serviceId: service.id,
        locationId: (service.location_id as string | null) ?? kiosk.locationId,
        at,
      });
      return pass.ok ? { service, ...pass } : { service, ok: false as const, reason: pass.reason };
    });
    const chosen = entryServiceId
      ? decisions.find((d) => d.service.id === entryServiceId)
      : (decisions.find((d) => d.ok) ?? decisions[0]);
    if (!chosen) throw AppError.notFound('entry service');
    return chosen;
  }

  /**
   * POST entry, offline: one `kioskEntry` fact in the outbox (durable before the answer, the slip and
   * the door). `door`: the station opens its kiosk's door itself once this returns. With entry
   * services at the kiosk (issue 22) it is `kioskEntry@2` naming the service, and the mirror gets the
   * entry at once (the next client sees the place one fuller).
   */
  entry(kiosk: KioskDevice, body: unknown, options: { door: boolean }): KioskCheckInResult {
    const input = parse(KioskEntryInputSchema, body);
    const client = this.liveClient(input.clientId);
    if (!client) throw AppError.notFound('client');
    const now = this.now();
    if (this.entryServicesAt(kiosk).length > 0) {
      const decision = this.serviceEntryFor(kiosk, input.clientId, now, input.entryServiceId);
      if (!decision.ok)
        throw new AppError('kiosk.noPassCovers', {
          message: `no entry now (${decision.reason})`,
          fields: { clientId: [decision.reason] },
        });
      this.engine.mutate('kioskEntry', 2, {
        entryId: uuidv7(),
        kioskId: kiosk.id,
        userId: input.clientId,
        entryServiceId: decision.service.id,
        lock: options.door ? 'station' : 'none',
      });
      return {
        outcome: 'entered',
        className: (decision.service.name as LocaleText | undefined) ?? null,
        startsAt: null,
        lock: 'none',
        ticket: this.checkInTicket(kiosk, client, now, this.passOnTicket(decision, kiosk)),
        offline: true,
      };
    }
    if (input.entryServiceId) throw AppError.notFound('entry service');
    const decision = this.entryFor(kiosk, input.clientId, now);
    if (!decision.ok)
      throw new AppError('kiosk.noPassCovers', {
        message: `no pass covers this (${decision.reason})`,
        fields: { clientId: [decision.reason] },
      });
    this.engine.mutate('kioskEntry', 1, {
      entryId: uuidv7(),
      kioskId: kiosk.id,
      userId: input.clientId,
      lock: options.door ? 'station' : 'none',
    });
    return {
      outcome: 'entered',
      className: null,
      startsAt: null,
      lock: 'none',
      ticket: this.checkInTicket(
        kiosk,
        client,
        now,
        this.passOnTicket({ pass: decision.pass, entriesLeft: null }, kiosk),
      ),
      offline: true,
    };
  }

  private checkInOpen(event: Row, now: Date): boolean {
    const startsAt = Date.parse(String(event.starts_at));
    return (
      now.getTime() >= startsAt - CHECK_IN_OPENS_MINUTES * MINUTE &&
      now.getTime() < Date.parse(String(event.ends_at))
    );
  }

  /**
   * POST check-in, offline: a booked client's visit, or a new one on a class with a free place and a
   * pass that covers it, becomes present through a `checkIn` fact. Refusals are the online ones.
   * More than an hour ahead: a provisional `bookClass` intent (outcome `booked`, `provisional`).
   */
  checkIn(kiosk: KioskDevice, body: unknown): KioskCheckInResult {
    const input = parse(KioskCheckInInputSchema, body);
    const client = this.liveClient(input.clientId);
    if (!client) throw AppError.notFound('client');
    const event = this.store.get('schedule_events', input.scheduleEventId);
    if (!event || (event.status ?? 'scheduled') !== 'scheduled') throw AppError.notFound('class');
    // A kiosk bound to a location offers only its classes, as online.
    if (kiosk.locationId && event.location_id !== kiosk.locationId) throw AppError.notFound('class');
    const now = this.now();
    const service = this.serviceOf(event);
    const visit = this.standing(event.id, input.clientId);
    let paidWith: { pass: Row; entriesLeft: number | null } | null = null;
    const refuse = (key: 'visit.statusNotAllowed' | 'visit.tooEarly', reason: string) =>
      new AppError(key, { message: reason, fields: { scheduleEventId: [reason] } });
    if (visit) {
      const status = Number(visit.status);
      if (status === V.waitingList) throw refuse('visit.statusNotAllowed', 'waitingList');
      if (status === V.unconfirmed) throw refuse('visit.statusNotAllowed', 'unpaid');
      const pass = visit.client_pricing_option_id
        ? this.store.get('client_pricing_options', String(visit.client_pricing_option_id))
        : null;
      // A booked visit already counts against its pass (entries are derived from visits).
      if (pass) paidWith = { pass, entriesLeft: this.entriesLeft(pass) };
    } else {
      const placesLeft =
        Number(event.capacity ?? 0) -
        this.visitsOf(event.id).filter((v) => takesPlace(Number(v.status))).length;
      if (Date.parse(String(event.starts_at)) <= now.getTime())
        throw new AppError('visit.classStarted', {
          message: 'the class has started',
          fields: { scheduleEventId: ['classStarted'] },
        });
      if (placesLeft <= 0)
        throw new AppError('visit.classFull', {
          message: 'the class is full',
          fields: { scheduleEventId: ['classFull'] },
        });
      if (event.bookable_online === false)
        throw new AppError('visit.notBookableOnline', {
          message: 'this class is not booked online',
          fields: { scheduleEventId: ['notBookableOnline'] },
        });
      const why = this.passFor(input.clientId, {
        serviceType: String(service?.service_type ?? 'classroom'),
        serviceId: String(event.class_service_id),
        locationId: String(event.location_id),
        at: new Date(String(event.starts_at)),
      });
      if (!why.ok)
        throw new AppError('kiosk.noPassCovers', {
          message: `no pass covers this (${why.reason})`,
          fields: { scheduleEventId: [why.reason] },
        });
      paidWith = why;
    }
    if (!this.checkInOpen(event, now)) {
      if (visit) throw refuse('visit.tooEarly', 'tooEarly');
      // Booking ahead: a bookClass intent, as the client's own booking (the online rules bind when the
      // cloud runs it). The cloud decides in receipt order: a place, or the waiting list when the class
      // filled up meanwhile; the kiosk says so (`provisional`). No door, no slip, as online.
      this.engine.mutate('bookClass', 1, {
        visitId: uuidv7(),
        userId: input.clientId,
        scheduleEventId: event.id,
        waitingList: true,
        clientPresent: false,
        selfBooking: true,
      });
      return {
        outcome: 'booked',
        className: (service?.name as LocaleText | undefined) ?? {},
        startsAt: new Date(String(event.starts_at)).toISOString(),
        lock: 'none',
        ticket: null,
        offline: true,
        provisional: true,
      };
    }
    if (!visit || Number(visit.status) !== V.present)
      this.engine.mutate('checkIn', 2, {
        visitId: visit?.id ?? uuidv7(),
        userId: input.clientId,
        scheduleEventId: event.id,
        // The pass the slip names (a booked visit keeps its own).
        clientPricingOptionId: visit ? null : paidWith ? String(paidWith.pass.id) : null,
      });
    return {
      outcome: 'checkedIn',
      className: (service?.name as LocaleText | undefined) ?? {},
      startsAt: new Date(String(event.starts_at)).toISOString(),
      // The station opens the door after this returns (the fact is durable first; README).
      lock: 'none',
      ticket: this.checkInTicket(kiosk, client, now, {
        className: resolveName((service?.name as LocaleText | undefined) ?? {}, kiosk.studio.defaultLocale),
        startsAt: new Date(String(event.starts_at)).toISOString(),
        ...(paidWith ? this.passOnTicket(paidWith, kiosk) : {}),
      }),
      offline: true,
    };
  }
}

function passOnTicketOf(
  paid: { pass: Row; entriesLeft: number | null },
  option: Row | null,
  locale: string,
): { passName?: string; entriesLeft?: number } {
  const name = resolveName((option?.name as LocaleText | undefined) ?? {}, locale);
  return {
    ...(name ? { passName: name } : {}),
    ...(paid.entriesLeft !== null ? { entriesLeft: Math.max(0, paid.entriesLeft) } : {}),
  };
}

function resolveName(name: LocaleText, locale: string): string {
  return name[locale]?.value ?? Object.values(name).find((v) => v?.value)?.value ?? '';
}
