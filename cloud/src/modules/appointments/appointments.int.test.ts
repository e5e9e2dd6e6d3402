import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { entriesUsed, sessionClient } from '../bookings/bookings-fixtures';
import { appointmentStudio } from './appointments-fixtures';

/**
 * Appointments (issue 21): every route's 401 / 400 / 403 / 404 (another studio) and success, slot
 * finding against the database (hours, classes, unavailability, existing appointments), booking by
 * staff and by clients (pass, wallet, online order), manual confirmation with the client's mail,
 * call-off, early and late cancellation, reservations that run out, and 50 simultaneous bookings
 * of one slot.
 */
const NOW = new Date('2026-06-01T10:00:00Z'); // Monday 12:00 in Warsaw
const DAY = '2026-06-03'; // Wednesday
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+02:00`).toISOString();
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;
const ZERO = '00000000-0000-4000-8000-000000000000';

type St = Awaited<ReturnType<typeof appointmentStudio>>;

async function slots(http: HttpClient, st: St, serviceId: string, memberId?: string | null) {
  const res = await http.post(v4(st.studio, 'appointment/find'), { serviceId, memberId, from: DAY, to: DAY });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Array<{ startsAt: string; memberIds: string[] }>;
}

describe('appointments', () => {
  it('every route: 401 signed out, 403 without the right, 404 for another studio, 400 for bad input', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const booked = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:00'),
      clientId: st.client.id,
    });
    expect(booked.status, booked.text).toBe(201);
    const id = booked.body.id as string;
    const unavailable = await st.owner.post(
      v4(st.studio, `member/${st.anna.id}/appointment-unavailability`),
      {
        startsAt: at('16:00'),
        endsAt: at('17:00'),
        reason: 'Dentist',
      },
    );
    expect(unavailable.status, unavailable.text).toBe(201);
    const category = await st.owner.post(v4(st.studio, 'appointment-service-category'), {
      name: { en: { value: 'Body' } },
    });
    expect(category.status).toBe(201);

    const serviceBody = { name: { en: { value: 'Reiki' } }, durationMinutes: 30 };
    type Route = {
      method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      path: string;
      body?: unknown;
      bad?: unknown;
      who: 'staff' | 'client' | 'studio';
      edit?: boolean;
    };
    const routes: Route[] = [
      { method: 'GET', path: 'appointment/init', who: 'staff' },
      {
        method: 'POST',
        path: 'appointment/find',
        body: { serviceId: st.massageId, from: DAY, to: DAY },
        bad: { serviceId: 'x', from: DAY, to: '2026-01-01' },
        who: 'studio',
      },
      { method: 'GET', path: 'appointment-service/collection', who: 'staff' },
      { method: 'GET', path: 'appointment-service/init', who: 'staff' },
      { method: 'GET', path: 'appointment-service/categorized', who: 'studio' },
      {
        method: 'POST',
        path: 'appointment-service',
        body: serviceBody,
        bad: { name: {}, durationMinutes: 1 },
        who: 'staff',
        edit: true,
      },
      {
        method: 'PATCH',
        path: `appointment-service/${st.physioId}`,
        body: { price: 16000 },
        bad: { price: -1 },
        who: 'staff',
        edit: true,
      },
      { method: 'GET', path: 'appointment-service-category/collection', who: 'studio' },
      {
        method: 'POST',
        path: 'appointment-service-category',
        body: { name: { pl: { value: 'Ciało' } } },
        bad: { name: 5 },
        who: 'staff',
        edit: true,
      },
      {
        method: 'PATCH',
        path: `appointment-service-category/${category.body.id}`,
        body: { name: { en: { value: 'Body work' } } },
        bad: { name: {} },
        who: 'staff',
        edit: true,
      },
      { method: 'GET', path: `appointment-event/init?from=${DAY}&to=${DAY}`, who: 'staff' },
      {
        method: 'GET',
        path: `appointment-service/${st.massageId}/appointment-event/collection`,
        who: 'staff',
      },
      { method: 'GET', path: `appointment-event/${id}`, who: 'staff' },
      {
        method: 'GET',
        path: `appointment/enrollment/init?serviceId=${st.massageId}&clientId=${st.client.id}`,
        who: 'staff',
      },
      { method: 'GET', path: `client/${st.client.id}/client-appointment/collection`, who: 'staff' },
      { method: 'GET', path: `member/${st.anna.id}/appointment-schedule/init`, who: 'staff' },
      { method: 'GET', path: `member/${st.anna.id}/appointment-schedule/collection`, who: 'staff' },
      {
        method: 'PUT',
        path: `member/${st.ben.id}/appointment-schedule`,
        body: {
          weekly: [{ weekday: 3, startMinute: 540, endMinute: 1020, locationId: st.locationId }],
          exceptions: [],
        },
        bad: { weekly: [{ weekday: 9, startMinute: 600, endMinute: 500, locationId: null }], exceptions: [] },
        who: 'staff',
        edit: true,
      },
      { method: 'GET', path: `member/${st.anna.id}/appointment-unavailability/init`, who: 'staff' },
      { method: 'GET', path: `member/${st.anna.id}/appointment-unavailability/collection`, who: 'staff' },
      {
        method: 'POST',
        path: `member/${st.ben.id}/appointment-unavailability`,
        body: { startsAt: at('09:00'), endsAt: at('09:30') },
        bad: { startsAt: at('10:00'), endsAt: at('09:00') },
        who: 'staff',
        edit: true,
      },
      { method: 'POST', path: 'appointments', body: {}, bad: { when: 'soon' }, who: 'client' },
      { method: 'POST', path: 'client-appointments/init', who: 'client' },
    ];
    const anonymous = await HttpClient.anonymous(app.url);
    const instructor = await sessionClient(app, (await st.addStaff('Ida')).id);
    const other = await createStudioScenario(app.knex);
    const otherOwner = await sessionClient(app, other.manager.id);
    for (const r of routes) {
      const label = `${r.method} ${r.path}`;
      expect((await anonymous.request(r.method, v4(st.studio, r.path), r.body)).status, label).toBe(401);
      // Another studio's manager: on this studio's path, and on their own studio's path with these ids.
      expect((await otherOwner.request(r.method, v4(st.studio, r.path), r.body)).status, label).toBe(404);
      if (/[0-9a-f]{8}-/.test(r.path) && r.who !== 'client') {
        const res = await otherOwner.request(r.method, v4(other.studio, r.path), r.body);
        expect(res.status, `${label} with another studio's ids`).toBe(404);
      }
      if (r.who === 'staff')
        expect((await st.me.request(r.method, v4(st.studio, r.path), r.body)).status, label).toBe(403);
      if (r.edit)
        expect((await instructor.request(r.method, v4(st.studio, r.path), r.body)).status, label).toBe(403);
      if (r.who === 'client')
        expect((await st.owner.request(r.method, v4(st.studio, r.path), r.body)).status, label).toBe(403);
      const caller = r.who === 'client' ? st.me : st.owner;
      if (r.bad !== undefined) {
        const res = await caller.request(r.method, v4(st.studio, r.path), r.bad);
        expect(res.status, `${label} bad input`).toBe(400);
        expect(Object.keys(res.body.error.fields ?? {}).length, label).toBeGreaterThan(0);
      }
      const ok = await caller.request(r.method, v4(st.studio, r.path), r.body);
      expect(ok.status, `${label}: ${ok.text}`).toBeLessThan(300);
    }

    // The actions on one appointment: 403 for an instructor, 404 for another studio's id.
    const actions = [
      'client-appointment/confirm',
      'client-appointment/reject',
      'client-appointment/call-off',
      'client-appointment/move',
    ];
    for (const a of actions) {
      const body = { clientAppointmentId: id, ...(a.endsWith('move') ? { startsAt: at('11:00') } : {}) };
      expect((await anonymous.post(v4(st.studio, a), body)).status, a).toBe(401);
      expect((await instructor.post(v4(st.studio, a), body)).status, a).toBe(403);
      expect((await otherOwner.post(v4(other.studio, a), body)).status, a).toBe(404);
      expect((await st.owner.post(v4(st.studio, a), { clientAppointmentId: 'nope' })).status, a).toBe(400);
    }
    for (const a of [
      'appointment/enrollment/client-appointment-enroll',
      'appointment/enrollment/time-reservation-enroll',
    ]) {
      const body = { serviceId: st.massageId, startsAt: at('12:00'), clientId: st.client.id };
      expect((await anonymous.post(v4(st.studio, a), body)).status, a).toBe(401);
      expect((await instructor.post(v4(st.studio, a), body)).status, a).toBe(403);
      expect((await otherOwner.post(v4(other.studio, a), body)).status, a).toBe(404);
      expect((await st.owner.post(v4(st.studio, a), { ...body, startsAt: 'noon' })).status, a).toBe(400);
    }
    for (const a of ['booking/appointment/book', 'booking/appointment/cancel']) {
      const body = a.endsWith('book')
        ? { serviceId: st.massageId, startsAt: at('12:00'), payment: 'pass' }
        : { clientAppointmentId: id };
      expect((await anonymous.post(v4(st.studio, a), body)).status, a).toBe(401);
      expect((await st.owner.post(v4(st.studio, a), body)).status, a).toBe(403);
      const outsider = await sessionClient(app, other.client.id);
      expect((await outsider.post(v4(st.studio, a), body)).status, a).toBe(404);
      expect((await st.me.post(v4(st.studio, a), { ...body, payment: 'cash' })).status, a).toBe(400);
    }
    // Another client's appointment is not mine to cancel.
    const stranger = await st.addClient('Stranger');
    const strangerHttp = await sessionClient(app, stranger.user.id);
    expect(
      (await strangerHttp.post(v4(st.studio, 'booking/appointment/cancel'), { clientAppointmentId: id }))
        .status,
    ).toBe(404);
    expect(
      (await st.owner.post(v4(st.studio, 'client-appointment/confirm'), { clientAppointmentId: ZERO }))
        .status,
    ).toBe(404);
    // Deletes last.
    expect(
      (await instructor.request('DELETE', v4(st.studio, `appointment-unavailability/${unavailable.body.id}`)))
        .status,
    ).toBe(403);
    expect(
      (
        await otherOwner.request(
          'DELETE',
          v4(other.studio, `appointment-unavailability/${unavailable.body.id}`),
        )
      ).status,
    ).toBe(404);
    expect(
      (await st.owner.request('DELETE', v4(st.studio, `appointment-unavailability/${unavailable.body.id}`)))
        .status,
    ).toBe(204);
    expect(
      (
        await otherOwner.request(
          'DELETE',
          v4(other.studio, `appointment-service-category/${category.body.id}`),
        )
      ).status,
    ).toBe(404);
    expect(
      (await st.owner.request('DELETE', v4(st.studio, `appointment-service-category/${category.body.id}`)))
        .status,
    ).toBe(204);
    expect(
      (await otherOwner.request('DELETE', v4(other.studio, `appointment-service/${st.physioId}`))).status,
    ).toBe(404);
    const archived = await st.owner.request('DELETE', v4(st.studio, `appointment-service/${st.physioId}`));
    expect(archived.body.archived).toBe(true);
  });

  it('finds free times: hours, buffers, a class taught, unavailability, exceptions, anyone', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const all = await slots(st.owner, st, st.massageId, st.anna.id);
    expect(all[0]!.startsAt).toBe(at('09:00'));
    expect(all.at(-1)!.startsAt).toBe(at('15:45')); // 60 min + 15 after must end by 17:00
    // Anna teaches a class 11:00–12:00 and is at the dentist 14:00–15:00.
    const serviceId = (
      await app
        .knex('class_services')
        .insert({
          id: crypto.randomUUID(),
          studioId: st.studio.id,
          name: JSON.stringify({ en: { value: 'Yoga' } }),
          durationMinutes: 60,
        })
        .returning('id')
    )[0]!.id;
    await app.knex('schedule_events').insert({
      id: crypto.randomUUID(),
      studioId: st.studio.id,
      classServiceId: serviceId,
      locationId: st.locationId,
      startsAt: at('11:00'),
      endsAt: at('12:00'),
      capacity: 5,
      instructorIds: [st.anna.id],
    });
    await st.owner.post(v4(st.studio, `member/${st.anna.id}/appointment-unavailability`), {
      startsAt: at('14:00'),
      endsAt: at('15:00'),
    });
    const anna = (await slots(st.owner, st, st.massageId, st.anna.id)).map((s) => s.startsAt);
    expect(anna).toContain(at('09:45')); // block 09:45–11:00
    expect(anna).not.toContain(at('10:00')); // block to 11:15 touches the class
    expect(anna).not.toContain(at('11:30'));
    expect(anna).toContain(at('12:00'));
    expect(anna).not.toContain(at('13:00')); // block to 14:15 touches the dentist
    expect(anna).toContain(at('15:00'));
    // Anyone: Ben covers Anna's class.
    const anyone = await slots(st.me, st, st.massageId);
    expect(anyone.find((s) => s.startsAt === at('11:00'))!.memberIds).toEqual([st.ben.id]);
    expect(anyone.find((s) => s.startsAt === at('09:00'))!.memberIds.sort()).toEqual(
      [st.anna.id, st.ben.id].sort(),
    );
    // A day off for Ben on the day (dated exception) leaves Anna only.
    const ben = await st.owner.request('PUT', v4(st.studio, `member/${st.ben.id}/appointment-schedule`), {
      weekly: [{ weekday: 3, startMinute: 540, endMinute: 1020, locationId: st.locationId }],
      exceptions: [{ date: DAY, startMinute: null, endMinute: null, locationId: null }],
    });
    expect(ben.status, ben.text).toBe(200);
    expect(await slots(st.owner, st, st.massageId, st.ben.id)).toEqual([]);
    const overlap = await st.owner.request('PUT', v4(st.studio, `member/${st.ben.id}/appointment-schedule`), {
      weekly: [
        { weekday: 3, startMinute: 540, endMinute: 700, locationId: null },
        { weekday: 3, startMinute: 600, endMinute: 800, locationId: null },
      ],
      exceptions: [],
    });
    expect(overlap.status).toBe(400);
    // A service Ben does not perform.
    const notBen = await st.owner.post(v4(st.studio, 'appointment/find'), {
      serviceId: st.physioId,
      memberId: st.ben.id,
      from: DAY,
      to: DAY,
    });
    expect(notBen.body.error.key).toBe('appointment.memberNotOffering');
  });

  it('staff book with a pass; the time is gone; a second booking of it is refused; override needs the right', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    await app.knex('users').where({ id: st.client.id }).update({ locale: 'en' });
    const res = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:00'),
      clientId: st.client.id,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'booked',
      payment: 'pass',
      clientPricingOptionId: st.mainPass,
      blockedUntil: at('11:15'),
    });
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(1);
    const anna = (await slots(st.owner, st, st.massageId, st.anna.id)).map((s) => s.startsAt);
    expect(anna).not.toContain(at('10:00'));
    expect(anna).not.toContain(at('11:00')); // our block 11:00– overlaps the 10:00 block to 11:15
    expect(anna).toContain(at('11:15'));
    const other = await st.addClient('Other');
    const again = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:30'),
      clientId: other.user.id,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('appointment.slotTaken');
    // Outside hours: refused, and override needs schedule.overrideRules (a front desk has none).
    const desk = await sessionClient(app, (await st.addStaff('Dorota', 'front_desk')).id);
    const late = {
      serviceId: st.massageId,
      memberId: st.ben.id,
      startsAt: at('18:00'),
      clientId: other.user.id,
      payment: 'desk',
    };
    expect(
      (await desk.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), late)).body.error
        .key,
    ).toBe('appointment.outsideHours');
    expect(
      (
        await desk.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
          ...late,
          override: true,
        })
      ).status,
    ).toBe(403);
    const forced = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      ...late,
      override: true,
    });
    expect(forced.status, forced.text).toBe(201);
    // Even overridden, never over another appointment of the member (the database refuses it).
    const clash = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      ...late,
      startsAt: at('18:30'),
      clientId: st.client.id,
      override: true,
    });
    expect(clash.body.error.key).toBe('appointment.slotTaken');
    // Move by drag: to Ben at 12:00 (same rules), the mail tells the client.
    const moved = await st.owner.post(v4(st.studio, 'client-appointment/move'), {
      clientAppointmentId: res.body.id,
      startsAt: at('12:00'),
      memberId: st.ben.id,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ startsAt: at('12:00'), member: { id: st.ben.id } });
    const moveAgain = await st.owner.post(v4(st.studio, 'client-appointment/move'), {
      clientAppointmentId: res.body.id,
      startsAt: at('18:00'),
      memberId: st.ben.id,
    });
    expect(moveAgain.body.error.key).toBe('appointment.slotTaken');
    // Call-off gives the entry back and tells the client.
    const off = await st.owner.post(v4(st.studio, 'client-appointment/call-off'), {
      clientAppointmentId: res.body.id,
      reason: 'Therapist ill',
    });
    expect(off.body.status).toBe('calledOff');
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(0);
    await app.drainJobs();
    const mails = app.mail.filter((m) => m.to === st.client.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'New time: Massage, Wednesday, 3 June 2026 at 12:00',
      'Cancelled: Massage, Wednesday, 3 June 2026 at 12:00',
    ]);
    expect(mails[1]!.text).toContain('Therapist ill');
  });

  it('manual confirmation: the client books, staff confirm or reject, the client is told', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    await app.knex('users').where({ id: st.client.id }).update({ locale: 'pl' });
    const book = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.physioId,
      startsAt: at('10:00'),
      payment: 'pass',
    });
    expect(book.status, book.text).toBe(200);
    expect(book.body.appointment).toMatchObject({
      status: 'pending',
      member: { id: st.anna.id },
      roomId: st.roomId,
      payment: 'pass',
    });
    const pending = book.body.appointment.id;
    const confirm = await st.owner.post(v4(st.studio, 'client-appointment/confirm'), {
      clientAppointmentId: pending,
    });
    expect(confirm.body.status).toBe('booked');
    expect(
      (await st.owner.post(v4(st.studio, 'client-appointment/confirm'), { clientAppointmentId: pending }))
        .body.error.key,
    ).toBe('appointment.statusNotAllowed');
    const second = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.physioId,
      startsAt: at('14:00'),
      payment: 'pass',
    });
    const reject = await st.owner.post(v4(st.studio, 'client-appointment/reject'), {
      clientAppointmentId: second.body.appointment.id,
    });
    expect(reject.body.status).toBe('rejected');
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(1);
    await app.drainJobs();
    const subjects = app.mail.filter((m) => m.to === st.client.email).map((m) => m.subject);
    expect(subjects).toEqual([
      'Potwierdzono: Fizjoterapia, środa, 3 czerwca 2026 10:00',
      'Niepotwierdzona: Fizjoterapia, środa, 3 czerwca 2026 14:00',
    ]);
    // The room is held: the physio's room is taken at 10:00 for anyone else.
    const mine = await st.me.post(v4(st.studio, 'appointments'), {});
    expect(mine.body.items.map((a: { status: string }) => a.status)).toEqual(['booked', 'rejected']);
    const staffView = await st.owner.get(
      v4(st.studio, `client/${st.client.id}/client-appointment/collection?when=upcoming`),
    );
    expect(staffView.body.items).toHaveLength(2);
  });

  it('clients pay from the wallet or online; cancel early (refund) or late (kept); not after the start', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const knex = app.knex;
    await knex('client_wallet_payments').insert({
      id: crypto.randomUUID(),
      studioId: st.studio.id,
      clientId: st.client.id,
      amount: 30000,
      currency: 'PLN',
      kind: 'top_up',
    });
    const init = await st.me.post(v4(st.studio, 'client-appointments/init'), {});
    expect(init.body).toMatchObject({ walletBalance: 30000, onlinePayment: true });
    expect(init.body.passes).toHaveLength(1);
    const wallet = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('09:00'),
      payment: 'wallet',
    });
    expect(wallet.status, wallet.text).toBe(200);
    expect(wallet.body.appointment).toMatchObject({
      status: 'booked',
      payment: 'wallet',
      paid: true,
      price: 20000,
    });
    const poor = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('13:00'),
      payment: 'wallet',
    });
    expect(poor.body.error.key).toBe('wallet.insufficientFunds');
    expect(
      await knex('client_appointments').where({ studioId: st.studio.id, startsAt: new Date(at('13:00')) }),
    ).toHaveLength(0);

    const online = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      memberId: st.ben.id,
      startsAt: at('13:00'),
      payment: 'online',
      returnPath: '/x/frontoffice/appointments',
    });
    expect(online.status, online.text).toBe(200);
    expect(online.body.appointment).toMatchObject({ status: 'reserved', payment: 'online', paid: false });
    expect(online.body.redirectUrl).toMatch(/^\/app\/form-redirect\?payment=/);
    // The slot is held while paying.
    expect((await slots(st.me, st, st.massageId, st.ben.id)).map((s) => s.startsAt)).not.toContain(
      at('13:00'),
    );
    // Paid (here at the desk, the online flow is the Playwright test's): the line books it.
    const orderId = online.body.appointment.clientOrderId;
    const paid = await st.owner.post(v4(st.studio, `client-order/${orderId}/payment`), { method: 2 });
    expect(paid.status, paid.text).toBe(201);
    const after = await st.owner.get(v4(st.studio, `appointment-event/${online.body.appointment.id}`));
    expect(after.body).toMatchObject({ status: 'booked', paid: true, heldUntil: null });

    // Early cancellation (the cut-off is 24 h): the wallet gets the price back.
    const early = await st.me.post(v4(st.studio, 'booking/appointment/cancel'), {
      clientAppointmentId: wallet.body.appointment.id,
    });
    expect(early.body.status).toBe('cancelled');
    expect((await st.me.post(v4(st.studio, 'client-appointments/init'), {})).body.walletBalance).toBe(30000);
    // A pass booking cancelled late keeps the entry; after the start it cannot be cancelled.
    const pass = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('15:00'),
      payment: 'pass',
    });
    clock.set(new Date(`${DAY}T08:00:00Z`));
    const late = await st.me.post(v4(st.studio, 'booking/appointment/cancel'), {
      clientAppointmentId: pass.body.appointment.id,
    });
    expect(late.body.status).toBe('lateCancelled');
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(1);
    clock.set(new Date(`${DAY}T11:30:00Z`));
    const started = await st.me.post(v4(st.studio, 'booking/appointment/cancel'), {
      clientAppointmentId: online.body.appointment.id,
    });
    expect(started.body.error.key).toBe('appointment.notCancellable');
    // The booking window: closed for a time already past.
    const past = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('09:00'),
      payment: 'pass',
    });
    expect(past.body.error.key).toBe('appointment.bookingClosed');
  });

  it('calendar feeds: a secret URL per staff member and client, replaced and revoked', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:00'),
      clientId: st.client.id,
    });
    const anna = await sessionClient(app, st.anna.id);
    const anonymous = await HttpClient.anonymous(app.url);
    expect((await anonymous.get(v4(st.studio, 'appointment/calendar-feed'))).status).toBe(401);
    expect((await anna.get(v4(st.studio, 'appointment/calendar-feed'))).body).toEqual({
      active: false,
      url: null,
      audience: 'staff',
    });
    const made = await anna.post(v4(st.studio, 'appointment/calendar-feed'), {});
    expect(made.status, made.text).toBe(201);
    const path = new URL(made.body.url).pathname;
    const ics = await anonymous.get(path);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    expect(ics.text).toContain('BEGIN:VCALENDAR');
    expect(ics.text).toContain('Masaż · Kamil Client');
    const client = await st.me.post(v4(st.studio, 'appointment/calendar-feed'), {});
    expect(client.body.audience).toBe('client');
    expect((await anonymous.get(new URL(client.body.url).pathname)).text).toContain('Masaż · Anna Therapist');
    // A new URL replaces the old one; revoking ends it.
    const again = await anna.post(v4(st.studio, 'appointment/calendar-feed'), {});
    expect((await anonymous.get(path)).status).toBe(404);
    expect((await anna.request('DELETE', v4(st.studio, 'appointment/calendar-feed'))).status).toBe(204);
    expect((await anonymous.get(new URL(again.body.url).pathname)).status).toBe(404);
    expect((await anonymous.get('/api/v4/appointment-calendar/not-a-feed')).status).toBeGreaterThanOrEqual(
      400,
    );
  });

  it('a time reservation holds the slot until it runs out', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const hold = await st.owner.post(v4(st.studio, 'appointment/enrollment/time-reservation-enroll'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('10:00'),
      holdMinutes: 5,
    });
    expect(hold.status, hold.text).toBe(201);
    expect(hold.body).toMatchObject({ status: 'reserved', client: null });
    const body = { serviceId: st.massageId, memberId: st.anna.id, startsAt: at('10:00'), payment: 'pass' };
    expect((await st.me.post(v4(st.studio, 'booking/appointment/book'), body)).body.error.key).toBe(
      'appointment.slotTaken',
    );
    clock.set(new Date(NOW.getTime() + 6 * 60_000));
    const took = await st.me.post(v4(st.studio, 'booking/appointment/book'), body);
    expect(took.status, took.text).toBe(200);
    expect((await st.owner.get(v4(st.studio, `appointment-event/${hold.body.id}`))).body.status).toBe(
      'expired',
    );
  });

  it('50 clients book one slot at once: exactly one wins, no partial rows, one entry used', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const clients = [];
    for (let i = 0; i < 50; i++) clients.push(await st.addClient(`C${i}`));
    const http = await Promise.all(clients.map((c) => sessionClient(app, c.user.id)));
    const answers = await Promise.all(
      http.map((h) =>
        h.post(v4(st.studio, 'booking/appointment/book'), {
          serviceId: st.massageId,
          memberId: st.anna.id,
          startsAt: at('10:00'),
          payment: 'pass',
        }),
      ),
    );
    const tally = answers.reduce<Record<string, number>>((acc, a) => {
      const k = a.status === 200 ? 'booked' : `${a.status} ${a.body.error?.key}`;
      return { ...acc, [k]: (acc[k] ?? 0) + 1 };
    }, {});
    expect(tally).toEqual({ booked: 1, '409 appointment.slotTaken': 49 });
    const rows = await app
      .knex('client_appointments')
      .where({ studioId: st.studio.id })
      .select('clientId', 'status');
    expect(rows).toHaveLength(1);
    const winner = clients.find((c) => c.user.id === rows[0]!.clientId)!;
    expect(await entriesUsed(st.owner, st.studio.id, winner.user.id, winner.passId!)).toBe(1);
    const orders = await app
      .knex('client_orders')
      .where({ studioId: st.studio.id })
      .count<{ count: number }[]>('id as count');
    expect(Number(orders[0]!.count)).toBe(0);
  });
});
