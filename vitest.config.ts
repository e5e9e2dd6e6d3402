import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Integration tests share one database. On a real PostgreSQL (TEST_DATABASE_URL) files
// run in parallel; on the embedded PGlite, which is a single connection, they run one file at a time.
const embedded = !process.env.TEST_DATABASE_URL;

// Vitest's default is one worker fewer than the cores: ONE on a 2-core machine. The integration
// tests mostly wait (for PostgreSQL, for the cloud processes that instances/server/kill tests
// start), so one worker kept about one core busy: `npm test` on PostgreSQL took 743 s on a 2-core
// CI machine, 409 s with three workers (both cores busy). At least three, more on bigger machines.
const workers = Math.max(3, availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers: workers,
    env: { TZ: 'UTC' },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/**/*.test.ts',
            'cloud/**/*.test.ts',
            'web/**/*.test.{ts,tsx}',
            'desktop/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          env: { TZ: 'UTC' },
        },
      },
      {
        test: {
          name: 'int',
          include: ['cloud/**/*.int.test.ts', 'tests/int/**/*.int.test.ts'],
          globalSetup: ['tests/support/global-db.ts'],
          fileParallelism: !embedded,
          // The files of a worker share one module graph: each imports the whole cloud app, and
          // importing it anew per file was a third of the run. No int test mocks a module; state a
          // test app sets (queueTestHooks) it restores on close, and every file builds its own studios.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { TZ: 'UTC' },
        },
      },
    ],
  },
});
