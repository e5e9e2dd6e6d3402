import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { PaymentMethod } from '../../../../shared/enums';
import { createStudioScenario } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';
import { addVat23, addWater } from '../sales/sales-support';

const clock = new ManualClock(new Date('2026-11-23T08:00:00Z'));
const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-8);
const later = (minutes: number) => clock.set(new Date(clock.now().getTime() + minutes * 60_000));

async function stationStudio() {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const vat = await addVat23(app, studio);
  const waterId = await addWater(app, studio, vat);
  const locationId = uuidv7();
  await app.knex('locations').insert({ id: locationId, studioId: studio.id, name: 'Centrum' });
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  return { ...scenario, owner, waterId, locationId };
}

const { staffWithRole: staff } = studioSessions(() => app);

async function addDevice(studio: Studio, name = 'Desk PC') {
  const id = uuidv7();
  await app.knex('sync_devices').insert({
    id,
    studioId: studio.id,
    name,
    tokenHash: 'x'.repeat(64),
    scope: JSON.stringify({}),
  });
  return id;
}

async function addPos(owner: HttpClient, studio: Studio, body: Record<string, unknown> = {}) {
  const res = await owner.post(api(studio, 'studio-pos'), {
    name: 'Front desk',
    slug: `desk-${unique()}`,
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; slug: string; [k: string]: any };
}

async function sellWater(http: HttpClient, studio: Studio, slug: string, quantity: number, cash: number) {
  const res = await http.post(
    api(studio, 'retail/checkout'),
    {
      clientId: null,
      items: [
        {
          type: 'product',
          id: (await app.knex('products').where({ studioId: studio.id }).first())!.id,
          quantity,
        },
      ],
      payments: [{ method: PaymentMethod.cash, amount: cash }],
      stationSlug: slug,
    },
    { headers: { 'idempotency-key': `shift-${uuidv7()}` } },
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { saleId: string; orders: Array<{ id: string }>; change: number };
}

describe('studio-pos routes: who may call them', () => {
  it('answers 401 without a session', async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio);
    const anon = await app.anonymous();
    for (const [method, path, body] of [
      ['GET', 'studio-pos/collection', undefined],
      ['GET', 'studio-pos/init', undefined],
      ['POST', 'studio-pos', { name: 'A', slug: 'a' }],
      ['POST', `studio-pos/${pos.id}/unassign`, {}],
      ['POST', `studio-pos/${pos.id}/shift/open`, { float: 0 }],
    ] as const) {
      const res = await anon.request(method, api(s.studio, path), body);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('answers 400 with every invalid field', async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio);
    let res = await s.owner.post(api(s.studio, 'studio-pos'), { name: '  ', slug: 'has space', extra: 1 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['extra', 'name', 'slug']);

    res = await s.owner.post(api(s.studio, 'studio-pos'), { name: 'X', slug: 'collection' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.slug).toBeDefined();

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: -1 });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.float).toBeDefined();

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 12.5 });
    expect(res.status).toBe(400);

    const open = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 100 });
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${open.body.id}/cash`), {
      kind: 'sideways',
      amount: 0,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['amount', 'kind']);

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${open.body.id}/close`), {});
    expect(res.status).toBe(400);
    expect(res.body.error.fields.counted).toBeDefined();

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/assign`), { deviceId: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.deviceId).toBeDefined();
  });

  it('403: the front desk runs the till but cannot set stations up; an instructor cannot do either', async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio);
    const desk = await staff(s.studio, 'front_desk');
    const instructor = await staff(s.studio, 'instructor');

    expect((await desk.get(api(s.studio, 'studio-pos/collection'))).status).toBe(200);
    expect((await desk.get(api(s.studio, 'studio-pos/init'))).status).toBe(403);
    expect(
      (await desk.post(api(s.studio, 'studio-pos'), { name: 'Bar', slug: `bar-${unique()}` })).status,
    ).toBe(403);
    expect((await desk.post(api(s.studio, `studio-pos/${pos.id}/unassign`), {})).status).toBe(403);
    const opened = await desk.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 5000 });
    expect(opened.status).toBe(201);
    expect(opened.body.openedBy).toBe('Staff front_desk');

    for (const [method, path, body] of [
      ['GET', 'studio-pos/collection', undefined],
      ['GET', `studio-pos/${pos.id}/shift/current`, undefined],
      ['POST', `studio-pos/${pos.id}/shift/${opened.body.id}/cash`, { kind: 'in', amount: 100 }],
      ['POST', `studio-pos/${pos.id}/shift/${opened.body.id}/close`, { counted: 5000 }],
    ] as const) {
      const res = await instructor.request(method, api(s.studio, path), body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Nothing happened to the shift.
    const current = await desk.get(api(s.studio, `studio-pos/${pos.id}/shift/current`));
    expect(current.body.shift).toMatchObject({ status: 'open', cashIn: 0 });
  });

  it("404: another studio's session sees none of its stations or shifts", async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio, { name: 'Secret till' });
    const device = await addDevice(s.studio);
    const shift = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 100 });
    const requests = [
      { method: 'GET', path: api(s.studio, 'studio-pos/collection') },
      { method: 'GET', path: api(s.studio, 'studio-pos/init') },
      { method: 'POST', path: api(s.studio, 'studio-pos'), body: { name: 'X', slug: 'x' } },
      { method: 'POST', path: api(s.studio, `studio-pos/${pos.id}/assign`), body: { deviceId: device } },
      { method: 'POST', path: api(s.studio, `studio-pos/${pos.id}/unassign`), body: {} },
      { method: 'GET', path: api(s.studio, `studio-pos/${pos.id}/shift/current`) },
      { method: 'POST', path: api(s.studio, `studio-pos/${pos.id}/shift/open`), body: { float: 1 } },
      { method: 'GET', path: api(s.studio, `studio-pos/${pos.id}/shift/${shift.body.id}`) },
      {
        method: 'POST',
        path: api(s.studio, `studio-pos/${pos.id}/shift/${shift.body.id}/cash`),
        body: { kind: 'in', amount: 5 },
      },
      {
        method: 'POST',
        path: api(s.studio, `studio-pos/${pos.id}/shift/${shift.body.id}/close`),
        body: { counted: 1 },
      },
    ] as const;
    for (const request of requests)
      await expectHiddenFromOtherStudio(app, request, ['Secret till', pos.slug]);

    // Its own ids used in another studio's paths are unknown there too.
    const other = await stationStudio();
    const otherDevice = await addDevice(other.studio);
    const res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/assign`), { deviceId: otherDevice });
    expect(res.status).toBe(404);
    const foreignPos = await addPos(other.owner, other.studio);
    const res2 = await s.owner.get(api(s.studio, `studio-pos/${foreignPos.id}/shift/current`));
    expect(res2.status).toBe(404);
  });
});

describe('stations', () => {
  it('creates, lists, assigns to a desktop station, moves and unassigns', async () => {
    const s = await stationStudio();
    const init = await s.owner.get(api(s.studio, 'studio-pos/init'));
    expect(init.status).toBe(200);
    expect(init.body.locations).toEqual([{ id: s.locationId, name: 'Centrum' }]);

    const a = await addPos(s.owner, s.studio, { name: 'Reception', locationId: s.locationId });
    const b = await addPos(s.owner, s.studio, { name: 'Bar' });
    expect(a).toMatchObject({
      location: { name: 'Centrum' },
      device: null,
      fiscalPrinter: false,
      openShift: null,
    });

    const clash = await s.owner.post(api(s.studio, 'studio-pos'), { name: 'Again', slug: a.slug });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({
      code: 2350,
      key: 'studioPos.slugTaken',
      fields: { slug: ['taken'] },
    });

    const device = await addDevice(s.studio, 'Reception PC');
    let res = await s.owner.post(api(s.studio, `studio-pos/${a.id}/assign`), { deviceId: device });
    expect(res.status, res.text).toBe(200);
    expect(res.body.device).toMatchObject({ id: device, name: 'Reception PC' });
    expect(res.body.assignedAt).toBe(clock.now().toISOString());

    // One device runs one POS: assigning it to the bar frees the reception.
    res = await s.owner.post(api(s.studio, `studio-pos/${b.id}/assign`), { deviceId: device });
    expect(res.body.device.id).toBe(device);
    const list = await s.owner.get(api(s.studio, 'studio-pos/collection'));
    expect(list.body.items.map((p: any) => [p.name, p.device?.id ?? null])).toEqual([
      ['Bar', device],
      ['Reception', null],
    ]);
    const devices = (await s.owner.get(api(s.studio, 'studio-pos/init'))).body.devices;
    expect(devices).toEqual([{ id: device, name: 'Reception PC', lastSeenAt: null, posId: b.id }]);

    res = await s.owner.post(api(s.studio, `studio-pos/${b.id}/unassign`), {});
    expect(res.body).toMatchObject({ device: null, assignedAt: null });

    // A revoked device cannot be assigned.
    await app.knex('sync_devices').where({ id: device }).update({ revokedAt: new Date() });
    res = await s.owner.post(api(s.studio, `studio-pos/${a.id}/assign`), { deviceId: device });
    expect(res.status).toBe(404);
  });
});

describe('shifts', () => {
  it('open with a float, a cash sale, cash in and out, a refund, close with a difference', async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio);
    const shiftId = uuidv7();
    let res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), {
      id: shiftId,
      float: 20000,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: shiftId, status: 'open', float: 20000, expected: 20000 });

    // A second open is refused; the same id again (a replay) is the same shift.
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 2351, key: 'shift.alreadyOpen' });
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { id: shiftId, float: 20000 });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(shiftId);

    later(5);
    // 3 × 5 zł paid with a 20 zł note: 15 zł stays in the drawer, 5 zł change.
    const sale = await sellWater(s.owner, s.studio, pos.slug, 3, 2000);
    expect(sale.change).toBe(500);
    // A sale at another till or with no station does not count.
    await sellWater(s.owner, s.studio, `other-${unique()}`, 1, 500);

    later(5);
    const cashIn = uuidv7();
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/cash`), {
      id: cashIn,
      kind: 'in',
      amount: 5000,
      reason: 'coins from the bank',
    });
    expect(res.status, res.text).toBe(200);
    // Replayed: counted once.
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/cash`), {
      id: cashIn,
      kind: 'in',
      amount: 5000,
    });
    expect(res.body.cashIn).toBe(5000);

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/cash`), {
      kind: 'out',
      amount: 100_000,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 2353, fields: { amount: ['notEnoughCash'] } });
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/cash`), {
      kind: 'out',
      amount: 3000,
      reason: 'safe drop',
    });
    expect(res.body).toMatchObject({ cashIn: 5000, cashOut: 3000, cashSales: 1500 });
    expect(res.body.movements.map((m: any) => [m.kind, m.amount, m.reason])).toEqual([
      ['in', 5000, 'coins from the bank'],
      ['out', 3000, 'safe drop'],
    ]);

    // A cash refund of one bottle comes out of the drawer.
    const payment = await app.knex('client_order_payments').where({ orderId: sale.orders[0]!.id }).first();
    await app.knex('client_order_refunds').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      orderId: sale.orders[0]!.id,
      paymentId: payment!.id,
      amount: 500,
      status: 'success',
      createdAt: clock.now(),
      updatedAt: clock.now(),
    });

    later(60);
    res = await s.owner.get(api(s.studio, `studio-pos/${pos.id}/shift/current`));
    // 200 + 15 − 5 + 50 − 30 = 230 zł
    expect(res.body.shift).toMatchObject({
      cashSales: 1500,
      cashRefunds: 500,
      expected: 23000,
      sales: 1,
      byMethod: [{ method: PaymentMethod.cash, amount: 1500 }],
    });
    const listed = await s.owner.get(api(s.studio, 'studio-pos/collection'));
    expect(listed.body.items[0].openShift).toMatchObject({ id: shiftId, openedBy: 'Maria Manager' });

    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/close`), {
      counted: 22800,
      note: 'two coins short',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'closed',
      expected: 23000,
      counted: 22800,
      difference: -200,
      closedBy: 'Maria Manager',
      note: 'two coins short',
    });

    // Closing again with the same count is a replay; with another it is refused; so is cash.
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/close`), {
      counted: 22800,
    });
    expect(res.body.difference).toBe(-200);
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/close`), { counted: 1 });
    expect(res.body.error).toMatchObject({ code: 2352, key: 'shift.closed' });
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/cash`), {
      kind: 'in',
      amount: 1,
    });
    expect(res.status).toBe(409);

    // A sale after the close does not change what the closed shift reads.
    later(1);
    await sellWater(s.owner, s.studio, pos.slug, 1, 500);
    res = await s.owner.get(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}`));
    expect(res.body).toMatchObject({ expected: 23000, difference: -200, cashSales: 1500, lateCashSales: 0 });
    expect((await s.owner.get(api(s.studio, `studio-pos/${pos.id}/shift/current`))).body.shift).toBeNull();

    // The next shift starts from zero sales (one sold between shifts belongs to neither).
    later(1);
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), { float: 22800 });
    expect(res.body).toMatchObject({ cashSales: 0, expected: 22800 });
  });

  it('a station replays a shift it ran offline: its own times, sales recorded meanwhile count, late ones shown apart', async () => {
    const s = await stationStudio();
    const pos = await addPos(s.owner, s.studio);
    const openedAt = new Date(clock.now().getTime() - 3 * 3_600_000);
    const shiftId = uuidv7();
    // A sale the station made while offline reaches the cloud with its own time.
    const sale = await sellWater(s.owner, s.studio, pos.slug, 2, 1000);
    await app
      .knex('retail_sales')
      .where({ id: sale.saleId })
      .update({ createdAt: new Date(openedAt.getTime() + 60_000) });

    let res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), {
      id: shiftId,
      float: 10000,
      openedAt: openedAt.toISOString(),
    });
    expect(res.body).toMatchObject({ openedAt: openedAt.toISOString(), cashSales: 1000, expected: 11000 });
    const closedAt = new Date(openedAt.getTime() + 2 * 3_600_000);
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}/close`), {
      counted: 11000,
      closedAt: closedAt.toISOString(),
      dailyReport: 'printed',
    });
    expect(res.body).toMatchObject({
      closedAt: closedAt.toISOString(),
      difference: 0,
      dailyReport: 'printed',
    });

    // Another offline sale of that shift arrives after the close: the close stands, the late cash shows.
    const late = await sellWater(s.owner, s.studio, pos.slug, 1, 500);
    await app
      .knex('retail_sales')
      .where({ id: late.saleId })
      .update({ createdAt: new Date(openedAt.getTime() + 90 * 60_000) });
    res = await s.owner.get(api(s.studio, `studio-pos/${pos.id}/shift/${shiftId}`));
    expect(res.body).toMatchObject({ expected: 11000, difference: 0, lateCashSales: 500 });

    // A time in the future is the server's now.
    res = await s.owner.post(api(s.studio, `studio-pos/${pos.id}/shift/open`), {
      float: 0,
      openedAt: '2099-01-01T00:00:00Z',
    });
    expect(res.body.openedAt).toBe(clock.now().toISOString());
  });
});
