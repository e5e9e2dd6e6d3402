import { describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import { productsTestApp } from './testing/products-kit';

const { app, api, unique, ownerStudio, staffWithRole, post, addPricingOption } = productsTestApp();

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
    const second = await createUser(app().knex);
    await addMembership(app().knex, studio, second, { isClient: true });
    const other = await owner.post(api(studio, 'retail/voucher-redeem'), {
      code: perClient.code,
      lines,
      clientId: second.id,
    });
    expect(other.status).toBe(200);
    const third = await createUser(app().knex);
    await addMembership(app().knex, studio, third, { isClient: true });
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
      const rows = await app().knex('voucher_redemptions').where({ voucherId: voucher.id });
      expect(rows).toHaveLength(1);
    }
  });
});
