import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { KIOSK_SESSION_HEADER } from '../../../../shared/contracts/api/kiosk';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import type { HttpClient } from '../../../../tests/support/http-client';
import { createStudioScenario } from '../../../../tests/support/factories';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { bookingStudio, entriesUsed, sessionClient } from '../bookings/bookings-fixtures';

/**
 * Entry services (issue 22): the routes' rights, input and tenancy, the desk's enrolment with its
 * limits (opening hours, entries a day, capacity at once), a pass entry spent per entry, a client's
 * entries, and entry at the kiosk through an entry service.
 */
const NOW = new Date('2026-11-23T16:30:00Z'); // Monday 17:30 in Warsaw
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });
const v4 = (studioId: string, p: string) => `/api/v4/${studioId}/${p}`;
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });
const WEEKDAYS_6_22 = [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 1320 }];

/** A studio with a location, an entry pass option, and its owner and front desk signed in. */
async function entryStudio() {
  clock.set(NOW);
  const s = await bookingStudio(app, new Date('2026-11-30T17:00:00Z'));
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  const desk = await sessionClient(app, (await s.addStaff('front_desk')).id);
  const entryOption = uuidv7();
  await app.knex('pricing_options').insert({
    id: entryOption,
    studioId: s.studio.id,
    name: JSON.stringify(lt('Gym 10 entries', 'Siłownia 10 wejść')),
    price: 9000,
    entries: 10,
    serviceTypes: JSON.stringify(['entryPricingOption']),
  });
  /** A client with a 10-entry gym pass (or none). */
  const gymClient = async (withPass = true) => {
    const { user } = await s.addClient(false, 'Gym');
    let passId: string | null = null;
    if (withPass) {
      passId = uuidv7();
      await app.knex('client_pricing_options').insert({
        id: passId,
        studioId: s.studio.id,
        clientId: user.id,
        pricingOptionId: entryOption,
        soldAt: new Date('2026-11-01T10:00:00Z'),
        entries: 10,
        expirationType: 2,
      });
    }
    return { user, passId };
  };
  const service = async (over: Record<string, unknown> = {}) => {
    const res = await owner.post(v4(s.studio.id, 'entry-service'), {
      name: lt('Open gym', 'Siłownia'),
      locationId: s.locationId,
      maxEntriesPerDay: 1,
      capacity: 2,
      stayMinutes: 90,
      openingHours: WEEKDAYS_6_22,
      ...over,
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string };
  };
  return { ...s, owner, desk, entryOption, gymClient, service };
}

describe('entry services', () => {
  it('refuses the signed out (401), the roles without the right (403), bad input (400)', async () => {
    const s = await entryStudio();
    const gym = await s.service();
    const anon = await app.anonymous();
    const accountant = await sessionClient(app, (await s.addStaff('accountant')).id);
    const client = await sessionClient(app, s.client.id);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', 'entry-service/init'],
      ['GET', 'entry-service/collection'],
      ['POST', 'entry-service', { name: lt('Sauna') }],
      ['PATCH', `entry-service/${gym.id}`, { capacity: 3 }],
      ['GET', `entry/enrollment/init?clientId=${s.client.id}`],
      ['POST', 'entry/enrollment/enroll', { clientId: s.client.id, entryServiceId: gym.id }],
      ['GET', `client/${s.client.id}/client-entry/collection`],
    ];
    for (const [method, path, body] of routes) {
      expect((await anon.request(method, v4(s.studio.id, path), body)).status, `${method} ${path}`).toBe(401);
      expect((await client.request(method, v4(s.studio.id, path), body)).status, `${method} ${path}`).toBe(
        403,
      );
    }
    // The accountant sees clients but not the schedule; the desk enrols but does not edit services.
    for (const [method, path, body] of routes.slice(0, 6))
      if (!(method === 'GET' && path.startsWith('client/')))
        expect(
          (await accountant.request(method, v4(s.studio.id, path), body)).status,
          `${method} ${path}`,
        ).toBe(403);
    expect((await s.desk.post(v4(s.studio.id, 'entry-service'), { name: lt('Sauna') })).status).toBe(403);
    expect((await s.desk.patch(v4(s.studio.id, `entry-service/${gym.id}`), { capacity: 3 })).status).toBe(
      403,
    );

    const bad = await s.owner.post(v4(s.studio.id, 'entry-service'), {
      name: lt(''),
      capacity: 0,
      stayMinutes: 1,
      openingHours: [{ weekdays: [9], fromMinutes: 600, toMinutes: 500 }],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(
      ['capacity', 'name', 'openingHours.0.toMinutes', 'openingHours.0.weekdays.0', 'stayMinutes'].sort(),
    );
    const badLocation = await s.owner.post(v4(s.studio.id, 'entry-service'), {
      name: lt('X'),
      locationId: uuidv7(),
    });
    expect(badLocation.status).toBe(400);
    expect(badLocation.body.error.fields).toEqual({ locationId: ['unknown location'] });
    const badEnroll = await s.desk.post(v4(s.studio.id, 'entry/enrollment/enroll'), { clientId: 'x' });
    expect(badEnroll.status).toBe(400);
    expect(Object.keys(badEnroll.body.error.fields).sort()).toEqual(['clientId', 'entryServiceId']);
  });

  it('keeps every id to its studio (404)', async () => {
    const s = await entryStudio();
    const gym = await s.service();
    const other = await createStudioScenario(app.knex);
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: v4(s.studio.id, `entry-service/${gym.id}`),
      body: { capacity: 5 },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: v4(s.studio.id, 'entry-service/collection'),
    });
    // Another studio's ids through this studio's path: unknown here.
    expect((await s.owner.patch(v4(s.studio.id, `entry-service/${uuidv7()}`), { capacity: 5 })).status).toBe(
      404,
    );
    const foreign = await s.owner.get(v4(s.studio.id, `entry/enrollment/init?clientId=${other.client.id}`));
    expect(foreign.status).toBe(404);
    expect(
      (await s.owner.get(v4(s.studio.id, `client/${other.client.id}/client-entry/collection`))).status,
    ).toBe(404);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    const cross = await otherOwner.post(v4(other.studio.id, 'entry/enrollment/enroll'), {
      clientId: other.client.id,
      entryServiceId: gym.id,
    });
    expect(cross.status).toBe(404);
    expect(await app.knex('client_entries').where({ entryServiceId: gym.id })).toEqual([]);
  });

  it('enrols at the desk within the limits and spends a pass entry per entry', async () => {
    const s = await entryStudio();
    const gym = await s.service();
    const init = await s.owner.get(v4(s.studio.id, 'entry-service/init'));
    expect(init.body.locations).toEqual([{ id: s.locationId, name: 'Mokotów' }]);
    const a = await s.gymClient();
    const b = await s.gymClient();
    const c = await s.gymClient();
    const noPass = await s.gymClient(false);

    const before = await s.desk.get(v4(s.studio.id, `entry/enrollment/init?clientId=${a.user.id}`));
    expect(before.status, before.text).toBe(200);
    expect(before.body.services).toEqual([
      expect.objectContaining({
        id: gym.id,
        openNow: true,
        insideNow: 0,
        pass: expect.objectContaining({ id: a.passId }),
        refusal: null,
      }),
    ]);

    const enrol = (clientId: string, withoutPass?: boolean) =>
      s.desk.post(v4(s.studio.id, 'entry/enrollment/enroll'), {
        clientId,
        entryServiceId: gym.id,
        withoutPass,
      });
    const first = await enrol(a.user.id);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      source: 'desk',
      pass: { id: a.passId },
      enrolledBy: 'Staff front_desk',
    });
    expect(first.body.leavesAt).toBe(new Date(NOW.getTime() + 90 * 60_000).toISOString());
    expect(await entriesUsed(s.owner, s.studio.id, a.user.id, a.passId!)).toBe(1);

    const again = await enrol(a.user.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 2861, key: 'entry.dailyLimitReached' });

    const none = await enrol(noPass.user.id);
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ key: 'entry.noPassCovers', fields: { clientId: ['noPasses'] } });
    expect((await enrol(noPass.user.id, true)).status).toBe(201);

    const full = await enrol(b.user.id);
    expect(full.status).toBe(409);
    expect(full.body.error).toMatchObject({ code: 2862, key: 'entry.full' });
    const list = await s.owner.get(v4(s.studio.id, 'entry-service/collection'));
    expect(list.body.items[0]).toMatchObject({ id: gym.id, insideNow: 2, entriesToday: 2, openNow: true });

    // 90 minutes later both have left: room again.
    clock.set(new Date(NOW.getTime() + 91 * 60_000));
    expect((await enrol(b.user.id)).status).toBe(201);
    // After 22:00 Warsaw it is closed.
    clock.set(new Date('2026-11-23T21:30:00Z'));
    const closed = await enrol(c.user.id);
    expect(closed.status).toBe(409);
    expect(closed.body.error).toMatchObject({ code: 2860, key: 'entry.closed' });

    // Archived: no longer offered and not enterable.
    clock.set(NOW);
    const archived = await s.owner.patch(v4(s.studio.id, `entry-service/${gym.id}`), { archived: true });
    expect(archived.body.archived).toBe(true);
    expect(
      (await s.desk.get(v4(s.studio.id, `entry/enrollment/init?clientId=${c.user.id}`))).body.services,
    ).toEqual([]);
    expect((await enrol(c.user.id)).body.error.key).toBe('entry.serviceArchived');
  });

  it('sells a day ticket at the desk and lets the client in in one go; refused sales record nothing', async () => {
    const s = await entryStudio();
    const sauna = await s.service({ name: lt('Sauna'), maxEntriesPerDay: 1, openingHours: [] });
    const c = await s.gymClient(false);
    const sell = (who: HttpClient, body: Record<string, unknown> = {}) =>
      who.post(v4(s.studio.id, 'entry/enrollment/enroll'), {
        clientId: c.user.id,
        entryServiceId: sauna.id,
        sale: { method: PaymentMethod.cash },
        ...body,
      });
    // No price yet: not sold on its own.
    const notSold = await sell(s.desk);
    expect(notSold.status).toBe(409);
    expect(notSold.body.error).toMatchObject({ key: 'entry.notForSale', code: 3030 });
    const priced = await s.owner.patch(v4(s.studio.id, `entry-service/${sauna.id}`), {
      price: 3500,
      vatRate: '800',
    });
    expect(priced.body).toMatchObject({ price: 3500, vatRate: '800' });
    const init = await s.desk.get(v4(s.studio.id, `entry/enrollment/init?clientId=${c.user.id}`));
    expect(init.body.services).toEqual([
      expect.objectContaining({ id: sauna.id, price: 3500, refusal: 'noPasses' }),
    ]);
    // A role that may let clients in but not sell: 403 for the sale, nothing recorded.
    const coach = await sessionClient(app, (await s.addStaff('instructor')).id);
    const coachSale = await sell(coach);
    expect(coachSale.status).toBe(403);
    // A wallet without the money: refused, and the client is not let in either.
    const broke = await sell(s.desk, { sale: { method: PaymentMethod.wallet } });
    expect(broke.status).toBe(409);
    expect(await app.knex('client_entries').where({ clientId: c.user.id })).toEqual([]);

    const sold = await sell(s.desk);
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body).toMatchObject({ source: 'desk', pass: null, orderId: expect.any(String) });
    const order = await s.owner.get(v4(s.studio.id, `client-order/${sold.body.orderId}`));
    expect(order.body).toMatchObject({ status: OrderStatus.paid, total: 3500 });
    expect(order.body.lines).toEqual([
      expect.objectContaining({ kind: 'entry', unitPrice: 3500, quantity: 1 }),
    ]);
    expect(order.body.payments).toEqual([
      expect.objectContaining({ method: PaymentMethod.cash, amount: 3500 }),
    ]);
    // The limits still apply to a sold entry: one sauna a day, and nothing is sold the second time.
    const second = await sell(s.desk);
    expect(second.body.error?.key).toBe('entry.dailyLimitReached');
    expect(
      await app.knex('client_orders').where({ studioId: s.studio.id, clientId: c.user.id }),
    ).toHaveLength(1);
    const listed = await s.owner.get(v4(s.studio.id, `client/${c.user.id}/client-entry/collection`));
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: sold.body.id, orderId: sold.body.orderId }),
    ]);
  });

  it("lists a client's entries, newest first, page by page", async () => {
    const s = await entryStudio();
    const gym = await s.service({ maxEntriesPerDay: null, capacity: null, openingHours: [] });
    const a = await s.gymClient();
    for (let i = 0; i < 3; i++) {
      clock.set(new Date(NOW.getTime() + i * 60_000));
      const res = await s.desk.post(v4(s.studio.id, 'entry/enrollment/enroll'), {
        clientId: a.user.id,
        entryServiceId: gym.id,
      });
      expect(res.status).toBe(201);
    }
    const page1 = await s.owner.get(v4(s.studio.id, `client/${a.user.id}/client-entry/collection?limit=2`));
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((e: { enteredAt: string }) => e.enteredAt)).toEqual([
      new Date(NOW.getTime() + 120_000).toISOString(),
      new Date(NOW.getTime() + 60_000).toISOString(),
    ]);
    const page2 = await s.owner.get(
      v4(
        s.studio.id,
        `client/${a.user.id}/client-entry/collection?limit=2&cursor=${encodeURIComponent(page1.body.next)}`,
      ),
    );
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.next).toBeNull();
    const badCursor = await s.owner.get(
      v4(s.studio.id, `client/${a.user.id}/client-entry/collection?cursor=2026-11-23T16:30:00Z_x`),
    );
    expect(badCursor.status).toBe(400);
    expect(await entriesUsed(s.owner, s.studio.id, a.user.id, a.passId!)).toBe(3);
  });

  it('lets a client in at the kiosk through an entry service, counted pass and limits included', async () => {
    const s = await entryStudio();
    const gym = await s.service();
    const a = await s.gymClient();
    const anon = await app.anonymous();
    const auth = await anon.post('/api/v4/auth/kiosk', { uuid: s.studio.id, kioskKey: s.studio.kioskKey });
    const kioskId = auth.body.studioKiosk.guid as string;
    const session = await anon.post(v4(s.studio.id, 'kiosk/session'), {
      kioskId,
      kioskKey: s.studio.kioskKey,
    });
    const kiosk = (path: string, body: unknown) =>
      anon.request('POST', v4(s.studio.id, `kiosk/${path}`), body, {
        headers: { [KIOSK_SESSION_HEADER]: session.body.token },
      });

    const entered = await kiosk('entry', { clientId: a.user.id });
    expect(entered.status, entered.text).toBe(200);
    expect(entered.body).toMatchObject({ outcome: 'entered', className: lt('Open gym', 'Siłownia') });
    const rows = await app.knex('client_entries').where({ entryServiceId: gym.id });
    expect(rows).toEqual([
      expect.objectContaining({
        clientId: a.user.id,
        source: 'kiosk',
        kioskId,
        clientPricingOptionId: a.passId,
      }),
    ]);
    expect(await entriesUsed(s.owner, s.studio.id, a.user.id, a.passId!)).toBe(1);

    const again = await kiosk('entry', { clientId: a.user.id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      key: 'kiosk.noPassCovers',
      fields: { clientId: ['dailyLimitReached'] },
    });
    const unknown = await kiosk('entry', { clientId: a.user.id, entryServiceId: uuidv7() });
    expect(unknown.status).toBe(404);

    const entries = await s.owner.get(v4(s.studio.id, `client/${a.user.id}/client-entry/collection`));
    expect(entries.body.items).toEqual([expect.objectContaining({ source: 'kiosk', enrolledBy: null })]);
  });
});
