import { requeueStalledKsefSends } from '../modules/invoices/index';
import type { JobDefinition } from './runner';

export const KSEF_SWEEP = 'ksef-sweep';

/**
 * Invoices stuck on their way to KSeF (unreachable for long: their send job is in a long backoff or
 * out of retries) get a fresh send every 30 minutes (modules/invoices/README.md "KSeF").
 */
export const ksefSweepJob: JobDefinition = {
  name: KSEF_SWEEP,
  cron: '*/30 * * * *',
  runOnStart: true,
  run: ({ knex, clock }) => requeueStalledKsefSends(knex, clock.now()),
};
