import { describe, expect, it } from 'vitest';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';

const app = useTestApp();

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const { ownerStudio, staffWithRole } = studioSessions(() => app);

describe('taxes', () => {
  it('creates, lists in slot order, edits and deletes taxes; one default at a time', async () => {
    const { studio, owner } = await ownerStudio();
    const standard = await owner.post(api(studio, 'tax'), {
      name: 'VAT 23%',
      rateBp: 2300,
      fiscalSlot: 'A',
      isDefault: true,
    });
    expect(standard.status, standard.text).toBe(201);
    expect(standard.body).toMatchObject({ name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A', isDefault: true });
    const exempt = await owner.post(api(studio, 'tax'), { name: 'zw.', rateBp: null, fiscalSlot: 'E' });
    expect(exempt.status, exempt.text).toBe(201);
    expect(exempt.body).toMatchObject({ rateBp: null, isDefault: false });
    const reduced = await owner.post(api(studio, 'tax'), {
      name: 'VAT 8%',
      rateBp: 800,
      fiscalSlot: 'B',
      isDefault: true,
    });
    expect(reduced.status, reduced.text).toBe(201);

    const list = await owner.get(api(studio, 'tax/collection'));
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: any) => [t.fiscalSlot, t.isDefault])).toEqual([
      ['A', false],
      ['B', true],
      ['E', false],
    ]);

    const edited = await owner.patch(api(studio, `tax/${standard.body.id}`), {
      rateBp: 2200,
      name: 'VAT 22%',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ rateBp: 2200, name: 'VAT 22%', fiscalSlot: 'A' });

    const deleted = await owner.delete(api(studio, `tax/${exempt.body.id}`));
    expect(deleted.status).toBe(204);
    const after = await owner.get(api(studio, 'tax/collection'));
    expect(after.body.items.map((t: any) => t.name)).toEqual(['VAT 22%', 'VAT 8%']);
  });

  it('refuses bad input with every field error, and a second tax on the same slot or name (409)', async () => {
    const { studio, owner } = await ownerStudio();
    const bad = await owner.post(api(studio, 'tax'), { name: ' ', rateBp: 12.5, fiscalSlot: 'H' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['fiscalSlot', 'name', 'rateBp']);
    const tooHigh = await owner.post(api(studio, 'tax'), { name: 'x', rateBp: 10001, fiscalSlot: 'A' });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error.fields.rateBp).toBeDefined();

    expect(
      (await owner.post(api(studio, 'tax'), { name: 'VAT 23%', rateBp: 2300, fiscalSlot: 'A' })).status,
    ).toBe(201);
    const sameSlot = await owner.post(api(studio, 'tax'), { name: 'Other', rateBp: 800, fiscalSlot: 'A' });
    expect(sameSlot.status).toBe(409);
    expect(sameSlot.body.error.fields.fiscalSlot).toBeDefined();
    const sameName = await owner.post(api(studio, 'tax'), { name: 'vat 23%', rateBp: 800, fiscalSlot: 'B' });
    expect(sameName.status).toBe(409);
    expect(sameName.body.error.fields.name).toBeDefined();
    const list = await owner.get(api(studio, 'tax/collection'));
    expect(list.body.items).toHaveLength(1);
  });

  it('401 without a session, 403 by role, front desk may read but not change', async () => {
    const { studio } = await ownerStudio();
    const anonymous = await app.anonymous();
    expect((await anonymous.get(api(studio, 'tax/collection'))).status).toBe(401);
    const instructor = await staffWithRole(studio, 'instructor');
    expect((await instructor.get(api(studio, 'tax/collection'))).status).toBe(403);
    const desk = await staffWithRole(studio, 'front_desk');
    expect((await desk.get(api(studio, 'tax/collection'))).status).toBe(200);
    const create = await desk.post(api(studio, 'tax'), { name: 'VAT', rateBp: 2300, fiscalSlot: 'A' });
    expect(create.status).toBe(403);
    expect(await app.knex('taxes').where({ studioId: studio.id })).toHaveLength(0);
  });

  it("hides a studio's taxes from another studio (404)", async () => {
    const { studio, owner } = await ownerStudio();
    const tax = await owner.post(api(studio, 'tax'), { name: 'Secret VAT', rateBp: 2300, fiscalSlot: 'A' });
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(studio, 'tax/collection') });
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: api(studio, `tax/${tax.body.id}`),
      body: { name: 'Hacked' },
    });
    await expectHiddenFromOtherStudio(app, { method: 'DELETE', path: api(studio, `tax/${tax.body.id}`) });
    // Another studio's tax id inside one's own studio path is unknown too.
    const other = await ownerStudio();
    const res = await other.owner.patch(api(other.studio, `tax/${tax.body.id}`), { name: 'Hacked' });
    expect(res.status).toBe(404);
    const row = await app.knex('taxes').where({ id: tax.body.id }).first();
    expect(row!.name).toBe('Secret VAT');
  });
});
