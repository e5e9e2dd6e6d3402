import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/domain/clients';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';
import { api, NOW, unique, useClientsApp } from './clients.test-support';

// Clients: exports, bulk actions and tags.
const kit = useClientsApp();
const { ownerStudio, staffWithRole, seedClient, createTag } = kit;
let app: TestApp;
beforeAll(() => {
  app = kit.app();
});

// --------------------------------------------------------------------------------------- export & bulk

describe('exports', () => {
  it('streams the filtered list as CSV with a BOM, parsed back intact', async () => {
    const { studio, owner } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW });
    const tag = await createTag(owner, studio, 'Evening; late');
    const a = await seedClient(studio, {
      firstName: 'Żaneta',
      lastName: 'O"Brien, Jr',
      phone: '+48 600 100 200',
      birthDate: '1990-01-02',
      sex: 1,
    });
    const b = await seedClient(studio, { firstName: '=HYPERLINK("x")', lastName: 'Zed' });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [tag], userIds: [a] });
    const res = await owner.post(api(studio, 'client/export'), { sort: 'name' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="clients-2026-11-22.csv"');
    // fetch's text() drops a byte order mark: read the bytes.
    const raw = await fetch(app.url + api(studio, 'client/export'), {
      method: 'POST',
      headers: { ...owner.headers(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(res.text, ';'); // a Polish studio: ';'
    expect(rows[0]).toEqual([
      'id',
      'firstName',
      'lastName',
      'emailAddress',
      'phone',
      'birthDate',
      'sex',
      'status',
      'tags',
      'hasValidPass',
      'createdAt',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        a,
        'Żaneta',
        'O"Brien, Jr',
        expect.any(String),
        '+48 600 100 200',
        '1990-01-02',
        'female',
        'active',
        'Evening; late',
        'false',
        expect.any(String),
      ],
      [
        b,
        `'=HYPERLINK("x")`,
        'Zed',
        expect.any(String),
        '',
        '',
        '',
        'active',
        '',
        'false',
        expect.any(String),
      ],
    ]);
    const comma = await owner.post(api(studio, 'client/export'), { delimiter: ',', q: 'zed' });
    expect(parseCsv(comma.text, ',').map((r) => r[0])).toEqual(['id', b]);
    const bad = await owner.post(api(studio, 'client/export'), { format: 'pdf', delimiter: '|' });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['delimiter', 'format']);
  });

  it('exports every page of a larger list; each way of cutting a page gives the same pages', async () => {
    const { studio, owner } = await ownerStudio();
    // 1000 clients that sort first (the whole window of the first cutting step), then 2100 more.
    const make = (count: number, first: (i: number) => string, last: string) =>
      Array.from({ length: count }, (_, i) => ({
        id: uuidv7(),
        email: `${last.toLowerCase()}-${i}-${unique()}@example.com`,
        first_name: first(i),
        last_name: last,
      }));
    const early = make(1000, (i) => `Aardvark${String(i).padStart(4, '0')}`, 'Aaa');
    const users = make(2100, (i) => `Bulk${String(i).padStart(4, '0')}`, 'Export');
    for (const batch of [early, users]) {
      await app.knex.batchInsert('users', batch, 500);
      await app.knex.batchInsert(
        'memberships',
        batch.map((u) => ({ id: uuidv7(), studio_id: studio.id, user_id: u.id, is_client: true })),
        500,
      );
    }
    const res = await owner.post(api(studio, 'client/export'), { q: 'bulk', delimiter: ',' });
    const parsed = parseCsv(res.text, ',');
    expect(parsed.length).toBe(2101);
    expect(new Set(parsed.slice(1).map((r) => r[0])).size).toBe(2100);
    expect(parsed.slice(1).map((r) => r[1])).toEqual(users.map((u) => u.first_name));
    const firstNames = async (q: string) =>
      (await owner.get(api(studio, `client/search?q=${q}&limit=100`))).body.items.map(
        (i: { firstName: string }) => i.firstName,
      );
    // Matches inside the window.
    expect(await firstNames('aardvark')).toEqual(early.slice(0, 100).map((u) => u.first_name));
    // None in the window, 1000 candidates.
    expect(await firstNames('bulk1')).toEqual(
      users
        .filter((u) => u.first_name.startsWith('Bulk1'))
        .slice(0, 100)
        .map((u) => u.first_name),
    );
    // None in the window, more candidates than the cap: the unbounded walk.
    expect(await firstNames('bulk')).toEqual(users.slice(0, 100).map((u) => u.first_name));
  });
});
describe('POST client/bulk', () => {
  it('tags, untags, records a message and exports chosen clients', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const a = await seedClient(studio, { firstName: 'Bulk', lastName: 'One' });
    const b = await seedClient(studio, { firstName: 'Bulk', lastName: 'Two' });
    const tag = await createTag(owner, studio, 'Promo');
    const tagged = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a, b, a],
      tagIds: [tag],
    });
    expect(tagged.body).toEqual({ action: 'tag', clients: 2, changed: 2 });
    const again = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a, b],
      tagIds: [tag],
    });
    expect(again.body.changed).toBe(0);
    const untagged = await owner.post(api(studio, 'client/bulk'), {
      action: 'untag',
      clientIds: [a],
      tagIds: [tag],
    });
    expect(untagged.body).toEqual({ action: 'untag', clients: 1, changed: 1 });

    const frontDesk = await staffWithRole(studio, 'front_desk');
    const message = await frontDesk.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: [a, b],
      subject: 'Closed on Monday',
      content: 'See you Tuesday',
    });
    expect(message.status, message.text).toBe(200);
    expect(message.body).toMatchObject({ action: 'message', recipients: 2, status: 'recorded' });
    const recorded = await app.knex('client_message_requests').where({ id: message.body.requestId }).first();
    expect(recorded).toMatchObject({ studioId: studio.id, subject: 'Closed on Monday', recipientCount: 2 });
    expect([...(recorded!.recipientIds as string[])].sort()).toEqual([a, b].sort());

    const exported = await owner.post(api(studio, 'client/bulk'), {
      action: 'export',
      clientIds: [b],
      delimiter: ',',
    });
    expect(parseCsv(exported.text, ',').map((r) => r[0])).toEqual(['id', b]);
    expect(
      (await frontDesk.post(api(studio, 'client/bulk'), { action: 'export', clientIds: [b] })).status,
    ).toBe(403);

    const memberTag = await createTag(owner, studio, 'Team', 1);
    const wrongKind = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [a],
      tagIds: [memberTag],
    });
    expect(wrongKind.status).toBe(400);
    const notClient = await owner.post(api(studio, 'client/bulk'), {
      action: 'tag',
      clientIds: [manager.id],
      tagIds: [tag],
    });
    expect(notClient.status).toBe(404);
    const bad = await owner.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: [],
      subject: '',
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['clientIds', 'content', 'subject']);
    const unknownAction = await owner.post(api(studio, 'client/bulk'), { action: 'delete', clientIds: [a] });
    expect(unknownAction.status).toBe(400);
  });
});

// ------------------------------------------------------------------------------------------ tags

describe('tags', () => {
  it('creates, lists with usage, renames, replaces and deletes; names unique per studio in any case', async () => {
    const { studio, owner } = await ownerStudio();
    const created = await owner.post(api(studio, 'tag'), { name: ' Morning Yoga ', type: 0 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Morning Yoga', type: 0, usageCount: 0 });
    const clash = await owner.post(api(studio, 'tag'), { name: 'MORNING yoga', type: 1 });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toEqual({ name: ['a tag with this name already exists'] });
    // Another studio may use the name.
    const other = await ownerStudio();
    expect((await other.owner.post(api(other.studio, 'tag'), { name: 'Morning Yoga', type: 0 })).status).toBe(
      201,
    );

    const id = created.body.id;
    const client = await seedClient(studio);
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [id], userIds: [client] });
    const staffTag = await createTag(owner, studio, 'Coaches', 1);
    const list = await owner.get(api(studio, 'tag/all'));
    expect(list.body.items.map((t: { name: string; usageCount: number }) => [t.name, t.usageCount])).toEqual([
      ['Coaches', 0],
      ['Morning Yoga', 1],
    ]);
    expect(
      (await owner.get(api(studio, 'tag/all?type=1'))).body.items.map((t: { id: string }) => t.id),
    ).toEqual([staffTag]);
    // An instructor sees client tags (clients.view) but not staff tags (staff.view).
    const instructor = await staffWithRole(studio, 'instructor');
    expect(
      (await instructor.get(api(studio, 'tag/all'))).body.items.map((t: { id: string }) => t.id),
    ).toEqual([id]);

    const renamed = await owner.patch(api(studio, `tag/${id}`), { name: 'Sunrise' });
    expect(renamed.body).toMatchObject({ id, name: 'Sunrise', type: 0, usageCount: 1 });
    const sameName = await owner.patch(api(studio, `tag/${staffTag}`), { name: 'sunrise' });
    expect(sameName.status).toBe(409);
    const typeInUse = await owner.request('PUT', api(studio, `tag/${id}`), { name: 'Sunrise', type: 1 });
    expect(typeInUse.status).toBe(409);
    expect(typeInUse.body.error.fields).toHaveProperty('type');
    const replaced = await owner.request('PUT', api(studio, `tag/${staffTag}`), {
      name: 'Trainers',
      type: 0,
    });
    expect(replaced.body).toMatchObject({ name: 'Trainers', type: 0 });
    const partialPut = await owner.request('PUT', api(studio, `tag/${staffTag}`), { name: 'Only name' });
    expect(partialPut.body.error.fields).toHaveProperty('type');
    const bad = await owner.post(api(studio, 'tag'), { name: 'x'.repeat(51), type: 2, color: 'red' });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['color', 'name', 'type']);

    expect((await owner.delete(api(studio, `tag/${id}`))).status).toBe(204);
    expect(await app.knex('user_tags').where({ tagId: id })).toEqual([]);
    expect((await owner.delete(api(studio, `tag/${id}`))).status).toBe(404);
  });

  it('member tags need the staff area; user-tag add and remove count what changed', async () => {
    const { studio, owner } = await ownerStudio();
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.post(api(studio, 'tag'), { name: 'Team', type: 1 })).status).toBe(403);
    const clientTag = (await frontDesk.post(api(studio, 'tag'), { name: 'Regulars', type: 0 })).body.id;
    const memberTag = await createTag(owner, studio, 'Team', 1);
    const c1 = await seedClient(studio);
    const c2 = await seedClient(studio);
    const staff = await createUser(app.knex);
    await addMembership(app.knex, studio, staff, { isMember: true, role: 'instructor' });

    const add = await frontDesk.post(api(studio, 'user-tag/add'), { tagIds: [clientTag], userIds: [c1, c2] });
    expect(add.body).toEqual({ changed: 2 });
    expect(
      (await frontDesk.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [staff.id] }))
        .status,
    ).toBe(403);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [staff.id] })).body,
    ).toEqual({
      changed: 1,
    });
    // A client tag is for clients, a member tag for staff.
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [clientTag], userIds: [staff.id] })).status,
    ).toBe(404);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [memberTag], userIds: [c1] })).status,
    ).toBe(404);
    expect(
      (await owner.post(api(studio, 'user-tag/add'), { tagIds: [uuidv7()], userIds: [c1] })).status,
    ).toBe(404);
    const remove = await frontDesk.post(api(studio, 'user-tag/remove'), {
      tagIds: [clientTag],
      userIds: [c1, c2],
    });
    expect(remove.body).toEqual({ changed: 2 });
    const bad = await owner.post(api(studio, 'user-tag/add'), { tagIds: [], userIds: ['x'] });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['tagIds', 'userIds.0']);
  });
});
