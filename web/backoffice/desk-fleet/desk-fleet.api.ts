import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeskChannel, DeskFleet } from '../../../shared/contracts/api/desk-fleet';
import { fillPath } from '../../../shared/contracts/http/define';
import { DeskFleetApi } from '../../../shared/contracts/http/desk-fleet';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Back office → Stations (shared/contracts/http/desk-fleet.ts). */
export const deskFleetKeys = { all: (studio: string) => ['desk-fleet', studio] as const };

export function useDeskFleet() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: deskFleetKeys.all(studio),
    queryFn: ({ signal }) => api.call(DeskFleetApi.getDeskFleet, { params: { uuid: studio }, signal }),
    // Stations report every minute: the screen follows.
    refetchInterval: 60_000,
  });
}

export function useSetChannel() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channel: DeskChannel) =>
      api.call(DeskFleetApi.putDeskFleetChannel, { params: { uuid: studio }, body: { channel } }),
    onSuccess: (fleet: DeskFleet) => queryClient.setQueryData(deskFleetKeys.all(studio), fleet),
  });
}

export function useRequestLogs() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceId: string) =>
      api.call(DeskFleetApi.postDeskFleetUploadLogs, { params: { uuid: studio, deviceId }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskFleetKeys.all(studio) }),
  });
}

/** The logs' download address (a plain link: the browser sends the session cookie). */
export function useLogsHref(): (deviceId: string) => string {
  const studio = useBackoffice().studio.uuid;
  return (deviceId) => `/api${fillPath(DeskFleetApi.getDeskFleetLogs.path, { uuid: studio, deviceId })}`;
}

export function useDeleteRelease() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (releaseId: string) =>
      api.call(DeskFleetApi.deleteDeskFleetRelease, { params: { uuid: studio, releaseId } }),
    onSuccess: (fleet: DeskFleet) => queryClient.setQueryData(deskFleetKeys.all(studio), fleet),
  });
}
