/**
 * Station bootstrap of a large studio (`npm run bench:bootstrap`), docs/offline-sync.md "Bootstrap of
 * a large studio".
 *
 * Seeds one studio of 50,000 clients and 500,000 visits (2,000 classes over the last 80 days, inside
 * the stations' 90-day visit window) in PostgreSQL with set-based `insert ... select generate_series`
 * (the changefeed triggers see them as usual), starts the cloud in this process, and runs the station
 * in a CHILD process (so its memory is the station's alone): it registers with a staff session,
 * bootstraps through the real `/sync/bootstrap` and `/sync/bootstrap/page` endpoints into SQLite
 * (staging tables, swap, closing delta pull), and reports the time and its peak RSS
 * (`process.memoryUsage().rss` sampled every 10 ms; the kernel's high-water mark is printed too).
 * Then the cloud makes 5,000 changes (five transactions of 1,000 client updates) and the station pulls
 * them through `/sync/pull`. Last line:
 * `bootstrap s = N, peak MB = M, delta 5k s = D`. It prints figures; it never passes or fails on time.
 *
 * Database: TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server: a fresh database is created
 * for the run and dropped afterwards. Without either, an in-memory embedded PGlite (slow to seed).
 * BENCH_CLIENTS and BENCH_VISITS scale it down (e.g. for a quick look).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import type { BenchApp } from './support/app';
import { openBenchDatabase } from './support/database';
import { addStudioOwner } from './support/seed';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50_000);
const VISITS = Number(process.env.BENCH_VISITS ?? 500_000);
const DELTA = 5_000;
const PAGE = 5_000;

// ---------------------------------------------------------------------------------- the station

interface StationReport {
  stage: 'bootstrapped' | 'delta';
  seconds: number;
  peakMb: number;
  hwmMb: number | null;
  counts: Record<string, number>;
  pending: number;
}

function highWaterMb(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

async function station(cloudUrl: string, cookie: string, file: string): Promise<void> {
  const { openLocalDatabase } = await import('../../desktop/main/db/database');
  const { SyncEngine } = await import('../../desktop/main/sync/engine');
  let peak = process.memoryUsage().rss;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 10);
  const db = openLocalDatabase(file);
  // Where the time goes: waiting for the cloud (request, server work, body), and the staging swap.
  let networkMs = 0;
  let swapStartedAt = 0;
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    const res = await fetch(input, init);
    const body = await res.arrayBuffer();
    networkMs += performance.now() - started;
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  // Bootstrap pages of the engine's default size; delta pages of 5,000.
  const engine = new SyncEngine(db, {
    pullPageSize: PAGE,
    fetch: timedFetch,
    hook: (point) => {
      if (point === 'beforeBootstrapSwap') swapStartedAt = performance.now();
    },
  });
  await engine.registerDevice(cloudUrl, cookie, 'Bench station');
  let swapEndedAt = 0;
  engine.once('changed', () => (swapEndedAt = performance.now()));
  const counts = () =>
    Object.fromEntries(
      (
        db.prepare('select tbl, count(*) as n from rows group by tbl').all() as Array<{
          tbl: string;
          n: number;
        }>
      ).map((r) => [r.tbl, r.n]),
    );
  const report = (r: StationReport) => process.stdout.write(`${JSON.stringify(r)}\n`);

  let t = performance.now();
  // No cursor: bootstrap (snapshot, pages into staging, swap) + delta pull. A failed round resumes
  // where it stopped, as the engine's loop would (reported: the machine is shared).
  for (let attempt = 1; ; attempt++) {
    try {
      await engine.syncOnce();
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      process.stderr.write(`station: sync round ${attempt} failed (${String(err)}), resuming\n`);
    }
  }
  sample();
  // Pages are fetched while the previous one is written, so waiting and writing overlap: "the rest" is
  // the time not covered by either measured part.
  process.stderr.write(
    `station: requests in flight ${(networkMs / 1000).toFixed(1)} s, swap ${((swapEndedAt - swapStartedAt) / 1000).toFixed(1)} s, closing pull ${((performance.now() - swapEndedAt) / 1000).toFixed(1)} s, pages before the swap ${((swapStartedAt - t) / 1000).toFixed(1)} s\n`,
  );
  report({
    stage: 'bootstrapped',
    seconds: (performance.now() - t) / 1000,
    peakMb: Math.round(peak / 1048576),
    hwmMb: highWaterMb(),
    counts: counts(),
    pending: engine.status().pending,
  });

  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line !== 'delta') continue;
    peak = process.memoryUsage().rss;
    t = performance.now();
    await engine.pull();
    sample();
    report({
      stage: 'delta',
      seconds: (performance.now() - t) / 1000,
      peakMb: Math.round(peak / 1048576),
      hwmMb: highWaterMb(),
      counts: counts(),
      pending: engine.status().pending,
    });
    break;
  }
  lines.close();
  clearInterval(timer);
  db.close();
}

// ---------------------------------------------------------------------------------- the cloud

type Knex = import('knex').Knex;

async function seed(knex: Knex): Promise<{ studioId: string; ownerId: string }> {
  const studioId = uuidv7();
  const tag = studioId.slice(-8);
  await knex('studios').insert({
    id: studioId,
    name: 'Bootstrap bench studio',
    slug: `boot-${tag}`,
    kioskKey: studioId.slice(-12),
    timeZone: 'Europe/Warsaw',
  });
  const ownerId = await addStudioOwner(knex, studioId, {
    email: () => `owner-${tag}@example.com`,
    firstName: 'Bench',
    lastName: 'Owner',
  });

  await knex.raw(
    `insert into users (id, email, first_name, last_name, phone)
     select gen_random_uuid(), 'c' || g || '-${tag}@example.com', 'Imię' || g, 'Nazwisko' || (g % 997),
            '+48 600 ' || lpad((g % 1000000)::text, 6, '0')
       from generate_series(1, ?) g`,
    [CLIENTS],
  );
  // The memberships trigger writes each client's studio record (the synced `clients` row).
  await knex.raw(
    `insert into memberships (id, studio_id, user_id, is_client)
     select gen_random_uuid(), ?, u.id, true from users u where u.email like ?`,
    [studioId, `c%-${tag}@example.com`],
  );

  const locationId = uuidv7();
  await knex('locations').insert({ id: locationId, studioId, name: 'Main hall' });
  const serviceId = uuidv7();
  await knex('class_services').insert({
    id: serviceId,
    studioId,
    name: JSON.stringify({ en: { value: 'Yoga' }, pl: { value: 'Joga' } }),
    durationMinutes: 60,
  });
  // Classes over the last 80 days; each "round" of 50,000 visits spreads over its own 200 classes,
  // so (class, client) stays unique.
  const rounds = Math.max(1, Math.ceil(VISITS / CLIENTS));
  const events = rounds * 200;
  await knex.raw(
    `insert into schedule_events (id, studio_id, class_service_id, location_id, starts_at, ends_at, capacity)
     select gen_random_uuid(), ?, ?, ?, t, t + interval '1 hour', 1000
       from (select date_trunc('hour', now()) - make_interval(days => 80) + g * (interval '80 days' / ?) as t
               from generate_series(0, ? - 1) g) s`,
    [studioId, serviceId, locationId, events, events],
  );
  await knex.raw(
    `with c as (select user_id, (row_number() over (order by user_id) - 1)::int as n
                  from clients where studio_id = ?),
          e as (select id, starts_at, (row_number() over (order by starts_at, id) - 1)::int as n
                  from schedule_events where studio_id = ?)
     insert into client_visits (id, studio_id, schedule_event_id, client_id, starts_at, status, payment,
                                booked_by, booked_at, checked_in_at)
     select gen_random_uuid(), ?, e.id, c.user_id, e.starts_at, 1, 'desk', 'staff', e.starts_at, e.starts_at
       from generate_series(0, ? - 1) i
       join c on c.n = i % ?
       join e on e.n = (i / ?) * 200 + (c.n % 200)`,
    [studioId, studioId, studioId, VISITS, CLIENTS, CLIENTS],
  );
  await knex.raw('analyze');
  return { studioId, ownerId };
}

async function cloud(): Promise<void> {
  const [{ startBenchApp }, { systemClock }, { createKnex }, { migrateLatest }] = await Promise.all([
    import('./support/app'),
    import('../../cloud/src/clock'),
    import('../../cloud/src/db/knex'),
    import('../../cloud/src/db/migrate'),
  ]);
  const { openSession } = await import('../../cloud/src/modules/identity/sessions.service');

  const db = await openBenchDatabase('bootstrap_bench');
  const knex = createKnex(db.url, { singleConnection: db.single });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bootstrap-bench-'));
  let app: BenchApp | undefined;
  try {
    console.log(`database: ${db.label}`);
    console.log(
      `machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (shared: figures vary)`,
    );
    await migrateLatest(knex);
    let t = performance.now();
    const s = await seed(knex);
    const expected = {
      clients: Number((await knex('clients').where({ studioId: s.studioId }).count({ n: '*' }))[0]!.n),
      client_visits: Number(
        (await knex('client_visits').where({ studioId: s.studioId }).count({ n: '*' }))[0]!.n,
      ),
    };
    console.log(
      `seeded ${expected.clients} clients and ${expected.client_visits} visits in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    app = await startBenchApp(knex, { dataDir: tmp });
    const url = app.url;
    const { sessionId } = await openSession(knex, systemClock, s.ownerId, 24, {});
    const cookie = encodeURIComponent(`${s.ownerId}:${sessionId}`);

    const child = spawn(
      process.execPath,
      [
        // `node --cpu-prof --cpu-prof-dir=DIR --import tsx tests/bench/bootstrap.bench.ts` profiles both.
        ...process.execArgv.filter((a) => a.startsWith('--cpu-prof')),
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--station',
        url,
        cookie,
        path.join(tmp, 'station.db'),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    // One iterator for the whole run: leaving a for-await loop would close the interface.
    const reports = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<StationReport> => {
      for (;;) {
        const line = await reports.next();
        if (line.done) throw new Error('the station process ended early');
        if (line.value.startsWith('{')) return JSON.parse(line.value) as StationReport;
      }
    };
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const boot = await next();
    console.log(
      `bootstrap: ${boot.seconds.toFixed(1)} s, station peak RSS ${boot.peakMb} MB sampled (${boot.hwmMb ?? '?'} MB high-water mark), rows ${JSON.stringify(boot.counts)}`,
    );
    for (const [table, n] of Object.entries(expected))
      if (boot.counts[table] !== n)
        console.log(`MISMATCH: ${table} local ${boot.counts[table]} vs cloud ${n}`);

    t = performance.now();
    const ids = (await knex('clients')
      .where({ studioId: s.studioId })
      .orderBy('id')
      .limit(DELTA)
      .pluck('id')) as string[];
    for (let i = 0; i < ids.length; i += 1000)
      await knex('clients')
        .whereIn('id', ids.slice(i, i + 1000))
        .update({ lastName: knex.raw(`last_name || ' (delta)'`), updatedAt: knex.fn.now() });
    console.log(
      `cloud: ${ids.length} client changes in 5 transactions, ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    child.stdin.write('delta\n');
    const delta = await next();
    child.stdin.end();
    await ended;
    const changed = (() => {
      const probe = new Database(path.join(tmp, 'station.db'), { readonly: true });
      try {
        return (
          probe
            .prepare(
              `select count(*) as n from rows where tbl = 'clients' and json_extract(data, '$.last_name') like '% (delta)'`,
            )
            .get() as { n: number }
        ).n;
      } finally {
        probe.close();
      }
    })();
    console.log(
      `delta pull: ${delta.seconds.toFixed(2)} s, ${changed} changed clients in the station's cache`,
    );
    console.log(
      `bootstrap s = ${boot.seconds.toFixed(1)}, peak MB = ${boot.peakMb}, delta 5k s = ${delta.seconds.toFixed(2)}`,
    );
  } finally {
    await app?.close();
    await knex.destroy();
    await db.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--station') await station(args[1]!, args[2]!, args[3]!);
else await cloud();
