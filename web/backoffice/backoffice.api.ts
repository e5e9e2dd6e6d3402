import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { BackofficeInit } from '../../shared/contracts/api/studio';
import { IdentityApi } from '../../shared/contracts/http/identity';
import { useApiClient, useSession } from '../lib/app-context';

export const backofficeKeys = {
  init: (studioUuid: string, userId: string | null) => ['backoffice', 'init', studioUuid, userId] as const,
};

/** POST backoffice/init: the studio and the signed-in member, loaded once per session. */
export function useBackofficeInit(studioUuid: string) {
  const api = useApiClient();
  const session = useSession();
  return useQuery({
    queryKey: backofficeKeys.init(studioUuid, session.userId),
    queryFn: ({ signal }) => api.call(IdentityApi.backofficeInit, { params: { uuid: studioUuid }, signal }),
    enabled: Boolean(session.userId && session.sessionId),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const BackofficeInitContext = createContext<BackofficeInit | null>(null);
export const BackofficeInitProvider = BackofficeInitContext.Provider;

/** The loaded init data; only used below BackofficeApp's success branch. */
export function useBackoffice(): BackofficeInit {
  const value = useContext(BackofficeInitContext);
  if (!value) throw new Error('useBackoffice outside BackofficeInitProvider');
  return value;
}
