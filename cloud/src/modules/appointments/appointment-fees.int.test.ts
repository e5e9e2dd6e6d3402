import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { sessionClient } from '../bookings/bookings-fixtures';
import { appointmentStudio } from './appointments-fixtures';

/**
 * Late-cancellation and no-show fees of appointments (issue 21), as for classes: the studio's booking
 * settings name the amounts; a late cancel by the client and a no-show marked by staff bill a pending
 * order with one fee line; staff may waive a no-show; correcting it to present voids the fee; the
 * first offence is forgiven when the studio says so. The no-show route's 401/400/403/404.
 */
const NOW = new Date('2026-06-01T10:00:00Z'); // Monday 12:00 in Warsaw
const DAY = '2026-06-03';
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+02:00`).toISOString();
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;

type St = Awaited<ReturnType<typeof appointmentStudio>>;

async function feeOrders(st: St, clientId: string) {
  return app
    .knex('client_orders as o')
    .join('client_order_lines as l', 'l.order_id', 'o.id')
    .where({ 'o.studioId': st.studio.id, 'o.clientId': clientId, 'l.kind': 'fee' })
    .select('o.total', 'o.status', 'l.name', 'l.refId');
}

async function staffBook(st: St, clientId: string, startsAt: string) {
  const res = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
    serviceId: st.massageId,
    memberId: st.ben.id,
    startsAt,
    clientId,
    payment: 'desk',
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('appointment fees', () => {
  it('a late cancel and a no-show bill the studio fee; waived, corrected and forgiven ones do not', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    await app.knex('studio_booking_settings').insert({
      studioId: st.studio.id,
      lateCancelFee: 3000,
      noShowFee: 5000,
    });

    // The client books with a pass and cancels inside the 24 h cut-off: late, 30 zł billed.
    const booked = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      memberId: st.anna.id,
      startsAt: at('15:00'),
      payment: 'pass',
    });
    expect(booked.status, booked.text).toBe(200);
    const lateId = booked.body.appointment.id as string;
    clock.set(new Date(`${DAY}T08:00:00Z`));
    const late = await st.me.post(v4(st.studio, 'booking/appointment/cancel'), {
      clientAppointmentId: lateId,
    });
    expect(late.body.status).toBe('lateCancelled');
    let orders = await feeOrders(st, st.client.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: 3000, refId: lateId });
    expect(orders[0]!.name).toBe('Opłata za późne odwołanie: Masaż 2026-06-03 15:00'); // the studio's language

    // Staff mark a no-show: 50 zł billed.
    const noShowId = await staffBook(st, st.client.id, at('09:00'));
    clock.set(new Date(`${DAY}T09:00:00Z`));
    const absent = await st.owner.post(v4(st.studio, 'client-appointment/no-show'), {
      clientAppointmentId: noShowId,
    });
    expect(absent.status, absent.text).toBe(200);
    expect(absent.body.status).toBe('absent');
    orders = await feeOrders(st, st.client.id);
    expect(orders.map((o) => o.total).sort()).toEqual([3000, 5000]);
    // They came after all: check-in corrects it and voids the fee row.
    const present = await st.owner.post(v4(st.studio, 'client-appointment/check-in'), {
      clientAppointmentId: noShowId,
    });
    expect(present.body.status).toBe('present');
    const fee = await app.knex('client_appointment_fees').where({ clientAppointmentId: noShowId }).first();
    expect(fee?.voidedAt).not.toBeNull();

    // A waived no-show records nothing.
    const other = await st.addClient('Waived', false);
    const waivedId = await staffBook(st, other.user.id, at('11:00'));
    clock.set(new Date(`${DAY}T11:00:00Z`));
    const waived = await st.owner.post(v4(st.studio, 'client-appointment/no-show'), {
      clientAppointmentId: waivedId,
      chargeFee: false,
    });
    expect(waived.body.status).toBe('absent');
    expect(await feeOrders(st, other.user.id)).toHaveLength(0);
    expect(await app.knex('client_appointment_fees').where({ clientAppointmentId: waivedId })).toHaveLength(
      0,
    );

    // First offence forgiven: recorded, not billed; the second is billed.
    await app
      .knex('studio_booking_settings')
      .where({ studioId: st.studio.id })
      .update({ forgiveFirstOffence: true });
    const fresh = await st.addClient('Fresh', false);
    const first = await staffBook(st, fresh.user.id, at('13:00'));
    const second = await staffBook(st, fresh.user.id, at('15:00'));
    clock.set(new Date(`${DAY}T13:00:00Z`));
    for (const id of [first, second])
      expect(
        (await st.owner.post(v4(st.studio, 'client-appointment/no-show'), { clientAppointmentId: id }))
          .status,
      ).toBe(200);
    const rows = await app
      .knex('client_appointment_fees')
      .where({ clientId: fresh.user.id })
      .orderBy('createdAt')
      .select('forgiven', 'clientOrderId');
    expect(rows.map((r) => r.forgiven)).toEqual([true, false]);
    expect(await feeOrders(st, fresh.user.id)).toHaveLength(1);
  });

  it('no-show: 401 signed out, 403 client or without the right, 404 another studio, 400 bad input', async () => {
    clock.set(NOW);
    const st = await appointmentStudio(app);
    const id = await staffBook(st, st.client.id, at('10:00'));
    const body = { clientAppointmentId: id };
    const path = 'client-appointment/no-show';
    expect((await (await HttpClient.anonymous(app.url)).post(v4(st.studio, path), body)).status).toBe(401);
    expect((await st.me.post(v4(st.studio, path), body)).status).toBe(403);
    const other = await createStudioScenario(app.knex);
    const otherOwner = await sessionClient(app, other.manager.id);
    expect((await otherOwner.post(v4(other.studio, path), body)).status).toBe(404);
    expect((await otherOwner.post(v4(st.studio, path), body)).status).toBe(404);
    const bad = await st.owner.post(v4(st.studio, path), { clientAppointmentId: 'x', chargeFee: 'yes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(
      expect.arrayContaining(['clientAppointmentId', 'chargeFee']),
    );
    // Success.
    expect((await st.owner.post(v4(st.studio, path), body)).body.status).toBe('absent');
    expect((await app.knex('client_appointments').where({ id }).first())?.status).toBe('absent');
  });
});
