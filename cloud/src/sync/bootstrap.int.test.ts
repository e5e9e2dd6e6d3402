import { spawn } from 'node:child_process';
import { TZDate } from '@date-fns/tz';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openLocalDatabase, type LocalDatabase } from '../../../desktop/main/db/database';
import { SyncEngine, type SyncEngineOptions } from '../../../desktop/main/sync/engine';
import { createStudioScenario } from '../../../tests/support/factories';
import { useSyncApp, ownerCookie } from './sync.test-support';

/**
 * Bootstrap of a studio (docs/offline-sync.md "Bootstrap of a large studio", tests 4, 5 and 8): the
 * station process SIGKILLed half way through the pages resumes from the last committed page, not
 * from the start, and ends with the same cache as a station that was never interrupted; and the
 * mirror shows a DST-switch day's classes at the studio's local times.
 */
const { app, dbFile } = useSyncApp('sync-bootstrap-');

/** A registered station on a new SQLite file; `pages` counts the bootstrap pages it asks for. */
async function station(cookie: string, options: SyncEngineOptions = {}) {
  const file = dbFile();
  const db = openLocalDatabase(file);
  const engine = new SyncEngine(db, options);
  await engine.registerDevice(app.url, cookie, 'Recepcja');
  return { file, db, engine };
}

function countingFetch(pages: URL[]): typeof fetch {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname === '/sync/bootstrap/page') pages.push(url);
    return fetch(input, init);
  };
}

const cache = (db: LocalDatabase) =>
  db.prepare('select tbl, id, data from rows order by tbl, id').all() as Array<{
    tbl: string;
    id: string;
    data: string;
  }>;

/** Set-based seed: `clients` clients and, for each of `classes` classes, every client's visit. */
async function seedStudio(clients: number, classes: number) {
  const scenario = await createStudioScenario(app.knex);
  const { studio } = scenario;
  const tag = uuidv7().slice(-12);
  await app.knex.raw(
    `insert into users (id, email, first_name, last_name)
     select gen_random_uuid(), 'boot' || g || '-${tag}@example.com', 'Imię' || g, 'Nazwisko' || g
       from generate_series(1, ?) g`,
    [clients],
  );
  await app.knex.raw(
    `insert into memberships (id, studio_id, user_id, is_client)
     select gen_random_uuid(), ?, u.id, true from users u where u.email like ?`,
    [studio.id, `boot%-${tag}@example.com`],
  );
  const locationId = uuidv7();
  await app.knex('locations').insert({ id: locationId, studioId: studio.id, name: 'Sala' });
  const serviceId = uuidv7();
  await app.knex('class_services').insert({
    id: serviceId,
    studioId: studio.id,
    name: JSON.stringify({ en: { value: 'Yoga' }, pl: { value: 'Joga' } }),
    durationMinutes: 60,
  });
  await app.knex.raw(
    `insert into schedule_events (id, studio_id, class_service_id, location_id, starts_at, ends_at, capacity)
     select gen_random_uuid(), ?, ?, ?, t, t + interval '1 hour', 1000
       from (select date_trunc('hour', now()) - make_interval(days => g) as t from generate_series(1, ?) g) s`,
    [studio.id, serviceId, locationId, classes],
  );
  await app.knex.raw(
    `insert into client_visits (id, studio_id, schedule_event_id, client_id, starts_at, status, payment,
                                booked_by, booked_at, checked_in_at)
     select gen_random_uuid(), ?, e.id, m.user_id, e.starts_at, 1, 'desk', 'staff', e.starts_at, e.starts_at
       from schedule_events e join memberships m on m.studio_id = e.studio_id and m.is_client
      where e.studio_id = ?`,
    [studio.id, studio.id],
  );
  return scenario;
}

describe('bootstrap resume after a kill (what the tests must prove, 4 and 8)', () => {
  it('a station SIGKILLed after 5 committed pages resumes at page 6 and ends with the same cache as an uninterrupted one', async () => {
    // 400 clients, 8 classes → 3,200 visits: 50-row pages give 8 + 1 + 64 + ... pages.
    const scenario = await seedStudio(400, 8);
    const cookie = await ownerCookie(app, scenario.manager.email, scenario.manager.password);
    const PAGE = 50;

    const killed = await station(cookie);
    killed.db.close();
    const run = await new Promise<{ signal: NodeJS.Signals | null; out: string }>((resolve) => {
      const p = spawn(
        process.execPath,
        ['--import', 'tsx', 'desktop/main/sync/testing/crash-child.ts', killed.file, 'bootstrap'],
        {
          env: { ...process.env, CRASH_AT: 'duringBootstrapPage:5', PAGE_SIZE: String(PAGE) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (out += d.toString()));
      p.on('exit', (_code, signal) => resolve({ signal, out }));
    });
    expect(run.signal, run.out).toBe('SIGKILL');

    // What survived the kill: five pages in staging, and where to go on from.
    const pages: URL[] = [];
    const db = openLocalDatabase(killed.file);
    const engine = new SyncEngine(db, { bootstrapPageSize: PAGE, fetch: countingFetch(pages) });
    const progress = JSON.parse(engine.store.getMeta('bootstrap')!) as {
      start: { tables: string[] };
      tableIndex: number;
      after: string | null;
    };
    const staged = db.prepare('select count(*) as n from staging_rows').get() as { n: number };
    expect(staged.n).toBeGreaterThan(0);
    expect(engine.store.count('clients')).toBe(0); // nothing swapped in yet

    await engine.syncOnce();
    // Resumed where it stopped: the first page asked for is the one after the last committed page.
    const table = progress.start.tables[progress.tableIndex]!;
    expect(pages[0]!.searchParams.get('table')).toBe(table);
    expect(pages[0]!.searchParams.get('after')).toBe(progress.after);

    // An uninterrupted station with the same page size asks for five pages more, and holds the same rows.
    const freshPages: URL[] = [];
    const fresh = await station(cookie, { bootstrapPageSize: PAGE, fetch: countingFetch(freshPages) });
    await fresh.engine.syncOnce();
    expect(freshPages.length - pages.length).toBe(5);
    const resumed = cache(db);
    const serverCount = async (table: string) =>
      Number(
        (
          (await app.knex(table).where({ studioId: scenario.studio.id }).count('* as n')) as Array<{
            n: string;
          }>
        )[0]!.n,
      );
    // 400 seeded clients and the scenario's own client, each at 8 classes.
    expect(resumed.filter((r) => r.tbl === 'client_visits')).toHaveLength(401 * 8);
    expect(await serverCount('client_visits')).toBe(401 * 8);
    expect(resumed.filter((r) => r.tbl === 'clients').length).toBe(
      Number(
        (
          (await app.knex('clients').where({ studioId: scenario.studio.id }).count('* as n')) as Array<{
            n: string;
          }>
        )[0]!.n,
      ),
    );
    expect(resumed).toEqual(cache(fresh.db));
    expect(engine.status()).toMatchObject({ pending: 0, lastError: null });
    db.close();
    fresh.db.close();
  }, 120_000);
});

describe('DST in the station mirror (what the tests must prove, 5)', () => {
  it("a Warsaw studio's classes on the autumn switch day show at their local times on a UTC station", async () => {
    // 25 October 2026: Warsaw goes from UTC+2 to UTC+1 at 03:00 (02:00–03:00 happens twice), so the
    // day lasts 25 hours. The station computer runs in UTC (TZ=UTC in tests); the desk shows the
    // studio's zone, which the bootstrap brought along.
    const scenario = await createStudioScenario(app.knex, { timeZone: 'Europe/Warsaw' });
    const { studio } = scenario;
    const serviceId = uuidv7();
    await app.knex('class_services').insert({
      id: serviceId,
      studioId: studio.id,
      name: JSON.stringify({ en: { value: 'Yoga' } }),
      durationMinutes: 60,
    });
    const locationId = uuidv7();
    await app.knex('locations').insert({ id: locationId, studioId: studio.id, name: 'Sala' });
    const at = (iso: string, _name: string) => ({
      id: uuidv7(),
      studioId: studio.id,
      classServiceId: serviceId,
      locationId,
      startsAt: iso,
      endsAt: new Date(Date.parse(iso) + 3_600_000).toISOString(),
      capacity: 10,
    });
    const events = [
      at('2026-10-24T07:00:00Z', 'Saturday 09:00 (summer time)'),
      at('2026-10-24T22:30:00Z', 'Sunday 00:30'),
      at('2026-10-25T00:30:00Z', 'Sunday 02:30, first time (summer)'),
      at('2026-10-25T01:30:00Z', 'Sunday 02:30, second time (winter)'),
      at('2026-10-25T08:00:00Z', 'Sunday 09:00 (winter time)'),
      at('2026-10-25T22:30:00Z', 'Sunday 23:30, the 25th hour'),
      at('2026-10-25T23:30:00Z', 'Monday 00:30'),
    ];
    await app.knex('schedule_events').insert(events);
    const desk = await station(await ownerCookie(app, scenario.manager.email, scenario.manager.password));
    await desk.engine.syncOnce();

    const zone = desk.engine.studio()?.timeZone;
    expect(zone).toBe('Europe/Warsaw');
    // The desk's "Sunday 25 October" in the studio's zone: local midnight to local midnight.
    const dayStart = new TZDate(2026, 9, 25, zone!);
    const dayEnd = new TZDate(2026, 9, 26, zone!);
    expect((dayEnd.getTime() - dayStart.getTime()) / 3_600_000).toBe(25);
    // Through the desk's index on starts_at (text order must be time order: UTC instants throughout).
    const rows = desk.db
      .prepare(
        `select data from rows where tbl = 'schedule_events'
            and julianday(json_extract(data, '$.starts_at')) >= julianday(?)
            and julianday(json_extract(data, '$.starts_at')) < julianday(?)
          order by json_extract(data, '$.starts_at')`,
      )
      .all(dayStart.toISOString(), dayEnd.toISOString()) as Array<{ data: string }>;
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    });
    const shown = rows.map((r) => local.format(new Date(JSON.parse(r.data).starts_at as string)));
    expect(shown).toEqual(['00:30 GMT+2', '02:30 GMT+2', '02:30 GMT+1', '09:00 GMT+1', '23:30 GMT+1']);
    // Every cached instant is in one offset, so the text index sorts them in time order.
    const all = desk.engine.store.list('schedule_events').map((e) => String(e.starts_at));
    expect([...all].sort()).toEqual([...all].sort((a, b) => Date.parse(a) - Date.parse(b)));
    const instants = (list: string[]) => list.map((s) => Date.parse(s)).sort((a, b) => a - b);
    expect(instants(all)).toEqual(instants(events.map((e) => e.startsAt)));
    desk.db.close();
  });
});
