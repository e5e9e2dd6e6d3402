import { describe, expect, it } from 'vitest';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { entriesUsed, sessionClient } from '../bookings/bookings-fixtures';
import { appointmentStudio } from './appointments-fixtures';

/**
 * Contracts (memberships) that include appointments (issue 21): a covering client contract pays for
 * an appointment before any pass (no entry used), for the client's own booking and the desk's; a
 * contract for classes only does not; a suspended one refuses with `frozen`; the booking forms list
 * the covering contracts.
 */
const NOW = new Date('2026-06-01T10:00:00Z'); // Monday 12:00 in Warsaw
const DAY = '2026-06-03';
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+02:00`).toISOString();
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

async function setup() {
  clock.set(NOW);
  const st = await appointmentStudio(app);
  const contract = async (name: string, serviceTypes: string[]) => {
    const res = await st.owner.post(v4(st.studio, 'contract'), {
      name: lt(name),
      price: 29900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 12,
      activationType: 0,
      serviceTypes,
      noticePeriods: 1,
      signUpFee: 0,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const sell = async (userId: string, contractId: string) => {
    const res = await st.owner.post(v4(st.studio, `client/${userId}/client-contract`), { contractId });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  return { ...st, contract, sell };
}

const stored = (id: string) =>
  app.knex('client_appointments').where({ id }).first('payment', 'clientContractId', 'clientPricingOptionId');

describe('contracts covering appointments', () => {
  it('a covering contract pays before the pass; a classes-only one does not; a suspended one is frozen', async () => {
    const st = await setup();
    // The scenario's client holds a 5-entry appointment pass and buys a contract with appointments.
    const therapy = await st.sell(
      st.client.id,
      await st.contract('Therapy club', ['appointmentPricingOption']),
    );
    const init = await st.me.post(v4(st.studio, 'client-appointments/init'), {});
    expect(init.body.contracts).toEqual([{ id: therapy, name: lt('Therapy club') }]);

    const booked = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('10:00'),
      payment: 'pass',
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.appointment).toMatchObject({
      payment: 'contract',
      clientContractId: therapy,
      paid: true,
    });
    expect(await stored(booked.body.appointment.id)).toEqual({
      payment: 'contract',
      clientContractId: therapy,
      clientPricingOptionId: null,
    });
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(0);

    // The desk books the same way; naming the pass uses the pass.
    const desk = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      startsAt: at('12:00'),
      clientId: st.client.id,
    });
    expect(desk.status, desk.text).toBe(201);
    expect(desk.body).toMatchObject({ payment: 'contract', clientContractId: therapy });
    const named = await st.owner.post(v4(st.studio, 'appointment/enrollment/client-appointment-enroll'), {
      serviceId: st.massageId,
      startsAt: at('14:00'),
      clientId: st.client.id,
      clientPricingOptionId: st.mainPass,
    });
    expect(named.body).toMatchObject({ payment: 'pass', clientPricingOptionId: st.mainPass });
    expect(await entriesUsed(st.owner, st.studio.id, st.client.id, st.mainPass)).toBe(1);
    const enrollInit = await st.owner.get(
      v4(st.studio, `appointment/enrollment/init?serviceId=${st.massageId}&clientId=${st.client.id}`),
    );
    expect(enrollInit.body.contracts.map((c: { id: string }) => c.id)).toEqual([therapy]);

    // A client whose only contract covers classes has nothing for appointments.
    const { user } = await st.addClient('Yogi', false);
    await st.sell(user.id, await st.contract('Yoga only', ['classroomPricingOption']));
    const yogi = await sessionClient(app, user.id);
    expect((await yogi.post(v4(st.studio, 'client-appointments/init'), {})).body.contracts).toEqual([]);
    const refused = await yogi.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: at('15:00'),
      payment: 'pass',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('appointment.noPass');

    // A suspended membership does not pay: frozen (billing pauses at the next period boundary, 1 July).
    const { user: paused } = await st.addClient('Paused', false);
    const pausedContract = await st.sell(
      paused.id,
      await st.contract('Therapy paused', ['appointmentPricingOption']),
    );
    const suspend = await st.owner.patch(v4(st.studio, `client-contract/${pausedContract}`), {
      action: 'suspend',
      from: '2026-06-02',
    });
    expect(suspend.status, suspend.text).toBe(200);
    expect(suspend.body.suspensions).toEqual([{ startsOn: '2026-07-01', endsOn: null }]);
    const frozen = await (
      await sessionClient(app, paused.id)
    ).post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.massageId,
      startsAt: '2026-07-01T10:00:00+02:00',
      payment: 'pass',
    });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.fields?.payment?.[0], frozen.text).toContain('frozen');
  });
});
