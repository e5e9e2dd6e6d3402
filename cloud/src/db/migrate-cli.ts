import path from 'node:path';
import { loadConfig } from '../config';
import { startEmbeddedDatabase } from './embedded';
import { createKnex } from './knex';
import { migrateLatest } from './migrate';

/** `npm run db:migrate`: migrate DATABASE_URL, or the embedded database under DATA_DIR. */
const config = loadConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
const knex = createKnex(config.DATABASE_URL ?? embedded!.url, { singleConnection: Boolean(embedded) });
try {
  const ran = await migrateLatest(knex);
  console.log(ran.length ? `applied: ${ran.join(', ')}` : 'already up to date');
} finally {
  await knex.destroy();
  await embedded?.stop();
}
