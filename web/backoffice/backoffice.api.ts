import { useQuery, useQueryClient } from '@tanstack/react-query';
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

/**
 * After the studio's own settings were saved (Settings → Studio, Policies, Appearance, the setup
 * card): the init call above is loaded once per session and carries the studio's name, zone,
 * currency and language that every screen formats with, so it is fetched again at once. When the
 * zone, currency or language changed, every other answer may hold something computed in them (a
 * day's range, "today", a price): the open screen's queries are fetched again and the cached ones of
 * other screens dropped, so no screen shows the old zone, even for the moment a cached answer would
 * take to be replaced.
 */
export function useStudioSaved(): (
  saved: Pick<BackofficeInit['studio'], 'timeZone' | 'currency' | 'defaultLocale'>,
) => void {
  const queryClient = useQueryClient();
  const { studio } = useBackoffice();
  return (saved) => {
    const regional =
      saved.timeZone !== studio.timeZone ||
      saved.currency !== studio.currency ||
      saved.defaultLocale !== studio.defaultLocale;
    if (!regional) {
      void queryClient.invalidateQueries({ queryKey: ['backoffice', 'init'] });
      return;
    }
    queryClient.removeQueries({ type: 'inactive' });
    void queryClient.invalidateQueries();
  };
}
