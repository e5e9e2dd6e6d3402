import type { Knex } from 'knex';
import { installJobQueues } from '../jobs/queue';
import { MIGRATIONS } from './migrations';

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => MIGRATIONS.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = MIGRATIONS.find(([n]) => n === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found[1];
  },
};

/**
 * Brings the schema up to date, then installs the job queues the code declares and the database
 * lacks (a new queue needs no migration); returns the names of the migrations it ran.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, ran] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  await installJobQueues(knex);
  return ran;
}

export async function rollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource: source }, true);
}
