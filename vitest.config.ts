import { defineConfig } from 'vitest/config';

// Integration tests share one database. On a real PostgreSQL (TEST_DATABASE_URL) files
// run in parallel; on the embedded PGlite, which is a single connection, they run one file at a time.
const embedded = !process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { TZ: 'UTC' },
        },
      },
    ],
  },
});
