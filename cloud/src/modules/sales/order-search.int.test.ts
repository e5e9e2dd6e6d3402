import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderListSchema } from '../../../../shared/contracts/api/sales-views';
import { OrderStatus } from '../../../../shared/enums';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { api, orderInStatus, salesStudio } from './sales-support';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/**
 * The orders list's search term (issue 27: the matching clients are found first, then their orders):
 * by the client's name (any case, diacritics folded), e-mail or phone, or by the order number.
 */
describe('orders list: search term', () => {
  it("finds a client's orders by name without diacritics, by e-mail and by number; another studio's namesake stays out", async () => {
    const s = await salesStudio(app);
    const other = await salesStudio(app);
    const client = async (studio: typeof s.studio, firstName: string, lastName: string) => {
      const user = await createUser(app.knex, { firstName, lastName });
      await addMembership(app.knex, studio, user, { isClient: true });
      return user;
    };
    const lukasz = await client(s.studio, 'Łukasz', 'Wiśniewski');
    const anna = await client(s.studio, 'Anna', 'Nowak');
    const namesake = await client(other.studio, 'Łukasz', 'Wiśniewski');
    const lukaszOrders = [
      await orderInStatus(app, s.studio, lukasz.id, OrderStatus.paid),
      await orderInStatus(app, s.studio, lukasz.id, OrderStatus.unpaid),
    ];
    const annaOrder = await orderInStatus(app, s.studio, anna.id, OrderStatus.paid);
    await orderInStatus(app, other.studio, namesake.id, OrderStatus.paid);

    const search = async (q: string) => {
      const res = await s.owner.get(api(s.studio, `client-order/all?q=${encodeURIComponent(q)}`));
      expect(res.status, res.text).toBe(200);
      return OrderListSchema.parse(res.body).items.map((o) => o.id);
    };
    // Newest first, as the list without a term.
    expect(await search('lukasz wisn')).toEqual([...lukaszOrders].reverse());
    expect(await search('WIŚNIEWSKI')).toEqual([...lukaszOrders].reverse());
    expect(await search(anna.email.slice(0, 12))).toEqual([annaOrder]);
    expect(await search(annaOrder.slice(-8))).toEqual([annaOrder]);
    expect(await search(annaOrder.slice(-8).toUpperCase())).toEqual([annaOrder]);
    expect(await search('nobody-like-this')).toEqual([]);
    // A page and the next one, cut from the matches.
    const first = await s.owner.get(api(s.studio, 'client-order/all?q=lukasz&limit=1'));
    expect(first.body.items.map((o: { id: string }) => o.id)).toEqual([lukaszOrders[1]]);
    const next = await s.owner.get(
      api(s.studio, `client-order/all?q=lukasz&limit=1&cursor=${first.body.next}`),
    );
    expect(next.body.items.map((o: { id: string }) => o.id)).toEqual([lukaszOrders[0]]);
    expect(next.body.next).toBeNull();
  });
});
