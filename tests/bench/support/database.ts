import pg from 'pg';

/** The database a benchmark runs on: a fresh PostgreSQL database, or an in-memory PGlite. */
export interface BenchDatabase {
  url: string;
  /** One connection only (PGlite). */
  single: boolean;
  label: string;
  drop(): Promise<void>;
}

/**
 * BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server: a fresh database
 * `<that database's name>_<prefix>_<time>` is created for the run and dropped by `drop()`. Without
 * any, an in-memory embedded PGlite. BENCH_KEEP_DATABASE=1 keeps the database after the run.
 */
export async function openBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!server) {
    const { startEmbeddedDatabase } = await import('../../../cloud/src/db/embedded');
    const embedded = await startEmbeddedDatabase('memory://');
    return {
      url: embedded.url,
      single: true,
      label: 'embedded PGlite (in memory)',
      drop: () => embedded.stop(),
    };
  }
  const name = `${new URL(server).pathname.slice(1) || 'bench'}_${prefix}_${Date.now()}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    single: false,
    label: `PostgreSQL ${url.host} (fresh database ${name})`,
    // BENCH_KEEP_DATABASE=1 keeps it, to look at its plans afterwards (drop it yourself).
    drop: () =>
      process.env.BENCH_KEEP_DATABASE
        ? Promise.resolve(console.log(`kept database ${name}`))
        : run(`drop database if exists ${name} with (force)`),
  };
}
