import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EntryServiceInput, EntryServicePatch } from '../../../shared/contracts/api/entries';
import { EntriesApi } from '../../../shared/contracts/http/entries';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Back-office calls of entry services (spec §7 `entry-service …`, `entry/enrollment …`). */
export const entryKeys = {
  all: (studio: string) => ['entries', studio] as const,
  services: (studio: string) => ['entries', studio, 'services'] as const,
  init: (studio: string) => ['entries', studio, 'init'] as const,
  enrollment: (studio: string, client: string) => ['entries', studio, 'enrollment', client] as const,
  client: (studio: string, client: string) => ['entries', studio, 'client', client] as const,
};

export function useStudio() {
  return useBackoffice().studio.uuid;
}

export function useEntryServices() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: entryKeys.services(studio),
    queryFn: ({ signal }) => api.call(EntriesApi.serviceCollection, { params: { uuid: studio }, signal }),
    refetchInterval: 60_000,
  });
}

export function useEntryServiceInit() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: entryKeys.init(studio),
    queryFn: ({ signal }) => api.call(EntriesApi.serviceInit, { params: { uuid: studio }, signal }),
  });
}

export function useSaveEntryService() {
  const api = useApiClient();
  const studio = useStudio();
  const client = useQueryClient();
  return async (id: string | null, body: EntryServiceInput | EntryServicePatch) => {
    const saved = id
      ? await api.call(EntriesApi.patchService, { params: { uuid: studio, entryService: id }, body })
      : await api.call(EntriesApi.createService, {
          params: { uuid: studio },
          body: body as EntryServiceInput,
        });
    await client.invalidateQueries({ queryKey: entryKeys.all(studio) });
    return saved;
  };
}

export function useEnrollmentInit(clientId: string | null) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: entryKeys.enrollment(studio, clientId ?? ''),
    queryFn: ({ signal }) =>
      api.call(EntriesApi.enrollmentInit, {
        params: { uuid: studio },
        query: { clientId: clientId! },
        signal,
      }),
    enabled: Boolean(clientId),
  });
}

export function useEnroll() {
  const api = useApiClient();
  const studio = useStudio();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      clientId: string;
      entryServiceId: string;
      withoutPass: boolean;
      /** Sell the single entry (day ticket) and let the client in: paid at the desk with `method`. */
      sale?: { method: number };
    }) => api.call(EntriesApi.enroll, { params: { uuid: studio }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: entryKeys.all(studio) }),
  });
}

export function useClientEntries(clientId: string) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: entryKeys.client(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(EntriesApi.clientEntries, {
        params: { uuid: studio, user: clientId },
        query: { limit: 50 },
        signal,
      }),
  });
}
