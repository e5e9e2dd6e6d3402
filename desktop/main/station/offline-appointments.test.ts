import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { ClientAppointmentViewSchema, StaffCalendarSchema } from '../../../shared/contracts/api/appointments';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { SyncEngine } from '../sync/engine';
import { OfflineApi } from './offline-api';

/**
 * Issue 21, the desk's appointments offline: the staff calendar's day answered from the mirror (with
 * the service's name, the client's, the staff member's as the cloud last named them), and a check-in
 * queued as `appointmentCheckIn@1` and shown present at once; what the cloud would refuse is refused.
 */
const NOW = new Date('2026-11-26T10:00:00Z');
let db: LocalDatabase | null = null;

afterEach(() => {
  db?.close();
  db = null;
});

function setup() {
  db = openLocalDatabase(':memory:');
  const studioId = uuidv7();
  const studioUuid = studioId;
  db.prepare(`insert into meta (key, value) values ('studioId', ?), ('deviceId', ?), ('studio', ?)`).run(
    studioId,
    uuidv7(),
    JSON.stringify({ id: studioId, timeZone: 'Europe/Warsaw' }),
  );
  const engine = new SyncEngine(db, { clock: () => NOW.getTime() });
  const server = (table: string, row: Record<string, unknown>) =>
    db!.transaction(() =>
      engine.store.applyPatch([
        { op: 'put', table, id: String(row.id), row: { studio_id: studioId, ...row } },
      ]),
    )();
  const api = new OfflineApi(engine, () => NOW);
  const call = (method: 'GET' | 'POST', path: string, body?: unknown, userId = staffId) =>
    api.answer(
      { method, path: `v4/${studioUuid}/${path}`, ...(body ? { body: JSON.stringify(body) } : {}) },
      studioUuid,
      userId,
    );
  const staffId = uuidv7();
  const annaId = uuidv7();
  const serviceId = uuidv7();
  server('appointment_services', {
    id: serviceId,
    name: { en: { value: 'Massage' }, pl: { value: 'Masaż' } },
    confirmation: 'auto',
    cancellation_cutoff_minutes: 1440,
  });
  const clientUserId = uuidv7();
  server('clients', {
    id: uuidv7(),
    user_id: clientUserId,
    first_name: 'Jan',
    last_name: 'Kowalski',
    email: 'jan@example.com',
  });
  const appointment = (startsAt: string, status = 'booked') => {
    const id = uuidv7();
    const ends = new Date(Date.parse(startsAt) + 3_600_000).toISOString();
    server('client_appointments', {
      id,
      service_id: serviceId,
      member_id: annaId,
      client_id: clientUserId,
      location_id: null,
      room_id: null,
      online: false,
      starts_at: startsAt,
      ends_at: ends,
      blocked_from: startsAt,
      blocked_until: ends,
      status,
      held_until: null,
      payment: 'pass',
      price: 0,
      currency: 'PLN',
      paid_at: null,
      booked_by: 'staff',
      checked_in_at: null,
      note: '',
    });
    return id;
  };
  return { engine, api, call, studioUuid, staffId, annaId, serviceId, clientUserId, appointment };
}

describe("the desk's appointments offline (issue 21)", () => {
  it("answers the staff calendar's day from the mirror, with service, client and the staff's names", () => {
    const s = setup();
    // The cloud's last staff calendar at this station named the staff (they are not in the mirror).
    s.api.remember(
      s.staffId,
      s.studioUuid,
      { method: 'GET', path: `v4/${s.studioUuid}/appointment-event/init?from=2026-11-25&to=2026-11-25` },
      {
        status: 200,
        contentType: 'application/json',
        contentDisposition: null,
        encoding: 'utf8',
        body: JSON.stringify({
          timeZone: 'Europe/Warsaw',
          members: [{ id: s.annaId, firstName: 'Anna', lastName: 'Therapist' }],
          appointments: [],
          classes: [],
          unavailability: [],
          hours: [],
        }),
      },
    );
    const today = s.appointment('2026-11-26T11:00:00Z');
    s.appointment('2026-11-26T13:00:00Z', 'calledOff');
    s.appointment('2026-12-03T11:00:00Z'); // next week: not in the day asked for
    // Another person at the desk, who never opened the calendar online, gets the same answer.
    const res = s.call('GET', 'appointment-event/init?from=2026-11-26&to=2026-11-26', undefined, uuidv7())!;
    expect(res.status).toBe(200);
    const calendar = StaffCalendarSchema.parse(JSON.parse(res.body));
    expect(calendar.timeZone).toBe('Europe/Warsaw');
    expect(calendar.members).toEqual([{ id: s.annaId, firstName: 'Anna', lastName: 'Therapist' }]);
    expect(calendar.appointments).toEqual([
      expect.objectContaining({
        id: today,
        status: 'booked',
        startsAt: '2026-11-26T11:00:00.000Z',
        service: {
          id: s.serviceId,
          name: { en: { value: 'Massage' }, pl: { value: 'Masaż' } },
          confirmation: 'auto',
        },
        member: { id: s.annaId, firstName: 'Anna', lastName: 'Therapist' },
        client: { id: s.clientUserId, firstName: 'Jan', lastName: 'Kowalski', email: 'jan@example.com' },
        paid: true,
        cancellationCutoffAt: '2026-11-25T11:00:00.000Z',
      }),
    ]);
    // Bad input is the cloud's 400.
    expect(() => s.call('GET', 'appointment-event/init?from=2026-11-27&to=2026-11-26')).toThrow(/invalid/);
  });

  it('checks a client in: queued as appointmentCheckIn@1, present at once; a called-off one is refused', () => {
    const s = setup();
    const id = s.appointment('2026-11-26T10:30:00Z');
    const res = s.call('POST', 'client-appointment/check-in', { clientAppointmentId: id })!;
    expect(res.status).toBe(200);
    expect(ClientAppointmentViewSchema.parse(JSON.parse(res.body))).toMatchObject({ id, status: 'present' });
    expect(s.engine.store.get('client_appointments', id)).toMatchObject({
      status: 'present',
      checked_in_at: NOW.toISOString(),
    });
    expect(s.engine.outbox()).toEqual([
      expect.objectContaining({
        name: 'appointmentCheckIn',
        version: 1,
        args: { clientAppointmentId: id },
        actorId: s.staffId,
        isFact: true,
        status: 'pending',
      }),
    ]);
    // The calendar shows it present.
    const calendar = StaffCalendarSchema.parse(
      JSON.parse(s.call('GET', 'appointment-event/init?from=2026-11-26&to=2026-11-26')!.body),
    );
    expect(calendar.appointments.find((a) => a.id === id)?.status).toBe('present');

    // Present already, called off, unknown: refused as the cloud refuses them; nothing more queued.
    expect(() => s.call('POST', 'client-appointment/check-in', { clientAppointmentId: id })).toThrow(
      /cannot present/,
    );
    const calledOff = s.appointment('2026-11-26T12:00:00Z', 'calledOff');
    expect(() => s.call('POST', 'client-appointment/check-in', { clientAppointmentId: calledOff })).toThrow(
      /cannot present/,
    );
    expect(() => s.call('POST', 'client-appointment/check-in', { clientAppointmentId: uuidv7() })).toThrow(
      /not found/,
    );
    expect(s.engine.store.get('client_appointments', calledOff)).toMatchObject({ status: 'calledOff' });
    expect(s.engine.outbox()).toHaveLength(1);
  });
});
