/**
 * Starts the cloud server for Playwright: port PORT (default 3100), a fresh temporary DATA_DIR
 * with the embedded database (or the DATABASE_URL given), the demo studio seeded. Writes the demo
 * details to test-results/demo.json for the tests (there is no API for them, on purpose).
 * Builds the web apps first when dist/web is missing or older than the sources.
 *
 *   npx tsx tests/e2e/support/server.ts        (Playwright's webServer runs this)
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { Knex } from '../../../cloud/src/db/knex';
import { hashPassword } from '../../../cloud/src/modules/identity/passwords';
import { WEB_DIST_DIR } from '../../../cloud/src/paths';
import { startServer } from '../../../cloud/src/server';

import { DEMO_FILE, ROOT } from './paths';

export { DEMO_FILE };

/** Newest modification time under `dir` (skipping tests and node_modules), 0 when absent. */
function newestMtime(dir: string): number {
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.endsWith('.test.ts') || entry.name.endsWith('.test.tsx'))
      continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

async function buildWebIfStale(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const built = path.join(WEB_DIST_DIR, 'backoffice', 'index.html');
  let builtAt = 0;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    builtAt = 0;
  }
  const sourcesAt = Math.max(...['web', 'locales', 'shared'].map((d) => newestMtime(path.join(ROOT, d))));
  if (builtAt > sourcesAt) return;
  console.log('[e2e] building the web apps (dist/web is missing or stale)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * A client of the demo studio that only tests/e2e/profile-deletion.e2e.ts uses: it erases this one,
 * so the shared demo client stays usable for every other test, whatever order they run in. Same
 * password as the demo client.
 */
const ERASABLE_CLIENT_EMAIL = 'erase-me@demo.studio';

async function createErasableClient(knex: Knex, studioUuid: string, password: string): Promise<string> {
  const userId = uuidv7();
  await knex('users').insert({
    id: userId,
    email: ERASABLE_CLIENT_EMAIL,
    passwordHash: await hashPassword(password),
    firstName: 'Ewa',
    lastName: 'Erasable',
  });
  await knex('memberships').insert({ id: uuidv7(), studioId: studioUuid, userId, isClient: true });
  // Signed up like any client: the studio's current agreements answered (no agreements prompt).
  const agreements: { id: string; kind: string; version: number }[] = await knex('studio_agreements')
    .where({ studioId: studioUuid })
    .select('id', 'kind', 'version');
  const current = agreements.filter(
    (a) => !agreements.some((b) => b.kind === a.kind && b.version > a.version),
  );
  if (current.length > 0)
    await knex('client_agreement_acceptances').insert(
      current.map((a) => ({
        id: uuidv7(),
        studioId: studioUuid,
        userId,
        agreementId: a.id,
        kind: a.kind,
        version: a.version,
        accepted: true,
        decidedAt: new Date(),
      })),
    );
  return ERASABLE_CLIENT_EMAIL;
}

async function main(): Promise<void> {
  await buildWebIfStale();
  const port = Number(process.env.PORT ?? 3100);
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studio-e2e-'));
  const running = await startServer({
    port,
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    seedDemo: true,
    // The suite signs the same demo accounts in dozens of times within minutes from one address,
    // and signs up studios and clients more than ten times an hour from it; the limits themselves
    // are proved by the integration tests (identity, entry-signup, client-accounts).
    rateLimits: {
      signupPerIp: { points: 1000, durationSeconds: 3600 },
      loginPerEmail: { points: 1000, durationSeconds: 300 },
      loginPerEmailAndIp: { points: 1000, durationSeconds: 300 },
      loginPerIp: { points: 1000, durationSeconds: 60 },
      kioskIdentifyPerSession: { points: 1000, durationSeconds: 60 },
      kioskIdentifyPerStudio: { points: 1000, durationSeconds: 60 },
    },
    log: process.env.E2E_LOG === '1',
    // Mails are jobs: the worker polls fast so a test waiting for one waits half a second at most.
    env: { NODE_ENV: 'test', JOBS_POLL_SECONDS: '0.5' },
  });
  if (!running.demo)
    throw new Error('The demo studio was not seeded (the database already has other studios?)');

  const erasableClientEmail = await createErasableClient(
    running.knex,
    running.demo.studioUuid,
    running.demo.clientPassword,
  );

  // For the entry e2e tests: the kiosk sign-in needs the demo studio's key (no API hands it out),
  // and the sign-up test reads the welcome email the file mailer writes under DATA_DIR/mail.
  const studioRow = (await running
    .knex('studios')
    .where({ id: running.demo.studioUuid })
    .first('kioskKey')) as { kioskKey: string } | undefined;
  const entryDetails = { kioskKey: studioRow?.kioskKey ?? null, mailDir: path.join(dataDir, 'mail') };

  mkdirSync(path.dirname(DEMO_FILE), { recursive: true });
  writeFileSync(
    DEMO_FILE,
    `${JSON.stringify({ baseURL: running.url, ...running.demo, erasableClientEmail, ...entryDetails }, null, 2)}\n`,
  );
  console.log(`[e2e] cloud server on ${running.url}, demo studio ${running.demo.studioUuid}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[e2e] ${signal}: stopping`);
    try {
      await running.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('[e2e] server failed to start', error);
  process.exit(1);
});
