/**
 * The job runner as a separate process, for the kill -9 test of the side-effect pipeline:
 * `tsx worker-child.ts <database url> <data dir>` works every side-effect queue and sends mail as
 * `.eml` files into `<data dir>/mail`. With `CRASH=before-send` it SIGKILLs itself when the first
 * mail is about to go (the job fetched and active, nothing sent). Prints `working` when ready.
 */
import { systemClock } from '../../clock';
import { createKnex } from '../../db/knex';
import { createLogger } from '../../logger';
import { createMailer, type Mailer } from '../../mail/mailer';
import { startJobRunner } from '../runner';

const [databaseUrl, dataDir] = process.argv.slice(2);
const log = createLogger('silent', false);
const knex = createKnex(databaseUrl!);
const files = createMailer({ from: 'Studio <no-reply@studio.local>', dataDir: dataDir!, log });
const mailer: Mailer = {
  recent: files.recent,
  async send(message) {
    if (process.env.CRASH === 'before-send') process.kill(process.pid, 'SIGKILL');
    await files.send(message);
  },
};
await startJobRunner(
  { knex, log, clock: systemClock, mailer, publicUrl: () => 'http://localhost' },
  { jobs: [], pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
);
process.stdout.write('working\n');
