import { sweepAutomations } from '../modules/communication/index';
import type { JobDefinition } from './runner';

export const AUTOMATIONS_SWEEP = 'automations-sweep';

/** The studios' automation scenarios: occasions found and their mails queued every 15 minutes. */
export const automationsSweepJob: JobDefinition = {
  name: AUTOMATIONS_SWEEP,
  cron: '*/15 * * * *',
  runOnStart: true,
  run: ({ knex, clock, publicUrl }) => sweepAutomations(knex, clock.now(), publicUrl?.() ?? ''),
};
