import { describe, expect, it } from 'vitest';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { HttpClient } from '../../../../tests/support/http-client';
import { bookingStudio, entriesUsed, sessionClient } from '../bookings/bookings-fixtures';

// Monday 23 November 2026, 10:00 in Warsaw.
const NOW = new Date('2026-11-23T09:00:00Z');
const clock = new ManualClock(NOW);
// Wednesday 25 November 2026, 09:00 in Warsaw.
const WEDNESDAY_9 = new Date('2026-11-25T08:00:00Z');
// Saturday 28 November 2026, 09:00 in Warsaw.
const SATURDAY_9 = new Date('2026-11-28T08:00:00Z');

const app = useTestApp({ clock });

const v4 = (s: { id: string }, path: string) => `/api/v4/${s.id}/${path}`;
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

async function setup() {
  clock.set(NOW);
  const t = await bookingStudio(app, WEDNESDAY_9);
  const owner = await sessionClient(app, t.manager.id);
  const contract = async (over: Record<string, unknown> = {}) => {
    const res = await owner.post(v4(t.studio, 'contract'), {
      name: lt('Monthly unlimited', 'Miesięczny bez limitu'),
      price: 19900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 12,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
      noticePeriods: 1,
      signUpFee: 0,
      ...over,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const sell = async (userId: string, contractId: string) => {
    const res = await owner.post(v4(t.studio, `client/${userId}/client-contract`), { contractId });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  /** A client with no pass, signed in. */
  const member = async () => {
    const { user } = await t.addClient(false, 'Member');
    return { user, me: await sessionClient(app, user.id) };
  };
  return { ...t, owner, contract, sell, member };
}

const book = (me: HttpClient, studioId: string, scheduleEventId: string) =>
  me.post(`/api/v4/${studioId}/booking/classroom/book`, { scheduleEventId });

async function visitRow(visitId: string) {
  return (await app.knex('client_visits').where({ id: visitId }).first('payment', 'client_contract_id')) as {
    payment: string;
    clientContractId: string | null;
  };
}

describe('a client contract as the entitlement for a visit', () => {
  it('a client with only a contract books a class; the schedule says they can', async () => {
    const t = await setup();
    const { user, me } = await t.member();
    const clientContractId = await t.sell(user.id, await t.contract());

    const schedule = await me.post(v4(t.studio, 'booking/schedule'), {
      from: '2026-11-25',
      to: '2026-11-25',
    });
    expect(schedule.status, schedule.text).toBe(200);
    expect(schedule.body.items[0]).toMatchObject({ scheduleEventId: t.eventId, bookOutcome: 'booked' });

    const res = await book(me, t.studio.id, t.eventId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'booked', visit: { status: 0, pass: null } });
    expect(await visitRow(res.body.visit.id)).toEqual({ payment: 'contract', clientContractId });
  });

  it('a covering contract pays before a pass, so no pass entry is used', async () => {
    const t = await setup();
    const clientContractId = await t.sell(t.client.id, await t.contract());
    const me = await sessionClient(app, t.client.id);
    const res = await book(me, t.studio.id, t.eventId);
    expect(res.body.outcome).toBe('booked');
    expect(await visitRow(res.body.visit.id)).toEqual({ payment: 'contract', clientContractId });
    expect(await entriesUsed(t.owner, t.studio.id, t.client.id, t.mainPass)).toBe(0);
  });

  it('a suspended contract does not entitle: refused with the reason', async () => {
    const t = await setup();
    const { user, me } = await t.member();
    const clientContractId = await t.sell(user.id, await t.contract());
    const suspended = await t.owner.patch(v4(t.studio, `client-contract/${clientContractId}`), {
      action: 'suspend',
      from: '2026-12-01',
    });
    expect(suspended.status, suspended.text).toBe(200);
    // Billing pauses at the next period boundary: 23 December.
    expect(suspended.body.suspensions).toEqual([{ startsOn: '2026-12-23', endsOn: null }]);
    const inSuspension = await t.addEvent(new Date('2026-12-30T08:00:00Z'));
    const refused = await book(me, t.studio.id, inSuspension);
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('visit.noPass');
    expect(refused.body.error.fields.scheduleEventId[0]).toContain('frozen');
    // Before the suspension starts the contract still pays.
    expect((await book(me, t.studio.id, t.eventId)).body.outcome).toBe('booked');

    // Staff see the same refusal when they enrol the client.
    const enrol = await t.owner.post(v4(t.studio, `schedule-event/${inSuspension}/enrollment/enroll`), {
      clientId: user.id,
    });
    expect(enrol.status).toBe(409);
    expect(enrol.body.error.fields.scheduleEventId[0]).toContain('frozen');
  });

  it('a contract restricted to Mon–Fri 6–12 refuses a Saturday class with the reason', async () => {
    const t = await setup();
    const { user, me } = await t.member();
    await t.sell(
      user.id,
      await t.contract({
        name: lt('Mornings', 'Poranki'),
        restrictions: { timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 720 }] },
      }),
    );
    const saturday = await t.addEvent(SATURDAY_9);
    const refused = await book(me, t.studio.id, saturday);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ key: 'visit.noPass' });
    expect(refused.body.error.fields.scheduleEventId[0]).toContain('timeNotCovered');
    const schedule = await me.post(v4(t.studio, 'booking/schedule'), {
      from: '2026-11-25',
      to: '2026-11-28',
    });
    const byId = new Map(
      (schedule.body.items as Array<{ scheduleEventId: string; refusal: string | null }>).map((i) => [
        i.scheduleEventId,
        i.refusal,
      ]),
    );
    expect(byId.get(saturday)).toBe('noPass');
    expect(byId.get(t.eventId)).toBe(null);
    // Wednesday 9:00 is inside the window.
    expect((await book(me, t.studio.id, t.eventId)).body.outcome).toBe('booked');
  });

  it('editing the contract later does not change what a sold contract covers', async () => {
    const t = await setup();
    const { user, me } = await t.member();
    const contractId = await t.contract();
    await t.sell(user.id, contractId);
    const patched = await t.owner.patch(v4(t.studio, `contract/${contractId}`), {
      restrictions: { timeWindows: [{ weekdays: [6], fromMinutes: 0, toMinutes: 1440 }] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await book(me, t.studio.id, t.eventId)).body.outcome).toBe('booked');
  });
});
