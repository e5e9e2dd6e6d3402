import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../../../shared/enums';
import { payAtTestBank } from '../sales/sales-support';
import { NOW, START, useBookingsApp, v4 } from './bookings-app.test-support';
import { bookingStudio, sessionClient } from './bookings-fixtures';

/**
 * A client paying a visit booked "to pay at the desk" from "My visits" (README "Paying a visit
 * online"): the covering options, a pass bought for the visit through the cart and the test bank
 * paying it in the order's transaction, "use my pass", and the refusals.
 */
const { app, clock } = useBookingsApp();

const key = () => `key-${uuidv7()}`;

/** A studio allowing pay-at-the-desk bookings, a client with no pass booked that way. */
async function deskBooking() {
  clock.set(NOW);
  const st = await bookingStudio(app, START, { capacity: 5 });
  const owner = await sessionClient(app, st.manager.id);
  await owner.patch(v4(st.studio, 'settings/booking'), { payAtDeskAllowed: true });
  const { user } = await st.addClient(false, 'Desk');
  const me = await sessionClient(app, user.id);
  const booked = await me.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId });
  expect(booked.body, booked.text).toMatchObject({ outcome: 'unconfirmed', visit: { status: 9 } });
  return { st, owner, user, me, visitId: booked.body.visit.id as string };
}

async function addOption(st: Awaited<ReturnType<typeof bookingStudio>>, over: Record<string, unknown>) {
  const id = uuidv7();
  await app.knex('pricing_options').insert({
    id,
    studioId: st.studio.id,
    name: JSON.stringify({ en: { value: `Option ${id.slice(-4)}` } }),
    price: 5000,
    entries: 1,
    ...over,
  });
  return id;
}

describe('paying a visit online from my visits', () => {
  it('lists covering options, buys one through the cart and the test bank, and the pass pays the visit', async () => {
    const { st, me, user, visitId } = await deskBooking();
    const otherService = uuidv7();
    await app.knex('class_services').insert({
      id: otherService,
      studioId: st.studio.id,
      name: JSON.stringify({ en: { value: 'Pilates' } }),
      durationMinutes: 60,
    });
    const single = await addOption(st, { price: 4000 });
    const pilatesOnly = await addOption(st, {
      restrictions: JSON.stringify({ classServiceIds: [otherService] }),
    });
    const deskOnly = await addOption(st, { sell_online: false });
    const archived = await addOption(st, { archived_at: new Date('2026-01-01T00:00:00Z') });

    const mine = await me.post(v4(st.studio, 'client-visits/init'), {});
    expect(mine.body.items[0]).toMatchObject({ id: visitId, payable: true, payment: 'desk', pass: null });

    const options = await me.post(v4(st.studio, 'client-visits/pay-options'), { clientVisitId: visitId });
    expect(options.status, options.text).toBe(200);
    expect(options.body).toMatchObject({ visit: { id: visitId }, held: [], onlinePayment: true });
    const offered = (options.body.pricingOptions as Array<{ id: string; price: number }>).map((o) => o.id);
    expect(offered).toContain(single);
    expect(offered).toContain(st.optionId);
    expect(offered).not.toContain(pilatesOnly);
    expect(offered).not.toContain(deskOnly);
    expect(offered).not.toContain(archived);

    // An option that does not cover the class is refused on the way into the cart.
    const wrong = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: pilatesOnly, forVisitId: visitId }],
    });
    expect(wrong.status, wrong.text).toBe(409);
    expect(wrong.body.error).toMatchObject({ key: 'visit.passDoesNotCover', code: 2272 });
    expect(wrong.body.error.fields['items.0.id']).toBeDefined();
    // The same visit twice, and bad ids: 400 with the field.
    const twice = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [
        { type: 'pricingOption', id: single, forVisitId: visitId },
        { type: 'pricingOption', id: st.optionId, forVisitId: visitId },
      ],
    });
    expect(twice.status, twice.text).toBe(400);
    expect(twice.body.error.fields['items.1.forVisitId']).toBeDefined();
    const bad = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: single, forVisitId: 'nope' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields['items.0.forVisitId']).toBeDefined();

    const prepared = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: single, forVisitId: visitId }],
    });
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.body.items[0]).toMatchObject({
      id: single,
      problem: null,
      unitPrice: 4000,
      forVisit: { id: visitId, className: 'Vinyasa', startsAt: START.toISOString() },
    });
    const res = await me.post(
      v4(st.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online', returnPath: `/${st.studio.id}/frontoffice/visits` },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    const line = await app.knex('client_order_lines').where({ orderId: res.body.orderId }).first();
    expect(line!.forVisitId).toBe(visitId);

    // Not paid yet: the visit is still owed.
    expect((await app.knex('client_visits').where({ id: visitId }).first())!.status).toBe(9);
    const { returnUrl } = await payAtTestBank(app, me, res.body.redirectUrl, 'succeeded');
    const back = await me.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toContain(
      `/${st.studio.id}/frontoffice/visits?order=${res.body.orderId}`,
    );

    const order = await me.get(v4(st.studio, `client-order/${res.body.orderId}/status`));
    expect(order.body.status).toBe(OrderStatus.paid);
    const pass = await app
      .knex('client_pricing_options')
      .where({ studioId: st.studio.id, clientId: user.id, pricingOptionId: single })
      .first();
    expect(pass).toBeDefined();
    const after = await me.post(v4(st.studio, 'client-visits/init'), {});
    expect(after.body.items[0]).toMatchObject({
      id: visitId,
      status: 0,
      payment: 'pass',
      pass: { id: pass!.id },
      payable: false,
    });

    // Paid now: nothing more to pay, with a clear refusal.
    const again = await me.post(v4(st.studio, 'client-visits/pay-options'), { clientVisitId: visitId });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ key: 'visit.alreadyPaid', code: 2270 });
    const intoCart = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: single, forVisitId: visitId }],
    });
    expect(intoCart.status).toBe(409);
    expect(intoCart.body.error.key).toBe('visit.alreadyPaid');
  });

  it('a visit cancelled meanwhile: the cart refuses checkout; cancelled after checkout, the pass is sold and the visit left alone', async () => {
    const { st, me, user, visitId } = await deskBooking();
    const single = await addOption(st, {});
    const prepared = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: single, forVisitId: visitId }],
    });
    expect(prepared.status, prepared.text).toBe(200);
    const cancelled = await me.post(v4(st.studio, 'booking/classroom/cancel'), { clientVisitId: visitId });
    expect(cancelled.status, cancelled.text).toBe(200);
    const cart = await me.get(v4(st.studio, 'shopping-cart/status'));
    expect(cart.body.items[0].problem).toBe('cart.problem.visitNotPayable');
    const refused = await me.post(
      v4(st.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('cart.itemUnavailable');
    const options = await me.post(v4(st.studio, 'client-visits/pay-options'), { clientVisitId: visitId });
    expect(options.status).toBe(409);
    expect(options.body.error).toMatchObject({ key: 'visit.notPayable', code: 2271 });

    // Book again, check out, then cancel before the bank answers: the pass is the client's, the
    // cancelled visit is not touched (its entry is not taken).
    const rebooked = await me.post(v4(st.studio, 'booking/classroom/book'), { scheduleEventId: st.eventId });
    const second = rebooked.body.visit.id as string;
    await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: single, forVisitId: second }],
    });
    const res = await me.post(
      v4(st.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    await me.post(v4(st.studio, 'booking/classroom/cancel'), { clientVisitId: second });
    const { returnUrl } = await payAtTestBank(app, me, res.body.redirectUrl, 'succeeded');
    await me.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    expect((await me.get(v4(st.studio, `client-order/${res.body.orderId}/status`))).body.status).toBe(
      OrderStatus.paid,
    );
    const visit = await app.knex('client_visits').where({ id: second }).first();
    expect(visit).toMatchObject({ status: 4, payment: 'desk', clientPricingOptionId: null });
    const passes = await app
      .knex('client_pricing_options')
      .where({ studioId: st.studio.id, clientId: user.id, pricingOptionId: single });
    expect(passes).toHaveLength(1);
  });

  it('"use my pass" pays at once with a held pass; refusals are clear', async () => {
    clock.set(NOW);
    const st = await bookingStudio(app, START, { capacity: 5 });
    const owner = await sessionClient(app, st.manager.id);
    // Staff booked the client to pay at the desk although they hold a pass (bought elsewhere).
    const desk = await owner.post(v4(st.studio, `schedule-event/${st.eventId}/enrollment/enroll`), {
      clientId: st.client.id,
      payAtDesk: true,
    });
    expect(desk.status, desk.text).toBe(200);
    const visitId = desk.body.visit.id as string;
    const me = await sessionClient(app, st.client.id);
    const options = await me.post(v4(st.studio, 'client-visits/pay-options'), { clientVisitId: visitId });
    expect(options.status, options.text).toBe(200);
    expect(options.body.held).toEqual([
      {
        kind: 'pass',
        id: st.mainPass,
        name: { en: { value: '10 classes' }, pl: { value: 'Karnet 10' } },
        entriesLeft: 10,
        expiresAt: null,
      },
    ]);

    // An empty pass of theirs does not cover it: 409, nothing changes.
    const empty = await st.addPass(st.client.id, 0);
    const noEntries = await me.post(v4(st.studio, 'client-visits/pay-with-pass'), {
      clientVisitId: visitId,
      clientPricingOptionId: empty,
    });
    expect(noEntries.status, noEntries.text).toBe(409);
    expect(noEntries.body.error).toMatchObject({ key: 'visit.passDoesNotCover', code: 2272 });
    expect(noEntries.body.error.fields.clientPricingOptionId).toBeDefined();
    // Someone else's pass: 400 on the field.
    const other = await st.addClient(true, 'Other');
    const notMine = await me.post(v4(st.studio, 'client-visits/pay-with-pass'), {
      clientVisitId: visitId,
      clientPricingOptionId: other.passId,
    });
    expect(notMine.status, notMine.text).toBe(400);
    expect(notMine.body.error.fields.clientPricingOptionId).toBeDefined();

    const paid = await me.post(v4(st.studio, 'client-visits/pay-with-pass'), {
      clientVisitId: visitId,
      clientPricingOptionId: st.mainPass,
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({
      id: visitId,
      status: 0,
      payment: 'pass',
      pass: { id: st.mainPass },
      payable: false,
    });
    const twice = await me.post(v4(st.studio, 'client-visits/pay-with-pass'), { clientVisitId: visitId });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({
      key: 'visit.alreadyPaid',
      message: 'this visit is already paid',
    });
  });

  it('401, 400, 403, 404 (another client, another studio)', async () => {
    const { st, owner, visitId } = await deskBooking();
    const anonymous = await app.anonymous();
    for (const path of ['client-visits/pay-options', 'client-visits/pay-with-pass']) {
      const res = await anonymous.post(v4(st.studio, path), { clientVisitId: visitId });
      expect(res.status, path).toBe(401);
    }
    const me = await sessionClient(app, st.client.id);
    for (const path of ['client-visits/pay-options', 'client-visits/pay-with-pass']) {
      const bad = await me.post(v4(st.studio, path), { clientVisitId: 'x', extra: 1 });
      expect(bad.status, path).toBe(400);
      expect(bad.body.error.fields.clientVisitId, path).toBeDefined();
      // A visit of another client of the same studio.
      const notMine = await me.post(v4(st.studio, path), { clientVisitId: visitId });
      expect(notMine.status, path).toBe(404);
      // Staff are not clients here.
      const staff = await owner.post(v4(st.studio, path), { clientVisitId: visitId });
      expect(staff.status, path).toBe(403);
    }
    const cart = await me.post(v4(st.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: st.optionId, forVisitId: visitId }],
    });
    expect(cart.status).toBe(404);

    // Another studio's client: 404 on this studio's URLs, and this visit is unknown on theirs.
    const elsewhere = await bookingStudio(app, START);
    const them = await sessionClient(app, elsewhere.client.id);
    for (const path of ['client-visits/pay-options', 'client-visits/pay-with-pass']) {
      const here = await them.post(v4(st.studio, path), { clientVisitId: visitId });
      expect(here.status, path).toBe(404);
      const there = await them.post(v4(elsewhere.studio, path), { clientVisitId: visitId });
      expect(there.status, path).toBe(404);
    }
    const theirCart = await them.post(v4(elsewhere.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: elsewhere.optionId, forVisitId: visitId }],
    });
    expect(theirCart.status).toBe(404);
    // Nothing was changed by any of it.
    expect((await app.knex('client_visits').where({ id: visitId }).first())!.status).toBe(9);
  });
});
