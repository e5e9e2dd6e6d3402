import { processDueInstalments } from '../modules/contracts/index';
import type { JobDefinition } from './runner';

export const CONTRACT_INSTALMENTS_DUE = 'contract-instalments-due';

/**
 * Contract instalments due: tops up open-ended schedules and turns every instalment due by today (in
 * its studio's time zone) into an order through the sales module. Every 10 minutes, so a studio's
 * midnight is picked up within minutes whatever its time zone; idempotent, so overlaps are harmless.
 */
export const contractInstalmentsDueJob: JobDefinition = {
  name: CONTRACT_INSTALMENTS_DUE,
  cron: '*/10 * * * *',
  runOnStart: true,
  run: ({ knex, clock, log }) => processDueInstalments(knex, clock.now(), log),
};
