import {
  AppointmentActionInputSchema,
  CalendarQuerySchema,
  type ClientAppointmentView,
  type StaffCalendar,
} from '../../../shared/contracts/api/appointments';
import {
  HOLDING_STATUSES,
  type AppointmentStatus,
} from '../../../shared/domain/appointments/appointment-status';
import { addLocalDays } from '../../../shared/domain/entitlements/local-dates';
import { instantOfLocalTime } from '../../../shared/domain/schedule/occurrences';
import { AppError } from '../../../shared/errors';
import type { SyncEngine } from '../sync/engine';
import type { LocalStore, Row } from '../sync/local-store';
import { APPOINTMENT_STAFF, type OfflineApiCache } from './offline-cache';
import { parse, type ParsedRequest } from './offline-router';

/**
 * The desk's appointments offline (issue 21), from the mirror's `client_appointments` (today's and
 * after, cloud/src/sync/tables.ts) and `appointment_services`:
 *
 * - `appointment-event/init` (the staff calendar's day or week) answers the appointments that hold
 *   time (and late cancellations, as the cloud lists them) with service, client and times, and the
 *   classes the staff teach from the mirror's timetable. Staff names are the last staff calendar the
 *   cloud answered at this station (`APPOINTMENT_STAFF`; the staff are not in the mirror); working
 *   hours and unavailability are not mirrored: empty offline.
 * - `client-appointment/check-in` queues `appointmentCheckIn@1` (durable in the outbox before the
 *   answer) and answers the appointment present; what the cloud refuses online (not booked or absent)
 *   is refused here too, with the cloud's error.
 */

type Member = StaffCalendar['members'][number];
const iso = (v: unknown): string => new Date(String(v)).toISOString();
const SHOWN = new Set<string>([...HOLDING_STATUSES, 'lateCancelled']);

function rowsOf(store: LocalStore, tbl: string): Row[] {
  return (store.db.prepare('select data from rows where tbl = ?').all(tbl) as Array<{ data: string }>).map(
    (r) => JSON.parse(r.data) as Row,
  );
}

export class OfflineAppointments {
  constructor(
    private readonly engine: SyncEngine,
    private readonly cache: OfflineApiCache,
  ) {}

  private get store(): LocalStore {
    return this.engine.store;
  }

  private staff(): Member[] {
    const kept = this.cache.latestBody(APPOINTMENT_STAFF);
    return kept ? (JSON.parse(kept) as Member[]) : [];
  }

  view(r: Row, staff = new Map(this.staff().map((m) => [m.id, m]))): ClientAppointmentView {
    const service = this.store.get('appointment_services', String(r.service_id));
    const client = r.client_id ? this.store.clientByUser(String(r.client_id)) : null;
    const member = staff.get(String(r.member_id));
    const startsAt = iso(r.starts_at);
    const payment = String(r.payment) as ClientAppointmentView['payment'];
    return {
      id: r.id,
      service: {
        id: String(r.service_id),
        name: (service?.name as ClientAppointmentView['service']['name']) ?? {},
        confirmation: service?.confirmation === 'manual' ? 'manual' : 'auto',
      },
      member: {
        id: String(r.member_id),
        firstName: member?.firstName ?? '',
        lastName: member?.lastName ?? '',
      },
      client: r.client_id
        ? {
            id: String(r.client_id),
            firstName: String(client?.first_name ?? ''),
            lastName: String(client?.last_name ?? ''),
            email: String(client?.email ?? ''),
          }
        : null,
      locationId: (r.location_id as string | null) ?? null,
      roomId: (r.room_id as string | null) ?? null,
      online: Boolean(r.online),
      startsAt,
      endsAt: iso(r.ends_at),
      blockedFrom: iso(r.blocked_from),
      blockedUntil: iso(r.blocked_until),
      status: String(r.status) as AppointmentStatus,
      heldUntil: r.held_until ? iso(r.held_until) : null,
      payment,
      clientPricingOptionId: (r.client_pricing_option_id as string | null) ?? null,
      clientContractId: (r.client_contract_id as string | null) ?? null,
      clientOrderId: (r.client_order_id as string | null) ?? null,
      price: Number(r.price ?? 0),
      currency: String(r.currency ?? 'PLN'),
      paid: Boolean(r.paid_at) || payment === 'pass' || payment === 'free' || payment === 'contract',
      bookedBy: r.booked_by === 'self' ? 'self' : 'staff',
      note: String(r.note ?? ''),
      cancellationCutoffAt: new Date(
        Date.parse(startsAt) - Number(service?.cancellation_cutoff_minutes ?? 0) * 60_000,
      ).toISOString(),
    };
  }

  /** `GET appointment-event/init?from&to&locationId`: the staff calendar of those studio days. */
  calendar(r: ParsedRequest): StaffCalendar {
    const q = parse(CalendarQuerySchema, Object.fromEntries(r.query));
    const timeZone = this.engine.studio()?.timeZone ?? 'UTC';
    // The cloud's span: the days with a day either side (buffers, ranges past midnight).
    const from = instantOfLocalTime(addLocalDays(q.from, -1), 0, timeZone).getTime();
    const to = instantOfLocalTime(addLocalDays(q.to, 2), 0, timeZone).getTime();
    const overlaps = (a: unknown, b: unknown) => Date.parse(String(b)) > from && Date.parse(String(a)) < to;
    const rows = rowsOf(this.store, 'client_appointments')
      .filter((a) => SHOWN.has(String(a.status)) && overlaps(a.starts_at, a.ends_at))
      .filter((a) => !q.locationId || !a.location_id || a.location_id === q.locationId)
      .sort((a, b) => Date.parse(String(a.starts_at)) - Date.parse(String(b.starts_at)));
    const members = this.staff();
    const known = new Set(members.map((m) => m.id));
    for (const a of rows)
      if (!known.has(String(a.member_id))) {
        known.add(String(a.member_id));
        members.push({ id: String(a.member_id), firstName: '', lastName: '' });
      }
    const byId = new Map(members.map((m) => [m.id, m]));
    const classes = rowsOf(this.store, 'schedule_events')
      .filter((e) => !e.cancelled_at && !e.removed_at && overlaps(e.starts_at, e.ends_at))
      .map((e) => ({
        e,
        memberIds: (Array.isArray(e.instructor_ids) ? (e.instructor_ids as string[]) : []).filter((i) =>
          known.has(i),
        ),
      }))
      .filter((c) => c.memberIds.length > 0)
      .map(({ e, memberIds }) => ({
        id: e.id,
        name:
          (this.store.get('class_services', String(e.class_service_id))
            ?.name as StaffCalendar['classes'][number]['name']) ?? {},
        memberIds,
        startsAt: iso(e.starts_at),
        endsAt: iso(e.ends_at),
        roomId: (e.room_id as string | null) ?? null,
      }));
    return {
      timeZone,
      members,
      appointments: rows.map((a) => this.view(a, byId)),
      classes,
      unavailability: [],
      hours: [],
    };
  }

  /** `POST client-appointment/check-in`: queued as `appointmentCheckIn@1`, present at once. */
  checkIn(r: ParsedRequest): ClientAppointmentView {
    const input = parse(AppointmentActionInputSchema, r.body);
    const row = this.store.get('client_appointments', input.clientAppointmentId);
    if (!row) throw AppError.notFound('appointment');
    if (row.status !== 'booked' && row.status !== 'absent')
      throw new AppError('appointment.statusNotAllowed', {
        message: `cannot present an appointment that is ${String(row.status)}`,
      });
    this.engine.mutate('appointmentCheckIn', 1, { clientAppointmentId: row.id }, { actorId: r.userId });
    return this.view(this.store.get('client_appointments', row.id)!);
  }
}
