import { describe, expect, it } from 'vitest';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, entriesUsed, sessionClient } from './bookings-fixtures';

/**
 * Every view of a visit says what paid it: the pass, or the client contract (membership) by the name
 * it was sold under — the client's "my visits", the booking answer, the attendee list (v4 and v2) and
 * the client's visit list in the back office. Free classes and pay-at-the-desk bookings say so.
 */
const { app, clock } = useBookingsApp();

const v2 = (s: { id: string }, path: string) => `/api/v2/${s.id}/${path}`;
const unlimited = { en: { value: 'Unlimited monthly' }, pl: { value: 'Bez limitu, miesięczny' } };

describe('what paid a visit', () => {
  it('a visit paid by a contract names the contract everywhere and uses no pass entry', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START);
    const owner = await sessionClient(app, st.manager.id);
    const me = await sessionClient(app, st.client.id);
    const contract = await owner.post(v4(st.studio, 'contract'), {
      name: unlimited,
      price: 15000,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 3,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
    });
    expect(contract.status, contract.text).toBe(201);
    const sold = await owner.post(v4(st.studio, `client/${st.client.id}/client-contract`), {
      contractId: contract.body.id,
    });
    expect(sold.status, sold.text).toBe(201);

    const book = await me.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId });
    expect(book.status, book.text).toBe(200);
    const expected = {
      pass: null,
      payment: 'contract',
      contract: { id: sold.body.id, name: unlimited },
    };
    expect(book.body.visit).toMatchObject(expected);
    expect(await entriesUsed(owner, st.studio.id, st.client.id, st.mainPass)).toBe(0);

    // Renaming the contract later does not rename what the client bought.
    const renamed = await owner.patch(v4(st.studio, `contract/${contract.body.id}`), {
      name: { en: { value: 'Renamed' } },
    });
    expect(renamed.status, renamed.text).toBe(200);

    const mine = await me.post(v4(st.studio, 'client-visits/init'), {});
    expect(mine.body.items[0]).toMatchObject(expected);
    const attendees = await owner.get(v4(st.studio, `schedule-event/${st.eventId}/enrollments/init`));
    expect(attendees.body.attendees[0]).toMatchObject(expected);
    const v2list = await owner.get(v2(st.studio, `schedule-events/${st.eventId}/client-visits`));
    expect(v2list.body.attendees[0]).toMatchObject(expected);
    const profile = await owner.get(v4(st.studio, `client/${st.client.id}/client-visit/collection`));
    expect(profile.body.items[0]).toMatchObject(expected);
  });

  it('a pass, a free class and a desk booking say so', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START, { capacity: 5 });
    const owner = await sessionClient(app, st.manager.id);
    const me = await sessionClient(app, st.client.id);
    const withPass = await me.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId });
    expect(withPass.body.visit).toMatchObject({ payment: 'pass', contract: null, pass: { id: st.mainPass } });

    const walkIn = await st.addClient(false, 'Walk-in');
    const desk = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: walkIn.user.id,
      payAtDesk: true,
    });
    expect(desk.body).toMatchObject({
      outcome: 'unconfirmed',
      visit: { payment: 'desk', pass: null, contract: null },
    });

    const free = await bookingStudio(app, START, { freeOfCharge: true });
    const freeMe = await sessionClient(app, free.client.id);
    const freeBook = await freeMe.post(v4(free.studio, 'booking/classroom/book'), {
      scheduleEventId: free.eventId,
    });
    expect(freeBook.body.visit).toMatchObject({ payment: 'free', pass: null, contract: null });
  });
});
