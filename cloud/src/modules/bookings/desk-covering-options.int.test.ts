import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { PaymentMethod } from '../../../../shared/enums';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * Issue 26: enrolling a client at the desk refused with `visit.noPass` offers the passes sold at the
 * desk that cover the class; once one is sold (the POS checkout) enrolling again books the class
 * with it. The route's 401/400/403/404 beside it.
 */
const { app, clock } = useBookingsApp();

const url = (studioId: string, eventId: string, clientId?: string) =>
  `/api/v4/${studioId}/schedule-event/${eventId}/covering-pricing-options${clientId ? `?clientId=${clientId}` : ''}`;

describe('selling a covering pass when enrolling is refused', () => {
  it('offers only desk passes that cover the class; after the sale the client is booked with the new pass', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START, { capacity: 5 });
    const owner = await sessionClient(app, st.manager.id);
    const { user } = await st.addClient(false, 'Walkin');
    const otherService = uuidv7();
    await app.knex('class_services').insert({
      id: otherService,
      studioId: st.studio.id,
      name: JSON.stringify({ en: { value: 'Pilates' } }),
      durationMinutes: 60,
    });
    const option = (over: Record<string, unknown>) => {
      const id = uuidv7();
      return app
        .knex('pricing_options')
        .insert({
          id,
          studioId: st.studio.id,
          name: JSON.stringify({ en: { value: `Option ${id.slice(-4)}` } }),
          price: 4000,
          entries: 1,
          ...over,
        })
        .then(() => id);
    };
    const pilatesOnly = await option({ restrictions: JSON.stringify({ classServiceIds: [otherService] }) });
    const onlineOnly = await option({ sell_at_desk: false });

    const refused = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: user.id,
    });
    expect(refused.body.error?.key, refused.text).toBe('visit.noPass');

    const offer = await owner.get(url(st.studio.id, st.eventId, user.id));
    expect(offer.status, offer.text).toBe(200);
    const offered = (offer.body.items as Array<{ id: string; price: number; currency: string }>).map(
      (o) => o.id,
    );
    expect(offered).toContain(st.optionId);
    expect(offered).not.toContain(pilatesOnly);
    expect(offered).not.toContain(onlineOnly);
    expect(offer.body.items.find((o: { id: string }) => o.id === st.optionId)).toMatchObject({
      price: 30000,
      currency: 'PLN',
    });

    const sale = await owner.post(
      v4(st.studio, 'retail/checkout'),
      {
        clientId: user.id,
        items: [{ type: 'pricingOption', id: st.optionId }],
        payments: [{ method: PaymentMethod.cash, amount: 30000 }],
      },
      { headers: { 'idempotency-key': `k-${uuidv7()}` } },
    );
    expect(sale.status, sale.text).toBeLessThan(300);
    const booked = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: user.id,
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body).toMatchObject({ outcome: 'booked', visit: { payment: 'pass' } });
    expect(booked.body.visit.pass).not.toBeNull();
  });

  it('401 signed out, 400 without a client, 403 without booking rights, 404 for unknown and other studios’ ids', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START);
    const other = await bookingStudio(app, START);
    const owner = await sessionClient(app, st.manager.id);
    const accountant = await sessionClient(app, (await st.addStaff('accountant')).id);
    const anonymous = await app.anonymous();

    expect((await anonymous.get(url(st.studio.id, st.eventId, st.client.id))).status).toBe(401);
    const bad = await owner.get(url(st.studio.id, st.eventId, 'nobody'));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['query.clientId']);
    expect((await owner.get(url(st.studio.id, st.eventId))).status).toBe(400);
    expect((await accountant.get(url(st.studio.id, st.eventId, st.client.id))).status).toBe(403);
    for (const [event, client] of [
      [other.eventId, st.client.id],
      [st.eventId, other.client.id],
      [uuidv7(), st.client.id],
      [st.eventId, uuidv7()],
    ] as const)
      expect((await owner.get(url(st.studio.id, event, client))).status, `${event} ${client}`).toBe(404);
    const mine = await owner.get(url(st.studio.id, st.eventId, st.client.id));
    expect(mine.status).toBe(200);
    expect(mine.text).not.toContain(other.optionId);
  });
});
