import { beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import type { Studio } from '../identity/rows';
import { productsTestApp } from './testing/products-kit';

const { app, api, unique, ownerStudio, staffWithRole, post } = productsTestApp();

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
    const anonymous = await app().anonymous();
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
    const clientUser = await createUser(app().knex);
    await addMembership(app().knex, fixture.studio, clientUser, { isClient: true });
    const asClient = await app().signedIn(clientUser.email, clientUser.password);
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
      app(),
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
