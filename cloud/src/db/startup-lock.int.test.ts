import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { isolatedDatabase } from '../../../tests/support/isolated-db';
import { startServer, type RunningServer } from '../server';
import { MIGRATIONS } from './migrations';

/**
 * Two instances starting together on a fresh database (issue 27): one used to crash (knex's
 * migration lock, a deadlock in the job queue's set-up) and both seeded a demo studio. Under the
 * start-up advisory lock the second waits for the first, then finds everything done.
 */
const realPg = !inject('embeddedDatabase');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe.skipIf(!realPg)('two instances starting together on a fresh database', () => {
  it('both start; migrations, demo seed and job queue set-up happen once', async () => {
    const db = await isolatedDatabase({ migrate: false });
    const servers: RunningServer[] = [];
    try {
      const start = async () => {
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-lock-'));
        dirs.push(dataDir);
        const env = { DATABASE_URL: db.url, NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_SEED: 'true' };
        return startServer({ env, port: 0, dataDir, log: false });
      };
      const started = await Promise.allSettled([start(), start()]);
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual([
        'started',
        'started',
      ]);
      const knex = servers[0]!.knex;
      const ran = await knex('knex_migrations').count('* as n').first();
      expect(ran?.n).toBe(MIGRATIONS.length);
      expect(((await knex('studios').count('* as n').first()) as { n: unknown } | undefined)?.n).toBe(1);
      expect(servers.filter((s) => s.demo).length).toBe(2);
      const queues = (await knex.raw('select name from pgboss.queue')) as { rows: unknown[] };
      expect(queues.rows.length).toBeGreaterThan(0);
      // Both answer.
      for (const s of servers) expect((await fetch(`${s.url}/health`)).status).toBe(200);
    } finally {
      for (const s of servers) await s.close();
      await db.drop();
    }
  }, 120_000);
});
