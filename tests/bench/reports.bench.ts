/**
 * The dashboard, the reports and their export on a large studio (`npm run bench:reports`).
 *
 * Seeds (in SQL, generate_series) a studio of 50,000 clients, 500,000 visits on 50,000 classes over
 * the last 13 months and 200,000 paid orders (a line and a payment each, 1 % refunded); then builds
 * the server (`npm run build:server`) and starts the cloud in a process of its own as production runs
 * it (`npm start` = `node dist/server/server.mjs`: NODE_ENV=production, one process, its job runner,
 * LOG_LEVEL=warn; node started directly, not through npm, so the pid is the server's) and, through its
 * HTTP API as the owner, one request at a time:
 * 1. first of all, the server fresh (started, nothing asked of it yet): a year of the payments report
 *    (every payment and refund: the longest export) as XLSX, read to the end by this process, while
 *    the SERVER process's resident memory is sampled (`/proc/<pid>/status` VmRSS every 20 ms, and its
 *    high-water mark VmHWM, reset just before the export through `/proc/<pid>/clear_refs`, read after);
 * 2. the dashboard (`GET backoffice/dashboard`), BENCH_REPORTS_RUNS × 4 times;
 * 3. every report of the catalog for last month and for the last 12 months (BENCH_REPORTS_RUNS times
 *    each for a month, BENCH_REPORTS_YEAR_RUNS for a year).
 * Prints p50/p95 per report and period, and last
 * `dashboard p95 ms = N, report month p95 ms = M, report year p95 ms = Y, export peak MB = E`
 * (M and Y: the worst report's p95; E: the peak resident memory of the server process during the
 * export, its resting size included — the bench's own memory, seed and reader, is not counted; the
 * resting size and the export's own rise above it are printed on the export's line). It prints
 * figures; it never passes or fails.
 *
 * BENCH_REPORTS_SCALE (default 1) scales the dataset (0.1 = 5,000 clients, 50,000 visits, 20,000
 * orders) for a quick run. Database: BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL, a
 * PostgreSQL server (a fresh database, dropped afterwards unless BENCH_KEEP_DATABASE=1); the embedded
 * PGlite holds one connection, which the server's process could not share.
 */
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { REPORT_IDS } from '../../shared/contracts/api/reports';
import { createKnex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import { openBenchDatabase } from './support/database';
import { addStudioOwner } from './support/seed';
import { startServerProcess, type ServerProcess } from './support/server-process';

const SCALE = Number(process.env.BENCH_REPORTS_SCALE ?? 1);
const CLIENTS = Math.round(50_000 * SCALE);
const VISITS = Math.round(500_000 * SCALE);
const ORDERS = Math.round(200_000 * SCALE);
const VISITS_PER_CLASS = 10;
const RUNS = Number(process.env.BENCH_REPORTS_RUNS ?? 10);
const YEAR_RUNS = Number(process.env.BENCH_REPORTS_YEAR_RUNS ?? 3);
const DAYS = 396;
const TZ = 'Europe/Warsaw';

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const ms = (n: number) => Math.round(n);
const ymd = (d: Date) => d.toISOString().slice(0, 10);

if (!(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL))
  throw new Error(
    'bench:reports needs a PostgreSQL server: BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL',
  );
const db = await openBenchDatabase('reports');
console.log(`database: ${db.label}; clients ${CLIENTS}, visits ${VISITS}, orders ${ORDERS}`);
const knex = createKnex(db.url, { singleConnection: db.single });
let app: ServerProcess | undefined;
try {
  await migrateLatest(knex);
  const seedStart = performance.now();
  const studioId = uuidv7();
  await knex('studios').insert({
    id: studioId,
    name: 'Bench studio',
    slug: `bench-${studioId.slice(-8)}`,
    currency: 'PLN',
    defaultLocale: 'pl',
    timeZone: TZ,
    studioType: 1,
    addressLine: 'ul. Testowa 1',
    postalCode: '00-001',
    city: 'Warszawa',
    country: 'PL',
    kioskKey: studioId.slice(-12),
    appearance: {},
    settings: {},
  });
  const ownerId = await addStudioOwner(knex, studioId, {
    email: (id) => `owner-${id}@bench.test`,
    firstName: 'Olga',
    lastName: 'Owner',
  });
  const locationId = uuidv7();
  await knex('locations').insert({ id: locationId, studioId, name: 'Centrum' });
  const services = Array.from({ length: 6 }, (_, i) => ({
    id: uuidv7(),
    studioId,
    name: JSON.stringify({ pl: { value: `Zajęcia ${i + 1}` } }),
    durationMinutes: 60,
  }));
  await knex('class_services').insert(services);
  const instructors: string[] = [];
  for (let i = 0; i < 8; i++)
    instructors.push(
      await addStudioOwner(knex, studioId, { email: (id) => `i-${id}@bench.test`, firstName: `Instr${i}` }),
    );
  await knex('instructor_pay_rates').insert(
    instructors.map((instructorId, i) => ({
      id: uuidv7(),
      studioId,
      instructorId,
      classServiceId: null,
      kind: ['perClass', 'perAttendee', 'perHour', 'revenuePercent'][i % 4]!,
      amount: i % 4 === 3 ? 3000 : 10000,
      minimum: 5000,
    })),
  );
  const serviceIds = services.map((s) => s.id);
  const now = new Date();
  const since = new Date(now.getTime() - DAYS * 86_400_000);
  const classes = Math.ceil(VISITS / VISITS_PER_CLASS);
  await knex.raw(
    `create temporary table bench_clients (n int primary key, user_id uuid not null) on commit preserve rows`,
  );
  await knex.raw(
    `with u as (
       insert into users (id, email, first_name, last_name)
       select gen_random_uuid(), 'c' || g || '-' || ? || '@bench.test', 'Imię' || g, 'Nazwisko' || (g % 997)
         from generate_series(1, ?) g
       returning id)
     insert into bench_clients select row_number() over (), id from u`,
    [studioId.slice(-8), CLIENTS],
  );
  await knex.raw(
    `insert into memberships (id, studio_id, user_id, is_client) select gen_random_uuid(), ?, user_id, true from bench_clients`,
    [studioId],
  );
  await knex.raw(
    `insert into clients (id, studio_id, user_id, first_name, last_name, created_at)
     select gen_random_uuid(), ?, c.user_id, 'Imię' || c.n, 'Nazwisko' || (c.n % 997),
            ?::timestamptz + (c.n % ${DAYS}) * interval '1 day'
       from bench_clients c
     on conflict do nothing`,
    [studioId, since],
  );
  // Classes spread evenly over the 13 months, between 07:00 and 21:00 UTC.
  await knex.raw(
    `insert into schedule_events (id, studio_id, class_service_id, location_id, instructor_id, instructor_ids,
                                  starts_at, ends_at, capacity)
     select gen_random_uuid(), ?, (?::uuid[])[1 + g % 6], ?, (?::uuid[])[1 + g % 8], '{}',
            ?::timestamptz + (g % ${DAYS}) * interval '1 day' + (7 + (g / ${DAYS}) % 14) * interval '1 hour',
            ?::timestamptz + (g % ${DAYS}) * interval '1 day' + (8 + (g / ${DAYS}) % 14) * interval '1 hour',
            15
       from generate_series(0, ? - 1) g`,
    [studioId, serviceIds, locationId, instructors, since, since, classes],
  );
  await knex.raw(
    `insert into client_visits (id, studio_id, schedule_event_id, client_id, starts_at, status, payment, booked_by,
                                booked_at, checked_in_at)
     select gen_random_uuid(), e.studio_id, e.id, c.user_id, e.starts_at,
            case when (e.rn + k) % 10 = 0 then 2 when (e.rn + k) % 17 = 0 then 5 else 1 end,
            'desk', 'self', e.starts_at - interval '1 day', e.starts_at
       from (select id, studio_id, starts_at, row_number() over (order by id) as rn
               from schedule_events where studio_id = ?) e
       cross join generate_series(0, ${VISITS_PER_CLASS - 1}) k
       join bench_clients c on c.n = 1 + ((e.rn * ${VISITS_PER_CLASS} + k) % ?)`,
    [studioId, CLIENTS],
  );
  await knex.raw(
    `insert into client_orders (id, studio_id, client_id, source, status, currency, subtotal, discount, total,
                                paid_at, created_at)
     select gen_random_uuid(), ?, c.user_id, 'desk', case when g % 50 = 0 then 8 else 1 end, 'PLN',
            4500 + (g % 30) * 1000, 0, 4500 + (g % 30) * 1000,
            case when g % 50 = 0 then null else ?::timestamptz + (g::float8 / ?) * interval '${DAYS} days' end,
            ?::timestamptz + (g::float8 / ?) * interval '${DAYS} days'
       from generate_series(1, ?) g join bench_clients c on c.n = 1 + g % ?`,
    [studioId, since, ORDERS, since, ORDERS, ORDERS, CLIENTS],
  );
  await knex.raw(
    `insert into client_order_lines (id, studio_id, order_id, position, kind, name, quantity, unit_price, vat_rate, total)
     select gen_random_uuid(), studio_id, id, 0, 'pass', 'Karnet ' || (total / 1000), 1, total, '2300', total
       from client_orders where studio_id = ?`,
    [studioId],
  );
  await knex.raw(
    `insert into client_order_payments (id, studio_id, order_id, client_id, method, amount, currency, status,
                                        settled_at, created_at)
     select gen_random_uuid(), studio_id, id, client_id, (array[2, 6, 0, 13])[1 + abs(hashtext(id::text)) % 4],
            total, 'PLN', 'succeeded', paid_at, paid_at
       from client_orders where studio_id = ? and paid_at is not null`,
    [studioId],
  );
  await knex.raw(
    `insert into client_order_refunds (id, studio_id, order_id, payment_id, amount, status, reason, created_at)
     select gen_random_uuid(), studio_id, order_id, id, amount, 'success', 'bench', settled_at + interval '1 day'
       from client_order_payments where studio_id = ? and abs(hashtext(id::text)) % 100 = 0`,
    [studioId],
  );
  // A studio's rows settle long before they are reported on, and autovacuum has by then marked their
  // pages all-visible (index-only scans); a fresh bulk load has not, so vacuum as autovacuum would.
  await knex.raw('vacuum analyze');
  console.log(`seeded in ${ms((performance.now() - seedStart) / 1000)} s`);

  const server = await startServerProcess(knex, db.url);
  app = server;
  const owner = await server.signedIn(ownerId);
  const base = `/api/v4/${studioId}`;
  const time = async (path: string): Promise<number> => {
    const t0 = performance.now();
    const res = await owner.get(base + path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return performance.now() - t0;
  };

  const lastMonthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const month = `from=${ymd(new Date(Date.UTC(lastMonthEnd.getUTCFullYear(), lastMonthEnd.getUTCMonth(), 1)))}&to=${ymd(lastMonthEnd)}`;
  const year = `from=${ymd(new Date(now.getTime() - 364 * 86_400_000))}&to=${ymd(now)}`;
  // The server's process: the export's memory is measured there alone (VmRSS every 20 ms, and its
  // high-water mark VmHWM reset just before the export), not the bench's (seed, HTTP reader).
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const resting = server.memory().rss;
  const exact = server.resetPeak();
  let peak = resting;
  const sample = () => (peak = Math.max(peak, server.memory().rss));
  const sampler = setInterval(sample, 20);
  const t0 = performance.now();
  const res = await fetch(`${server.url}${base}/report/payments/export?${year}&format=xlsx`, {
    headers: owner.headers(),
  });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    sample();
  }
  clearInterval(sampler);
  if (exact) peak = Math.max(peak, server.memory().hwm);
  const peakMb = peak / 1024 / 1024;
  console.log(
    `export: payments, a year as XLSX, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${ms(performance.now() - t0)} ms; ` +
      `the server process's resident memory ${mb(resting)} MB at rest, peak ${mb(peak)} MB ` +
      `(the export's rise ${mb(peak - resting)} MB; ${exact ? 'VmHWM and 20 ms samples' : '20 ms samples only'})`,
  );

  const dashboard: number[] = [];
  await time('/backoffice/dashboard'); // warm-up
  for (let i = 0; i < RUNS * 4; i++) dashboard.push(await time('/backoffice/dashboard'));
  console.log(`dashboard: p50 ${ms(pct(dashboard, 50))} ms, p95 ${ms(pct(dashboard, 95))} ms`);

  let monthWorst = 0;
  let yearWorst = 0;
  const only = process.env.BENCH_REPORTS_ONLY?.split(',');
  for (const id of REPORT_IDS.filter((r) => !only || only.includes(r))) {
    const m: number[] = [];
    const y: number[] = [];
    await time(`/report/${id}?${month}`);
    for (let i = 0; i < RUNS; i++) m.push(await time(`/report/${id}?${month}`));
    for (let i = 0; i < YEAR_RUNS; i++) y.push(await time(`/report/${id}?${year}`));
    monthWorst = Math.max(monthWorst, pct(m, 95));
    yearWorst = Math.max(yearWorst, pct(y, 95));
    console.log(
      `${id.padEnd(16)} month p50 ${ms(pct(m, 50))} ms, p95 ${ms(pct(m, 95))} ms; year p50 ${ms(pct(y, 50))} ms, p95 ${ms(pct(y, 95))} ms`,
    );
  }

  app = undefined;
  await server.close();
  console.log(
    `dashboard p95 ms = ${ms(pct(dashboard, 95))}, report month p95 ms = ${ms(monthWorst)}, report year p95 ms = ${ms(yearWorst)}, export peak MB = ${Math.round(peakMb)}`,
  );
} finally {
  await app?.close();
  await knex.destroy();
  // BENCH_REPORTS_KEEP=1 (or BENCH_KEEP_DATABASE=1) keeps the database to look at plans (EXPLAIN) afterwards.
  if (process.env.BENCH_REPORTS_KEEP || process.env.BENCH_KEEP_DATABASE) console.log(`kept ${db.url}`);
  else await db.drop();
}
