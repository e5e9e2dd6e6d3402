import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { JOBS } from '../../jobs/runner';
import { STUDIO_EXPORTS_EXPIRY, studioExportsExpiryJob } from '../../jobs/studio-exports-expiry.job';
import { expireStudioExports, STUDIO_EXPORT_KEEP_DAYS } from './studio-export';

/**
 * Old studio data exports are deleted by a nightly job (issue 20): a week after it was made, an
 * export, its zip's chunks, its place in the list and its download are gone; younger ones and ones
 * still being made stay.
 */
const clock = new ManualClock(new Date());
const app = useTestApp({ clock });
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const DAY = 86_400_000;

describe('studio data export expiry', () => {
  it('deletes exports finished more than a week ago with their zip; keeps the rest', async () => {
    const start = new Date();
    clock.set(start);
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const ask = async () => {
      const res = await owner.post(api(studio, 'studio-data-export'), {});
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const old = await ask();
    const young = await ask();
    await app.drainJobs();
    const queued = await ask(); // not run yet: stays whatever its age
    const chunks = async (id: string) => {
      const row = (await app
        .knex('studio_data_export_chunks')
        .where({ exportId: id })
        .count('* as n')
        .first()) as { n: string | number } | undefined;
      return Number(row?.n ?? 0);
    };
    expect(await chunks(old)).toBeGreaterThan(0);
    // The old one finished 8 days ago, the young one 6 days ago; the queued one was asked 30 days ago.
    await app
      .knex('studio_data_exports')
      .where({ id: old })
      .update({ finishedAt: new Date(start.getTime() - 8 * DAY) });
    await app
      .knex('studio_data_exports')
      .where({ id: young })
      .update({ finishedAt: new Date(start.getTime() - 6 * DAY) });
    await app
      .knex('studio_data_exports')
      .where({ id: queued })
      .update({ createdAt: new Date(start.getTime() - 30 * DAY) });

    expect(STUDIO_EXPORT_KEEP_DAYS).toBe(7);
    expect(await expireStudioExports(app.knex, start, { studioId: studio.id })).toBe(1);
    expect(await chunks(old)).toBe(0);
    expect((await owner.get(api(studio, `studio-data-export/${old}`))).status).toBe(404);
    expect((await owner.get(api(studio, `studio-data-export/${old}/download`))).status).toBe(404);
    const list = await owner.get(api(studio, 'studio-data-export/all'));
    expect(list.body.items.map((e: { id: string }) => e.id).sort()).toEqual([young, queued].sort());
    const download = await fetch(app.url + api(studio, `studio-data-export/${young}/download`), {
      headers: owner.headers(),
    });
    expect(download.status).toBe(200);
    await download.arrayBuffer();

    // The nightly job runs the same over every studio.
    expect(JOBS).toContain(studioExportsExpiryJob);
    expect(studioExportsExpiryJob).toMatchObject({ name: STUDIO_EXPORTS_EXPIRY, cron: '20 3 * * *' });
  });
});
