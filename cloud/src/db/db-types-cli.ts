import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import prettier from 'prettier';
import { startEmbeddedDatabase } from './embedded';
import { createKnex } from './knex';
import { migrateLatest } from './migrate';
import { renderTables } from './db-types';

/**
 * `npm run db:types`: migrates a throwaway database and writes the TypeScript declaration of every
 * table (`db/generated/tables.ts`, through kanel). `npm run db:types:check` (CI) writes into a temp
 * file instead and fails when the checked-in file differs.
 *
 * The database: a fresh one created (and dropped) on the PostgreSQL server of TEST_DATABASE_URL, or,
 * without it, an in-memory PGlite. Both give the same file.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.join(here, 'generated', 'tables.ts');
const check = process.argv.includes('--check');

async function throwawayDatabase(): Promise<{ url: string; single: boolean; drop(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    const embedded = await startEmbeddedDatabase('memory://', { maxConnections: 10 });
    return { url: embedded.url, single: true, drop: () => embedded.stop() };
  }
  const name = `db_types_${Date.now()}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    single: false,
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

const db = await throwawayDatabase();
let text: string;
try {
  const knex = createKnex(db.url, { singleConnection: db.single });
  try {
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  text = await renderTables(db.url);
} finally {
  await db.drop();
}

// The checked-in file is what prettier writes: format the fresh one the same way before comparing.
const formatted = await prettier.format(text, {
  ...(await prettier.resolveConfig(target)),
  filepath: target,
});

if (check) {
  const current = await fs.readFile(target, 'utf8').catch(() => '');
  if (current !== formatted) {
    console.error(
      `${path.relative(process.cwd(), target)} is out of date with the migrations: run \`npm run db:types\` and commit it.`,
    );
    process.exit(1);
  }
  console.log('db types are up to date');
} else {
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, formatted);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
