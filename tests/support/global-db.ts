import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../cloud/src/db/embedded';
import { createKnex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    embeddedDatabase: boolean;
  }
}

let embedded: EmbeddedDatabase | undefined;

/**
 * One database for the integration run: TEST_DATABASE_URL (CI's PostgreSQL), else an
 * in-memory PGlite. Migrated once here; every test then builds its own studio with factories.
 */
export async function setup(project: TestProject): Promise<void> {
  // Never DATABASE_URL: that is a developer's own database, and tests would fill it with studios.
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase('memory://');
    url = embedded.url;
  }
  const knex = createKnex(url, { singleConnection: Boolean(embedded) });
  try {
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  project.provide('databaseUrl', url);
  project.provide('embeddedDatabase', Boolean(embedded));
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
}
