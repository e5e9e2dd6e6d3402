/**
 * Costs that follow the page (`npm run bench:growth`, issue 27).
 *
 * Seeds, on one PostgreSQL database, a big studio (50,000 clients, 500,000 visits, 200,000 orders)
 * beside a small one (500 clients, 5,000 visits, 2,000 orders), both with the same timetable (about
 * 48 classes a week over two years, the last month still to come), with bulk `generate_series`
 * statements. Then measures, one request at a time, the hot reads at both studios: client search
 * with a rare and a common term, the client list, the orders list with and without a search term,
 * a regular client's upcoming visits, the week's timetable and the facts a booking reads. Prints
 * the p50/p95 of each at both and ends with
 * `growth worst p95 ms = N (NAME), big/small worst ratio = R` (N: the worst p95 at the big studio;
 * R: the worst ratio of a read's p95 at the big studio to its p95 at the small one). Aim: N < 30,
 * R ≤ 3. It prints figures; it never passes or fails.
 *
 * Database: BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server; a fresh
 * database named after the given one (`<name>_growth_<time>`) is created and dropped afterwards.
 * Sizes: BENCH_CLIENTS, BENCH_VISITS, BENCH_ORDERS (the big studio; the small is 1/100), BENCH_ROUNDS;
 * BENCH_KEEP=1 keeps the database (its URL is printed) to look at the plans.
 */
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { createKnex, type Knex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import {
  clientTagIds,
  conflictingVisits,
  countsOf,
  paymentFor,
  readEvent,
  standingVisit,
} from '../../cloud/src/modules/bookings/booking-facts.service';
import type { Studio } from '../../cloud/src/modules/identity/rows';
import { ClientVisitStatus } from '../../shared/enums/visits';
import { OrderStatus } from '../../shared/enums/orders';
import type { HttpClient } from '../support/http-client';
import { startBenchApp, type BenchApp } from './support/app';
import { openBenchDatabase } from './support/database';
import { addStudioOwner } from './support/seed';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50_000);
const VISITS = Number(process.env.BENCH_VISITS ?? 500_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/** Classes over the two years, the same at both studios (a timetable does not grow with clients). */
const EVENTS = 5_000;
const DAYS = 730;
const FUTURE_DAYS = 30;
/** The regular: books one class in five, so their history is long (1,000 visits at the big studio). */
const REGULAR_EVERY = 5;
const RARE = 'Przybyszewska';
const FIRST = ['Anna', 'Maria', 'Katarzyna', 'Małgorzata', 'Piotr', 'Krzysztof', 'Tomasz', 'Paweł'];
const LAST = ['Nowak', 'Kowalska', 'Wiśniewska', 'Wójcik', 'Kamińska', 'Lewandowski', 'Zieliński'];

interface Size {
  label: string;
  clients: number;
  visits: number;
  orders: number;
}

interface SeededStudio {
  size: Size;
  studioId: string;
  ownerId: string;
  regularId: string;
  futureEventId: string;
}

const sqlList = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(', ')}]`;

/** A time-ordered uuid (v7) for `ts`, in SQL: ids of a studio's orders sort by creation as the app's do. */
const UUID7 = `create or replace function bench_uuid7(ts timestamptz) returns uuid language sql volatile as $$
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    placing substring(int8send(floor(extract(epoch from ts) * 1000)::bigint) from 3) from 1 for 6),
    52, 1), 53, 1), 'hex')::uuid $$`;

async function seedStudio(knex: Knex, size: Size): Promise<SeededStudio> {
  const studioId = uuidv7();
  const { label } = size;
  await knex('studios').insert({
    id: studioId,
    name: `Growth ${label}`,
    slug: `growth-${label}-${studioId.slice(-8)}`,
    kioskKey: studioId.slice(-12),
    timeZone: 'Europe/Warsaw',
  });
  // People: client i is `c<i>.<label>@example.com`; one has the rare surname, one in a hundred a card.
  await knex.raw(
    `insert into users (id, email, first_name, last_name, phone)
     select bench_uuid7(now() - make_interval(secs => ? - i)), 'c' || i || '.' || ? || '@example.com',
            (${sqlList(FIRST)})[1 + i % ${FIRST.length}],
            case when i = ? then ? else (${sqlList(LAST)})[1 + (i / 7) % ${LAST.length}] end,
            case when i % 3 = 0 then '+48 5' || lpad((i % 100000000)::text, 8, '0') end
       from generate_series(0, ? - 1) i`,
    [size.clients, label, Math.floor(size.clients / 2), RARE, size.clients],
  );
  // The membership trigger writes each client's record.
  await knex.raw(
    `insert into memberships (id, studio_id, user_id, is_client)
     select gen_random_uuid(), ?, u.id, true from users u where u.email like ?`,
    [studioId, `%.${label}@example.com`],
  );
  await knex.raw(
    `insert into client_identities (id, studio_id, user_id, kind, value, value_key)
     select gen_random_uuid(), ?, u.id, 'card', 'K-' || abs(hashtext(u.email)), 'k' || abs(hashtext(u.email))
       from users u where u.email like ? and abs(hashtext(u.email)) % 100 = 0`,
    [studioId, `%.${label}@example.com`],
  );
  const ownerId = await addStudioOwner(knex, studioId, {
    email: (id) => `owner.${label}.${id}@example.com`,
    firstName: 'Owner',
  });

  const serviceId = uuidv7();
  const locationId = uuidv7();
  await knex('class_services').insert({
    id: serviceId,
    studioId,
    name: { en: { value: 'Yoga' } },
    durationMinutes: 60,
  });
  await knex('locations').insert({ id: locationId, studioId, name: 'Main' });
  await knex.raw(
    `insert into schedule_events (id, studio_id, class_service_id, location_id, starts_at, ends_at, capacity)
     select gen_random_uuid(), ?, ?, ?, t, t + interval '1 hour', 200
       from (select date_trunc('hour', now()) - make_interval(days => ${DAYS - FUTURE_DAYS})
                    + make_interval(secs => i * (${DAYS} * 86400.0 / ${EVENTS})) as t
               from generate_series(0, ${EVENTS} - 1) i) e`,
    [studioId, serviceId, locationId],
  );
  // Visits: each class takes visits/EVENTS clients (distinct per class), the regular one class in five.
  const perEvent = Math.max(1, Math.floor(size.visits / EVENTS));
  const visitColumns = `id, studio_id, schedule_event_id, client_id, starts_at, status, payment, booked_by, booked_at`;
  const visitValues = (client: string) => `gen_random_uuid(), e.studio_id, e.id, ${client}, e.starts_at,
       case when e.starts_at > now() then ${ClientVisitStatus.booked} else ${ClientVisitStatus.present} end,
       'desk', 'staff', e.starts_at - interval '1 day'`;
  const events = `select id, studio_id, starts_at, row_number() over (order by starts_at) - 1 as n
                    from schedule_events where studio_id = :studioId`;
  const clients = `select user_id, row_number() over (order by user_id) - 1 as n
                     from clients where studio_id = :studioId`;
  await knex.raw(
    `insert into client_visits (${visitColumns})
     select ${visitValues('c.user_id')}
       from (${events}) e cross join generate_series(0, :perEvent - 1) k
       join (${clients}) c on c.n = (e.n * 37 + k * 503 + 1) % :clientCount`,
    { studioId, perEvent, clientCount: size.clients },
  );
  const regular = (await knex.raw(`select user_id from (${clients}) c where n = 0`, { studioId })) as {
    rows: Array<{ user_id: string }>;
  };
  const regularId = regular.rows[0]!.user_id;
  await knex.raw(
    `insert into client_visits (${visitColumns})
     select ${visitValues(':regularId')} from (${events}) e
      where e.n % ${REGULAR_EVERY} = 0
        and not exists (select 1 from client_visits v where v.schedule_event_id = e.id and v.client_id = :regularId)`,
    { studioId, regularId },
  );
  await knex.raw(
    `insert into client_orders (id, studio_id, client_id, status, source, currency, subtotal, total, created_at, updated_at)
     select bench_uuid7(t), :studioId, c.user_id, ${OrderStatus.paid}, 'desk', 'PLN', 5000, 5000, t, t
       from (select i, now() - make_interval(secs => (:orderCount - i) * (${DAYS - FUTURE_DAYS} * 86400.0 / :orderCount)) as t
               from generate_series(0, :orderCount - 1) i) o
       join (${clients}) c on c.n = (o.i * 7919) % :clientCount`,
    { studioId, orderCount: size.orders, clientCount: size.clients },
  );
  const future = (await knex('schedule_events')
    .where({ studioId })
    .where('startsAt', '>', new Date(Date.now() + 3 * 86_400_000))
    .orderBy('startsAt')
    .first('id')) as { id: string };
  return { size, studioId, ownerId, regularId, futureEventId: future.id };
}

type Read = [name: string, run: () => Promise<unknown>];

/** The hot reads at one studio, each a function that fails loudly on a non-200 answer. */
async function readsOf(knex: Knex, app: BenchApp, s: SeededStudio): Promise<Read[]> {
  const owner = await app.signedIn(s.ownerId);
  const regular = await app.signedIn(s.regularId);
  const base = `/api/v4/${s.studioId}`;
  const ok = async (name: string, res: Promise<{ status: number; text?: string }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status} ${r.text ?? ''}`);
    return r;
  };
  const get = (http: HttpClient, name: string, path: string): Read => [
    name,
    () => ok(name, http.get(`${base}${path}`)),
  ];
  const post = (http: HttpClient, name: string, path: string, body: object): Read => [
    name,
    () => ok(name, http.post(`${base}${path}`, body)),
  ];
  const today = new Date();
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  const studio = (await knex('studios').where({ id: s.studioId }).first()) as Studio;
  return [
    get(owner, 'client search rare', `/client/search?q=${RARE.slice(0, 8).toLowerCase()}`),
    get(owner, 'client search common', '/client/search?q=anna'),
    get(owner, 'client list', '/client/collection'),
    get(owner, 'orders', '/client-order/all'),
    get(owner, 'orders with term', `/client-order/all?q=${RARE.slice(0, 8).toLowerCase()}`),
    get(owner, 'orders term no match', '/client-order/all?q=zzqx'),
    post(regular, 'my visits upcoming', '/client-visits/init', { when: 'upcoming', limit: 20 }),
    post(owner, 'timetable week', '/schedule', {
      from: monday.toISOString().slice(0, 10),
      to: sunday.toISOString().slice(0, 10),
    }),
    [
      'booking facts',
      async () => {
        const event = await readEvent(knex, s.studioId, s.futureEventId);
        const [tags] = await Promise.all([
          clientTagIds(knex, s.studioId, s.regularId),
          countsOf(knex, s.studioId, event.id),
          standingVisit(knex, s.studioId, event.id, s.regularId),
          conflictingVisits(knex, s.studioId, s.regularId, event),
        ]);
        await paymentFor(knex, studio, event, s.regularId, tags, { actor: 'self', payAtDeskAllowed: false });
      },
    ],
  ];
}

function p(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function main() {
  if (!(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL))
    throw new Error('bench:growth needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const db = await openBenchDatabase('growth');
  const knex = createKnex(db.url, { poolMax: 4 });
  let app: BenchApp | undefined;
  try {
    console.log(`database: ${db.label}`);
    await migrateLatest(knex);
    await knex.raw(UUID7);
    const sizes: Size[] = [
      { label: 'big', clients: CLIENTS, visits: VISITS, orders: ORDERS },
      {
        label: 'small',
        clients: Math.ceil(CLIENTS / 100),
        visits: Math.ceil(VISITS / 100),
        orders: Math.ceil(ORDERS / 100),
      },
    ];
    const seeded: SeededStudio[] = [];
    for (const size of sizes) {
      const t = performance.now();
      seeded.push(await seedStudio(knex, size));
      const [counts] = (
        await knex.raw(
          `select (select count(*) from clients where studio_id = :id)::int as clients,
                  (select count(*) from client_visits where studio_id = :id)::int as visits,
                  (select count(*) from client_orders where studio_id = :id)::int as orders`,
          { id: seeded[seeded.length - 1]!.studioId },
        )
      ).rows as Array<Record<string, number>>;
      console.log(
        `seeded ${size.label}: ${counts!.clients} clients, ${counts!.visits} visits, ${counts!.orders} orders, ${EVENTS} classes in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    await knex.raw('vacuum analyze');
    app = await startBenchApp(knex);
    const reads = await Promise.all(seeded.map((s) => readsOf(knex, app!, s)));
    const names = reads[0]!.map(([name]) => name);
    const samples = reads.map(() => new Map<string, number[]>(names.map((n) => [n, []])));
    // Warm up, then alternate the studios read by read so both meet the same conditions.
    for (let i = 0; i < 3; i++) for (const set of reads) for (const [, run] of set) await run();
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < names.length; k++) {
        for (let s = 0; s < reads.length; s++) {
          const started = performance.now();
          await reads[s]![k]![1]();
          samples[s]!.get(names[k]!)!.push(performance.now() - started);
        }
      }
    }
    const [big, small] = samples as [Map<string, number[]>, Map<string, number[]>];
    let worst = { name: '', p95: 0 };
    let worstRatio = { name: '', ratio: 0 };
    console.log(
      `\n${'read'.padEnd(24)} ${'big p50'.padStart(8)} ${'big p95'.padStart(8)} ${'small p95'.padStart(10)} ${'ratio'.padStart(6)}`,
    );
    for (const name of names) {
      const b95 = p(big.get(name)!, 0.95);
      const s95 = p(small.get(name)!, 0.95);
      const ratio = b95 / s95;
      console.log(
        `${name.padEnd(24)} ${p(big.get(name)!, 0.5).toFixed(1).padStart(8)} ${b95.toFixed(1).padStart(8)} ${s95.toFixed(1).padStart(10)} ${ratio.toFixed(2).padStart(6)}`,
      );
      if (b95 > worst.p95) worst = { name, p95: b95 };
      if (ratio > worstRatio.ratio) worstRatio = { name, ratio };
    }
    console.log(`(worst ratio: ${worstRatio.name})`);
    console.log(
      `growth worst p95 ms = ${worst.p95.toFixed(1)} (${worst.name}), big/small worst ratio = ${worstRatio.ratio.toFixed(2)}`,
    );
  } finally {
    await app?.close();
    await knex.destroy();
    // BENCH_KEEP=1 keeps the seeded database for a look at the plans (drop it afterwards).
    if (process.env.BENCH_KEEP) console.log(`kept: ${db.url}`);
    else await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
