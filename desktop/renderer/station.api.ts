import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { AppInfo, DesktopApi, StationState } from '../../shared/contracts/ipc';
import type { ApiSession } from '../../web/lib/api-client';
import { call } from './bridge';

export interface DesktopContextValue {
  bridge: DesktopApi;
  info: AppInfo;
}

const DesktopContext = createContext<DesktopContextValue | null>(null);
export const DesktopContextProvider = DesktopContext.Provider;

export function useDesktop(): DesktopContextValue {
  const value = useContext(DesktopContext);
  if (!value) throw new Error('DesktopContextProvider is missing');
  return value;
}

export const stationKeys = {
  state: ['station', 'state'] as const,
  sync: ['station', 'sync'] as const,
};

export function useStationState(initial: StationState) {
  const { bridge } = useDesktop();
  return useQuery({
    queryKey: stationKeys.state,
    queryFn: () => call(bridge, 'stationState', {}),
    initialData: initial,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The sync indicator: asked every two seconds (cheap: main answers from memory). */
export function useSyncStatus() {
  const { bridge } = useDesktop();
  return useQuery({
    queryKey: stationKeys.sync,
    queryFn: () => call(bridge, 'syncStatus', {}),
    // Every second: the offline bar follows the probe closely (issue 26).
    refetchInterval: 1_000,
    refetchIntervalInBackground: true,
    retry: false,
  });
}

/** Runs a station call that answers the new StationState and puts it in the cache. */
export function useStationMutation<I>(run: (bridge: DesktopApi, input: I) => Promise<StationState>) {
  const { bridge } = useDesktop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(bridge, input),
    onSuccess: (state) => queryClient.setQueryData(stationKeys.state, state),
  });
}

/**
 * The renderer never holds the staff session: the web ApiClient gets the user id (screens key their
 * caches by it) and placeholders; main adds the real credentials to each forwarded call.
 */
export function sessionFor(state: StationState): ApiSession {
  return state.staff
    ? { userId: state.staff.userId, sessionId: 'station', token: 'station' }
    : { userId: null, sessionId: null, token: 'station' };
}
