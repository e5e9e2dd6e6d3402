import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';
import { api, createOption, lt } from './catalog-fixtures';

// Sunday 22 November 2026, 13:00 in Warsaw.
const NOW = new Date('2026-11-22T12:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });

const { ownerStudio, staffWithRole } = studioSessions(() => app);

async function sell(owner: HttpClient, studio: Studio, userId: string, optionId: string) {
  const res = await owner.post(
    `/api/v2/${studio.id}/clients/${userId}/client-pricing-options/${optionId}`,
    {},
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

describe('front office price list (POST pricing/pricing-options)', () => {
  it('shows options sold online by category with the promotional price; hides the rest', async () => {
    const { studio, owner } = await ownerStudio();
    const later = await owner.post(api(studio, 'pricing-option-category'), {
      name: lt('Later'),
      position: 2,
    });
    const first = await owner.post(api(studio, 'pricing-option-category'), {
      name: lt('First'),
      position: 1,
    });
    const empty = await owner.post(api(studio, 'pricing-option-category'), {
      name: lt('Empty'),
      position: 3,
    });
    expect(empty.status).toBe(201);
    const promoted = await createOption(owner, studio, { categoryId: first.body.id, name: lt('Promo pass') });
    const promo = await owner.post(api(studio, `pricing-option/${promoted.id}/promotion`), {
      price: 25000,
      startsOn: '2026-11-20',
      endsOn: '2026-11-30',
    });
    expect(promo.status, promo.text).toBe(201);
    await createOption(owner, studio, { categoryId: later.body.id, name: lt('Open pass'), entries: null });
    await createOption(owner, studio, { name: lt('Loose pass') });
    await createOption(owner, studio, { name: lt('Desk only'), sellOnline: false });
    const archived = await createOption(owner, studio, { name: lt('Old pass') });
    await owner.patch(api(studio, `pricing-option/${archived.id}`), { archived: true });
    await createOption(owner, studio, {
      name: lt('Past date'),
      expirationType: 4,
      validityCount: null,
      validityUnit: null,
      validUntil: '2026-11-01',
    });

    const visitor = await app.anonymous();
    const res = await visitor.post(api(studio, 'pricing/pricing-options'), {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.currency).toBe('PLN');
    expect(res.body.categories.map((g: any) => g.category.name.en.value)).toEqual(['First', 'Later']);
    expect(res.body.categories[0].items).toEqual([
      expect.objectContaining({
        id: promoted.id,
        price: 32000,
        currentPrice: 25000,
        promotionEndsOn: '2026-11-30',
      }),
    ]);
    expect(res.body.categories[1].items[0]).toMatchObject({ entries: null, promotionEndsOn: null });
    expect(res.body.uncategorized.map((o: any) => o.name.en.value)).toEqual(['Loose pass']);
    // Nothing internal leaves for visitors.
    expect(res.body.categories[0].items[0]).not.toHaveProperty('taxId');
    expect(res.body.categories[0].items[0]).not.toHaveProperty('restrictions');
    expect(res.text).not.toContain('Desk only');
    expect(res.text).not.toContain('Old pass');
    expect(res.text).not.toContain('Past date');

    const filtered = await visitor.post(api(studio, 'pricing/pricing-options'), {
      categoryId: later.body.id,
    });
    expect(filtered.body.categories.map((g: any) => g.category.name.en.value)).toEqual(['Later']);
    expect(filtered.body.uncategorized).toEqual([]);
  });

  it('400 on bad input, 404 for an unknown studio', async () => {
    const { studio } = await ownerStudio();
    const visitor = await app.anonymous();
    const bad = await visitor.post(api(studio, 'pricing/pricing-options'), { categoryId: 'x', extra: 1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['categoryId']));
    const unknown = await visitor.post(api({ id: uuidv7() }, 'pricing/pricing-options'), {});
    expect(unknown.status).toBe(404);
  });
});

describe('front office my passes (POST passes)', () => {
  it('lists my passes and those a linked account shared with me, with the owner', async () => {
    const { studio, owner, client } = await ownerStudio();
    const shareable = await createOption(owner, studio, { shareable: true, name: lt('Family pass') });
    const mine = await sell(owner, studio, client.id, shareable.id);
    const partner = await createUser(app.knex, { firstName: 'Ola', lastName: 'Partner' });
    await addMembership(app.knex, studio, partner, { isClient: true });
    await app.knex('user_account_links').insert({
      id: uuidv7(),
      userId: partner.id,
      linkedUserId: client.id,
      relationship: 'spouse',
    });
    const shared = await owner.post(api(studio, `client-pricing-option/${mine.id}/share`), {
      userId: partner.id,
    });
    expect(shared.status, shared.text).toBe(200);

    const me = await app.signedIn(client.email, client.password);
    const own = await me.post(api(studio, 'passes'), {});
    expect(own.status, own.text).toBe(200);
    expect(own.body.own).toEqual([
      expect.objectContaining({ id: mine.id, status: 1, entriesLeft: 10, entriesUsed: 0, shareable: true }),
    ]);
    expect(own.body.sharedWithMe).toEqual([]);
    // Whom "Share" offers: the linked accounts that are clients here.
    expect(own.body.shareCandidates).toEqual([{ userId: partner.id, firstName: 'Ola', lastName: 'Partner' }]);

    const partnerClient = await app.signedIn(partner.email, partner.password);
    const theirs = await partnerClient.post(api(studio, 'passes'), {});
    expect(theirs.status).toBe(200);
    expect(theirs.body.own).toEqual([]);
    expect(theirs.body.shareCandidates).toEqual([
      { userId: client.id, firstName: 'Kamil', lastName: 'Client' },
    ]);
    expect(theirs.body.sharedWithMe).toEqual([
      expect.objectContaining({
        id: mine.id,
        owner: { userId: client.id, firstName: 'Kamil', lastName: 'Client' },
      }),
    ]);
  });

  it('401 signed out, 403 staff who are not clients, 404 a client of another studio, 400 a body', async () => {
    const { studio, owner, client } = await ownerStudio();
    expect((await (await app.anonymous()).post(api(studio, 'passes'), {})).status).toBe(401);
    expect((await owner.post(api(studio, 'passes'), {})).status).toBe(403);
    const other = await ownerStudio();
    const stranger = await app.signedIn(other.client.email, other.client.password);
    expect((await stranger.post(api(studio, 'passes'), {})).status).toBe(404);
    const me = await app.signedIn(client.email, client.password);
    expect((await me.post(api(studio, 'passes'), { userId: other.client.id })).status).toBe(400);
  });
});

describe('pass visits (GET client-pricing-option/{id}/visit/collection)', () => {
  it('answers the visits a pass paid for, newest first, with the class; 401/403/404 and tenancy', async () => {
    const { studio, owner, client } = await ownerStudio();
    const opt = await createOption(owner, studio);
    const pass = await sell(owner, studio, client.id, opt.id);
    const path = api(studio, `client-pricing-option/${pass.id}/visit/collection`);
    const none = await owner.get(path);
    expect(none.status, none.text).toBe(200);
    expect(none.body).toEqual({ items: [], next: null });

    // Two visits paid with the pass: one attended yesterday, one cancelled early (gives the entry back).
    const locationId = uuidv7();
    const serviceId = uuidv7();
    await app.knex('locations').insert({ id: locationId, studioId: studio.id, name: 'Centrum' });
    await app.knex('class_services').insert({
      id: serviceId,
      studioId: studio.id,
      name: lt('Morning yoga', 'Joga poranna'),
      durationMinutes: 60,
    });
    const visit = async (startsAt: string, status: number) => {
      const eventId = uuidv7();
      await app.knex('schedule_events').insert({
        id: eventId,
        studioId: studio.id,
        classServiceId: serviceId,
        locationId,
        startsAt: new Date(startsAt),
        endsAt: new Date(new Date(startsAt).getTime() + 3_600_000),
        capacity: 10,
      });
      const id = uuidv7();
      await app.knex('client_visits').insert({
        id,
        studioId: studio.id,
        scheduleEventId: eventId,
        clientId: client.id,
        startsAt: new Date(startsAt),
        status,
        payment: 'pass',
        clientPricingOptionId: pass.id,
        bookedBy: 'staff',
        bookedAt: NOW,
      });
      return id;
    };
    const attended = await visit('2026-11-21T08:00:00Z', 1);
    const cancelled = await visit('2026-11-20T08:00:00Z', 3);
    const res = await owner.get(path);
    expect(res.status, res.text).toBe(200);
    // The class's name in the staff member's language (none set: the studio's default, Polish).
    expect(res.body.items).toEqual([
      {
        id: attended,
        startsAt: '2026-11-21T08:00:00.000Z',
        status: 1,
        name: 'Joga poranna',
        usesEntry: true,
      },
      expect.objectContaining({ id: cancelled, status: 3, usesEntry: false }),
    ]);
    // The pass's entries derive from the same facts: one used, nine left.
    const passes = await owner.get(api(studio, `client/${client.id}/client-pricing-option/all`));
    expect(passes.body.items[0]).toMatchObject({ id: pass.id, entriesUsed: 1, entriesLeft: 9 });
    // Instructors check passes at the door (clients.view); a role without it gets 403.
    expect((await (await staffWithRole(studio, 'instructor')).get(path)).status).toBe(200);
    const noRole = await staffWithRole(studio, 'nothing');
    expect((await noRole.get(path)).status).toBe(403);
    expect((await (await app.anonymous()).get(path)).status).toBe(401);
    expect((await owner.get(api(studio, `client-pricing-option/${uuidv7()}/visit/collection`))).status).toBe(
      404,
    );
    expect((await owner.get(api(studio, 'client-pricing-option/nope/visit/collection'))).status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path });
  });
});

describe('manager tool pass finder (GET manager-tools/client-pricing-option/collection)', () => {
  it('lists passes of an option by derived status with their clients, for the bulk change', async () => {
    const { studio, owner, client } = await ownerStudio();
    const opt = await createOption(owner, studio);
    const firstVisit = await createOption(owner, studio, { expirationType: 1, name: lt('First visit') });
    const active = await sell(owner, studio, client.id, opt.id);
    const waiting = await sell(owner, studio, client.id, firstVisit.id);

    const list = await owner.get(
      api(studio, `manager-tools/client-pricing-option/collection?pricingOptionId=${opt.id}`),
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        id: active.id,
        status: 1,
        client: { userId: client.id, firstName: 'Kamil', lastName: 'Client' },
      }),
    ]);
    expect(list.body.truncated).toBe(false);
    const notActivated = await owner.get(
      api(studio, 'manager-tools/client-pricing-option/collection?status=notActivated'),
    );
    expect(notActivated.body.items.map((p: any) => p.id)).toEqual([waiting.id]);
    const all = await owner.get(api(studio, 'manager-tools/client-pricing-option/collection?status=all'));
    expect(all.body.items.map((p: any) => p.id).sort()).toEqual([active.id, waiting.id].sort());
    // The bulk change then takes these ids.
    const bulk = await owner.post(api(studio, 'manager-tools/client-pricing-option-bulk-change'), {
      clientPricingOptionIds: list.body.items.map((p: any) => p.id),
      extendDays: 7,
      note: 'studio closed',
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.changed).toBe(1);
  });

  it('400 bad filters, 401, 403 without settings.edit, 404 another studio’s option', async () => {
    const { studio, owner } = await ownerStudio();
    const path = api(studio, 'manager-tools/client-pricing-option/collection');
    const bad = await owner.get(`${path}?status=sleeping&pricingOptionId=x`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['query.pricingOptionId', 'query.status']);
    expect((await (await app.anonymous()).get(path)).status).toBe(401);
    expect((await (await staffWithRole(studio, 'front_desk')).get(path)).status).toBe(403);
    const other = await ownerStudio();
    const foreign = await createOption(other.owner, other.studio, { name: lt('Secret pass') });
    const res = await owner.get(`${path}?pricingOptionId=${foreign.id}`);
    expect(res.status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path });
  });
});

describe('voucher redemptions (GET voucher/{voucher}/redemption/collection)', () => {
  it('lists a voucher’s redemptions newest first with client and staff, in pages', async () => {
    const { studio, owner, client, manager } = await ownerStudio();
    const tax = await owner.post(api(studio, 'tax'), { name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A' });
    expect(tax.status, tax.text).toBe(201);
    const product = await owner.post(api(studio, 'product'), {
      name: 'Water',
      price: 500,
      taxId: tax.body.id,
    });
    expect(product.status, product.text).toBe(201);
    const voucher = await owner.post(api(studio, 'voucher'), {
      code: 'MULTI-1',
      type: 1,
      discountType: 'amount',
      value: 100,
      appliesTo: 'all',
    });
    expect(voucher.status, voucher.text).toBe(201);
    for (const reference of ['r1', 'r2', 'r3']) {
      const redeemed = await owner.post(api(studio, 'retail/voucher-redeem'), {
        code: 'multi-1',
        clientId: client.id,
        lines: [{ productId: product.body.id, quantity: 2 }],
        reference,
      });
      expect(redeemed.status, redeemed.text).toBe(200);
    }
    const path = api(studio, `voucher/${voucher.body.id}/redemption/collection`);
    const page = await owner.get(`${path}?limit=2`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.items.map((r: any) => r.reference)).toEqual(['r3', 'r2']);
    expect(page.body.items[0]).toMatchObject({
      useNumber: 3,
      client: { userId: client.id, firstName: 'Kamil', lastName: 'Client' },
      redeemedBy: { userId: manager.id, firstName: 'Maria', lastName: 'Manager' },
      basketTotal: 1000,
      discount: 100,
      currency: 'PLN',
    });
    const rest = await owner.get(`${path}?limit=2&cursor=${page.body.next}`);
    expect(rest.body.items.map((r: any) => r.reference)).toEqual(['r1']);
    expect(rest.body.next).toBeNull();
  });

  it('400 bad paging, 401, 403 without sales.view, 404 unknown or another studio’s voucher', async () => {
    const { studio, owner } = await ownerStudio();
    const voucher = await owner.post(api(studio, 'voucher'), {
      type: 0,
      discountType: 'percentage',
      value: 1000,
      appliesTo: 'all',
      description: 'Secret voucher',
    });
    const path = api(studio, `voucher/${voucher.body.id}/redemption/collection`);
    expect((await owner.get(`${path}?limit=0&cursor=x`)).status).toBe(400);
    expect((await (await app.anonymous()).get(path)).status).toBe(401);
    expect((await (await staffWithRole(studio, 'instructor')).get(path)).status).toBe(403);
    expect((await owner.get(api(studio, `voucher/${uuidv7()}/redemption/collection`))).status).toBe(404);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path }, ['Secret voucher']);
  });
});
