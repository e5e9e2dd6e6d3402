import { transportWarning } from './http/https-only';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type ExtraMiddleware } from './app';
import { systemClock, type Clock } from './clock';
import { processCount, runPrimary } from './cluster';
import { loadConfig, type Config } from './config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded';
import { createKnex, type Knex } from './db/knex';
import { configureWebhookSecrets, sealStoredWebhookSecrets } from './webhooks/secrets';
import { migrateLatest } from './db/migrate';
import { withStartupLock } from './db/startup-lock';
import { seedDemoStudio, type DemoSummary } from './db/seed/demo';
import { fileStorage } from './storage/index';
import { builtWebAssets, type WebAssets } from './http/pages';
import { startJobRunner, type JobRunner } from './jobs/runner';
import { RateLimits, type RateLimitName, type RateLimitRule } from './http/rate-limit';
import pg from 'pg';
import { createLogger, type Logger } from './logger';
import { createMailer, type Mailer } from './mail/mailer';
import { ROOT_DIR, WEB_DIST_DIR } from './paths';

export interface StartOptions {
  /** Overrides of environment configuration (PORT, DATABASE_URL, DATA_DIR, ...). */
  env?: Record<string, string | undefined>;
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
  /** Use an in-memory embedded database (tests). */
  memoryDatabase?: boolean;
  seedDemo?: boolean;
  dev?: boolean;
  log?: boolean;
  clock?: Clock;
  rateLimits?: Partial<Record<RateLimitName, RateLimitRule>>;
  /** Run background jobs (pg-boss); default true. */
  jobs?: boolean;
}

export interface RunningServer {
  url: string;
  config: Config;
  knex: Knex;
  mailer: Mailer;
  log: Logger;
  demo: DemoSummary | null;
  close(): Promise<void>;
}

/** Starts the whole cloud: database (PostgreSQL or embedded), migrations, demo data, HTTP. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = { ...process.env, ...options.env };
  if (options.port !== undefined) env.PORT = String(options.port);
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl;
  const config = loadConfig(env);
  configureWebhookSecrets(config);
  const log = createLogger(options.log === false ? 'silent' : config.LOG_LEVEL);
  const transport = transportWarning(config, env);
  if (transport) log.warn(transport);

  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dir = options.memoryDatabase ? 'memory://' : path.join(config.dataDir, 'pgdata');
    embedded = await startEmbeddedDatabase(dir);
    databaseUrl = embedded.url;
    log.info({ dir }, 'embedded PostgreSQL (PGlite) started');
  }
  const knex = createKnex(databaseUrl, {
    singleConnection: Boolean(embedded),
    poolMax: config.DATABASE_POOL_MAX,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  // Rate limits in PostgreSQL on a pool of their own (see http/rate-limit.ts); in memory on PGlite.
  const rateLimitPool = embedded ? null : new pg.Pool({ connectionString: databaseUrl, max: 2 });
  rateLimitPool?.on('error', (err) => log.warn({ err }, 'rate-limit pool connection lost'));
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    dataDir: config.dataDir,
    log,
  });
  const seedDemo =
    options.seedDemo ?? (config.DEMO_SEED && (Boolean(embedded) || env.DEMO_SEED !== undefined));
  let demo: DemoSummary | null = null;
  let jobs: JobRunner | null = null;
  // Instances starting together take turns through migrations and the job queue's set-up (below).
  const startup = async <T>(work: (migrator: Knex) => Promise<T>): Promise<T> =>
    embedded
      ? work(knex) // PGlite: one process, one connection.
      : withStartupLock(config.DATABASE_DIRECT_URL ?? databaseUrl, log, work);
  const ran = await startup(async (migrator) => {
    const applied = await migrateLatest(migrator);
    // Into an empty database only: under the lock, so two first starts do not both seed.
    if (seedDemo) demo = await seedDemoStudio(knex, log, undefined, { storage: fileStorage(config) });
    // Webhook secrets stored in the clear before migration 0210 are encrypted once, here (the
    // migration has no key); a no-op query afterwards.
    const sealed = await sealStoredWebhookSecrets(knex);
    if (sealed.sealed) log.info(sealed, 'webhook secrets encrypted');
    // The queue's set-up (pg-boss schema, queues, schedules) under the same lock.
    jobs =
      options.jobs === false
        ? null
        : await startJobRunner(
            {
              knex,
              log,
              clock: options.clock ?? systemClock,
              mailer,
              publicUrl: () => config.publicUrl,
              storage: fileStorage(config),
            },
            {
              pollingIntervalSeconds: config.JOBS_POLL_SECONDS,
              maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS,
            },
          );
    return applied;
  });
  if (ran.length) log.info({ migrations: ran }, 'migrations applied');

  let web: WebAssets = builtWebAssets(WEB_DIST_DIR);
  let devMiddleware: ExtraMiddleware | undefined;
  let closeVite: (() => Promise<void>) | undefined;
  if (options.dev) {
    ({ web, devMiddleware, close: closeVite } = await createViteDev());
  }

  const app = createApp(
    {
      config,
      knex,
      log,
      mailer,
      clock: options.clock ?? systemClock,
      rateLimits: new RateLimits(options.rateLimits, { pool: rateLimitPool ?? undefined }),
      web,
    },
    { devMiddleware },
  );
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = options.port === 0 || !env.PUBLIC_URL ? `http://localhost:${port}` : config.publicUrl;
  if (options.port === 0) config.publicUrl = url;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      await closeVite?.();
      await jobs?.stop();
      await knex.destroy();
      await rateLimitPool?.end();
      await embedded?.stop();
    })());

  return { url, config, knex, mailer, log, demo, close };
}

async function createViteDev(): Promise<{
  web: WebAssets;
  devMiddleware: ExtraMiddleware;
  close(): Promise<void>;
}> {
  const { createServer } = await import('vite');
  const fs = await import('node:fs/promises');
  const vite = await createServer({
    configFile: path.join(ROOT_DIR, 'web', 'vite.config.ts'),
    server: { middlewareMode: true },
    appType: 'custom',
  });
  return {
    web: {
      async html(app, url) {
        const source = await fs.readFile(path.join(ROOT_DIR, 'web', app, 'index.html'), 'utf8');
        return vite.transformIndexHtml(url, source);
      },
    },
    // Whatever the API and page routes did not answer goes to Vite (modules, assets, HMR).
    devMiddleware: async (ctx, next) => {
      if (ctx.body !== undefined || ctx.status !== 404) return next();
      ctx.respond = false;
      await new Promise<void>((resolve) => {
        vite.middlewares(ctx.req, ctx.res, () => {
          ctx.res.statusCode = 404;
          ctx.res.end('Not found');
          resolve();
        });
        ctx.res.once('finish', () => resolve());
      });
    },
    close: () => vite.close(),
  };
}

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const running = await startServer({ dev });
  const { log, url, demo } = running;
  log.info(`Studio platform listening on ${url}`);
  log.info(`  entry app:     ${url}/login`);
  if (demo) {
    log.info(`  demo studio:   ${demo.studioName}`);
    log.info(`  back office:   ${url}/${demo.studioUuid}/backoffice`);
    log.info(`  front office:  ${url}/${demo.studioUuid}/frontoffice`);
    log.info(`  manager login: ${demo.managerEmail} / ${demo.managerPassword}`);
  }
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down');
      running.close().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const start = () =>
    main().catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  let processes = 1;
  try {
    processes = processCount(loadConfig());
  } catch (err) {
    // The configuration's own message (production without PUBLIC_URL, say), without a stack.
    console.error((err as Error).message);
    process.exit(1);
  }
  if (processes > 1 && cluster.isPrimary) runPrimary(processes, createLogger(loadConfig().LOG_LEVEL));
  else void start();
}
