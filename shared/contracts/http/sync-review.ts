import {
  SyncIssueActionSchema,
  SyncIssueListQuerySchema,
  SyncIssueListSchema,
  SyncIssueParamsSchema,
  SyncIssueSchema,
} from '../api/sync-review';
import { contractGroup } from './define';
import { StudioParams } from './params';

/**
 * The back office's review of station flags and quarantined commands (cloud/src/sync/README.md):
 * seeing and closing them takes `clients.edit`; closing a quarantined command also `settings.edit`.
 */
export const SyncReviewApi = contractGroup('syncReview', {
  getSyncIssues: {
    method: 'get',
    path: '/v4/:uuid/sync/issues',
    access: 'staff',
    ability: 'clients.edit',
    params: StudioParams,
    query: SyncIssueListQuerySchema,
    response: SyncIssueListSchema,
  },
  postSyncIssue: {
    method: 'post',
    path: '/v4/:uuid/sync/issue/:type/:issue',
    access: 'staff',
    ability: 'clients.edit',
    params: SyncIssueParamsSchema,
    body: SyncIssueActionSchema,
    response: SyncIssueSchema,
  },
});
