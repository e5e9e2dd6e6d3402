import { CHANGEFEED_RETENTION_DAYS, pruneChangefeed } from '../sync/changefeed';
import type { JobDefinition } from './runner';

export const SYNC_CHANGEFEED_PRUNE = 'sync-changefeed-prune';

/**
 * The changefeed's nightly pruning (docs/offline-sync.md, "A nightly job prunes the log (e.g. 45 days)
 * and raises a floor"): changes older than the retention go and the floor rises above them; a station
 * whose cursor is older than the floor gets 409 `sync.reset` at its next pull and bootstraps again,
 * keeping its outbox. 02:40 UTC, away from the whole-hour jobs; not run at start: pruning a night late
 * loses nothing, and one transaction on a large log should not slow a restart.
 */
export const syncChangefeedPruneJob: JobDefinition = {
  name: SYNC_CHANGEFEED_PRUNE,
  cron: '40 2 * * *',
  runOnStart: false,
  run: ({ knex, clock }) => pruneChangefeed(knex, CHANGEFEED_RETENTION_DAYS, clock.now()),
};
