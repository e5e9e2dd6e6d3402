import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { SyncIssueType } from '../../../shared/contracts/api/sync-review';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { SyncReviewApi } from '../../../shared/contracts/http/sync-review';

/** Station flags and quarantined commands (`/api/v4/{uuid}/sync/...`) and their react-query keys. */
export const syncIssueKeys = {
  all: (studio: string) => ['sync-issues', studio] as const,
  list: (studio: string, state: 'open' | 'closed', station: string | null) =>
    ['sync-issues', studio, state, station] as const,
};

export function useSyncIssues(state: 'open' | 'closed', station: string | null) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useInfiniteQuery({
    queryKey: syncIssueKeys.list(studio, state, station),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      return api.call(SyncReviewApi.getSyncIssues, {
        params: { uuid: studio },
        query: { state, limit: 30, station: station ?? undefined, cursor: pageParam ?? undefined },
        signal,
      });
    },
    getNextPageParam: (last) => last.next,
  });
}

export function useInvalidateSyncIssues(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: syncIssueKeys.all(studio) });
}

export const syncIssueCalls = {
  close: (api: ApiClient, studio: string, type: SyncIssueType, id: string, action: 'resolve' | 'dismiss') =>
    api.call(SyncReviewApi.postSyncIssue, { params: { uuid: studio, type, issue: id }, body: { action } }),
};
