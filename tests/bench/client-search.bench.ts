/**
 * Client search and list latency on a large studio (`npm run bench:client-search`).
 *
 * Seeds a studio with 50,000 clients (plus 10,000 in another studio, so tenancy filters do real
 * work), tags, passes and birthdays, then drives the HTTP API the way the back office does: repeated
 * searches (`client/search`, `backoffice/search`) and first pages of the filtered list
 * (`client/collection`). Prints median and p95 per kind of request and ends with
 * `client search p95 ms = N, client list p95 ms = M`. It prints figures; it never passes or fails.
 *
 * Database: TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server: a fresh database is created
 * on it for the run and dropped afterwards. Without either, an in-memory embedded PGlite.
 */
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { createKnex, type Knex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import { hashPassword } from '../../cloud/src/modules/identity/passwords';
import { HttpClient } from '../support/http-client';
import { startBenchApp, type BenchApp } from './support/app';
import { openBenchDatabase } from './support/database';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50_000);
const NOISE_CLIENTS = Number(process.env.BENCH_NOISE_CLIENTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const BATCH = 1000;
const PASSWORD = 'bench password 123';

const FIRST = [
  'Anna',
  'Maria',
  'Katarzyna',
  'Małgorzata',
  'Agnieszka',
  'Barbara',
  'Ewa',
  'Krystyna',
  'Elżbieta',
  'Zofia',
  'Joanna',
  'Magdalena',
  'Monika',
  'Łucja',
  'Natalia',
  'Julia',
  'Aleksandra',
  'Oliwia',
  'Piotr',
  'Krzysztof',
  'Andrzej',
  'Tomasz',
  'Paweł',
  'Jan',
  'Michał',
  'Marcin',
  'Łukasz',
  'Jakub',
  'Adam',
  'Mateusz',
  'Wojciech',
  'Bartosz',
  'Grzegorz',
  'Kamil',
  'Szymon',
  'Filip',
  'Emma',
  'Olivia',
];
const LAST = [
  'Nowak',
  'Kowalska',
  'Wiśniewska',
  'Wójcik',
  'Kowalczyk',
  'Kamińska',
  'Lewandowska',
  'Zielińska',
  'Szymańska',
  'Woźniak',
  'Dąbrowska',
  'Kozłowska',
  'Jankowska',
  'Mazur',
  'Kwiatkowska',
  'Krawczyk',
  'Piotrowska',
  'Grabowska',
  'Nowakowska',
  'Pawłowska',
  'Michalska',
  'Król',
  'Wieczorek',
  'Jabłońska',
  'Wróbel',
  'Nowicka',
  'Majewska',
  'Olszewska',
  'Stępień',
  'Malinowska',
  'Jaworska',
  'Adamczyk',
  'Dudek',
  'Nowacka',
  'Pawlak',
  'Walczak',
  'Sikora',
  'Baran',
  'Rutkowska',
  'Michalak',
  'Szewczyk',
  'Ostrowska',
  'Tomaszewska',
  'Pietrzak',
  'Marciniak',
  'Wróblewska',
  'Zalewska',
  'Jakubowska',
  'Smith',
];

const pick = <T>(list: readonly T[], i: number, salt: number): T =>
  list[(i * 7919 + salt * 104729) % list.length]!;
const ascii = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l');

async function seedStudio(knex: Knex, count: number, label: string) {
  const studioId = uuidv7();
  await knex('studios').insert({
    id: studioId,
    name: `Bench ${label}`,
    slug: `bench-${label}-${studioId.slice(-8)}`,
    kioskKey: studioId.slice(-12),
    timeZone: 'Europe/Warsaw',
  });
  const tagIds = ['Morning', 'Evening', 'VIP', 'Students', 'Seniors'].map(() => uuidv7());
  await knex('tags').insert(
    tagIds.map((id, i) => ({
      id,
      studioId,
      name: ['Morning', 'Evening', 'VIP', 'Students', 'Seniors'][i]!,
      type: 0,
    })),
  );
  const optionId = uuidv7();
  await knex('pricing_options').insert({
    id: optionId,
    studioId,
    name: { en: { value: 'Monthly' } },
    price: 19900,
  });
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const n = Math.min(BATCH, count - start);
    const users = Array.from({ length: n }, (_, k) => {
      const i = start + k;
      const first = pick(FIRST, i, 1);
      const last = pick(LAST, i, 2);
      const phone =
        i % 3 === 0
          ? `+48 ${500 + (i % 300)} ${String(i % 1000).padStart(3, '0')} ${String((i * 7) % 1000).padStart(3, '0')}`
          : i % 3 === 1
            ? `${600 + (i % 200)}-${String(i % 1000).padStart(3, '0')}-${String((i * 13) % 1000).padStart(3, '0')}`
            : null;
      return {
        id: uuidv7(),
        email: `${ascii(first)}.${ascii(last)}.${label}${i}@example.com`,
        first_name: first,
        last_name: last,
        phone,
      };
    });
    await knex('users').insert(users);
    // The membership trigger writes each client's record.
    await knex('memberships').insert(
      users.map((u) => ({ id: uuidv7(), studioId, userId: u.id, isClient: true })),
    );
    const tagged = users.flatMap((u, k) =>
      (start + k) % 3 === 0
        ? [{ id: uuidv7(), studioId, tagId: pick(tagIds, start + k, 3), userId: u.id }]
        : [],
    );
    if (tagged.length) await knex('user_tags').insert(tagged);
    const passes = users.flatMap((u, k) =>
      (start + k) % 5 < 2
        ? [
            {
              id: uuidv7(),
              studioId,
              clientId: u.id,
              pricingOptionId: optionId,
              status: (start + k) % 10 === 0 ? 0 : 1,
              expiresAt: new Date(now + (((start + k) % 60) - 20) * 86_400_000),
            },
          ]
        : [],
    );
    if (passes.length) await knex('client_pricing_options').insert(passes);
  }
  // Birthdays, sex, creation days spread over three years, one in twenty archived.
  await knex.raw(
    `update clients set
       birth_date = date '1950-01-01' + (abs(hashtext(id::text)) % 20000),
       sex = abs(hashtext(user_id::text)) % 2,
       created_at = now() - make_interval(days => abs(hashtext(id::text || 'c')) % 1000),
       archived_at = case when abs(hashtext(id::text || 'a')) % 20 = 0 then now() end
     where studio_id = ?`,
    [studioId],
  );
  return { studioId, tagIds };
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { n: sorted.length, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]! };
}

const fmt = (ms: number) => ms.toFixed(1);

async function main() {
  const db = await openBenchDatabase('clients_bench');
  const knex = createKnex(db.url, { singleConnection: db.single });
  let app: BenchApp | undefined;
  try {
    console.log(`database: ${db.label}`);
    await migrateLatest(knex);
    const trigram = (await knex.raw(`select to_regclass('clients_search_trgm') is not null as ok`)).rows[0]
      .ok;
    console.log(
      `search: ${trigram ? 'trigram (pg_trgm) contains-search' : 'btree prefix search (no pg_trgm)'}`,
    );

    let t = performance.now();
    const main = await seedStudio(knex, CLIENTS, 'main');
    await seedStudio(knex, NOISE_CLIENTS, 'noise');
    const owner = { id: uuidv7(), email: `owner-${Date.now()}@example.com` };
    await knex('users').insert({
      ...owner,
      passwordHash: await hashPassword(PASSWORD),
      firstName: 'Bench',
      lastName: 'Owner',
    });
    await knex('memberships').insert({
      id: uuidv7(),
      studioId: main.studioId,
      userId: owner.id,
      isMember: true,
      role: 'owner',
    });
    await knex.raw('analyze');
    const clients = (await knex('clients').where({ studioId: main.studioId }).count('*', { as: 'n' }))[0] as {
      n: number;
    };
    console.log(
      `seeded ${clients.n} clients in the studio (+${NOISE_CLIENTS} elsewhere) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    app = await startBenchApp(knex);
    const http = await HttpClient.signedIn(app.url, owner.email, PASSWORD);
    const base = `/api/v4/${main.studioId}`;

    const searches: Array<[string, () => Promise<unknown>]> = [
      'anna',
      'kow',
      'nowak',
      'a',
      'ma',
      'mar',
      'jan kow',
      'łukasz wiś',
      'lukasz wis',
      'zofia.w',
      'katarzyna zielińska',
      'smith',
      'zzz',
      'nowakowska',
      '600',
      '+48 512',
      '612-0',
      '0048 5',
      'example.com',
      'ola',
    ].map((q) => [`search "${q}"`, () => http.get(`${base}/client/search?q=${encodeURIComponent(q)}`)]);
    searches.push([
      'backoffice/search "kowalska"',
      () => http.post(`${base}/backoffice/search`, { queryString: 'kowalska' }),
    ]);
    searches.push([
      'backoffice/search "601"',
      () => http.post(`${base}/backoffice/search`, { queryString: '601' }),
    ]);

    const [tag1, tag2] = main.tagIds;
    const lists: Array<[string, () => Promise<unknown>]> = [
      '',
      'sort=-name',
      'sort=created',
      'sort=-created',
      'status=archived',
      'status=all&limit=100',
      `tagIds=${tag1}`,
      `tagIds=${tag1},${tag2}&tagMode=all`,
      'hasValidPass=true',
      'hasValidPass=false',
      'birthday=thisMonth',
      'birthdayFrom=12-20&birthdayTo=01-10',
      'createdFrom=2025-06-01&createdTo=2025-06-30',
      `tagIds=${tag2}&hasValidPass=true&sort=-created`,
      'q=anna&hasValidPass=true',
      'q=kow&birthday=thisMonth',
    ].map((q) => [
      `list ${q || '(default)'}`,
      () => http.get(`${base}/client/collection${q ? `?${q}` : ''}`),
    ]);

    if (process.env.BENCH_EXPLAIN) {
      // The plan of every clients query each case runs (`BENCH_EXPLAIN=1`), to see why one is slow.
      const captured: Array<{ sql: string; bindings: readonly unknown[] }> = [];
      knex.on('query', (q: { sql: string; bindings?: readonly unknown[] }) => {
        if (/"clients"/.test(q.sql) && !/^explain/.test(q.sql))
          captured.push({ sql: q.sql, bindings: q.bindings ?? [] });
      });
      for (const [name, run] of [...searches, ...lists]) {
        captured.length = 0;
        await run();
        for (const q of [...captured]) {
          const sql = q.sql.replace(/\$\d+/g, '?');
          const plan = await knex.raw(`explain (analyze, costs off) ${sql}`, q.bindings as never);
          console.log(
            `--- ${name}\n${plan.rows.map((r: Record<string, string>) => Object.values(r)[0]).join('\n')}`,
          );
        }
      }
      knex.removeAllListeners('query');
    }

    // Warm up (plans, caches, JIT, the garbage of the seed), then measure one request at a time,
    // searches and list pages alternating so both meet the same conditions.
    for (let pass = 0; pass < 5; pass++) for (const [, run] of [...searches, ...lists]) await run();
    const search = { samples: [] as number[], byCase: new Map<string, number[]>() };
    const list = { samples: [] as number[], byCase: new Map<string, number[]>() };
    const timed = async (into: typeof search, [name, run]: [string, () => Promise<unknown>]) => {
      const started = performance.now();
      const res = (await run()) as { status: number };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      into.samples.push(ms);
      into.byCase.set(name, [...(into.byCase.get(name) ?? []), ms]);
    };
    t = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      await timed(search, searches[round % searches.length]!);
      await timed(list, lists[round % lists.length]!);
    }
    console.log(`measured ${ROUNDS * 2} requests in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);

    const summary = { search: stats(search.samples), list: stats(list.samples) };
    for (const [title, result, all] of [
      ['client search', search, summary.search],
      ['client list (first page)', list, summary.list],
    ] as const) {
      console.log(`${title}: median ${fmt(all.median)} ms, p95 ${fmt(all.p95)} ms, max ${fmt(all.max)} ms`);
      for (const [name, samples] of result.byCase) {
        const s = stats(samples);
        console.log(
          `  ${name.padEnd(62)} median ${fmt(s.median).padStart(6)}  p95 ${fmt(s.p95).padStart(6)}`,
        );
      }
    }
    console.log(
      `\nclient search p95 ms = ${Math.round(summary.search.p95)}, client list p95 ms = ${Math.round(summary.list.p95)}`,
    );
  } finally {
    await app?.close();
    await knex.destroy();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
