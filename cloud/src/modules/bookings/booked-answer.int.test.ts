import { describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { HttpClient } from '../../../../tests/support/http-client';
import { createUser } from '../../../../tests/support/factories';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * A booking answers with the visit as the client's own list shows it, put together from what the
 * booking read and wrote (no read after the commit): the same room, instructors in their order, the
 * pass or contract that pays, the place on the waiting list, the cancel window — whatever paid and
 * wherever the client landed.
 */
const { app, clock } = useBookingsApp();
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

/** The client's visit `id` as their visits list (`client-visits/init`) shows it. */
async function listed(me: HttpClient, studio: { id: string }, id: string) {
  const res = await me.post(v4(studio, 'client-visits/init'), { when: 'upcoming', limit: 50 });
  expect(res.status, res.text).toBe(200);
  const found = (res.body.items as Array<{ id: string }>).find((v) => v.id === id);
  expect(found, `visit ${id} in the list`).toBeDefined();
  return found;
}

async function book(me: HttpClient, studio: { id: string }, scheduleEventId: string, waitingList = false) {
  const res = await me.post(v4(studio, 'booking/classroom/book'), { scheduleEventId, waitingList });
  expect(res.status, res.text).toBe(200);
  return res.body as { outcome: string; visit: { id: string } };
}

describe('a booking’s answer', () => {
  it('paid by a pass, in a room with two instructors: the visit as the list shows it', async () => {
    clock.set(NOW);
    const t = await bookingStudio(app, START, { capacity: 5 });
    const roomId = uuidv7();
    await app.knex('location_rooms').insert({
      id: roomId,
      studioId: t.studio.id,
      locationId: t.locationId,
      name: 'Sala B',
      capacity: 20,
    });
    // Listed second first: the answer keeps the class's order, not the people's.
    const [second, first] = [
      await createUser(app.knex, { firstName: 'Zofia', lastName: 'Teach' }),
      await createUser(app.knex, { firstName: 'Adam', lastName: 'Teach' }),
    ];
    await app
      .knex('schedule_events')
      .where({ id: t.eventId })
      .update({
        roomId,
        instructorIds: [second!.id, first!.id],
        instructorId: second!.id,
      });
    const me = await sessionClient(app, t.client.id);
    const answer = await book(me, t.studio, t.eventId);
    expect(answer.outcome).toBe('booked');
    expect(answer.visit).toMatchObject({
      status: 0,
      pass: { id: t.mainPass, name: lt('10 classes', 'Karnet 10') },
      event: {
        room: { id: roomId, name: 'Sala B' },
        location: { id: t.locationId, name: 'Mokotów' },
        instructors: [
          { id: second!.id, firstName: 'Zofia' },
          { id: first!.id, firstName: 'Adam' },
        ],
      },
      canCancel: true,
    });
    expect(answer.visit).toEqual(await listed(me, t.studio, answer.visit.id));
  });

  it('on the waiting list: its place there, as the list shows it', async () => {
    clock.set(NOW);
    const t = await bookingStudio(app, START, { capacity: 1, waitingListSize: 3 });
    const others = [await t.addClient(), await t.addClient()];
    await book(await sessionClient(app, others[0]!.user.id), t.studio, t.eventId);
    await book(await sessionClient(app, others[1]!.user.id), t.studio, t.eventId, true);
    const me = await sessionClient(app, t.client.id);
    const answer = await book(me, t.studio, t.eventId, true);
    expect(answer.outcome).toBe('waitingList');
    expect(answer.visit).toMatchObject({ status: 8, waitingPosition: 2 });
    expect(answer.visit).toEqual(await listed(me, t.studio, answer.visit.id));
  });

  it('paid by a contract: the contract by its name, no pass', async () => {
    clock.set(NOW);
    const t = await bookingStudio(app, START);
    const owner = await sessionClient(app, t.manager.id);
    const contract = await owner.post(v4(t.studio, 'contract'), {
      name: lt('Monthly unlimited', 'Miesięczny bez limitu'),
      price: 19900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 12,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
      noticePeriods: 1,
      signUpFee: 0,
    });
    expect(contract.status, contract.text).toBe(201);
    const { user } = await t.addClient(false, 'Member');
    const sold = await owner.post(v4(t.studio, `client/${user.id}/client-contract`), {
      contractId: contract.body.id,
    });
    expect(sold.status, sold.text).toBe(201);
    const me = await sessionClient(app, user.id);
    const answer = await book(me, t.studio, t.eventId);
    expect(answer.visit).toMatchObject({
      pass: null,
      payment: 'contract',
      contract: { id: sold.body.id, name: lt('Monthly unlimited', 'Miesięczny bez limitu') },
    });
    expect(answer.visit).toEqual(await listed(me, t.studio, answer.visit.id));
  });
});
