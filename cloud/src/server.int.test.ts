import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../tests/support/http-client';
import { startServer } from './server';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/**
 * The newcomer's path: `npm start` without DATABASE_URL runs an embedded PostgreSQL under DATA_DIR,
 * seeds the demo studio once, and keeps everything across restarts.
 */
describe('startServer on the embedded database', () => {
  it('seeds the demo studio once, signs the manager in, and keeps data and sessions across a restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-start-'));
    dirs.push(dataDir);
    const env = { DATABASE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_SEED: '' };

    const first = await startServer({ env, port: 0, dataDir, log: false });
    let studioUuid: string;
    let cookieClient: HttpClient;
    try {
      expect(first.demo).not.toBeNull();
      studioUuid = first.demo!.studioUuid;
      const counts = await first.knex.raw(
        `
        select (select count(*) from locations where studio_id = :s)::int as locations,
               (select count(*) from location_rooms where studio_id = :s)::int as rooms,
               (select count(*) from memberships where studio_id = :s and is_client)::int as clients,
               (select count(*) from memberships where studio_id = :s and role = 'instructor')::int as instructors,
               (select count(*) from class_services where studio_id = :s)::int as services,
               (select count(distinct date_trunc('week', starts_at)) from schedule_events where studio_id = :s)::int as weeks,
               (select count(*) from schedule_events where studio_id = :s and starts_at > now())::int as upcoming,
               (select count(*) from pricing_options where studio_id = :s)::int as pricing_options,
               (select count(*) from client_pricing_options where studio_id = :s and status = 1)::int as active_passes`,
        { s: studioUuid },
      );
      const c = counts.rows[0];
      expect(c).toMatchObject({
        locations: 2,
        rooms: 3,
        clients: 200,
        instructors: 5,
        services: 6,
        // The class passes (one named only in Polish, for Settings → Translations), plus the
        // appointment pass, the gym entry pass and the video-course pass.
        pricing_options: 8,
      });
      expect(c.weeks).toBeGreaterThanOrEqual(4);
      expect(c.upcoming).toBeGreaterThan(50);
      expect(c.active_passes).toBeGreaterThan(50);

      // Demo classes sit on the studio's wall clock (Warsaw), whatever the season: the timetable's
      // times and the six months of report history (10:30, 12:30, 18:30, 19:30, across the October
      // change of time) and no time an hour off them.
      const local = await first.knex.raw(
        `select distinct to_char(starts_at at time zone 'Europe/Warsaw', 'HH24:MI') as t from schedule_events where studio_id = ? order by t`,
        [studioUuid],
      );
      expect(local.rows.map((r: { t: string }) => r.t)).toEqual([
        '07:00',
        '09:30',
        '10:30',
        '12:00',
        '12:30',
        '17:30',
        '18:30',
        '19:00',
        '19:30',
      ]);

      cookieClient = await HttpClient.signedIn(
        first.url,
        first.demo!.managerEmail,
        first.demo!.managerPassword,
      );
      expect((await cookieClient.patch(`/api/v4/${studioUuid}/me`, { locale: 'en' })).status).toBe(200);
    } finally {
      await first.close();
    }

    const second = await startServer({ env, port: 0, dataDir, log: false });
    try {
      expect(second.demo?.studioUuid).toBe(studioUuid);
      expect(await second.knex('studios').count({ n: '*' }).first()).toEqual({ n: 1 });
      // The same browser is still signed in, and what it changed is still there.
      const restarted = Object.assign(Object.create(HttpClient.prototype), cookieClient, {
        baseUrl: second.url,
      }) as HttpClient;
      const me = await restarted.get('/api/v4/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.locale).toBe('en');
      expect((await fetch(`${second.url}/health`)).status).toBe(200);
    } finally {
      await second.close();
    }
  }, 120_000);

  it('does not seed a demo into a database that already has studios', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-start-'));
    dirs.push(dataDir);
    const server = await startServer({
      env: { DATABASE_URL: '', LOG_LEVEL: 'silent' },
      port: 0,
      dataDir,
      log: false,
      seedDemo: false,
      memoryDatabase: true,
    });
    try {
      await server
        .knex('studios')
        .insert({ id: '01900000-0000-7000-8000-000000000001', name: 'Real', slug: 'real', kioskKey: 'k' });
      const { seedDemoStudio } = await import('./db/seed/demo');
      expect(await seedDemoStudio(server.knex, server.log)).toBeNull();
      expect(await server.knex('studios').count({ n: '*' }).first()).toEqual({ n: 1 });
    } finally {
      await server.close();
    }
  }, 60_000);
});
