import fs from 'node:fs/promises';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL compiled to WASM, persisted in `dir` (or in memory for `memory://`), exposed through
 * its socket server so the same `pg` driver and migrations run as in production. PGlite is a single
 * connection: the knex pool for it must hold exactly one. PGlite is loaded here, on first use: a server
 * on PostgreSQL (DATABASE_URL) never loads it (~40 MB of resident memory).
 */
export async function startEmbeddedDatabase(
  dir: string | 'memory://',
  // More than one only for readers that open a pool of their own (the schema reader of `db:types`).
  options: { maxConnections?: number } = {},
): Promise<EmbeddedDatabase> {
  if (dir !== 'memory://') await fs.mkdir(dir, { recursive: true });
  const [{ PGlite }, { btree_gist }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gist'),
    import('@electric-sql/pglite-socket'),
  ]);
  // btree_gist: the appointments' exclusion constraints (no two appointments hold one staff
  // member's or room's time) combine equality on ids with range overlap in one GiST index.
  const db = await PGlite.create({
    ...(dir === 'memory://' ? {} : { dataDir: dir }),
    extensions: { btree_gist },
  });
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections: options.maxConnections ?? 1,
  });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgres://postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
