import { describe, expect, it } from 'vitest';
import { productsTestApp } from './testing/products-kit';

const { app, api, ownerStudio, staffWithRole, post } = productsTestApp();

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
    expect(await app().knex('products').where({ studioId: studio.id }).count('* as n')).toEqual([{ n: 1 }]);
  });

  it('a tax or category of another studio is 404 and nothing is written', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const otherCategory = await post(other.owner, other.studio, 'product-category', { name: 'Theirs' });
    const a = await owner.post(api(studio, 'product'), { name: 'X', price: 1, taxId: other.vat23 });
    const b = await owner.post(api(studio, 'product'), { name: 'X', price: 1, categoryId: otherCategory.id });
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(await app().knex('products').where({ studioId: studio.id }).first()).toBeUndefined();
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
