import { v7 as uuidv7 } from 'uuid';
import {
  EnrollInputSchema,
  EnrollmentStatusInputSchema,
  CheckInInputSchema,
  type BookingResult,
  type ClientVisitView,
  type EventEnrollments,
} from '../../../shared/contracts/api/bookings';
import { ClientVisitsQuerySchema, type ClientVisitList } from '../../../shared/contracts/api/bookings';
import { ScheduleFindInputSchema, type ScheduleEventView } from '../../../shared/contracts/api/schedule';
import type { ClientPricingOptionList } from '../../../shared/contracts/api/catalog';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import { V, attendanceRefusal, isCancelled, nextStatus, takesPlace } from '../../../shared/domain/bookings';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { AppError } from '../../../shared/errors';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { CatalogApi } from '../../../shared/contracts/http/catalog';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { AppointmentsApi } from '../../../shared/contracts/http/appointments';
import type { SyncEngine } from '../sync/engine';
import type { Row } from '../sync/local-store';
import { ENROLLMENT_CAN, OfflineApiCache } from './offline-cache';
import { Answer, OfflineRoutes, json, parse, type ParsedRequest } from './offline-router';
import { STATION_WIDE_READS, checkInWindow, scheduleInitFromMirror } from './offline-desk';
import { OfflineAppointments } from './offline-appointments';
import { OfflineClients, iso } from './offline-clients';
import { offlineClientPasses, offlineSharedPasses, offlineVisitAllocations } from './offline-passes';

/**
 * The offline subset of the cloud's API, answered from the station's SQLite mirror when the cloud
 * cannot be reached (docs/offline-sync.md: "the desktop main process serves the offline-capable
 * subset of the same contract"). Same paths, same shapes (the web screens parse them with the same
 * zod schemas), so React code never knows which one answered.
 *
 * - Live data comes from the synced rows with pending local effects on top: client search and list,
 *   a client's profile basics and valid passes, the timetable of a period, a class's attendees.
 * - The desk's writes become engine commands (durable in the outbox before the answer): enrol →
 *   `bookClass`, check-in and "present" → `checkIn`, cancel → `cancelBooking`. Their answers are
 *   provisional; the server's outcome replaces them at the next pull.
 * - Settings-like reads (`schedule/init`, `client-list/init`, `client/add/init`, `auth/me`) and what
 *   the person may do are the last answer the cloud gave this person, kept in `api_cache`.
 * - Anything else answers null: the caller reports the cloud unreachable, as before.
 */

export class OfflineApi {
  private readonly routes: OfflineRoutes;
  private readonly cache: OfflineApiCache;
  private readonly clients: OfflineClients;

  constructor(
    private readonly engine: SyncEngine,
    private readonly now: () => Date = () => new Date(engine.serverNow()),
  ) {
    this.cache = new OfflineApiCache(engine.db);
    const appointments = new OfflineAppointments(engine, this.cache);
    this.clients = new OfflineClients(engine, this.cache, now, {
      cached: (userId, key) => this.cached(userId, key),
      timeZone: (userId) => this.timeZone(userId),
    });
    // Fixed paths (`client/search`, `client/check-existence`) before the `{user}` ones.
    this.routes = new OfflineRoutes()
      .on(ClientsApi.getClientSearch, (_p, r) => this.clients.clientSearch(r))
      .on(ClientsApi.getClientCollection, (_p, r) => this.clients.clientList(r))
      .on(ClientsApi.getClientCheckExistence, (_p, r) => this.clients.checkExistence(r))
      .on(ClientsApi.getClientProfile, (p, r) => this.clients.clientProfile(p.user!, r))
      .on(ScheduleApi.find, (_p, r) => this.scheduleFind(r))
      .on(BookingsApi.getScheduleEventEnrollmentsInit, (p, r) => this.enrollments(p.scheduleEvent!, r))
      .on(BookingsApi.postScheduleEventEnrollmentEnroll, (p, r) => this.enrol(p.scheduleEvent!, r))
      .on(BookingsApi.postScheduleEventCheckIn, (p, r) => this.checkIn(p.scheduleEvent!, r))
      .on(BookingsApi.postClientEnrollmentStatus, (_p, r) => this.setStatus(r))
      // Clients added and edited at the desk (createClient / updateClient), their visits.
      .on(ClientsApi.postClient, (_p, r) => this.clients.createClient(r))
      .on(ClientsApi.getClient, (p) => this.clients.clientDetail(p.user!))
      .on(ClientsApi.getClientInit, (p, r) => this.clients.clientEditInit(p.user!, r))
      .on(ClientsApi.patchClient, (p, r) => this.clients.updateClient(p.user!, r))
      .on(BookingsApi.getClientClientVisitCollection, (p, r) => this.clientVisits(p.user!, r))
      // The Passes tab: the client's passes from the copy (offline-passes.ts); shares are not in it.
      .on(CatalogApi.getClientClientPricingOptionAll, (p, r) => this.clientPasses(p.user!, r))
      .on(CatalogApi.getClientClientPricingOptionSharedForMe, (p, r) => this.sharedPasses(p.user!, r))
      // The desk's appointments (issue 21, offline-appointments.ts): the staff calendar, check-in.
      .on(AppointmentsApi.eventInit, (_p, r) => appointments.calendar(r))
      .on(AppointmentsApi.checkIn, (_p, r) => appointments.checkIn(r));
  }

  private get store() {
    return this.engine.store;
  }

  /** Keeps what the offline answers cannot compute: settings-like reads, and the person's abilities. */
  remember(userId: string, studioUuid: string, request: ApiRequestInput, response: ApiResponse): void {
    this.cache.remember(userId, studioUuid, request, response);
  }

  private cached<T>(userId: string, key: string): T | null {
    if (STATION_WIDE_READS.has(key)) {
      const body = this.stationWide(userId, key);
      return body === null ? null : (JSON.parse(body) as T);
    }
    return this.cache.get<T>(userId, key);
  }

  /** A studio setting: this person's copy, else the station's latest, else (timetable) from the mirror. */
  private stationWide(userId: string, key: string): string | null {
    const own = this.cache.body(userId, key);
    if (own !== null) return own;
    const kept = this.cache.latestBody(key);
    if (kept !== null && key === 'client-list/init')
      return JSON.stringify({
        ...JSON.parse(kept),
        abilities: this.clients.clientAbilities(userId),
        bulkActions: [],
      });
    if (kept !== null || key !== 'schedule/init') return kept;
    return JSON.stringify(scheduleInitFromMirror(this.store, this.engine.studio()?.timeZone ?? 'UTC'));
  }

  /** Whether this call has an offline answer (a read of the mirror or a queued command). */
  handles(request: ApiRequestInput, studioUuid: string): boolean {
    const pathOnly = request.path.split('?')[0] ?? '';
    const key = this.cache.keyOf(pathOnly, studioUuid);
    if (key === null) return false;
    if (this.cache.isCachedRead(request.method, key)) return true;
    return this.routes.find(request.method, pathOnly, studioUuid) !== null;
  }

  /** A call that changes nothing (GET, or a POST that only reads): safe to answer locally after a failed attempt. */
  isRead(request: ApiRequestInput, studioUuid: string): boolean {
    const key = this.cache.keyOf(request.path.split('?')[0] ?? '', studioUuid);
    return request.method === 'GET' || (request.method === 'POST' && this.cache.isReadPost(key));
  }

  /**
   * The offline answer, or null when this call has none (or, for a cached read, none was kept).
   * Bad input is a 400 with every field, like the cloud's; an unknown class or client a 404.
   */
  answer(request: ApiRequestInput, studioUuid: string, userId: string): ApiResponse | null {
    const [pathOnly = '', search = ''] = request.path.split('?');
    const key = this.cache.keyOf(pathOnly, studioUuid);
    if (key === null || !this.engine.studioId) return null;
    if (this.cache.isCachedRead(request.method, key)) {
      const body = STATION_WIDE_READS.has(key) ? this.stationWide(userId, key) : this.cache.body(userId, key);
      return body === null ? null : json(200, body);
    }
    const route = this.routes.find(request.method, pathOnly, studioUuid);
    if (!route) return null;
    let body: unknown = undefined;
    if (request.body) {
      try {
        body = JSON.parse(request.body);
      } catch {
        throw AppError.invalid({ '': ['not JSON'] });
      }
    }
    const value = route.handler(route.params, {
      method: request.method,
      query: new URLSearchParams(search),
      body,
      userId,
    });
    return value instanceof Answer
      ? json(value.status, JSON.stringify(value.value))
      : json(200, JSON.stringify(value));
  }

  // ------------------------------------------------------------------ clients (offline-clients.ts)

  /** The profile's visits (upcoming: not ended yet, soonest first; past: newest first), one page. */
  private clientVisits(userId: string, r: ParsedRequest): ClientVisitList {
    const q = parse(ClientVisitsQuerySchema, Object.fromEntries(r.query));
    if (!this.store.clientByUser(userId)) throw AppError.notFound('client');
    const now = this.now().getTime();
    // A visit booked here offline has no pass until the cloud allocates one: name the pass the
    // Passes tab counts it on (the cloud's rule), so the two tabs agree until the next sync.
    const allocated = offlineVisitAllocations(this.store, userId, this.now(), this.timeZone(r.userId));
    const visits = (
      this.store.db
        .prepare(
          `select data from rows where tbl = 'client_visits' and json_extract(data, '$.client_id') = ?`,
        )
        .all(userId) as Array<{ data: string }>
    )
      .map((x) => JSON.parse(x.data) as Row)
      .flatMap((v) => {
        const event = this.store.get('schedule_events', String(v.schedule_event_id));
        return event ? [{ v, event, ends: Date.parse(String(event.ends_at)) }] : [];
      })
      .filter(({ ends }) => (q.when === 'upcoming' ? ends > now : q.when === 'past' ? ends <= now : true))
      .map(({ v, event }) => this.visitView(v, event, allocated.get(v.id)))
      .sort((a, b) =>
        q.when === 'upcoming'
          ? a.event.startsAt.localeCompare(b.event.startsAt) || a.id.localeCompare(b.id)
          : b.event.startsAt.localeCompare(a.event.startsAt) || b.id.localeCompare(a.id),
      );
    return { items: visits.slice(0, q.limit), next: null };
  }

  /** The client's passes, derived from the copy with this desk's pending changes on top. */
  private clientPasses(userId: string, r: ParsedRequest): ClientPricingOptionList {
    if (!this.store.clientByUser(userId)) throw AppError.notFound('client');
    return {
      items: offlineClientPasses(this.store, userId, this.now(), this.timeZone(r.userId)),
      next: null,
    };
  }

  /** Passes other clients share with this one (the mirror's client_pricing_option_shares). */
  private sharedPasses(userId: string, r: ParsedRequest): ClientPricingOptionList {
    if (!this.store.clientByUser(userId)) throw AppError.notFound('client');
    return {
      items: offlineSharedPasses(this.store, userId, this.now(), this.timeZone(r.userId)),
      next: null,
    };
  }

  // ------------------------------------------------------------------ timetable

  private timeZone(userId: string): string {
    return this.cached<{ timeZone: string }>(userId, 'schedule/init')?.timeZone ?? 'UTC';
  }

  private instructors(userId: string): Map<string, { id: string; firstName: string; lastName: string }> {
    const init = this.cached<{ instructors: Array<{ id: string; firstName: string; lastName: string }> }>(
      userId,
      'schedule/init',
    );
    return new Map((init?.instructors ?? []).map((i) => [i.id, i]));
  }

  private eventView(e: Row, userId: string): ScheduleEventView {
    const service = this.store.get('class_services', String(e.class_service_id));
    const location = this.store.get('locations', String(e.location_id));
    const room = e.room_id ? this.store.get('location_rooms', String(e.room_id)) : null;
    const people = this.instructors(userId);
    const ids = Array.isArray(e.instructor_ids)
      ? (e.instructor_ids as string[])
      : e.instructor_id
        ? [String(e.instructor_id)]
        : [];
    return {
      id: e.id,
      scheduleMetaId: (e.schedule_meta_id as string | null) ?? null,
      occurrenceDate: (e.occurrence_date as string | null) ?? null,
      classService: {
        id: String(e.class_service_id),
        name: (service?.name as Record<string, { value: string }>) ?? {},
        color: String(service?.color ?? '#868e96'),
        serviceType:
          (service?.service_type as ScheduleEventView['classService']['serviceType']) ?? 'classroom',
      },
      locationId: String(e.location_id),
      locationName: String(location?.name ?? ''),
      roomId: (e.room_id as string | null) ?? null,
      roomName: room ? String(room.name ?? '') : null,
      instructors: ids.map((id) => people.get(id) ?? { id, firstName: '', lastName: '' }),
      startsAt: iso(e.starts_at)!,
      endsAt: iso(e.ends_at)!,
      capacity: Number(e.capacity ?? 0),
      waitingListSize: Number(e.waiting_list_size ?? 0),
      // Booked/capacity and the waiting list from the mirror's visits (the calendar's badge).
      ...this.visitCountsOf(e.id),
      status: (e.status as ScheduleEventView['status']) ?? 'scheduled',
      hidden: Boolean(e.is_hidden),
      bookableOnline: Boolean(e.bookable_online),
      livestreamUrl: (e.livestream_url as string | null) ?? null,
      notes: String(e.notes ?? ''),
      edited: Boolean(e.edited_at),
    };
  }

  private scheduleFind(r: ParsedRequest): { items: ScheduleEventView[]; next: null } {
    const input = parse(ScheduleFindInputSchema, r.body);
    const zone = this.timeZone(r.userId);
    // A day either side in UTC covers any zone; the local date decides.
    const lo = new Date(Date.parse(`${input.from}T00:00:00Z`) - 86_400_000).toISOString();
    const hi = new Date(Date.parse(`${input.to}T00:00:00Z`) + 2 * 86_400_000).toISOString();
    const rows = (
      this.store.db
        .prepare(
          `select data from rows where tbl = 'schedule_events'
             and json_extract(data, '$.starts_at') >= ? and json_extract(data, '$.starts_at') < ?`,
        )
        .all(lo.slice(0, 10), hi.slice(0, 10)) as Array<{ data: string }>
    ).map((x) => JSON.parse(x.data) as Row);
    const items = rows
      .filter((e) => {
        const day = localDateOf(new Date(String(e.starts_at)), zone);
        return (
          day >= input.from &&
          day <= input.to &&
          (input.includeRemoved || e.status !== 'removed') &&
          (!input.locationId || e.location_id === input.locationId) &&
          (!input.roomId || e.room_id === input.roomId) &&
          (!input.classServiceId || e.class_service_id === input.classServiceId) &&
          (!input.instructorId ||
            e.instructor_id === input.instructorId ||
            (Array.isArray(e.instructor_ids) && (e.instructor_ids as string[]).includes(input.instructorId)))
        );
      })
      .map((e) => this.eventView(e, r.userId))
      .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || a.id.localeCompare(b.id));
    return { items, next: null };
  }

  private event(eventId: string): Row {
    const event = this.store.get('schedule_events', eventId);
    if (!event) throw AppError.notFound('schedule event');
    return event;
  }

  private visitCountsOf(eventId: string): { taken: number; waiting: number } {
    const statuses = this.visitsOf(eventId).map((v) => Number(v.status));
    return {
      taken: statuses.filter((s) => takesPlace(s)).length,
      waiting: statuses.filter((s) => s === V.waitingList).length,
    };
  }

  private visitsOf(eventId: string): Row[] {
    return (
      this.store.db
        .prepare(
          `select data from rows where tbl = 'client_visits' and json_extract(data, '$.schedule_event_id') = ?`,
        )
        .all(eventId) as Array<{ data: string }>
    ).map((x) => JSON.parse(x.data) as Row);
  }

  private visitView(v: Row, event: Row, likelyPassId?: string): ClientVisitView {
    const client = this.store.clientByUser(String(v.client_id));
    const service = this.store.get('class_services', String(event.class_service_id));
    const location = this.store.get('locations', String(event.location_id));
    const passId = v.client_pricing_option_id ?? likelyPassId;
    const pass = passId ? this.store.get('client_pricing_options', String(passId)) : null;
    const option = pass ? this.store.get('pricing_options', String(pass.pricing_option_id)) : null;
    return {
      id: v.id,
      scheduleEventId: String(v.schedule_event_id),
      client: {
        id: String(v.client_id),
        firstName: String(client?.first_name ?? ''),
        lastName: String(client?.last_name ?? ''),
        email: (client?.email as string | null) ?? null,
      },
      status: Number(v.status) as ClientVisitView['status'],
      bookedBy: (['staff', 'self', 'api'].includes(String(v.booked_by))
        ? v.booked_by
        : 'staff') as ClientVisitView['bookedBy'],
      waitingPosition:
        v.waiting_position === null || v.waiting_position === undefined ? null : Number(v.waiting_position),
      pass: pass ? { id: pass.id, name: (option?.name as Record<string, { value: string }>) ?? {} } : null,
      bookedAt: iso(v.booked_at) ?? iso(v.created_at) ?? new Date(0).toISOString(),
      cancelledAt: iso(v.cancelled_at),
      checkedInAt: iso(v.checked_in_at),
      promotedAt: iso(v.promoted_at),
      fees: [],
      ...(this.clients.isProvisional('client_visits', v.id) ? { provisional: true } : {}),
      event: {
        startsAt: iso(event.starts_at)!,
        endsAt: iso(event.ends_at)!,
        classService: {
          id: String(event.class_service_id),
          name: (service?.name as Record<string, { value: string }>) ?? {},
          color: String(service?.color ?? '#868e96'),
        },
        locationName: String(location?.name ?? ''),
      },
    };
  }

  private enrollments(eventId: string, r: ParsedRequest): EventEnrollments {
    const event = this.event(eventId);
    const visits = this.visitsOf(eventId).map((v) => this.visitView(v, event));
    const attendees = visits
      .filter((v) => takesPlace(v.status))
      .sort((a, b) =>
        `${a.client.lastName} ${a.client.firstName}`.localeCompare(
          `${b.client.lastName} ${b.client.firstName}`,
        ),
      );
    const waitingList = visits
      .filter((v) => v.status === V.waitingList)
      .sort((a, b) => (a.waitingPosition ?? 0) - (b.waitingPosition ?? 0));
    const cancelled = visits
      .filter((v) => isCancelled(v.status))
      .sort((a, b) => String(b.cancelledAt).localeCompare(String(a.cancelledAt)));
    const capacity = Number(event.capacity ?? 0);
    const waitingListSize = Number(event.waiting_list_size ?? 0);
    const can = this.cached<EventEnrollments['can']>(r.userId, ENROLLMENT_CAN) ?? {
      book: false,
      checkIn: false,
      overrideRules: false,
    };
    return {
      scheduleEventId: eventId,
      startsAt: iso(event.starts_at)!,
      endsAt: iso(event.ends_at)!,
      eventStatus: (event.status as EventEnrollments['eventStatus']) ?? 'scheduled',
      capacity,
      waitingListSize,
      taken: attendees.length,
      placesLeft: Math.max(0, capacity - attendees.length),
      waitingPlacesLeft: Math.max(0, waitingListSize - waitingList.length),
      attendees,
      waitingList,
      cancelled,
      // The cut-off is the class's rule, not in the mirror: staff decide; the server applies it.
      lateCancelNow: false,
      ...checkInWindow(this.cache, event),
      // Overriding the rules offline is not offered: the server decides capacity in receipt order.
      can: { ...can, overrideRules: false },
    };
  }

  // ------------------------------------------------------------------ writes → commands

  private standing(eventId: string, userId: string): Row | null {
    return (
      this.visitsOf(eventId).find((v) => v.client_id === userId && !isCancelled(Number(v.status))) ?? null
    );
  }

  private enrol(eventId: string, r: ParsedRequest): BookingResult {
    const input = parse(EnrollInputSchema, r.body);
    const event = this.event(eventId);
    if (!this.store.clientByUser(input.clientId)) throw AppError.notFound('client');
    if (this.standing(eventId, input.clientId))
      throw new AppError('visit.alreadyBooked', { message: 'the client is already on this class' });
    const visitId = uuidv7();
    this.engine.mutate(
      'bookClass',
      1,
      {
        visitId,
        userId: input.clientId,
        scheduleEventId: eventId,
        waitingList: input.waitingList,
        clientPresent: false,
        ...(input.payAtDesk ? { payAtDesk: true } : {}),
        ...(input.clientPricingOptionId ? { clientPricingOptionId: input.clientPricingOptionId } : {}),
      },
      { actorId: r.userId },
    );
    const visit = this.store.get('client_visits', visitId)!;
    const view = this.visitView(visit, event);
    const location = this.store.get('locations', String(event.location_id));
    const room = event.room_id ? this.store.get('location_rooms', String(event.room_id)) : null;
    return {
      outcome: view.status === V.waitingList ? 'waitingList' : 'booked',
      visit: {
        id: view.id,
        status: view.status,
        waitingPosition: view.waitingPosition,
        event: {
          id: eventId,
          classService: view.event.classService,
          location: { id: String(event.location_id), name: String(location?.name ?? '') },
          room: room ? { id: room.id, name: String(room.name ?? '') } : null,
          instructors: this.eventView(event, r.userId).instructors,
          startsAt: view.event.startsAt,
          endsAt: view.event.endsAt,
          cancelled: event.status === 'cancelled',
        },
        pass: view.pass,
        bookedAt: view.bookedAt,
        cancelledAt: null,
        canCancel: true,
        cancelIsLate: false,
        fees: [],
      },
    };
  }

  private checkIn(eventId: string, r: ParsedRequest): ClientVisitView {
    const input = parse(CheckInInputSchema, r.body);
    const event = this.event(eventId);
    if (!this.store.clientByUser(input.clientId)) throw AppError.notFound('client');
    const visitId = this.standing(eventId, input.clientId)?.id ?? uuidv7();
    this.engine.mutate(
      'checkIn',
      2,
      { visitId, userId: input.clientId, scheduleEventId: eventId, clientPricingOptionId: null },
      { actorId: r.userId },
    );
    return this.visitView(this.store.get('client_visits', visitId)!, event);
  }

  /**
   * The attendee list's status buttons: present → `checkIn` (a fact), cancel → `cancelBooking`,
   * absent and reset → `setAttendance` (intents: the cloud's rules decide at the desk's time).
   */
  private setStatus(r: ParsedRequest): { items: ClientVisitView[]; next: null } {
    const input = parse(EnrollmentStatusInputSchema, r.body);
    const visits = input.clientVisitIds.map((id) => {
      const visit = this.store.get('client_visits', id);
      if (!visit) throw AppError.notFound('visit');
      return visit;
    });
    // What the table refuses is refused here too, every field at once (as the cloud answers).
    const fields: Record<string, string[]> = {};
    let tooEarly = false;
    visits.forEach((visit, i) => {
      const status = Number(visit.status);
      const event = this.store.get('schedule_events', String(visit.schedule_event_id));
      if (
        input.action === 'absent' &&
        event &&
        attendanceRefusal('absent', new Date(String(event.starts_at)), this.now())
      ) {
        tooEarly = true;
        fields[`clientVisitIds.${i}`] = ['the class has not started yet'];
        return;
      }
      const paid = visit.payment !== 'desk' || Boolean(visit.paid_at);
      const refused =
        input.action === 'cancel'
          ? isCancelled(status)
          : input.action === 'present'
            ? false
            : !nextStatus(status as never, input.action, 'staff', paid).ok;
      if (refused) fields[`clientVisitIds.${i}`] = ['not possible for this visit'];
    });
    if (Object.keys(fields).length > 0)
      throw new AppError(tooEarly ? 'visit.tooEarly' : 'visit.statusNotAllowed', {
        message: Object.values(fields)[0]![0],
        fields,
      });
    for (const visit of visits) {
      if (input.action === 'present')
        this.engine.mutate(
          'checkIn',
          2,
          {
            visitId: visit.id,
            userId: visit.client_id,
            scheduleEventId: visit.schedule_event_id,
            clientPricingOptionId: null,
          },
          { actorId: r.userId },
        );
      else if (input.action === 'cancel')
        this.engine.mutate(
          'cancelBooking',
          1,
          { visitId: visit.id, chargeFee: input.chargeFee },
          { actorId: r.userId },
        );
      else
        this.engine.mutate(
          'setAttendance',
          1,
          { visitId: visit.id, action: input.action, chargeFee: input.chargeFee },
          { actorId: r.userId },
        );
    }
    return {
      items: visits.map((v) =>
        this.visitView(this.store.get('client_visits', v.id)!, this.event(String(v.schedule_event_id))),
      ),
      next: null,
    };
  }
}
