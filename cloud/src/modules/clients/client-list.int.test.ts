import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldSearchText } from '../../../../shared/domain/clients';
import type { HttpClient } from '../../../../tests/support/http-client';
import type { TestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { allPages, api, names, NOW, unique, useClientsApp } from './clients.test-support';

// Clients: the list, its filters and sorts, search, and the screens' init routes.
const kit = useClientsApp();
const { ownerStudio, staffWithRole, seedClient, createTag, givePass } = kit;
let app: TestApp;
beforeAll(() => {
  app = kit.app();
});

// ------------------------------------------------------------------------------------ list & search

describe('GET client/collection', () => {
  it('pages by name with ties, in both directions, each client exactly once', async () => {
    const { studio, owner } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW }); // the scenario's own
    const ties: string[] = [];
    for (let i = 0; i < 9; i++)
      ties.push(await seedClient(studio, { firstName: 'Anna', lastName: 'Kowalska' }));
    for (const [first, last] of [
      ['Łukasz', 'Żak'],
      ['Zofia', 'Adamska'],
      ['Adam', 'Adamski'],
      ['Bartek', 'Kowalski'],
      ['Ewa', 'Zielińska'],
    ])
      await seedClient(studio, { firstName: first!, lastName: last! });
    ties.push(await seedClient(studio, { firstName: 'anna', lastName: 'kowalska' }));
    const asc = await allPages(owner, api(studio, 'client/collection?limit=4'));
    expect(names(asc).map((n) => n.toLowerCase())).toEqual([
      'zofia adamska',
      'adam adamski',
      ...Array<string>(10).fill('anna kowalska'),
      'bartek kowalski',
      'łukasz żak',
      'ewa zielińska',
    ]);
    // Equal names in the order of their records' ids, across page boundaries.
    expect(asc.slice(2, 12).map((i) => i.id)).toEqual(ties);
    const desc = await allPages(owner, api(studio, 'client/collection?limit=3&sort=-name'));
    expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
    // A narrowing filter cuts pages from its matches (another plan): the same pages.
    const narrowed = await allPages(owner, api(studio, 'client/collection?limit=4&createdFrom=2000-01-01'));
    expect(narrowed.map((i) => i.id)).toEqual(asc.map((i) => i.id));
    const narrowedDesc = await allPages(owner, api(studio, 'client/collection?limit=5&sort=-name&q=a'));
    expect(narrowedDesc.map((i) => i.id)).toEqual(
      asc
        .filter((i) => [i.firstName, i.lastName].some((w) => foldSearchText(w).startsWith('a')))
        .map((i) => i.id)
        .reverse(),
    );
  });

  it('pages by creation with equal timestamps, in both directions', async () => {
    const { studio, owner, client } = await ownerStudio();
    await app
      .knex('clients')
      .where({ studioId: studio.id })
      .update({ createdAt: new Date('2026-01-01T00:00:00Z') });
    const same = new Date('2026-02-01T10:00:00.123Z');
    for (let i = 0; i < 7; i++) await seedClient(studio, { firstName: `Same${i}`, createdAt: same });
    await seedClient(studio, { firstName: 'Later', createdAt: new Date('2026-03-01T00:00:00Z') });
    // Microseconds the JS Date cannot hold must not break the pages.
    await app.knex.raw(
      `update clients set created_at = created_at + interval '1 microsecond' where studio_id = ? and first_name = 'Same3'`,
      [studio.id],
    );
    const asc = await allPages(owner, api(studio, 'client/collection?sort=created&limit=2'));
    expect(asc.length).toBe(9);
    expect(asc[0].id).toBe(client.id);
    expect(asc[8].firstName).toBe('Later');
    expect(asc[7].firstName).toBe('Same3');
    expect(new Set(asc.map((i) => i.id)).size).toBe(9);
    const desc = await allPages(owner, api(studio, 'client/collection?sort=-created&limit=3'));
    expect(desc.map((i) => i.id)).toEqual(asc.map((i) => i.id).reverse());
  });

  it('refuses bad queries and foreign cursors with field errors', async () => {
    const { studio, owner } = await ownerStudio();
    await seedClient(studio);
    await seedClient(studio);
    const first = await owner.get(api(studio, 'client/collection?limit=1'));
    expect(first.body.next).toEqual(expect.any(String));
    const wrongSort = await owner.get(
      api(studio, `client/collection?sort=created&cursor=${first.body.next}`),
    );
    expect(wrongSort.status).toBe(400);
    expect(wrongSort.body.error.fields).toHaveProperty(['query.cursor']);
    const res = await owner.get(
      api(
        studio,
        'client/collection?limit=0&sort=age&status=gone&birthdayFrom=02-30&tagIds=x&hasValidPass=maybe&createdFrom=2026-13-01',
      ),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(
      [
        'query.birthdayFrom',
        'query.createdFrom',
        'query.hasValidPass',
        'query.limit',
        'query.sort',
        'query.status',
        'query.tagIds.0',
      ].sort(),
    );
    const half = await owner.get(api(studio, 'client/collection?birthdayFrom=01-01'));
    expect(half.body.error.fields).toEqual({ 'query.birthdayTo': ['give both ends of the birthday range'] });
  });

  it('filters by status, tags (any / all), valid pass, birthday and creation day', async () => {
    const { studio, owner, client } = await ownerStudio();
    await app.knex('clients').where({ studioId: studio.id }).update({ archivedAt: NOW }); // the scenario's own
    const yoga = await createTag(owner, studio, 'Yoga');
    const pilates = await createTag(owner, studio, 'Pilates');
    const a = await seedClient(studio, {
      firstName: 'A',
      birthDate: '1990-11-05',
      createdAt: new Date('2026-11-01T22:59:59Z'),
    });
    const b = await seedClient(studio, {
      firstName: 'B',
      birthDate: '1991-12-28',
      createdAt: new Date('2026-11-01T23:00:00Z'),
    });
    const c = await seedClient(studio, {
      firstName: 'C',
      birthDate: '1992-01-03',
      createdAt: new Date('2026-11-10T12:00:00Z'),
    });
    const d = await seedClient(studio, { firstName: 'D', archived: true });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [yoga], userIds: [a, b] });
    await owner.post(api(studio, 'user-tag/add'), { tagIds: [pilates], userIds: [b, c] });
    await givePass(studio, a, { status: 1, expiresAt: new Date('2026-11-23T00:00:00Z') });
    await givePass(studio, b, { status: 1, expiresAt: new Date('2026-11-22T11:59:59Z') }); // expired
    await givePass(studio, c, { status: 0, expiresAt: new Date('2027-01-01T00:00:00Z') }); // inactive
    await givePass(studio, d, { status: 1, expiresAt: null }); // never expires

    const ids = async (query: string) =>
      (await allPages(owner, api(studio, `client/collection?${query}`))).map((i) => i.id).sort();
    expect(await ids('')).toEqual([a, b, c].sort());
    expect(await ids('status=archived')).toEqual([client.id, d].sort());
    expect(await ids('status=all')).toEqual([client.id, a, b, c, d].sort());
    expect(await ids(`tagIds=${yoga},${pilates}`)).toEqual([a, b, c].sort());
    expect(await ids(`tagIds=${yoga}&tagIds=${pilates}&tagMode=all`)).toEqual([b]);
    expect(await ids(`tagIds=${uuidv7()}`)).toEqual([]);
    expect(await ids('hasValidPass=true&status=all')).toEqual([a, d].sort());
    expect(await ids('hasValidPass=false')).toEqual([b, c].sort());
    expect(await ids('birthday=thisMonth')).toEqual([a]);
    expect(await ids('birthdayFrom=12-20&birthdayTo=01-10')).toEqual([b, c].sort());
    expect(await ids('birthdayFrom=11-05&birthdayTo=11-05')).toEqual([a]);
    // Creation days are the studio's (Warsaw, UTC+1): 22:59:59Z on 1 Nov is still 1 Nov there.
    expect(await ids('createdFrom=2026-11-02')).toEqual([b, c].sort());
    expect(await ids('createdTo=2026-11-01')).toEqual([a]);
    expect(await ids('createdFrom=2026-11-02&createdTo=2026-11-09')).toEqual([b]);
    expect(await ids(`tagIds=${yoga}&hasValidPass=true&birthday=thisMonth`)).toEqual([a]);

    const page = await owner.get(api(studio, `client/collection?tagIds=${yoga}`));
    expect(page.body.items.find((i: { id: string }) => i.id === a)).toMatchObject({
      tags: [{ id: yoga, name: 'Yoga' }],
      hasValidPass: true,
    });
  });
});

describe('searching clients', () => {
  let studio: Studio;
  let owner: HttpClient;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    ({ studio, owner } = await ownerStudio());
    id.lukasz = await seedClient(studio, {
      firstName: 'Łukasz',
      lastName: 'Wiśniewski',
      email: `lw-${unique()}@example.com`,
      phone: '+48 600 100 200',
    });
    id.anna = await seedClient(studio, {
      firstName: 'Anna',
      lastName: 'Kowalska',
      email: 'anna.k@poczta.example',
      phone: '511-222-333',
    });
    id.annette = await seedClient(studio, {
      firstName: 'Annette',
      lastName: 'Brown',
      email: `ab-${unique()}@example.com`,
    });
    id.old = await seedClient(studio, { firstName: 'Anastazja', lastName: 'Dawna', archived: true });
    id.odd = await seedClient(studio, { firstName: 'Per%cent', lastName: 'Under_score' });
  });

  const search = async (q: string, extra = '') => {
    const res = await owner.get(api(studio, `client/search?q=${encodeURIComponent(q)}${extra}`));
    expect(res.status, res.text).toBe(200);
    return res.body.items.map((i: { id: string }) => i.id);
  };

  it.each([
    ['first-name prefix, any case', 'ANN', ['annette', 'anna']],
    ['diacritics folded', 'lukasz', ['lukasz']],
    ['diacritics typed', 'Wiśn', ['lukasz']],
    ['first and last name', 'anna kow', ['anna']],
    ['last name first', 'kowalska anna', ['anna']],
    ['email prefix', 'anna.k@pocz', ['anna']],
    ['phone as typed elsewhere', '600100', ['lukasz']],
    ['phone with the country code', '+48 600 1', ['lukasz']],
    ['phone with 00', '0048600100', ['lukasz']],
    ['phone with dashes', '511-222', ['anna']],
    ['no match', 'zzzz', []],
    ['wildcards are literal', 'per%', ['odd']],
    ['underscore is literal', 'under_', ['odd']],
  ])('%s: %s', async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected.map((k) => id[k]));
  });

  it('archived clients only when asked', async () => {
    expect(await search('anastazja')).toEqual([]);
    expect(await search('anastazja', '&status=all')).toEqual([id.old]);
  });

  it('pages with a cursor', async () => {
    const first = await owner.get(api(studio, 'client/search?q=an&limit=1'));
    expect(first.body.items).toHaveLength(1);
    const second = await owner.get(api(studio, `client/search?q=an&limit=1&cursor=${first.body.next}`));
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it('contains-search where trigrams are available', async () => {
    const trigram = await app.knex.raw(`select to_regclass('clients_search_trgm') is not null as ok`);
    const found = await search('niewski');
    expect(found).toEqual(trigram.rows[0].ok ? [id.lukasz] : []);
  });

  it('POST backoffice/search finds clients (archived too); a role without clients.view gets none', async () => {
    const res = await owner.post(api(studio, 'backoffice/search'), { queryString: 'anastazja' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.clients).toEqual([
      {
        id: id.old,
        firstName: 'Anastazja',
        lastName: 'Dawna',
        emailAddress: expect.any(String),
        phone: null,
        status: 'archived',
      },
    ]);
    const auditor = await staffWithRole(studio, 'auditor');
    expect((await auditor.post(api(studio, 'backoffice/search'), { queryString: 'anna' })).body).toEqual({
      clients: [],
    });
    const bad = await owner.post(api(studio, 'backoffice/search'), { queryString: ' ', more: 1 });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['more', 'queryString']);
    expect((await owner.get(api(studio, 'client/search?q='))).body.error.fields).toHaveProperty(['query.q']);
  });

  it('the database folds names the way the query is folded', async () => {
    const samples = ['Łucja Żółć', 'ĄĆĘŁŃÓŚŹŻ', 'Dvořák Šťastný', 'Müller Çelik', 'Anna-Maria', 'Ørsted'];
    for (const value of samples) {
      const userId = await seedClient(studio, { firstName: value, lastName: value });
      const row = await app.knex('clients').where({ studioId: studio.id, userId }).first('first_key');
      expect(row.firstKey, value).toBe(foldSearchText(value));
      await app.knex('clients').where({ studioId: studio.id, userId }).update({ archivedAt: NOW });
    }
  });
});

describe('GET client-list/init, client/add/init, client/bulk', () => {
  it('tells the screens their filters, sorts, options and the caller’s actions', async () => {
    const { studio, owner } = await ownerStudio();
    const tag = await createTag(owner, studio, 'Morning');
    await createTag(owner, studio, 'Staff only', 1);
    const init = await owner.get(api(studio, 'client-list/init'));
    expect(init.status).toBe(200);
    expect(init.body).toMatchObject({
      statuses: ['active', 'archived', 'all'],
      sortOptions: ['name', '-name', 'created', '-created'],
      tags: [{ id: tag, name: 'Morning' }],
      bulkActions: ['tag', 'untag', 'message', 'export'],
      exportFormats: ['csv', 'xlsx'],
    });
    const frontDesk = await staffWithRole(studio, 'front_desk');
    expect((await frontDesk.get(api(studio, 'client-list/init'))).body.bulkActions).toEqual([
      'tag',
      'untag',
      'message',
    ]);
    expect((await frontDesk.get(api(studio, 'client/bulk'))).body).toEqual({
      actions: ['tag', 'untag', 'message'],
      tags: [{ id: tag, name: 'Morning' }],
      maxClients: 5000,
    });
    const add = await owner.get(api(studio, 'client/add/init'));
    expect(add.body).toMatchObject({ fields: { firstName: { required: true } }, country: 'PL' });
  });
});
