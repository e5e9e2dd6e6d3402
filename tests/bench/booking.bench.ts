/**
 * Booking throughput and timetable latency (`npm run bench:booking`).
 *
 * Seeds a studio with a week of 500 classes, clients with passes and a past (10 attended visits each,
 * before the statistics are taken), and big "booking" classes; then, after a warm-up of 1,000
 * bookings on each path (BENCH_WARM_BOOKINGS),
 * 1. drives `POST booking/classroom/book` through the HTTP API with 32 concurrent clients booking 6
 *    classes at once (booking i: class i mod 6, so every class's lock is contended, as in a rush).
 *    On PostgreSQL the server runs as `npm start` runs it, the built bundle in a process of its own
 *    (`support/server-process.ts`), so this process's load generator does not share its core,
 * 2. runs the same booking transaction as raw SQL through a direct `pg` driver loop with the same
 *    concurrency on 6 classes of its own: the statements `bookVisit` runs, in its order, prepared as
 *    the service prepares them on PostgreSQL (see `sqlBooking`),
 *    The two loops take turns (BENCH_BOOKING_ROUNDS rounds, 4 by default), so a machine whose load
 *    drifts during the run weighs on both alike; each round's rates and the load are printed.
 * 3. measures the week's timetable: the front office's `POST /api/v4/{uuid}/schedule` and the back
 *    office's `POST schedule/find`, one request at a time, to the answer's last byte (and, printed
 *    beside, through the test client's fetch with its parse of the answer).
 * Prints both throughputs, p50/p95 of one API booking, p50/p95 of each timetable call, and last
 * `booking api/sql ratio = R, api bookings per s = B, timetable p95 ms = N` (R = API rate / SQL rate;
 * B = API bookings per second; N = the worse p95 of the two timetable calls). It prints figures; it
 * never passes or fails.
 *
 * Database: TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server: a fresh database is created
 * for the run and dropped afterwards. Without either, an in-memory embedded PGlite (one connection, so
 * both loops run one booking at a time).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { createKnex, preparedName, type Knex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import { statements } from '../../cloud/src/jobs/queue';
import type { CompiledStatement } from '../../cloud/src/db/compiled';
import {
  BOOKING_FACTS,
  EVENT_LOCKING_CLIENT,
  LOCK_EVENT_RULES_SQL,
  LOCK_THEN_PLACE,
} from '../../cloud/src/modules/bookings/book.service';
import { PASS_CANDIDATES } from '../../cloud/src/modules/catalog/client-pricing-options.service';
import { addLocalDays, startOfLocalDate } from '../../shared/domain/entitlements/local-dates';
import { HttpClient } from '../support/http-client';
import { startBenchApp, type BenchApp } from './support/app';
import { openBenchDatabase } from './support/database';
import { startServerProcess } from './support/server-process';

const WEEK_EVENTS = Number(process.env.BENCH_WEEK_EVENTS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 400);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** Classes each loop books at once (a rush on a few popular classes). */
const CLASSES = Number(process.env.BENCH_CLASSES ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
/** Past visits of each client (attended classes of the weeks before), seeded before the statistics. */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 10);
/** Bookings of each loop before the timed ones (a warm-up, included in BENCH_BOOKINGS). */
const WARM = Number(process.env.BENCH_WARM_BOOKINGS ?? 1000);
/** Turns the API and the SQL loop take (each books BOOKINGS / BOOKING_ROUNDS per turn). */
const BOOKING_ROUNDS = Number(process.env.BENCH_BOOKING_ROUNDS ?? 4);
const TZ = 'Europe/Warsaw';
/**
 * A file to write a CPU profile of the timed API rounds to (open it in Chrome's DevTools). The profile
 * is taken in this process, so the server then runs in it too (see `main`).
 */
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;
/** BENCH_IN_PROCESS=1: the server in this process even on PostgreSQL (as before session 17). */
const IN_PROCESS = Boolean(process.env.BENCH_IN_PROCESS);

/**
 * The timed bookings' client: node:http over kept-alive sockets, the way a load generator on another
 * machine would send them. fetch (undici) spends about a millisecond of this process's CPU per call
 * on its streams, CPU the server then lacks on a 2-core machine; the warm-up goes through the test
 * client (`HttpClient`), which also checks each answer against the route's response schema.
 */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });
function leanPost(
  client: HttpClient,
  url: string,
  body: unknown,
): Promise<{ status: number; text: string; header(name: string): string | undefined }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          ...client.headers(),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            header: (name) => {
              const value = res.headers[name.toLowerCase()];
              return Array.isArray(value) ? value.join(', ') : value;
            },
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Cores and load average (1, 5, 15 min), like `uptime`. */
function machineLoad(when: string): string {
  const load = os.loadavg().map((l) => l.toFixed(2));
  return `machine ${when}: ${os.cpus().length} cores, load average ${load.join(', ')}`;
}

/**
 * CPU time (user + system, in clock ticks of 10 ms) each PostgreSQL backend of this database with
 * this application name has used so far, read from /proc (a server on this machine; empty when it is
 * not, or PGlite). Wall-clock rates on a machine loaded by others mostly measure waiting for a core;
 * CPU per booking does not.
 */
async function backendTicks(knex: Knex, application: string): Promise<Map<number, number>> {
  const { rows } = (await knex.raw(
    'select pid from pg_stat_activity where datname = current_database() and application_name = ?',
    [application],
  )) as { rows: Array<{ pid: number }> };
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields after "(comm) ": state is field 3, utime 14, stime 15.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Not a process of this machine.
    }
  }
  return ticks;
}

/**
 * A process's CPU so far with its children's (a cluster's workers), in clock ticks of 10 ms (user and
 * system), from /proc.
 */
function processTicks(pid: number): { user: number; system: number } {
  const total = { user: 0, system: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      // Fields after "(comm) ": ppid is field 4, utime 14, stime 15.
      fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
    } catch {
      continue; // gone meanwhile
    }
    if (Number(entry) !== pid && Number(fields[1]) !== pid) continue;
    total.user += Number(fields[11]);
    total.system += Number(fields[12]);
  }
  return total;
}

/**
 * Adds up the CPU of this process (Node: the driver loop, or the load generator), of the server's
 * process when it runs in one of its own (`serverPid`), and of PostgreSQL backends between `start`
 * and `stop`.
 */
function cpuMeter(knex: Knex, application: string, serverPid?: number) {
  let nodeMicros = 0;
  let nodeSystemMicros = 0;
  let serverTicks = 0;
  let serverSystemTicks = 0;
  let pgTicks = 0;
  let seen = false;
  let node0 = process.cpuUsage();
  let server0 = { user: 0, system: 0 };
  let pg0 = new Map<number, number>();
  return {
    async start() {
      pg0 = await backendTicks(knex, application);
      if (serverPid) server0 = processTicks(serverPid);
      node0 = process.cpuUsage();
    },
    async stop() {
      const node = process.cpuUsage(node0);
      nodeMicros += node.user + node.system;
      nodeSystemMicros += node.system;
      if (serverPid) {
        const now = processTicks(serverPid);
        serverTicks += now.user + now.system - server0.user - server0.system;
        serverSystemTicks += now.system - server0.system;
      }
      const pg1 = await backendTicks(knex, application);
      seen ||= pg1.size > 0;
      for (const [pid, t] of pg1) pgTicks += t - (pg0.get(pid) ?? 0);
    },
    /**
     * Milliseconds per unit of work: this process's Node, the server process's (null when the server
     * runs in this one), and PostgreSQL's (null when not readable).
     */
    per(n: number) {
      return {
        node: nodeMicros / 1000 / n,
        nodeSystem: nodeSystemMicros / 1000 / n,
        server: serverPid ? (serverTicks * 10) / n : null,
        serverSystem: serverPid ? (serverSystemTicks * 10) / n : null,
        pg: seen ? (pgTicks * 10) / n : null,
      };
    },
  };
}

/**
 * Where one timetable call's time went, from the server's `Server-Timing` header (http/server-timing.ts):
 * its queries (`db`), the rest of the server's handling (`total` − `db`: routing, session, validation,
 * the JSON answer), and what lies outside the server's handler (the measured time − `total`: the HTTP
 * exchange of the answer, about 400 KB for the week, and the wait for the event loop).
 */
interface TimingParts {
  db: number;
  server: number;
  outside: number;
}
function timingParts(serverTiming: string | undefined | null, measuredMs: number): TimingParts {
  const header = serverTiming ?? '';
  const dur = (name: string) => Number(new RegExp(`${name};dur=([0-9.]+)`).exec(header)?.[1] ?? NaN);
  const total = dur('total');
  const db = dur('db');
  return { db, server: total - db, outside: measuredMs - total };
}
function describeParts(parts: TimingParts[]): string {
  const p50 = (pick: (p: TimingParts) => number) => stats(parts.map(pick)).p50.toFixed(1);
  return `database ${p50((p) => p.db)} ms, rest of the server ${p50((p) => p.server)} ms, outside the server ${p50((p) => p.outside)} ms`;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

async function seed(knex: Knex) {
  const studioId = uuidv7();
  await knex('studios').insert({
    id: studioId,
    name: 'Bench studio',
    slug: `bench-${studioId.slice(-8)}`,
    kioskKey: studioId.slice(-12),
    timeZone: TZ,
  });
  const locations = [uuidv7(), uuidv7()];
  await knex('locations').insert(locations.map((id, i) => ({ id, studioId, name: `Location ${i + 1}` })));
  const rooms = locations.flatMap((loc) => [0, 1, 2].map(() => ({ id: uuidv7(), location_id: loc })));
  await knex('location_rooms').insert(
    rooms.map((r, i) => ({
      id: r.id,
      studioId,
      locationId: r.location_id,
      name: `Room ${i + 1}`,
      capacity: 30,
    })),
  );
  const services = Array.from({ length: 8 }, (_, i) => ({
    id: uuidv7(),
    studioId,
    name: JSON.stringify({ en: { value: `Class ${i + 1}` } }),
    durationMinutes: 60,
  }));
  await knex('class_services').insert(services);
  const instructors = Array.from({ length: 10 }, (_, i) => ({
    id: uuidv7(),
    email: `teacher${i}-${studioId.slice(-6)}@example.com`,
    first_name: `Teacher${i}`,
    last_name: 'Bench',
  }));
  await knex('users').insert(instructors);
  await knex('memberships').insert(
    instructors.map((u) => ({
      id: uuidv7(),
      studioId,
      userId: u.id,
      isMember: true,
      role: 'instructor',
    })),
  );
  const metaId = uuidv7();
  await knex('schedule_metas').insert({
    id: metaId,
    studioId,
    classServiceId: services[0]!.id,
    locationId: locations[0]!,
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    startTime: '07:00',
    durationMinutes: 60,
    firstDate: '2026-01-01',
    capacity: 20,
    waitingListSize: 5,
    cancellationCutoffMinutes: 120,
  });

  // The week measured: Monday of next week, 500 classes between 06:00 and 22:00 over seven days.
  const today = new Date().toISOString().slice(0, 10);
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay() || 7;
  const monday = addLocalDays(today, 8 - weekday);
  const week = Array.from({ length: WEEK_EVENTS }, (_, i) => {
    const day = i % 7;
    const slot = Math.floor(i / 7);
    const start = new Date(
      startOfLocalDate(addLocalDays(monday, day), TZ).getTime() +
        (6 * 60 + ((slot * 13) % (16 * 60))) * 60_000,
    );
    const room = rooms[i % rooms.length]!;
    return {
      id: uuidv7(),
      studioId,
      scheduleMetaId: metaId,
      classServiceId: services[i % services.length]!.id,
      locationId: room.location_id,
      roomId: room.id,
      instructorId: instructors[i % instructors.length]!.id,
      instructorIds: [instructors[i % instructors.length]!.id],
      startsAt: start,
      endsAt: new Date(start.getTime() + 3_600_000),
      capacity: 20,
      waitingListSize: 5,
    };
  });
  for (let i = 0; i < week.length; i += 200) await knex('schedule_events').insert(week.slice(i, i + 200));
  // Other weeks around it, so the range scan does real work.
  const noise = Array.from({ length: WEEK_EVENTS * 4 }, (_, i) => {
    const start = new Date(
      startOfLocalDate(addLocalDays(monday, i % 2 === 0 ? -14 - (i % 14) : 14 + (i % 14)), TZ).getTime() +
        8 * 3_600_000,
    );
    return {
      id: uuidv7(),
      studioId,
      classServiceId: services[i % services.length]!.id,
      locationId: locations[0]!,
      startsAt: start,
      endsAt: new Date(start.getTime() + 3_600_000),
      capacity: 20,
    };
  });
  for (let i = 0; i < noise.length; i += 500) await knex('schedule_events').insert(noise.slice(i, i + 500));

  // Big classes the two booking loops fill (CLASSES each), a few days ahead so every rule passes. No
  // two overlap in time (each on its own day and hour): both loops book the same clients, and an
  // overlapping class is a conflict the booking refuses.
  const bookingEvents = (n: number, firstHour: number) =>
    Array.from({ length: n }, (_, i) => {
      const start = new Date(
        startOfLocalDate(addLocalDays(monday, i % 7), TZ).getTime() + (firstHour + (i % 8)) * 3_600_000,
      );
      return {
        id: uuidv7(),
        studioId,
        scheduleMetaId: null,
        classServiceId: services[7]!.id,
        locationId: locations[1]!,
        startsAt: start,
        endsAt: new Date(start.getTime() + 50 * 60_000),
        capacity: 100_000,
        waitingListSize: 0,
        isHidden: true,
      };
    });
  // Booking i: class i mod CLASSES, client (i div CLASSES) mod CLIENTS; the next CLASSES classes once
  // every client has booked the first ones.
  const perLoop = CLASSES * Math.ceil(BOOKINGS / (CLASSES * CLIENTS));
  const apiEvents = bookingEvents(perLoop, 6);
  const sqlEvents = bookingEvents(perLoop, 14);
  await knex('schedule_events').insert([...apiEvents, ...sqlEvents]);

  const optionId = uuidv7();
  await knex('pricing_options').insert({
    id: optionId,
    studioId,
    name: JSON.stringify({ en: { value: 'Unlimited' } }),
    price: 19900,
    entries: null,
    expirationType: 2,
  });
  const clients = Array.from({ length: CLIENTS }, (_, i) => ({
    id: uuidv7(),
    email: `client${i}-${studioId.slice(-6)}@example.com`,
    first_name: `Client${i}`,
    last_name: 'Bench',
  }));
  const passOf = new Map(clients.map((c) => [c.id, uuidv7()]));
  for (let i = 0; i < clients.length; i += 500) {
    const chunk = clients.slice(i, i + 500);
    await knex('users').insert(chunk);
    await knex('memberships').insert(
      chunk.map((u) => ({ id: uuidv7(), studioId, userId: u.id, isClient: true })),
    );
    await knex('client_pricing_options').insert(
      chunk.map((u) => ({
        id: passOf.get(u.id)!,
        studioId,
        clientId: u.id,
        pricingOptionId: optionId,
        soldAt: new Date('2026-01-01T00:00:00Z'),
        entries: 10_000,
        expirationType: 2,
      })),
    );
  }
  // History: each client attended HISTORY classes of the past weeks, paid with their pass, so the
  // visits table is not empty when the statistics are taken (below) and the planner chooses, for the
  // prepared statements of both loops alike, the plans a studio with a past gets. With an empty table
  // analysed, a plan chosen early on one loop's connections read twice the pages of the other's.
  const past = noise.filter((e) => e.startsAt.getTime() < startOfLocalDate(monday, TZ).getTime());
  const history = clients.flatMap((c, ci) =>
    Array.from({ length: Math.min(HISTORY, past.length) }, (_, k) => {
      const event = past[(ci * HISTORY + k) % past.length]!;
      return {
        id: uuidv7(),
        studioId,
        scheduleEventId: event.id,
        clientId: c.id,
        startsAt: event.startsAt,
        status: 1,
        payment: 'pass',
        clientPricingOptionId: passOf.get(c.id)!,
        bookedBy: 'self',
        bookedAt: new Date(event.startsAt.getTime() - 86_400_000),
      };
    }),
  );
  for (let i = 0; i < history.length; i += 1000)
    await knex('client_visits').insert(history.slice(i, i + 1000));

  const owner = {
    id: uuidv7(),
    email: `owner-${studioId.slice(-6)}@example.com`,
    first_name: 'Bench',
    last_name: 'Owner',
  };
  await knex('users').insert(owner);
  await knex('memberships').insert({
    id: uuidv7(),
    studioId,
    userId: owner.id,
    isMember: true,
    role: 'owner',
  });
  await knex.raw('analyze');
  return { studioId, monday, clients, owner, apiEvents, sqlEvents };
}

/** Runs `total` jobs with `concurrency` workers; answers jobs per second. */
async function drive(total: number, concurrency: number, job: (i: number) => Promise<void>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await job(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/**
 * The booking transaction of `bookVisit` (book.service.ts), as raw SQL: the same statements in the
 * same order, each as one round trip — the service's own compiled texts (`EVENT_LOCKING_CLIENT`,
 * `BOOKING_FACTS`, `PASS_CANDIDATES`, `LOCK_THEN_PLACE`: db/compiled.ts) with their values. Before
 * the class's lock: the class's rules with the client's row locked, the booking facts (standing
 * visit, places and counts as they look, tags, overlapping classes, any contract, booking settings,
 * shared passes locked), the client's passes with their changes and visits, their contracts (when
 * they have any), the confirmation mail queued; then the class's lock and ONE statement under it
 * (places counted, the visit written with the status they allow, the pass projection, the mail
 * taken back when no place was taken), then the commit. The decision runs in JS as the API's does
 * (no pure-rule library, only the checks this workload needs). What the API adds on top is its own
 * cost: HTTP, the session and studio scope lookup, validation, the rules, presenting and the answer.
 */
async function sqlBooking(
  client: pg.ClientBase,
  studioId: string,
  eventId: string,
  clientId: string,
  prepare: boolean,
) {
  // As the service runs them on PostgreSQL: prepared statements (db/knex.ts `prepared`), planned once
  // per connection.
  const query = (text: string, values?: unknown[]) =>
    prepare ? client.query({ text, values, name: preparedName(text) }) : client.query(text, values);
  /** One of the service's compiled statements, its text and values as the service sends them. */
  const run = <P extends Record<string, unknown>>(statement: CompiledStatement<P>, params: P) =>
    query(statement.text, statement.values(params));
  await client.query('begin');
  try {
    const ev = await run(EVENT_LOCKING_CLIENT, { studioId, eventId, clientId });
    const event = ev.rows[0];
    const facts = await run(BOOKING_FACTS, {
      eventId,
      clientId,
      studioId,
      startsAt: event.starts_at,
      endsAt: event.ends_at,
      dayBefore: new Date(event.starts_at.getTime() - 24 * 3_600_000),
    });
    const passes = await run(PASS_CANDIDATES, { studioId, userId: clientId });
    const f = facts.rows[0];
    // Their contracts, when they have any (the benchmark's clients have none, as the service skips).
    if (f.hasContracts)
      await query(
        `select cc.id, cc.service_types, cc.restrictions, c.service_types as contract_service_types,
                c.restrictions as contract_restrictions, cc.entitled_from, cc.ends_on
           from client_contracts cc join contracts c on c.id = cc.contract_id
          where cc.studio_id = $1 and cc.client_id = $2 and (cc.ends_on is null or cc.ends_on >= $3)
          order by cc.id limit 100`,
        [studioId, clientId, new Date(event.starts_at.getTime() - 24 * 3_600_000).toISOString().slice(0, 10)],
      );
    const holds = new Set([0, 1, 2, 5, 6, 9]);
    const pass = passes.rows.find(
      (p) =>
        p.entries === null ||
        (p.visit_facts as Array<{ status: number }>).filter((v) => holds.has(v.status)).length < p.entries,
    );
    if (!event.client_row || f.existingId || f.hasConflict || !pass) throw new Error('refused');
    const visitId = uuidv7();
    // The confirmation mail: a job in the same transaction, queued before the lock as the service does.
    const jobId = await statements.send(
      'booking.mail',
      { studioId, clientId, visitId, kind: 'confirmed', details: {} },
      { db: { executeSql: (text, values) => query(text, values) } },
    );
    // The class's lock and the one statement under it, in one round trip (as the service places).
    const placed = await run(LOCK_THEN_PLACE, {
      lockSql: LOCK_EVENT_RULES_SQL,
      lockArgs: JSON.stringify({ studioId, eventId }),
      rulesHash: event.rules_hash,
      placeArgs: JSON.stringify({
        eventId,
        capacity: event.capacity,
        listSize: event.waiting_list_size,
        withPlace: 0,
        full: null,
        fullListFull: null,
        id: visitId,
        studioId,
        clientId,
        startsAt: event.starts_at,
        payment: 'pass',
        passId: pass.id,
        contractId: null,
        bookedBy: 'self',
        bookedByUserId: clientId,
        now: new Date(),
        passStatus: 1,
        activatedAt: pass.sold_at,
        expiresAt: null,
        projectedPassId: pass.id,
        mailJobId: jobId,
      }),
    });
    if (placed.rows[0].r.changed || placed.rows[0].r.status === null) throw new Error('refused: full');
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}

async function main() {
  const db = await openBenchDatabase('booking_bench');
  // Named connections, so the CPU of each loop's PostgreSQL backends can be told apart.
  const named = (application: string) =>
    db.single ? db.url : `${db.url}${db.url.includes('?') ? '&' : '?'}application_name=${application}`;
  const knex = createKnex(named('bench-api'), { singleConnection: db.single });
  let app: (BenchApp & { pid?: number }) | undefined;
  let pool: pg.Pool | undefined;
  try {
    console.log(`database: ${db.label}`);
    console.log(machineLoad('at start'));
    await migrateLatest(knex);
    let t = performance.now();
    const s = await seed(knex);
    console.log(
      `seeded ${WEEK_EVENTS} classes in the week of ${s.monday} (+${WEEK_EVENTS * 4} in other weeks), ${CLIENTS} clients with passes and ${HISTORY} past visits each in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    // The server as production runs it: the built bundle in a process of its own (`npm start`'s
    // command line), so this process's load generator does not take the server's one core. In this
    // process on PGlite (one connection), or when profiling (BENCH_CPU_PROFILE) or told to.
    const ownProcess = !db.single && !CPU_PROFILE && !IN_PROCESS;
    app = ownProcess
      ? await startServerProcess(knex, named('bench-api'), {
          // Its worker takes no booking mail during the run (the bench's in-process app ran none
          // either): it looks for jobs once an hour.
          env: {
            JOBS_POLL_SECONDS: '3600',
            LOG_LEVEL: 'error',
            WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
          },
        })
      : await startBenchApp(knex);
    console.log(
      ownProcess
        ? `server: the built bundle in its own process (pid ${app.pid}; WEB_CONCURRENCY ${process.env.WEB_CONCURRENCY ?? 1}), ${process.env.DATABASE_POOL_MAX ?? 10} pooled connections per process`
        : 'server: in this process (tsx)',
    );
    const url = app.url;
    const signed = app.signedIn;
    const clientHttp: HttpClient[] = [];
    for (const c of s.clients) clientHttp.push(await signed(c.id));
    const owner = await signed(s.owner.id);
    const anon = await HttpClient.anonymous(url);
    const base = `/api/v4/${s.studioId}`;
    const concurrency = db.single ? 1 : CONCURRENCY;

    // Warm up both paths on events of their own.
    // Booking i: client i mod CLIENTS, class (client + round) mod CLASSES, where a round is CLIENTS
    // bookings (the next CLASSES classes once every client booked these): the bookings in flight are
    // 32 different clients spread over the 6 classes, each class contended, as in a rush. (Until
    // session 12, six consecutive bookings were one client's, so about 5 of the 32 in flight always
    // waited for one client's lock — one person booking six classes in the same instant.)
    const pair = (i: number, events: Array<{ id: string }>) => {
      const client = i % CLIENTS;
      const round = Math.floor(i / CLIENTS);
      return {
        client,
        event: events[((client + round) % CLASSES) + CLASSES * Math.floor(i / (CLASSES * CLIENTS))]!.id,
      };
    };
    const bookingMs: number[] = [];
    // The first `checked` bookings go one at a time through the test client, which checks each answer
    // against the route's response schema; the warm-up then books at full concurrency until `warm`,
    // so that both loops are timed warm (the server's hot functions optimised, every pooled connection
    // open with its statements prepared), as a server that has been up for a while is. With 50
    // bookings one at a time, the API's first timed round ran at 240–270/s and the next ones at
    // 310–345/s; the server's CPU per booking still fell from 2.25 to 2.0 ms between 300 and 1,000
    // bookings of warm-up.
    const checked = Math.min(50, CLIENTS);
    const warm = Math.max(checked, Math.min(WARM, BOOKINGS - BOOKING_ROUNDS));

    // 1. HTTP API.
    const apiJob = async (i: number) => {
      const p = pair(i, s.apiEvents);
      const started = performance.now();
      // The warm-up's answers are checked against the route's response schema; timed ones go through
      // the lean client (`leanPost`): the check and fetch are the test client's work, not the API's.
      const body = { scheduleEventId: p.event };
      const res =
        i < checked
          ? await clientHttp[p.client]!.post(`${base}/booking/classroom/book`, body)
          : await leanPost(clientHttp[p.client]!, `${url}${base}/booking/classroom/book`, body);
      bookingMs.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`API booking ${i}: HTTP ${res.status} ${res.text}`);
    };
    // 2. The same transaction as raw SQL through a direct driver loop.
    pool = db.single ? undefined : new pg.Pool({ connectionString: named('bench-sql'), max: 10 });
    /** `n` SQL bookings from index `from`; answers bookings per second. */
    const sqlRun = async (n: number, from: number, workers: number): Promise<number> => {
      if (pool) {
        const p = pool;
        return drive(n, workers, async (i) => {
          const c = await p.connect();
          try {
            const at = pair(from + i, s.sqlEvents);
            await sqlBooking(c, s.studioId, at.event, s.clients[at.client]!.id, true);
          } finally {
            c.release();
          }
        });
      }
      // One connection (PGlite): the knex pool holds it; run the driver loop through it, and give it
      // back before the API (or the report) reads through the pool again.
      const conn = (await knex.client.acquireConnection()) as pg.ClientBase;
      try {
        return await drive(n, 1, (i) => {
          const at = pair(from + i, s.sqlEvents);
          return sqlBooking(conn, s.studioId, at.event, s.clients[at.client]!.id, false);
        });
      } finally {
        await knex.client.releaseConnection(conn);
      }
    };

    for (let i = 0; i < checked; i++) await apiJob(i);
    await drive(warm - checked, concurrency, (i) => apiJob(checked + i));
    await sqlRun(checked, 0, 1);
    await sqlRun(warm - checked, checked, concurrency);
    bookingMs.length = 0;
    // The two loops take turns in rounds: on a shared machine the load drifts during a run, and
    // alternating lets both see the same load (one long API phase, then one SQL phase, did not).
    const total = BOOKINGS - warm;
    const perRound = Math.floor(total / BOOKING_ROUNDS);
    let apiSeconds = 0;
    let sqlSeconds = 0;
    const apiCpu = cpuMeter(knex, 'bench-api', app.pid);
    const sqlCpu = cpuMeter(knex, 'bench-sql');
    const profiler = CPU_PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
    }
    for (let r = 0; r < BOOKING_ROUNDS; r++) {
      const from = warm + r * perRound;
      const n = r === BOOKING_ROUNDS - 1 ? BOOKINGS - from : perRound;
      await apiCpu.start();
      if (profiler) await profiler.post('Profiler.start');
      const api = await drive(n, concurrency, (i) => apiJob(from + i));
      if (profiler) {
        // A profile per API round (the SQL rounds between them left out): <file>.round-N.cpuprofile.
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(
          `${CPU_PROFILE!.replace(/\.cpuprofile$/, '')}.round-${r + 1}.cpuprofile`,
          JSON.stringify(profile),
        );
      }
      await apiCpu.stop();
      await sqlCpu.start();
      const sql = await sqlRun(n, from, concurrency);
      await sqlCpu.stop();
      apiSeconds += n / api;
      sqlSeconds += n / sql;
      console.log(
        `round ${r + 1}: API ${api.toFixed(0)}/s, raw SQL ${sql.toFixed(0)}/s, ratio ${(api / sql).toFixed(2)} (${n} bookings each; ${machineLoad('now')})`,
      );
    }
    const apiRate = total / apiSeconds;
    const sqlRate = total / sqlSeconds;
    console.log(
      `API booking: ${apiRate.toFixed(0)} bookings/s (${total} bookings, ${concurrency} concurrent clients on ${CLASSES} classes)`,
    );
    const cpuApi = apiCpu.per(total);
    const cpuSql = sqlCpu.per(total);
    const ms = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)} ms`);
    const apiNode =
      cpuApi.server === null
        ? `Node ${ms(cpuApi.node)} (server and its load generator; ${ms(cpuApi.nodeSystem)} of it in the kernel)`
        : `server ${ms(cpuApi.server)} (${ms(cpuApi.serverSystem)} of it in the kernel), load generator ${ms(cpuApi.node)}`;
    console.log(
      `CPU per booking: API — ${apiNode}, PostgreSQL ${ms(cpuApi.pg)}; raw SQL — Node ${ms(cpuSql.node)} (driver; ${ms(cpuSql.nodeSystem)} in the kernel), PostgreSQL ${ms(cpuSql.pg)}`,
    );
    const one = stats(bookingMs);
    console.log(
      `one API booking (${concurrency} concurrent): p50 ${one.p50.toFixed(1)} ms, p95 ${one.p95.toFixed(1)} ms (n=${one.n})`,
    );
    await report(apiRate, sqlRate);

    async function report(api: number, sql: number) {
      console.log(
        `raw SQL booking: ${sql.toFixed(0)} bookings/s (same transaction, ${concurrency} concurrent)`,
      );
      const visits = (await knex('client_visits').where({ studioId: s.studioId }).count({ n: '*' }))[0] as {
        n: number;
      };
      console.log(`visits written: ${visits.n}`);

      // 3. The week's timetable, one request at a time (front office, then back office, alternating).
      const to = addLocalDays(s.monday, 6);
      const frontUrl = `${url}${base}/schedule`;
      const backUrl = `${url}${base}/schedule/find`;
      const week = { from: s.monday, to };
      // The first answers are checked against the response schemas (the test client). The timed calls
      // are measured to the answer's last byte, as a load tester measures a server (node:http over a
      // kept-alive socket): parsing 400 KB of JSON is the browser's work, 2–3 ms of this process's
      // that the figure would otherwise count as the server's. Printed too: the same calls through
      // the test client's fetch with its parse of the answer (no schema check).
      const check = (await anon.post(`${base}/schedule`, week)) as {
        status: number;
        body: { items: unknown[] };
      };
      const checkBack = (await owner.post(`${base}/schedule/find`, week)) as {
        status: number;
        body: { items: unknown[] };
      };
      if (check.status !== 200 || checkBack.status !== 200) throw new Error('timetable call failed');
      console.log(
        `timetable week: ${check.body.items.length} classes (front office), ${checkBack.body.items.length} (back office)`,
      );
      const timed = async <T extends { status: number }>(call: () => Promise<T>) => {
        const started = performance.now();
        const res = await call();
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`timetable call: HTTP ${res.status}`);
        return { ms, res };
      };
      const front = () => leanPost(anon, frontUrl, week);
      const back = () => leanPost(owner, backUrl, week);
      for (let i = 0; i < 10; i++) {
        await front();
        await back();
      }
      const frontMs: number[] = [];
      const backMs: number[] = [];
      const frontParts: TimingParts[] = [];
      const backParts: TimingParts[] = [];
      const parsedMs: number[] = [];
      const parsedBackMs: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const f1 = await timed(front);
        frontMs.push(f1.ms);
        frontParts.push(timingParts(f1.res.header('server-timing'), f1.ms));
        const b1 = await timed(back);
        backMs.push(b1.ms);
        backParts.push(timingParts(b1.res.header('server-timing'), b1.ms));
        parsedMs.push((await timed(() => anon.post(`${base}/schedule`, week, { skipContract: true }))).ms);
        parsedBackMs.push(
          (await timed(() => owner.post(`${base}/schedule/find`, week, { skipContract: true }))).ms,
        );
      }
      const f = stats(frontMs);
      const b = stats(backMs);
      const fp = stats(parsedMs);
      const bp = stats(parsedBackMs);
      console.log(
        `POST schedule (front office week): p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms to the last byte (n=${f.n}); with fetch and its parse: p50 ${fp.p50.toFixed(1)} ms, p95 ${fp.p95.toFixed(1)} ms`,
      );
      console.log(
        `POST schedule/find (back office week): p50 ${b.p50.toFixed(1)} ms, p95 ${b.p95.toFixed(1)} ms to the last byte (n=${b.n}); with fetch and its parse: p50 ${bp.p50.toFixed(1)} ms, p95 ${bp.p95.toFixed(1)} ms`,
      );
      console.log(`  front office, p50 of each part: ${describeParts(frontParts)}`);
      console.log(`  back office, p50 of each part: ${describeParts(backParts)}`);
      // Figures from a loaded machine mean little without the load: printed before the last line.
      console.log(machineLoad('at the end'));
      console.log(
        `booking api/sql ratio = ${(api / sql).toFixed(2)}, api bookings per s = ${api.toFixed(0)}, timetable p95 ms = ${Math.max(f.p95, b.p95).toFixed(1)}`,
      );
    }
    t = performance.now();
  } finally {
    keepAlive.destroy();
    await app?.close();
    await pool?.end();
    await knex.destroy();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
