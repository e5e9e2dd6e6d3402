import path from 'node:path';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { startEmbeddedDatabase } from './embedded';
import { createKnex } from './knex';
import { migrateLatest } from './migrate';
import { withStartupLock } from './startup-lock';

/**
 * `npm run db:migrate` (a release step, if wanted): migrate DATABASE_DIRECT_URL or DATABASE_URL
 * under the instances' start-up lock, or the embedded database under DATA_DIR.
 */
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const url = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;
let ran: string[];
if (url) {
  ran = await withStartupLock(url, log, migrateLatest);
} else {
  const embedded = await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
  const knex = createKnex(embedded.url, { singleConnection: true });
  try {
    ran = await migrateLatest(knex);
  } finally {
    await knex.destroy();
    await embedded.stop();
  }
}
console.log(ran.length ? `applied: ${ran.join(', ')}` : 'already up to date');
