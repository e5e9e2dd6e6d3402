import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import { choosePassForVisit } from '../../../../shared/domain/entitlements';
import type { Studio } from '../identity/rows';
import { api, createOption, lt, tenEntries } from './catalog-fixtures';
import { passCandidatesFor } from './client-pricing-options.service';

// Sunday 22 November 2026, 13:00 in Warsaw.
const NOW = new Date('2026-11-22T12:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const { ownerStudio, staffWithRole } = studioSessions(() => app);

async function sell(owner: HttpClient, studio: Studio, userId: string, optionId: string, body = {}) {
  return owner.post(`/api/v2/${studio.id}/clients/${userId}/client-pricing-options/${optionId}`, body);
}

describe('pricing options and categories', () => {
  it('creates options in categories with tax, validity, restrictions; lists flat and categorized', async () => {
    const { studio, owner } = await ownerStudio();
    const tax = await owner.post(api(studio, 'tax'), {
      name: 'VAT 8%',
      rateBp: 800,
      fiscalSlot: 'B',
      isDefault: true,
    });
    const category = await owner.post(api(studio, 'pricing-option-category'), {
      name: lt('Passes', 'Karnety'),
    });
    expect(category.status, category.text).toBe(201);
    const location = uuidv7();
    await app.knex('locations').insert({ id: location, studioId: studio.id, name: 'Centrum' });

    const option = await createOption(owner, studio, {
      categoryId: category.body.id,
      restrictions: {
        locationIds: [location],
        timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 960 }],
      },
      sellOnline: false,
      limitPerClient: 1,
    });
    // The studio's default tax when none is named.
    expect(option).toMatchObject({
      price: 32000,
      currentPrice: 32000,
      currency: 'PLN',
      taxId: tax.body.id,
      taxRateBp: 800,
      entries: 10,
      validityCount: 30,
      validityUnit: 'day',
      validUntil: null,
      sellAtDesk: true,
      sellOnline: false,
      limitPerClient: 1,
      archived: false,
    });
    expect(option.restrictions).toEqual({
      classServiceIds: [],
      locationIds: [location],
      timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 960 }],
      tagIds: [],
    });
    const open = await createOption(owner, studio, {
      name: lt('Open until June'),
      entries: null,
      expirationType: 4,
      validityCount: null,
      validityUnit: null,
      validUntil: '2027-06-30',
    });
    expect(open).toMatchObject({
      entries: null,
      expirationType: 4,
      validUntil: '2027-06-30',
      categoryId: null,
    });

    const all = await owner.get(api(studio, 'pricing-option/all'));
    expect(all.body.items.map((o: any) => o.id)).toEqual([option.id, open.id]);
    const online = await owner.get(api(studio, 'pricing-option/all?channel=online'));
    expect(online.body.items.map((o: any) => o.id)).toEqual([open.id]);
    const categorized = await owner.get(api(studio, 'pricing-option/categorized'));
    expect(categorized.status).toBe(200);
    expect(categorized.body.categories).toHaveLength(1);
    expect(categorized.body.categories[0].items.map((o: any) => o.id)).toEqual([option.id]);
    expect(categorized.body.uncategorized.map((o: any) => o.id)).toEqual([open.id]);

    const init = await owner.get(api(studio, `pricing-option/init?pricingOption=${option.id}`));
    expect(init.status).toBe(200);
    expect(init.body.pricingOption.id).toBe(option.id);
    expect(init.body.taxes.map((t: any) => t.id)).toEqual([tax.body.id]);
    expect(init.body.expirationTypes.map((e: any) => e.value)).toEqual([0, 1, 2, 3, 4]);
    expect(init.body.restrictions.locations).toEqual([{ id: location, name: 'Centrum' }]);
    const restrictions = await owner.get(api(studio, 'pricing-option/restriction/init'));
    expect(restrictions.body.weekdays).toEqual([1, 2, 3, 4, 5, 6, 0]);
  });

  it('edits an option (switching expiration type drops the unused fields) and archives it', async () => {
    const { studio, owner } = await ownerStudio();
    const option = await createOption(owner, studio);
    const monthly = await owner.patch(api(studio, `pricing-option/${option.id}`), {
      expirationType: 3,
      validityCount: 1,
      price: 29900,
    });
    expect(monthly.status, monthly.text).toBe(200);
    expect(monthly.body).toMatchObject({
      expirationType: 3,
      validityCount: 1,
      validityUnit: null,
      price: 29900,
    });
    // Back to sale date without a unit: the unit is required again.
    const missing = await owner.patch(api(studio, `pricing-option/${option.id}`), { expirationType: 0 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.validityUnit).toBeDefined();

    const archived = await owner.patch(api(studio, `pricing-option/${option.id}`), { archived: true });
    expect(archived.body.archived).toBe(true);
    expect((await owner.get(api(studio, 'pricing-option/all'))).body.items).toHaveLength(0);
    expect((await owner.get(api(studio, 'pricing-option/all?archived=only'))).body.items).toHaveLength(1);
  });

  it('400 with every field error; unknown references are field errors too', async () => {
    const { studio, owner } = await ownerStudio();
    const bad = await owner.post(api(studio, 'pricing-option'), {
      name: { en: { value: '' } },
      price: -1,
      entries: 0,
      expirationType: 9,
      serviceTypes: [],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(
      expect.arrayContaining(['name', 'price', 'entries', 'expirationType', 'serviceTypes']),
    );
    const needs = await owner.post(
      api(studio, 'pricing-option'),
      tenEntries({ validityCount: null, validityUnit: null }),
    );
    expect(needs.status).toBe(400);
    expect(Object.keys(needs.body.error.fields).sort()).toEqual(['validityCount', 'validityUnit']);
    const window = await owner.post(
      api(studio, 'pricing-option'),
      tenEntries({ restrictions: { timeWindows: [{ weekdays: [1], fromMinutes: 600, toMinutes: 600 }] } }),
    );
    expect(window.status).toBe(400);
    expect(window.body.error.fields['restrictions.timeWindows.0.toMinutes']).toBeDefined();

    const other = await ownerStudio();
    const foreignTax = await other.owner.post(api(other.studio, 'tax'), {
      name: 'VAT',
      rateBp: 2300,
      fiscalSlot: 'A',
    });
    const refs = await owner.post(
      api(studio, 'pricing-option'),
      tenEntries({
        taxId: foreignTax.body.id,
        categoryId: uuidv7(),
        restrictions: { classServiceIds: [uuidv7()] },
      }),
    );
    expect(refs.status).toBe(400);
    expect(Object.keys(refs.body.error.fields).sort()).toEqual([
      'categoryId',
      'restrictions.classServiceIds',
      'taxId',
    ]);
    expect(await app.knex('pricing_options').where({ studioId: studio.id })).toHaveLength(0);
  });

  it('promotions: a price for a period, shown as the current price while it runs; overlaps refused', async () => {
    const { studio, owner } = await ownerStudio();
    const option = await createOption(owner, studio);
    const promo = await owner.post(api(studio, `pricing-option/${option.id}/promotion`), {
      price: 25000,
      startsOn: '2026-11-20',
      endsOn: '2026-11-30',
    });
    expect(promo.status, promo.text).toBe(201);
    const later = await owner.post(api(studio, `pricing-option/${option.id}/promotion`), {
      price: 27000,
      startsOn: '2026-12-01',
      endsOn: '2026-12-24',
    });
    expect(later.status).toBe(201);
    const overlap = await owner.post(api(studio, `pricing-option/${option.id}/promotion`), {
      price: 1,
      startsOn: '2026-11-30',
      endsOn: '2026-12-02',
    });
    expect(overlap.status).toBe(409);
    const backwards = await owner.post(api(studio, `pricing-option/${option.id}/promotion`), {
      price: 1,
      startsOn: '2027-01-02',
      endsOn: '2027-01-01',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.fields.endsOn).toBeDefined();

    const init = await owner.get(api(studio, `pricing-option/${option.id}/promotion/init`));
    expect(init.body).toMatchObject({ price: 32000, currentPrice: 25000 });
    expect(init.body.promotions.map((p: any) => p.startsOn)).toEqual(['2026-11-20', '2026-12-01']);

    expect(
      (await owner.delete(api(studio, `pricing-option/${option.id}/promotion/${promo.body.id}`))).status,
    ).toBe(204);
    const after = await owner.get(api(studio, `pricing-option/${option.id}`));
    expect(after.body.currentPrice).toBe(32000);
  });

  it('401, 403 by role (front desk reads, cannot edit; instructor cannot read)', async () => {
    const { studio, owner } = await ownerStudio();
    const option = await createOption(owner, studio);
    expect((await (await app.anonymous()).get(api(studio, 'pricing-option/all'))).status).toBe(401);
    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.get(api(studio, 'pricing-option/categorized'))).status).toBe(200);
    expect((await desk.patch(api(studio, `pricing-option/${option.id}`), { price: 1 })).status).toBe(403);
    expect((await desk.post(api(studio, 'pricing-option'), tenEntries())).status).toBe(403);
    expect((await desk.post(api(studio, 'pricing-option-category'), { name: lt('X') })).status).toBe(403);
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(api(studio, 'pricing-option/all'))).status).toBe(403);
    expect((await instructor.get(api(studio, 'pricing-option-category/all'))).status).toBe(403);
    const row = await app.knex('pricing_options').where({ id: option.id }).first();
    expect(row!.price).toBe(32000);
  });

  it('selling a pass at another price than the list price needs sales.discount (front desk has only sales.sell)', async () => {
    const { studio, owner } = await ownerStudio();
    const option = await createOption(owner, studio);
    const client = await createUser(app.knex, { firstName: 'Cheap', lastName: 'Buyer' });
    await addMembership(app.knex, studio, client, { isClient: true });
    const desk = await staffWithRole(studio, 'front_desk');
    for (const price of [1, 40000]) {
      const refused = await sell(desk, studio, client.id, option.id, { price });
      expect(refused.status, `price ${price}`).toBe(403);
      expect(refused.body.error.fields.price[0]).toMatch(/sales\.discount/);
    }
    expect(await app.knex('client_pricing_options').where({ clientId: client.id }).first()).toBeUndefined();
    // The list price, said or implied, is a plain sale.
    expect((await sell(desk, studio, client.id, option.id, { price: 32000 })).status).toBe(201);
    expect((await sell(desk, studio, client.id, option.id)).status).toBe(201);
    // A manager (holding sales.discount) gives the discount.
    const manager = await staffWithRole(studio, 'manager');
    const discounted = await sell(manager, studio, client.id, option.id, { price: 1 });
    expect(discounted.status).toBe(201);
    const paid = await app.knex('client_pricing_options').where({ clientId: client.id }).pluck('price_paid');
    expect(paid.sort((a: number, b: number) => a - b)).toEqual([1, 32000, 32000]);
  });

  it("hides a studio's options, categories and promotions from another studio", async () => {
    const { studio, owner } = await ownerStudio();
    const option = await createOption(owner, studio, { name: lt('Secret pass') });
    const category = await owner.post(api(studio, 'pricing-option-category'), { name: lt('Secret cat') });
    const promo = await owner.post(api(studio, `pricing-option/${option.id}/promotion`), {
      price: 1,
      startsOn: '2026-12-01',
      endsOn: '2026-12-02',
    });
    for (const request of [
      { method: 'GET' as const, path: api(studio, 'pricing-option/all') },
      { method: 'GET' as const, path: api(studio, 'pricing-option/categorized') },
      { method: 'GET' as const, path: api(studio, 'pricing-option/init') },
      { method: 'GET' as const, path: api(studio, 'pricing-option/restriction/init') },
      { method: 'GET' as const, path: api(studio, 'pricing-option-category/all') },
      { method: 'GET' as const, path: api(studio, `pricing-option/${option.id}`) },
      { method: 'GET' as const, path: api(studio, `pricing-option/${option.id}/promotion/init`) },
      { method: 'PATCH' as const, path: api(studio, `pricing-option/${option.id}`), body: { price: 1 } },
      {
        method: 'PATCH' as const,
        path: api(studio, `pricing-option-category/${category.body.id}`),
        body: { position: 3 },
      },
      {
        method: 'DELETE' as const,
        path: api(studio, `pricing-option/${option.id}/promotion/${promo.body.id}`),
      },
    ])
      await expectHiddenFromOtherStudio(app, request, ['Secret pass']);
    // Ids of this studio inside another studio's own paths are unknown there.
    const other = await ownerStudio();
    expect((await other.owner.get(api(other.studio, `pricing-option/${option.id}`))).status).toBe(404);
    expect(
      (await other.owner.get(api(other.studio, `pricing-option/init?pricingOption=${option.id}`))).status,
    ).toBe(404);
  });
});

describe('client pricing options', () => {
  async function passScenario(optionOver: Record<string, unknown> = {}) {
    const s = await ownerStudio();
    const option = await createOption(s.owner, s.studio, optionOver);
    const sold = await sell(s.owner, s.studio, s.client.id, option.id);
    expect(sold.status, sold.text).toBe(201);
    return { ...s, option, pass: sold.body };
  }

  it('sells a pass at the current price with its state derived (sale date, entries) and lists it', async () => {
    const { studio, owner, client, pass, option } = await passScenario();
    expect(pass).toMatchObject({
      clientId: client.id,
      pricingOptionId: option.id,
      status: 1,
      pricePaid: 32000,
      activatedAt: NOW.toISOString(),
      lastValidDate: '2026-12-21',
      expiresAt: '2026-12-21T23:00:00.000Z',
      entriesTotal: 10,
      entriesUsed: 0,
      entriesLeft: 10,
      frozenNow: false,
    });
    // The projection the clients list filters on follows.
    const row = await app.knex('client_pricing_options').where({ id: pass.id }).first();
    expect(row!.status).toBe(1);
    expect(row!.expiresAt!.toISOString()).toBe('2026-12-21T23:00:00.000Z');
    const list = await owner.get(api(studio, `client/${client.id}/client-pricing-option/all`));
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: any) => p.id)).toEqual([pass.id]);
    const filtered = await owner.get(api(studio, 'client/collection?hasValidPass=true'));
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.items.map((c: any) => c.id)).toEqual([client.id]);
  });

  it('a first-visit pass is not activated until a visit; limit per client; archived options are not sold', async () => {
    const { studio, owner, client, pass, option } = await passScenario({
      expirationType: 1,
      limitPerClient: 1,
    });
    expect(pass).toMatchObject({ status: 2, activatedAt: null, expiresAt: null, lastValidDate: null });
    const second = await sell(owner, studio, client.id, option.id);
    expect(second.status).toBe(409);
    const other = await createOption(owner, studio, { name: lt('Old') });
    await owner.patch(api(studio, `pricing-option/${other.id}`), { archived: true });
    expect((await sell(owner, studio, client.id, other.id)).status).toBe(409);
  });

  it('staff extend, freeze and change entries: state follows, one audit row per change', async () => {
    const { studio, owner, pass, manager } = await passScenario();
    const changed = await owner.patch(api(studio, `client-pricing-option/${pass.id}`), {
      extendDays: 7,
      freeze: { from: '2026-12-01', to: '2026-12-10' },
      entriesDelta: 2,
      note: 'injury',
    });
    expect(changed.status, changed.text).toBe(200);
    // 21 Dec + 7 days + 10 frozen days.
    expect(changed.body).toMatchObject({ lastValidDate: '2027-01-07', entriesTotal: 12, entriesLeft: 12 });
    expect(changed.body.freezes).toEqual([{ from: '2026-12-01', to: '2026-12-10' }]);

    const init = await owner.get(api(studio, `client-pricing-option/${pass.id}/init`));
    expect(init.status).toBe(200);
    expect(init.body.canEdit).toBe(true);
    expect(init.body.changes.map((c: any) => c.kind).sort()).toEqual(['entries', 'extend', 'freeze']);
    expect(init.body.changes[0]).toMatchObject({ note: 'injury', actor: { id: manager.id }, bulk: false });

    const tooFew = await owner.patch(api(studio, `client-pricing-option/${pass.id}`), { entriesDelta: -13 });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.error.fields.entriesDelta).toBeDefined();
    const nothing = await owner.patch(api(studio, `client-pricing-option/${pass.id}`), { note: 'x' });
    expect(nothing.status).toBe(400);
    const badFreeze = await owner.patch(api(studio, `client-pricing-option/${pass.id}`), {
      freeze: { from: '2026-12-10', to: '2026-12-01' },
      extendDays: 0,
    });
    expect(badFreeze.status).toBe(400);
    expect(Object.keys(badFreeze.body.error.fields).sort()).toEqual(['extendDays', 'freeze.to']);
    expect(
      await app.knex('client_pricing_option_changes').where({ clientPricingOptionId: pass.id }),
    ).toHaveLength(3);
  });

  it('manager bulk change: every pass or none', async () => {
    const { studio, owner, option, pass, client } = await passScenario();
    const second = (await sell(owner, studio, client.id, option.id)).body;
    const unlimited = await createOption(owner, studio, { entries: null, name: lt('Open') });
    const open = (await sell(owner, studio, client.id, unlimited.id)).body;

    const refused = await owner.post(api(studio, 'manager-tools/client-pricing-option-bulk-change'), {
      clientPricingOptionIds: [pass.id, open.id],
      entriesDelta: 1,
    });
    expect(refused.status).toBe(400);
    expect(
      await app.knex('client_pricing_option_changes').whereIn('client_pricing_option_id', [pass.id, open.id]),
    ).toHaveLength(0);

    const done = await owner.post(api(studio, 'manager-tools/client-pricing-option-bulk-change'), {
      clientPricingOptionIds: [pass.id, second.id, open.id],
      extendDays: 14,
      note: 'studio closed for renovation',
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.changed).toBe(3);
    const list = await owner.get(api(studio, `client/${client.id}/client-pricing-option/all`));
    for (const p of list.body.items) expect(p.lastValidDate).toBe('2027-01-04');

    const foreign = await ownerStudio();
    const foreignOption = await createOption(foreign.owner, foreign.studio);
    const foreignPass = (await sell(foreign.owner, foreign.studio, foreign.client.id, foreignOption.id)).body;
    const mixed = await owner.post(api(studio, 'manager-tools/client-pricing-option-bulk-change'), {
      clientPricingOptionIds: [pass.id, foreignPass.id],
      extendDays: 1,
    });
    expect(mixed.status).toBe(404);
    const desk = await staffWithRole(studio, 'front_desk');
    const deskBulk = await desk.post(api(studio, 'manager-tools/client-pricing-option-bulk-change'), {
      clientPricingOptionIds: [pass.id],
      extendDays: 1,
    });
    expect(deskBulk.status).toBe(403);
  });

  it('shares a shareable pass with a linked account who is a client; shown as shared-for-me', async () => {
    const { studio, owner, client, pass, option } = await passScenario({ shareable: true, shareLimit: 1 });
    const partner = await createUser(app.knex, { firstName: 'Ola', lastName: 'Partner' });
    await addMembership(app.knex, studio, partner, { isClient: true });
    const stranger = await createUser(app.knex, { firstName: 'Obcy', lastName: 'Stranger' });
    await addMembership(app.knex, studio, stranger, { isClient: true });

    const notLinked = await owner.post(api(studio, `client-pricing-option/${pass.id}/share`), {
      userId: partner.id,
    });
    expect(notLinked.status).toBe(400);
    await app.knex('user_account_links').insert({
      id: uuidv7(),
      userId: partner.id,
      linkedUserId: client.id,
      relationship: 'spouse',
    });
    const init = await owner.get(api(studio, `client-pricing-option/${pass.id}/init`));
    expect(init.body.shareCandidates.map((c: any) => c.userId)).toEqual([partner.id]);
    const shared = await owner.post(api(studio, `client-pricing-option/${pass.id}/share`), {
      userId: partner.id,
    });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.sharedWith).toEqual([{ userId: partner.id, firstName: 'Ola', lastName: 'Partner' }]);
    const forPartner = await owner.get(
      api(studio, `client/${partner.id}/client-pricing-option/shared-for-me`),
    );
    expect(forPartner.body.items.map((p: any) => p.id)).toEqual([pass.id]);
    const forStranger = await owner.get(
      api(studio, `client/${stranger.id}/client-pricing-option/shared-for-me`),
    );
    expect(forStranger.body.items).toEqual([]);

    const withdrawn = await owner.post(api(studio, `client-pricing-option/${pass.id}/share`), {
      userId: partner.id,
      shared: false,
    });
    expect(withdrawn.body.sharedWith).toEqual([]);

    await owner.patch(api(studio, `pricing-option/${option.id}`), { shareable: false });
    const notShareable = await owner.post(api(studio, `client-pricing-option/${pass.id}/share`), {
      userId: partner.id,
    });
    expect(notShareable.status).toBe(409);
  });

  it('401, 403 by role: instructor reads passes but cannot change them; front desk sells and edits', async () => {
    const { studio, client, pass, option } = await passScenario();
    const anonymous = await app.anonymous();
    expect((await anonymous.get(api(studio, `client/${client.id}/client-pricing-option/all`))).status).toBe(
      401,
    );
    expect(
      (await anonymous.patch(api(studio, `client-pricing-option/${pass.id}`), { extendDays: 1 })).status,
    ).toBe(401);
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(api(studio, `client/${client.id}/client-pricing-option/all`))).status).toBe(
      200,
    );
    const instructorInit = await instructor.get(api(studio, `client-pricing-option/${pass.id}/init`));
    expect(instructorInit.body.canEdit).toBe(false);
    expect(
      (await instructor.patch(api(studio, `client-pricing-option/${pass.id}`), { extendDays: 1 })).status,
    ).toBe(403);
    expect((await sell(instructor, studio, client.id, option.id)).status).toBe(403);
    const desk = await staffWithRole(studio, 'front_desk');
    expect(
      (await desk.patch(api(studio, `client-pricing-option/${pass.id}`), { extendDays: 1 })).status,
    ).toBe(200);
    expect((await sell(desk, studio, client.id, option.id)).status).toBe(201);
  });

  it("hides a studio's passes from another studio (404) and refuses unknown clients", async () => {
    const { studio, owner, client, pass, option } = await passScenario();
    for (const request of [
      { method: 'GET' as const, path: api(studio, `client/${client.id}/client-pricing-option/all`) },
      {
        method: 'GET' as const,
        path: api(studio, `client/${client.id}/client-pricing-option/shared-for-me`),
      },
      { method: 'GET' as const, path: api(studio, `client-pricing-option/${pass.id}/init`) },
      {
        method: 'PATCH' as const,
        path: api(studio, `client-pricing-option/${pass.id}`),
        body: { extendDays: 1 },
      },
      {
        method: 'POST' as const,
        path: api(studio, `client-pricing-option/${pass.id}/share`),
        body: { userId: client.id },
      },
      {
        method: 'POST' as const,
        path: `/api/v2/${studio.id}/clients/${client.id}/client-pricing-options/${option.id}`,
        body: {},
      },
    ])
      await expectHiddenFromOtherStudio(app, request);
    const other = await ownerStudio();
    expect((await other.owner.get(api(other.studio, `client-pricing-option/${pass.id}/init`))).status).toBe(
      404,
    );
    expect(
      (await other.owner.get(api(other.studio, `client/${client.id}/client-pricing-option/all`))).status,
    ).toBe(404);
    expect((await sell(other.owner, other.studio, other.client.id, option.id)).status).toBe(404);
    expect((await sell(owner, studio, uuidv7(), option.id)).status).toBe(404);
    expect(
      await app.knex('client_pricing_option_changes').where({ clientPricingOptionId: pass.id }),
    ).toHaveLength(0);
  });

  it('feeds the pass-choice rule: own and shared passes, earliest expiry first, a reason when none fits', async () => {
    const { studio, owner, client, option } = await passScenario();
    const week = await createOption(owner, studio, { name: lt('Week'), validityCount: 7 });
    const weekPass = (await sell(owner, studio, client.id, week.id)).body;
    const videoOnly = await createOption(owner, studio, {
      name: lt('Video'),
      serviceTypes: ['videoPricingOption'],
    });
    await sell(owner, studio, client.id, videoOnly.id);
    const candidates = await passCandidatesFor(app.knex, studio, client.id);
    expect(candidates).toHaveLength(3);
    const visit = {
      serviceType: 'classroom' as const,
      serviceId: null,
      locationId: null,
      startsAt: new Date('2026-11-25T17:00:00Z'),
      clientTagIds: [],
    };
    expect(choosePassForVisit(candidates, visit, studio.timeZone)).toMatchObject({
      ok: true,
      passId: weekPass.id,
    });
    // After the week pass ends, the 30-day pass pays.
    const later = choosePassForVisit(
      candidates,
      { ...visit, startsAt: new Date('2026-12-05T17:00:00Z') },
      studio.timeZone,
    );
    expect(later.ok && later.passId).not.toBe(weekPass.id);
    expect(later).toMatchObject({ ok: true });
    const farLater = choosePassForVisit(
      candidates,
      { ...visit, startsAt: new Date('2027-02-01T17:00:00Z') },
      studio.timeZone,
    );
    expect(farLater).toMatchObject({ ok: false, reason: 'expired' });
    expect(option.id).toBeTruthy();
  });
});
