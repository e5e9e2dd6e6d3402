import { describe, expect, it } from 'vitest';
import { processCount } from './cluster';
import { loadConfig } from './config';

describe('processes npm start runs', () => {
  it('one per core on PostgreSQL with WEB_CONCURRENCY=auto, a number when given, one by default', () => {
    const pg = 'postgres://u@db:5432/studio';
    expect(processCount(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: 'auto' }), 4)).toBe(4);
    expect(processCount(loadConfig({ DATABASE_URL: pg, WEB_CONCURRENCY: '3' }), 4)).toBe(3);
    expect(processCount(loadConfig({ DATABASE_URL: pg }), 4)).toBe(1);
  });

  it('always one on the embedded database (PGlite lives inside one process)', () => {
    expect(processCount(loadConfig({ WEB_CONCURRENCY: 'auto' }), 8)).toBe(1);
    expect(processCount(loadConfig({ WEB_CONCURRENCY: '4' }), 8)).toBe(1);
  });
});
