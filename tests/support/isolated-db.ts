import pg from 'pg';
import { inject } from 'vitest';
import { createKnex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';

/**
 * A database of the test's own, for tests that compare whole tables before and after (other files
 * write to the shared one in parallel). On the embedded database, files run one at a time, so the
 * shared database already is the test's own.
 */
export async function isolatedDatabase(
  options: { migrate?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = inject('databaseUrl');
  if (inject('embeddedDatabase')) return { url: shared, drop: async () => {} };
  // Named after the shared database (`<name>_iso_…`), so each checkout's databases are told apart.
  const name = `${new URL(shared).pathname.slice(1) || 'test'}_iso_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  // `migrate: false`: an empty database, as a first deployment finds it.
  if (options.migrate !== false) {
    const knex = createKnex(url.toString());
    await migrateLatest(knex);
    await knex.destroy();
  }
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: shared });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
