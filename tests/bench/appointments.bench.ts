/**
 * Appointment slot search and booking throughput (`npm run bench:appointments`, issue 21).
 *
 * Seeds a studio with 30 staff, 10 appointment services (each performed by 10–12 of them), weekly
 * hours Monday–Saturday 8:00–20:00 for everyone, and 8 weeks of bookings (4 appointments per member
 * per working day, some unavailability, one class a day per member), then
 * 1. times `POST appointment/find` for a week of a service with anyone (a client's search, one
 *    request at a time, random services and weeks within the 8);
 * 2. drives `POST booking/appointment/book` (clients with passes, CONCURRENCY at once) over the free
 *    hourly slots of a ninth, empty week.
 * Last line: `slot search p95 ms = N, appointment bookings per s = B`. It prints figures; it never
 * passes or fails. Database: as the booking bench (a fresh PostgreSQL database, else PGlite).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { createKnex, type Knex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import { addLocalDays, localDateOf } from '../../shared/domain/entitlements/local-dates';
import { instantOfLocalTime } from '../../shared/domain/schedule/occurrences';
import { startBenchApp } from './support/app';
import { openBenchDatabase } from './support/database';

const STAFF = 30;
const SERVICES = 10;
const WEEKS = 8;
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 200);
const BOOKINGS = Number(process.env.BENCH_APPOINTMENT_BOOKINGS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TZ = 'Europe/Warsaw';
const lt = (s: string) => JSON.stringify({ en: { value: s }, pl: { value: s } });

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

async function seed(knex: Knex, today: string) {
  const studioId = uuidv7();
  await knex('studios').insert({
    id: studioId,
    name: 'Bench studio',
    slug: `bench-${studioId.slice(-8)}`,
    kioskKey: studioId.slice(-12),
    timeZone: TZ,
  });
  const locationId = uuidv7();
  await knex('locations').insert({ id: locationId, studioId, name: 'Main' });
  const staff = Array.from({ length: STAFF }, () => uuidv7());
  await knex.batchInsert(
    'users',
    staff.map((id, i) => ({
      id,
      email: `staff${i}.${id}@bench.test`,
      firstName: `Staff${i}`,
      lastName: 'Bench',
    })),
    200,
  );
  await knex.batchInsert(
    'memberships',
    staff.map((userId) => ({ id: uuidv7(), studioId, userId, isMember: true, role: 'instructor' })),
    200,
  );
  const services = Array.from({ length: SERVICES }, (_, i) => ({
    id: uuidv7(),
    durationMinutes: [60, 45, 30, 90, 60][i % 5]!,
    bufferAfterMinutes: [0, 15, 0, 15, 10][i % 5]!,
  }));
  await knex('appointment_services').insert(
    services.map((s, i) => ({
      id: s.id,
      studioId,
      name: lt(`Service ${i}`),
      durationMinutes: s.durationMinutes,
      bufferAfterMinutes: s.bufferAfterMinutes,
      slotStepMinutes: i === 0 ? 60 : 15,
      price: 10000,
      locationId,
      position: i,
    })),
  );
  const performers = services.map((_, i) => staff.filter((_, m) => (m + i) % 3 !== 0 || m % 10 === i));
  await knex.batchInsert(
    'appointment_service_members',
    services.flatMap((s, i) => performers[i]!.map((memberId) => ({ studioId, serviceId: s.id, memberId }))),
    500,
  );
  await knex.batchInsert(
    'member_appointment_schedules',
    staff.flatMap((memberId) =>
      [1, 2, 3, 4, 5, 6].map((weekday) => ({
        id: uuidv7(),
        studioId,
        memberId,
        locationId,
        weekday,
        startMinute: 480,
        endMinute: 1200,
      })),
    ),
    500,
  );
  const classServiceId = uuidv7();
  await knex('class_services').insert({
    id: classServiceId,
    studioId,
    name: lt('Class'),
    durationMinutes: 60,
  });
  const appointments: Record<string, unknown>[] = [];
  const classes: Record<string, unknown>[] = [];
  const unavailable: Record<string, unknown>[] = [];
  // Booked: 4 appointments a working day per member (of service 0, 9:00, 11:00, 14:00, 16:00), a class at 18:00.
  const clientId = uuidv7();
  await knex('users').insert({
    id: clientId,
    email: `seed-client.${clientId}@bench.test`,
    firstName: 'Seed',
    lastName: 'Client',
  });
  for (let d = 0; d < WEEKS * 7; d++) {
    const day = addLocalDays(today, d);
    staff.forEach((memberId, m) => {
      for (const hour of [9, 11, 14, 16]) {
        const startsAt = instantOfLocalTime(day, hour * 60, TZ);
        const endsAt = new Date(startsAt.getTime() + 3_600_000);
        appointments.push({
          id: uuidv7(),
          studio_id: studioId,
          service_id: services[0]!.id,
          member_id: memberId,
          client_id: clientId,
          location_id: locationId,
          starts_at: startsAt,
          ends_at: endsAt,
          blocked_from: startsAt,
          blocked_until: endsAt,
          status: 'booked',
          payment: 'desk',
          booked_by: 'staff',
        });
      }
      const classAt = instantOfLocalTime(day, 18 * 60, TZ);
      classes.push({
        id: uuidv7(),
        studio_id: studioId,
        class_service_id: classServiceId,
        location_id: locationId,
        starts_at: classAt,
        ends_at: new Date(classAt.getTime() + 3_600_000),
        capacity: 10,
        instructor_ids: [memberId],
      });
      if ((d + m) % 11 === 0) {
        const from = instantOfLocalTime(day, 12 * 60, TZ);
        unavailable.push({
          id: uuidv7(),
          studio_id: studioId,
          member_id: memberId,
          starts_at: from,
          ends_at: new Date(from.getTime() + 2 * 3_600_000),
          reason: 'Break',
        });
      }
    });
  }
  await knex.batchInsert('client_appointments', appointments, 1000);
  await knex.batchInsert('schedule_events', classes, 1000);
  await knex.batchInsert('appointment_unavailabilities', unavailable, 1000);
  // Clients with appointment passes for the booking run.
  const optionId = uuidv7();
  await knex('pricing_options').insert({
    id: optionId,
    studioId,
    name: lt('Appointments'),
    price: 10000,
    entries: null,
    serviceTypes: JSON.stringify(['appointmentPricingOption']),
  });
  const clients = Array.from({ length: 200 }, () => uuidv7());
  await knex.batchInsert(
    'users',
    clients.map((id, i) => ({
      id,
      email: `client${i}.${id}@bench.test`,
      firstName: `Client${i}`,
      lastName: 'Bench',
    })),
    200,
  );
  await knex.batchInsert(
    'memberships',
    clients.map((userId) => ({ id: uuidv7(), studioId, userId, isClient: true })),
    200,
  );
  await knex.batchInsert(
    'client_pricing_options',
    clients.map((clientId) => ({
      id: uuidv7(),
      studioId,
      clientId,
      pricingOptionId: optionId,
      soldAt: new Date(),
      entries: null,
      expirationType: 2,
    })),
    200,
  );
  return { studioId, staff, services, performers, clients, appointments: appointments.length };
}

async function main() {
  const db = await openBenchDatabase('appointments');
  const knex = createKnex(db.url, { singleConnection: db.single });
  try {
    await migrateLatest(knex);
    const now = new Date();
    const today = addLocalDays(localDateOf(now, TZ), 1);
    const started = performance.now();
    const s = await seed(knex, today);
    console.log(`database: ${db.label}`);
    console.log(
      `seeded ${STAFF} staff, ${SERVICES} services, ${WEEKS} weeks: ${s.appointments} appointments in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const app = await startBenchApp(knex);
    try {
      const clients = await Promise.all(s.clients.map((id) => app.signedIn(id)));
      // 1. A week of free slots of a service with anyone.
      const times: number[] = [];
      let slotCount = 0;
      let cpu = process.cpuUsage();
      for (let i = 0; i < SEARCHES + 10; i++) {
        const service = s.services[i % SERVICES]!;
        const from = addLocalDays(today, (i * 7) % (WEEKS * 7 - 7));
        const t0 = performance.now();
        const res = await clients[i % clients.length]!.post(
          `/api/v4/${s.studioId}/appointment/find`,
          {
            serviceId: service.id,
            from,
            to: addLocalDays(from, 6),
            // The warm-up answers are checked against the contract; the timed ones are not (zod over a
            // thousand ids is the test client's cost, not the server's), as in the booking bench.
          },
          { skipContract: i >= 10 },
        );
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`find: ${res.status} ${res.text}`);
        if (i === 9) cpu = process.cpuUsage();
        if (i >= 10) times.push(ms); // the first ten warm up
        slotCount += res.body.items.length;
      }
      const search = stats(times);
      // The app runs in this process: its CPU time per search (server and client) barely depends on
      // how busy the machine is, unlike the wall-clock figures.
      const used = process.cpuUsage(cpu);
      const cpuPerSearch = (used.user + used.system) / 1000 / SEARCHES;
      // The floor under it on this machine now: a signed-in client's smallest studio read.
      const floor: number[] = [];
      for (let i = 0; i < 60; i++) {
        const t = performance.now();
        await clients[i % clients.length]!.get(
          `/api/v4/${s.studioId}/appointment-service-category/collection`,
          {
            skipContract: true,
          },
        );
        if (i >= 10) floor.push(performance.now() - t);
      }
      const base = stats(floor);
      console.log(
        `request floor (a signed-in client's category list): p50 ${base.p50.toFixed(1)} ms, p95 ${base.p95.toFixed(1)} ms; load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`,
      );
      console.log(
        `slot search (a week, anyone, ~${s.performers[0]!.length} staff): p50 ${search.p50.toFixed(1)} ms, p95 ${search.p95.toFixed(1)} ms (n=${search.n}, ${Math.round(slotCount / (SEARCHES + 10))} start times per answer; ${cpuPerSearch.toFixed(1)} ms of this process's CPU per search)`,
      );

      // 2. Booking throughput over the free hourly slots of week 9 (service 0, 60 min, hourly grid).
      const service = s.services[0]!;
      const jobs: Array<{ memberId: string; startsAt: string }> = [];
      for (let d = 0; d < 7 && jobs.length < BOOKINGS; d++) {
        const day = addLocalDays(today, WEEKS * 7 + d);
        for (const memberId of s.performers[0]!)
          for (let hour = 8; hour < 18 && jobs.length < BOOKINGS; hour++) {
            const startsAt = instantOfLocalTime(day, hour * 60, TZ);
            if (new Date(startsAt).getUTCDay() === 0) continue;
            jobs.push({ memberId, startsAt: startsAt.toISOString() });
          }
      }
      let next = 0;
      let booked = 0;
      let refused = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, w) => {
          while (next < jobs.length) {
            const job = jobs[next++]!;
            const res = await clients[(w * 13 + next) % clients.length]!.post(
              `/api/v4/${s.studioId}/booking/appointment/book`,
              {
                serviceId: service.id,
                memberId: job.memberId,
                startsAt: job.startsAt,
                payment: 'pass',
              },
            );
            if (res.status === 200) booked++;
            else refused++;
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const rate = booked / seconds;
      console.log(
        `bookings: ${booked} booked, ${refused} refused (client already busy then, Sundays), ${CONCURRENCY} concurrent, ${seconds.toFixed(1)} s`,
      );
      console.log(
        `slot search p95 ms = ${search.p95.toFixed(1)}, appointment bookings per s = ${rate.toFixed(1)}`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await knex.destroy();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
