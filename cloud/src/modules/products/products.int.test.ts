import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';

let app: TestApp;
// 23:30 UTC on 22 November is already 23 November in Warsaw (UTC+1): validity runs on studio days.
const NOW = new Date('2026-11-22T23:30:00Z');
const clock = new ManualClock(NOW);

beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(async () => app?.close());

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-8);

async function addTax(
  studio: Studio,
  rateBp: number | null,
  slot: string,
  isDefault = false,
): Promise<string> {
  const id = uuidv7();
  await app.knex('taxes').insert({
    id,
    studioId: studio.id,
    name: rateBp === null ? 'zw.' : `VAT ${rateBp / 100}%`,
    rateBp,
    fiscalSlot: slot,
    isDefault,
  });
  return id;
}

/** A studio with its owner signed in and two tax rates (23 % default in A, 8 % in B). */
async function ownerStudio() {
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const vat23 = await addTax(scenario.studio, 2300, 'A', true);
  const vat8 = await addTax(scenario.studio, 800, 'B');
  return { ...scenario, owner, vat23, vat8 };
}

async function staffWithRole(studio: Studio, role: string): Promise<HttpClient> {
  const user = await createUser(app.knex, { firstName: 'Staff', lastName: role });
  await addMembership(app.knex, studio, user, { isMember: true, role });
  return app.signedIn(user.email, user.password);
}

async function post(client: HttpClient, studio: Studio, path: string, body: unknown, status = 201) {
  const res = await client.post(api(studio, path), body);
  expect(res.status, res.text).toBe(status);
  return res.body;
}

async function addPricingOption(studio: Studio, price: number): Promise<string> {
  const id = uuidv7();
  await app
    .knex('pricing_options')
    .insert({ id, studioId: studio.id, name: { en: { value: '10 entries' } }, price });
  return id;
}

// ------------------------------------------------------------------------------------ route table

interface Fixture {
  studio: Studio;
  productId: string;
  categoryId: string;
  voucherId: string;
  voucherCode: string;
}

type RouteCase = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** A default role without the route's ability. */
  deniedRole: string;
  /** Names the first studio's ids: the other studio in its own studio gets 404 for them too. */
  foreign?: true;
  /** A body or query the route refuses, and the fields it must name. */
  bad?: { path?: (f: Fixture) => string; body?: unknown; fields: string[] };
};

const ROUTES: RouteCase[] = [
  {
    name: 'product collection',
    method: 'GET',
    path: () => 'product/collection',
    deniedRole: 'instructor',
    bad: { path: () => 'product/collection?status=gone&limit=0', fields: ['query.limit', 'query.status'] },
  },
  { name: 'product categorized', method: 'GET', path: () => 'product/categorized', deniedRole: 'instructor' },
  { name: 'product init', method: 'GET', path: () => 'product/init', deniedRole: 'instructor' },
  {
    name: 'product create',
    method: 'POST',
    path: () => 'product',
    body: () => ({ name: `Water ${unique()}`, price: 500 }),
    deniedRole: 'front_desk',
    bad: { body: { name: ' ', price: -1, barcode: '5901234123458' }, fields: ['barcode', 'name', 'price'] },
  },
  {
    name: 'product detail',
    foreign: true,
    method: 'GET',
    path: (f) => `product/${f.productId}`,
    deniedRole: 'instructor',
  },
  {
    name: 'product edit',
    foreign: true,
    method: 'PATCH',
    path: (f) => `product/${f.productId}`,
    body: () => ({ price: 650 }),
    deniedRole: 'front_desk',
    bad: { body: { price: 1.5, trackStock: 'yes' }, fields: ['price', 'trackStock'] },
  },
  {
    name: 'product archive',
    foreign: true,
    method: 'DELETE',
    path: (f) => `product/${f.productId}`,
    deniedRole: 'accountant',
  },
  {
    name: 'stock movements',
    foreign: true,
    method: 'GET',
    path: (f) => `product/${f.productId}/stock-movement/collection`,
    deniedRole: 'instructor',
    bad: { path: (f) => `product/${f.productId}/stock-movement/collection?limit=x`, fields: ['query.limit'] },
  },
  {
    name: 'stock movement',
    foreign: true,
    method: 'POST',
    path: (f) => `product/${f.productId}/stock-movement`,
    body: () => ({ quantity: 2, reason: 'delivery' }),
    deniedRole: 'front_desk',
    bad: { body: { quantity: 0, reason: 'sale' }, fields: ['quantity', 'reason'] },
  },
  {
    name: 'category collection',
    method: 'GET',
    path: () => 'product-category/collection',
    deniedRole: 'instructor',
  },
  {
    name: 'category create',
    method: 'POST',
    path: () => 'product-category',
    body: () => ({ name: `Cat ${unique()}` }),
    deniedRole: 'front_desk',
    bad: { body: { name: '', position: -3 }, fields: ['name', 'position'] },
  },
  {
    name: 'category edit',
    foreign: true,
    method: 'PATCH',
    path: (f) => `product-category/${f.categoryId}`,
    body: () => ({ position: 2 }),
    deniedRole: 'accountant',
    bad: { body: { name: 5 }, fields: ['name'] },
  },
  {
    name: 'category delete',
    foreign: true,
    method: 'DELETE',
    path: (f) => `product-category/${f.categoryId}`,
    deniedRole: 'front_desk',
  },
  {
    name: 'voucher all',
    method: 'GET',
    path: () => 'voucher/all',
    deniedRole: 'instructor',
    bad: { path: () => 'voucher/all?type=2&status=old', fields: ['query.status', 'query.type'] },
  },
  {
    name: 'voucher restriction init',
    method: 'GET',
    path: () => 'voucher/restriction/init',
    deniedRole: 'instructor',
  },
  {
    name: 'voucher create',
    method: 'POST',
    path: () => 'voucher',
    body: () => ({ type: 1, discountType: 'amount', value: 1000, appliesTo: 'all' }),
    deniedRole: 'front_desk',
    bad: {
      body: {
        type: 3,
        discountType: 'percentage',
        value: 0,
        appliesTo: 'some',
        code: 'no',
        validFrom: '2026-13-01',
      },
      fields: ['appliesTo', 'code', 'type', 'validFrom', 'value'],
    },
  },
  {
    name: 'voucher detail',
    foreign: true,
    method: 'GET',
    path: (f) => `voucher/${f.voucherId}`,
    deniedRole: 'instructor',
  },
  {
    name: 'voucher edit',
    foreign: true,
    method: 'PATCH',
    path: (f) => `voucher/${f.voucherId}`,
    body: () => ({ description: 'Edited' }),
    deniedRole: 'accountant',
    bad: {
      body: { validFrom: '2026-12-10', validTo: '2026-12-01', discountType: 'percentage', value: 20000 },
      fields: ['validTo', 'value'],
    },
  },
  {
    name: 'voucher delete',
    foreign: true,
    method: 'DELETE',
    path: (f) => `voucher/${f.voucherId}`,
    deniedRole: 'front_desk',
  },
  {
    name: 'voucher redeem',
    foreign: true,
    method: 'POST',
    path: () => 'retail/voucher-redeem',
    body: (f) => ({ code: f.voucherCode, lines: [{ productId: f.productId, quantity: 1 }] }),
    deniedRole: 'accountant',
    bad: { body: { code: 'X', lines: [{ quantity: 0 }] }, fields: ['lines.0.productId', 'lines.0.quantity'] },
  },
];

describe('every products and vouchers route', () => {
  let fixture: Fixture;
  let owner: HttpClient;
  const secrets = ['Secret Sauna Towel', 'Secret shelf', 'SECRETCODE'];

  beforeAll(async () => {
    const s = await ownerStudio();
    owner = s.owner;
    const category = await post(owner, s.studio, 'product-category', { name: `Secret shelf ${unique()}` });
    const product = await post(owner, s.studio, 'product', {
      name: 'Secret Sauna Towel',
      price: 4500,
      categoryId: category.id,
    });
    const voucherCode = `SECRETCODE-${unique().toUpperCase()}`;
    const voucher = await post(owner, s.studio, 'voucher', {
      code: voucherCode,
      type: 1,
      discountType: 'amount',
      value: 1000,
      appliesTo: 'all',
    });
    fixture = {
      studio: s.studio,
      productId: product.id,
      categoryId: category.id,
      voucherId: voucher.id,
      voucherCode,
    };
  });

  it.each(ROUTES)('$method $name: 401 without a session', async (route) => {
    const anonymous = await app.anonymous();
    const res = await anonymous.request(
      route.method,
      api(fixture.studio, route.path(fixture)),
      route.body?.(fixture),
    );
    expect(res.status).toBe(401);
    expect(res.body.error.key).toBe('auth.required');
  });

  it.each(ROUTES.filter((r) => r.bad))('$method $name: 400 names every bad field', async (route) => {
    const bad = route.bad!;
    const path = bad.path ? bad.path(fixture) : route.path(fixture);
    const res = await owner.request(route.method, api(fixture.studio, path), bad.body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.key).toBe('request.invalid');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(bad.fields);
  });

  it.each(ROUTES)('$method $name: 403 for a client and for a role without the ability', async (route) => {
    const clientUser = await createUser(app.knex);
    await addMembership(app.knex, fixture.studio, clientUser, { isClient: true });
    const asClient = await app.signedIn(clientUser.email, clientUser.password);
    const res = await asClient.request(
      route.method,
      api(fixture.studio, route.path(fixture)),
      route.body?.(fixture),
    );
    expect(res.status).toBe(403);
    const denied = await staffWithRole(fixture.studio, route.deniedRole);
    const res2 = await denied.request(
      route.method,
      api(fixture.studio, route.path(fixture)),
      route.body?.(fixture),
    );
    expect(res2.status, res2.text).toBe(403);
    expect(res2.body.error.key).toBe('auth.forbidden');
    for (const secret of secrets) expect(res2.text).not.toContain(secret);
  });

  it.each(ROUTES)('$method $name: 404 for another studio, even with its own uuid', async (route) => {
    await expectHiddenFromOtherStudio(
      app,
      { method: route.method, path: api(fixture.studio, route.path(fixture)), body: route.body?.(fixture) },
      secrets,
    );
    if (route.foreign) {
      const other = await ownerStudio();
      const res = await other.owner.request(
        route.method,
        api(other.studio, route.path(fixture)),
        route.body?.(fixture),
      );
      expect(res.status, `${route.name} with foreign ids: ${res.text}`).toBe(404);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
  });

  it('the other studio sees none of the first one in its lists', async () => {
    const other = await ownerStudio();
    for (const path of [
      'product/collection?status=all',
      'product/collection?q=sauna',
      'product/categorized',
      'product/init',
      'product-category/collection',
      'voucher/all?status=all',
      'voucher/restriction/init',
    ]) {
      const res = await other.owner.get(api(other.studio, path));
      expect(res.status, path).toBe(200);
      for (const secret of secrets) expect(res.text, path).not.toContain(secret);
    }
  });

  it('success for the roles that hold the ability: front desk reads and redeems', async () => {
    const desk = await staffWithRole(fixture.studio, 'front_desk');
    expect((await desk.get(api(fixture.studio, 'product/collection'))).status).toBe(200);
    expect((await desk.get(api(fixture.studio, 'voucher/all'))).status).toBe(200);
    const redeem = await desk.post(api(fixture.studio, 'retail/voucher-redeem'), {
      code: fixture.voucherCode.toLowerCase(),
      lines: [{ productId: fixture.productId, quantity: 2 }],
    });
    expect(redeem.status, redeem.text).toBe(200);
    expect(redeem.body).toMatchObject({ basketTotal: 9000, discount: 1000, totalAfterDiscount: 8000 });
  });
});

// ------------------------------------------------------------------------------------- products

describe('products', () => {
  it('creates a product with the default tax, a valid barcode and initial stock; reads it back', async () => {
    const { studio, owner, vat23 } = await ownerStudio();
    const drinks = await post(owner, studio, 'product-category', { name: 'Drinks' });
    const created = await post(owner, studio, 'product', {
      name: '  Still water 0.5 l ',
      description: 'Cold',
      categoryId: drinks.id,
      price: 500,
      trackStock: true,
      initialStock: 24,
      barcode: '5901-2341-2345-7',
      sku: 'WATER-05',
    });
    expect(created).toMatchObject({
      name: 'Still water 0.5 l',
      category: { id: drinks.id, name: 'Drinks' },
      price: 500,
      currency: 'PLN',
      tax: { id: vat23, rateBp: 2300, fiscalSlot: 'A' },
      trackStock: true,
      stock: 24,
      barcode: '5901234123457',
      sku: 'WATER-05',
      status: 'active',
    });
    const detail = await owner.get(api(studio, `product/${created.id}`));
    expect(detail.body).toEqual(created);
    const movements = await owner.get(api(studio, `product/${created.id}/stock-movement/collection`));
    expect(movements.body.items).toMatchObject([
      { quantity: 24, reason: 'initial', createdBy: { firstName: 'Maria' } },
    ]);
  });

  it('refuses a wrong check digit (400) and a barcode or SKU another product has (409), any case', async () => {
    const { studio, owner } = await ownerStudio();
    const wrong = await owner.post(api(studio, 'product'), { name: 'Mat', price: 9900, barcode: '96385075' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ barcode: ['the check digit is wrong'] });
    await post(owner, studio, 'product', { name: 'Mat', price: 9900, barcode: '96385074', sku: 'mat-1' });
    const sameBarcode = await owner.post(api(studio, 'product'), {
      name: 'Mat 2',
      price: 9900,
      barcode: '9638 5074',
    });
    expect(sameBarcode.status).toBe(409);
    expect(sameBarcode.body.error.fields).toEqual({ barcode: ['another product has this barcode'] });
    const sameSku = await owner.post(api(studio, 'product'), { name: 'Mat 3', price: 9900, sku: 'MAT-1' });
    expect(sameSku.status).toBe(409);
    expect(sameSku.body.error.fields).toHaveProperty('sku');
    // Another studio may use the same barcode.
    const other = await ownerStudio();
    await post(other.owner, other.studio, 'product', { name: 'Mat', price: 9900, barcode: '96385074' });
    expect(await app.knex('products').where({ studioId: studio.id }).count('* as n')).toEqual([{ n: 1 }]);
  });

  it('a tax or category of another studio is 404 and nothing is written', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const otherCategory = await post(other.owner, other.studio, 'product-category', { name: 'Theirs' });
    const a = await owner.post(api(studio, 'product'), { name: 'X', price: 1, taxId: other.vat23 });
    const b = await owner.post(api(studio, 'product'), { name: 'X', price: 1, categoryId: otherCategory.id });
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(await app.knex('products').where({ studioId: studio.id }).first()).toBeUndefined();
  });

  it('stock is the sum of movements and a tracked product cannot go below zero (409)', async () => {
    const { studio, owner } = await ownerStudio();
    const towel = await post(owner, studio, 'product', {
      name: 'Towel',
      price: 2500,
      trackStock: true,
      initialStock: 3,
    });
    const loss = await post(owner, studio, `product/${towel.id}/stock-movement`, {
      quantity: -2,
      reason: 'loss',
      note: 'torn',
    });
    expect(loss.product.stock).toBe(1);
    expect(loss.movement).toMatchObject({ quantity: -2, reason: 'loss', note: 'torn' });
    const tooMany = await owner.post(api(studio, `product/${towel.id}/stock-movement`), {
      quantity: -2,
      reason: 'adjustment',
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.key).toBe('product.stockNegative');
    expect(tooMany.body.error.fields).toEqual({ quantity: ['only 1 in stock'] });
    const untracked = await post(owner, studio, 'product', { name: 'Class water', price: 300 });
    const refused = await owner.post(api(studio, `product/${untracked.id}/stock-movement`), {
      quantity: 5,
      reason: 'delivery',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('product.stockUntracked');
    const history = await owner.get(api(studio, `product/${towel.id}/stock-movement/collection?limit=1`));
    expect(history.body.items.map((m: { quantity: number }) => m.quantity)).toEqual([-2]);
    const older = await owner.get(
      api(studio, `product/${towel.id}/stock-movement/collection?limit=1&cursor=${history.body.next}`),
    );
    expect(older.body.items.map((m: { quantity: number }) => m.quantity)).toEqual([3]);
    expect((await owner.get(api(studio, `product/${towel.id}`))).body.stock).toBe(1);
  });

  it('two simultaneous removals of the last item: one succeeds, one is 409', async () => {
    const { studio, owner } = await ownerStudio();
    const mat = await post(owner, studio, 'product', {
      name: 'Mat',
      price: 9900,
      trackStock: true,
      initialStock: 1,
    });
    const results = await Promise.all(
      [1, 2].map(() =>
        owner.post(api(studio, `product/${mat.id}/stock-movement`), { quantity: -1, reason: 'loss' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await owner.get(api(studio, `product/${mat.id}`))).body.stock).toBe(0);
  });

  it('lists by name with search by name, barcode and SKU, filters and keyset pages', async () => {
    const { studio, owner } = await ownerStudio();
    const drinks = await post(owner, studio, 'product-category', { name: 'Drinks' });
    await post(owner, studio, 'product', {
      name: 'Isotonic',
      price: 800,
      categoryId: drinks.id,
      barcode: '4006381333931',
    });
    await post(owner, studio, 'product', {
      name: 'Water',
      price: 500,
      categoryId: drinks.id,
      trackStock: true,
    });
    await post(owner, studio, 'product', {
      name: 'Yoga mat',
      price: 12000,
      sku: 'MAT-PRO',
      trackStock: true,
      initialStock: 4,
    });
    const old = await post(owner, studio, 'product', { name: 'Old towel', price: 100 });
    expect((await owner.delete(api(studio, `product/${old.id}`))).status).toBe(204);

    const names = async (query: string) =>
      (await owner.get(api(studio, `product/collection${query}`))).body.items.map(
        (p: { name: string }) => p.name,
      );
    expect(await names('')).toEqual(['Isotonic', 'Water', 'Yoga mat']);
    expect(await names('?status=all')).toEqual(['Isotonic', 'Old towel', 'Water', 'Yoga mat']);
    expect(await names('?status=archived')).toEqual(['Old towel']);
    expect(await names('?q=WAT')).toEqual(['Water']);
    expect(await names('?q=4006381333931')).toEqual(['Isotonic']);
    expect(await names('?q=400638')).toEqual(['Isotonic']);
    expect(await names('?q=mat-pro')).toEqual(['Yoga mat']);
    expect(await names('?q=%25')).toEqual([]);
    expect(await names(`?categoryId=${drinks.id}`)).toEqual(['Isotonic', 'Water']);
    expect(await names('?categoryId=none')).toEqual(['Yoga mat']);
    expect(await names('?outOfStock=true')).toEqual(['Water']);
    expect(await names('?outOfStock=false')).toEqual(['Yoga mat']);

    const first = await owner.get(api(studio, 'product/collection?limit=2'));
    expect(first.body.items.map((p: { name: string }) => p.name)).toEqual(['Isotonic', 'Water']);
    const second = await owner.get(api(studio, `product/collection?limit=2&cursor=${first.body.next}`));
    expect(second.body.items.map((p: { name: string }) => p.name)).toEqual(['Yoga mat']);
    expect(second.body.next).toBeNull();
    const badCursor = await owner.get(api(studio, 'product/collection?cursor=nonsense'));
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.fields).toHaveProperty(['query.cursor']);
  });

  it('categorized lists active products per category; init lists taxes and categories', async () => {
    const { studio, owner, vat23, vat8 } = await ownerStudio();
    const gear = await post(owner, studio, 'product-category', { name: 'Gear', position: 2 });
    const drinks = await post(owner, studio, 'product-category', { name: 'Drinks', position: 1 });
    await post(owner, studio, 'product', { name: 'Mat', price: 9900, categoryId: gear.id, taxId: vat8 });
    await post(owner, studio, 'product', { name: 'Water', price: 500, categoryId: drinks.id });
    await post(owner, studio, 'product', { name: 'Gift card', price: 10000 });
    const categorized = await owner.get(api(studio, 'product/categorized'));
    expect(
      categorized.body.categories.map((c: { name: string; products: Array<{ name: string }> }) => [
        c.name,
        c.products.map((p) => p.name),
      ]),
    ).toEqual([
      ['Drinks', ['Water']],
      ['Gear', ['Mat']],
    ]);
    expect(categorized.body.uncategorized.map((p: { name: string }) => p.name)).toEqual(['Gift card']);
    const init = await owner.get(api(studio, 'product/init'));
    expect(init.body).toMatchObject({
      currency: 'PLN',
      defaultTaxId: vat23,
      categories: [{ name: 'Drinks' }, { name: 'Gear' }],
      stockReasons: ['delivery', 'adjustment', 'loss'],
      abilities: { edit: true },
    });
    expect(init.body.taxes.map((t: { rateBp: number }) => t.rateBp)).toEqual([2300, 800]);
    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.get(api(studio, 'product/init'))).body.abilities).toEqual({ edit: false });
    const cats = await owner.get(api(studio, 'product-category/collection'));
    expect(
      cats.body.items.map((c: { name: string; productCount: number }) => [c.name, c.productCount]),
    ).toEqual([
      ['Drinks', 1],
      ['Gear', 1],
    ]);
  });

  it('edits, archives and restores; a category with active products cannot be deleted (409)', async () => {
    const { studio, owner, vat8 } = await ownerStudio();
    const gear = await post(owner, studio, 'product-category', { name: 'Gear' });
    const dup = await owner.post(api(studio, 'product-category'), { name: 'GEAR' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields).toHaveProperty('name');
    const mat = await post(owner, studio, 'product', {
      name: 'Mat',
      price: 9900,
      categoryId: gear.id,
      barcode: '96385074',
    });
    const edited = await owner.patch(api(studio, `product/${mat.id}`), {
      price: 10900,
      taxId: vat8,
      barcode: '',
      sku: 'M1',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ price: 10900, tax: { id: vat8 }, barcode: null, sku: 'M1' });
    const inUse = await owner.delete(api(studio, `product-category/${gear.id}`));
    expect(inUse.status).toBe(409);
    expect((await owner.delete(api(studio, `product/${mat.id}`))).status).toBe(204);
    expect((await owner.get(api(studio, `product/${mat.id}`))).body.status).toBe('archived');
    expect((await owner.delete(api(studio, `product-category/${gear.id}`))).status).toBe(204);
    const restored = await owner.patch(api(studio, `product/${mat.id}`), { archived: false });
    expect(restored.body).toMatchObject({ status: 'active', category: null });
  });
});

// ------------------------------------------------------------------------------------- vouchers

describe('vouchers', () => {
  it('creates with a generated code, reads it back, finds it by code in any case', async () => {
    const { studio, owner } = await ownerStudio();
    const voucher = await post(owner, studio, 'voucher', {
      description: 'Black Friday',
      type: 1,
      discountType: 'percentage',
      value: 1500,
      usageLimitTotal: 100,
      usageLimitPerClient: 1,
      validFrom: '2026-11-23',
      validTo: '2026-11-30',
      appliesTo: 'all',
    });
    expect(voucher.code).toMatch(/^[346789A-Z]{5}-[346789A-Z]{5}$/);
    expect(voucher).toMatchObject({
      type: 1,
      discountType: 'percentage',
      value: 1500,
      currency: 'PLN',
      usageLimitTotal: 100,
      usageLimitPerClient: 1,
      validFrom: '2026-11-23',
      validTo: '2026-11-30',
      usesTotal: 0,
      usesLeft: 100,
      // 23 November already in Warsaw at 23:30 UTC on the 22nd.
      status: 'active',
    });
    expect((await owner.get(api(studio, `voucher/${voucher.id}`))).body).toEqual(voucher);
    const found = await owner.get(api(studio, `voucher/all?q=${voucher.code.slice(0, 4).toLowerCase()}`));
    expect(found.body.items.map((v: { id: string }) => v.id)).toEqual([voucher.id]);
    const byDescription = await owner.get(api(studio, 'voucher/all?q=friday'));
    expect(byDescription.body.items).toHaveLength(1);
  });

  it('codes are unique per studio whatever the case (409)', async () => {
    const { studio, owner } = await ownerStudio();
    const base = { type: 0, discountType: 'amount', value: 2000, appliesTo: 'all' };
    const first = await post(owner, studio, 'voucher', { ...base, code: 'welcome-20' });
    expect(first.code).toBe('WELCOME-20');
    const clash = await owner.post(api(studio, 'voucher'), { ...base, code: 'Welcome-20' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toEqual({ code: ['another voucher has this code'] });
    const other = await ownerStudio();
    await post(other.owner, other.studio, 'voucher', { ...base, code: 'WELCOME-20' });
  });

  it('limits what it applies to; restriction init offers the studio own choices only', async () => {
    const { studio, owner } = await ownerStudio();
    const drinks = await post(owner, studio, 'product-category', { name: 'Drinks' });
    const water = await post(owner, studio, 'product', { name: 'Water', price: 500, categoryId: drinks.id });
    const mat = await post(owner, studio, 'product', { name: 'Mat', price: 10000 });
    const pass = await addPricingOption(studio, 20000);
    const other = await ownerStudio();
    const theirs = await post(other.owner, other.studio, 'product', { name: 'Theirs', price: 1 });

    const init = await owner.get(api(studio, 'voucher/restriction/init'));
    expect(init.body).toMatchObject({
      discountTypes: ['amount', 'percentage'],
      appliesTo: ['all', 'selected'],
      productCategories: [{ id: drinks.id, name: 'Drinks' }],
      pricingOptions: [{ id: pass, name: { en: { value: '10 entries' } } }],
      voucherTypes: [
        { value: 0, labelKey: 'enums:voucherType.0' },
        { value: 1, labelKey: 'enums:voucherType.1' },
      ],
    });
    expect(init.body.products.map((p: { name: string }) => p.name)).toEqual(['Mat', 'Water']);

    const none = await owner.post(api(studio, 'voucher'), {
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'selected',
    });
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({
      appliesTo: ['choose at least one category, product or pricing option'],
    });
    const foreign = await owner.post(api(studio, 'voucher'), {
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'selected',
      productIds: [theirs.id],
    });
    expect(foreign.status).toBe(404);

    const voucher = await post(owner, studio, 'voucher', {
      code: `DRINKS-${unique()}`,
      type: 1,
      discountType: 'percentage',
      value: 5000,
      appliesTo: 'selected',
      productCategoryIds: [drinks.id],
      pricingOptionIds: [pass],
    });
    expect(voucher.targets).toEqual({
      productCategoryIds: [drinks.id],
      productIds: [],
      pricingOptionIds: [pass],
    });
    const redeem = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: voucher.code,
      lines: [{ productId: water.id, quantity: 3 }, { productId: mat.id }, { pricingOptionId: pass }],
    });
    expect(redeem.status, redeem.text).toBe(200);
    // 50 % of water (1500) and the pass (20000), not of the mat.
    expect(redeem.body).toMatchObject({
      basketTotal: 31500,
      eligibleTotal: 21500,
      discount: 10750,
      totalAfterDiscount: 20750,
    });
    const matOnly = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: voucher.code,
      lines: [{ productId: mat.id }],
    });
    expect(matOnly.status).toBe(409);
    expect(matOnly.body.error.key).toBe('voucher.notApplicable');

    // Narrow it to the mat only.
    const edited = await owner.patch(api(studio, `voucher/${voucher.id}`), {
      productCategoryIds: [],
      pricingOptionIds: [],
      productIds: [mat.id],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.targets).toEqual({
      productCategoryIds: [],
      productIds: [mat.id],
      pricingOptionIds: [],
    });
    const emptied = await owner.patch(api(studio, `voucher/${voucher.id}`), { productIds: [] });
    expect(emptied.status).toBe(400);
    expect(emptied.body.error.fields).toHaveProperty('appliesTo');
  });

  it('an amount is capped at the basket; validity runs on studio days; limits per client and in total', async () => {
    const { studio, owner, client } = await ownerStudio();
    const mat = await post(owner, studio, 'product', { name: 'Mat', price: 3000 });
    const lines = [{ productId: mat.id }];
    const big = await post(owner, studio, 'voucher', {
      code: `BIG-${unique()}`,
      type: 1,
      discountType: 'amount',
      value: 5000,
      appliesTo: 'all',
    });
    const capped = await owner.post(api(studio, 'retail/voucher-redeem'), { code: big.code, lines });
    expect(capped.body).toMatchObject({ discount: 3000, totalAfterDiscount: 0, usesLeft: null });

    // Warsaw is on 23 November: a voucher valid until the 22nd has expired, from the 24th not yet valid.
    const ended = await post(owner, studio, 'voucher', {
      code: `END-${unique()}`,
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'all',
      validTo: '2026-11-22',
    });
    const later = await post(owner, studio, 'voucher', {
      code: `LATER-${unique()}`,
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'all',
      validFrom: '2026-11-24',
    });
    const today = await post(owner, studio, 'voucher', {
      code: `TODAY-${unique()}`,
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'all',
      validFrom: '2026-11-23',
      validTo: '2026-11-23',
    });
    expect([ended.status, later.status, today.status]).toEqual(['expired', 'scheduled', 'active']);
    const r1 = await owner.post(api(studio, 'retail/voucher-redeem'), { code: ended.code, lines });
    const r2 = await owner.post(api(studio, 'retail/voucher-redeem'), { code: later.code, lines });
    const r3 = await owner.post(api(studio, 'retail/voucher-redeem'), { code: today.code, lines });
    expect([r1.body.error?.key, r2.body.error?.key, r3.status]).toEqual([
      'voucher.expired',
      'voucher.notYetValid',
      200,
    ]);

    const perClient = await post(owner, studio, 'voucher', {
      code: `ONCE-${unique()}`,
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'all',
      usageLimitTotal: 2,
      usageLimitPerClient: 1,
    });
    const noClient = await owner.post(api(studio, 'retail/voucher-redeem'), { code: perClient.code, lines });
    expect(noClient.status).toBe(400);
    expect(noClient.body.error.key).toBe('voucher.clientRequired');
    expect(noClient.body.error.fields).toHaveProperty('clientId');
    const ok = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: perClient.code,
      lines,
      clientId: client.id,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ useNumber: 1, usesLeft: 1, clientId: client.id });
    const again = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: perClient.code,
      lines,
      clientId: client.id,
    });
    expect(again.body.error.key).toBe('voucher.clientLimitReached');
    const second = await createUser(app.knex);
    await addMembership(app.knex, studio, second, { isClient: true });
    const other = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: perClient.code,
      lines,
      clientId: second.id,
    });
    expect(other.status).toBe(200);
    const third = await createUser(app.knex);
    await addMembership(app.knex, studio, third, { isClient: true });
    const usedUp = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: perClient.code,
      lines,
      clientId: third.id,
    });
    expect(usedUp.status).toBe(409);
    expect(usedUp.body.error.key).toBe('voucher.usedUp');
    expect((await owner.get(api(studio, `voucher/${perClient.id}`))).body).toMatchObject({
      usesTotal: 2,
      usesLeft: 0,
      status: 'usedUp',
    });

    const unknownCode = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: 'NO-SUCH-CODE',
      lines,
    });
    expect(unknownCode.status).toBe(404);
    expect(unknownCode.body.error.fields).toHaveProperty('code');
    const strangerClient = (await ownerStudio()).client;
    const notOurs = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: big.code,
      lines,
      clientId: strangerClient.id,
    });
    expect(notOurs.status).toBe(404);
  });

  it('status filters; delete removes an unused voucher and archives a used one', async () => {
    const { studio, owner } = await ownerStudio();
    const mat = await post(owner, studio, 'product', { name: 'Mat', price: 3000 });
    const base = { discountType: 'amount', value: 100, appliesTo: 'all' };
    const unused = await post(owner, studio, 'voucher', { ...base, type: 1, code: `UNUSED-${unique()}` });
    const single = await post(owner, studio, 'voucher', { ...base, type: 0, code: `SINGLE-${unique()}` });
    const later = await post(owner, studio, 'voucher', {
      ...base,
      type: 1,
      code: `LATER-${unique()}`,
      validFrom: '2027-01-01',
    });
    await post(
      owner,
      studio,
      'retail/voucher-redeem',
      { code: single.code, lines: [{ productId: mat.id }] },
      200,
    );
    const codes = async (query: string) =>
      (await owner.get(api(studio, `voucher/all${query}`))).body.items.map((v: { code: string }) => v.code);
    expect(await codes('')).toEqual([later.code, unused.code]);
    expect(await codes('?status=usedUp')).toEqual([single.code]);
    expect(await codes('?status=scheduled')).toEqual([later.code]);
    expect(await codes('?type=0&status=all')).toEqual([single.code]);
    const page = await owner.get(api(studio, 'voucher/all?status=all&limit=2'));
    const rest = await owner.get(api(studio, `voucher/all?status=all&limit=2&cursor=${page.body.next}`));
    expect([...page.body.items, ...rest.body.items].map((v: { code: string }) => v.code)).toEqual([
      later.code,
      single.code,
      unused.code,
    ]);

    expect((await owner.delete(api(studio, `voucher/${unused.id}`))).status).toBe(204);
    expect((await owner.get(api(studio, `voucher/${unused.id}`))).status).toBe(404);
    expect((await owner.delete(api(studio, `voucher/${single.id}`))).status).toBe(204);
    expect((await owner.get(api(studio, `voucher/${single.id}`))).body.status).toBe('archived');
    expect(await codes('?status=archived')).toEqual([single.code]);
    const restored = await owner.patch(api(studio, `voucher/${single.id}`), { archived: false });
    expect(restored.body.status).toBe('usedUp');
  });

  it('a single-use voucher redeemed twice at the same moment succeeds exactly once', async () => {
    const { studio, owner } = await ownerStudio();
    const desk = await staffWithRole(studio, 'front_desk');
    const mat = await post(owner, studio, 'product', { name: 'Mat', price: 3000 });
    for (let round = 0; round < 3; round += 1) {
      const voucher = await post(owner, studio, 'voucher', {
        code: `GIFT-${round}-${unique()}`,
        type: 0,
        discountType: 'percentage',
        value: 1000,
        appliesTo: 'all',
      });
      const body = { code: voucher.code.toLowerCase(), lines: [{ productId: mat.id }] };
      const results = await Promise.all([
        owner.post(api(studio, 'retail/voucher-redeem'), body),
        desk.post(api(studio, 'retail/voucher-redeem'), body),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = results.find((r) => r.status === 409)!;
      expect(refused.body.error.key).toBe('voucher.usedUp');
      expect(results.find((r) => r.status === 200)!.body).toMatchObject({
        discount: 300,
        useNumber: 1,
        usesLeft: 0,
      });
      const rows = await app.knex('voucher_redemptions').where({ voucherId: voucher.id });
      expect(rows).toHaveLength(1);
    }
  });
});
