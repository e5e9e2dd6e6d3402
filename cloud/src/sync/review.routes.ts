import type Router from '@koa/router';
import {
  isSyncIssueType,
  type SyncIssue,
  type SyncIssueList,
} from '../../../shared/contracts/api/sync-review';
import { SyncReviewApi } from '../../../shared/contracts/http/sync-review';
import { AppError } from '../../../shared/errors';
import { assertAbility } from '../http/abilities';
import type { AppCustom, AppState } from '../http/context';
import { defineRoute } from '../http/route';
import { closeSyncIssue, listSyncIssues } from './review.service';

/**
 * The back office's review of station flags and quarantined commands. Rights (cloud/src/sync/README.md):
 * the desk's flags are the desk's work — seeing them and closing them takes `clients.edit` (front desk,
 * managers, owners); a quarantined command is a failed payload the studio's settings people decide on,
 * so closing one also takes `settings.edit`.
 */
export function registerSyncReviewRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...SyncReviewApi.getSyncIssues,
    handle: async ({ db, studio, query }): Promise<SyncIssueList> =>
      listSyncIssues(db, studio.id, {
        state: query.state ?? 'open',
        limit: query.limit ?? 50,
        ...(query.station ? { station: query.station } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      }),
  });

  defineRoute(router, {
    ...SyncReviewApi.postSyncIssue,
    handle: async ({ db, studio, membership, params, body, auth, deps }): Promise<SyncIssue> => {
      if (!isSyncIssueType(params.type)) throw AppError.notFound();
      if (params.type === 'quarantine') await assertAbility(db, membership, 'settings.edit');
      return closeSyncIssue(
        db,
        studio.id,
        params.type,
        params.issue,
        body.action,
        auth.user.id,
        deps.clock.now(),
      );
    },
  });
}
