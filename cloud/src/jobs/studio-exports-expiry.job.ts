import { expireStudioExports } from '../modules/reports/index';
import type { JobDefinition } from './runner';

export const STUDIO_EXPORTS_EXPIRY = 'studio-exports-expiry';

/**
 * The studios' data exports a week after they were made (modules/reports/README.md, "Studio data
 * export"): the zip and its chunks are deleted. Nightly at 03:20 UTC; not run at start (a day late
 * loses nothing).
 */
export const studioExportsExpiryJob: JobDefinition = {
  name: STUDIO_EXPORTS_EXPIRY,
  cron: '20 3 * * *',
  runOnStart: false,
  run: ({ knex, clock }) => expireStudioExports(knex, clock.now()),
};
