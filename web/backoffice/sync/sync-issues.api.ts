import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import {
  SyncIssueListSchema,
  SyncIssueSchema,
  type SyncIssueType,
} from '../../../shared/contracts/api/sync-review';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

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
      const query = new URLSearchParams({ state, limit: '30' });
      if (station) query.set('station', station);
      if (pageParam) query.set('cursor', pageParam);
      return api.get(`${studio}/sync/issues?${query.toString()}`, { schema: SyncIssueListSchema, signal });
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
    api.post(`${studio}/sync/issue/${type}/${id}`, { action }, { schema: SyncIssueSchema }),
};
