import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  CashMovementInput,
  CurrentShift,
  ShiftCloseInput,
  ShiftOpenInput,
  ShiftView,
  StudioPos,
  StudioPosInit,
  StudioPosInput,
  StudioPosList,
} from '../../../shared/contracts/api/stations';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from './pos.api';

/** POS stations and shifts (studio-pos …) and their react-query keys. */
export const stationKeys = {
  all: (studio: string) => ['studio-pos', studio] as const,
  list: (studio: string) => ['studio-pos', studio, 'list'] as const,
  init: (studio: string) => ['studio-pos', studio, 'init'] as const,
  shift: (studio: string, pos: string) => ['studio-pos', studio, 'shift', pos] as const,
};

export function useStations(enabled = true) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.list(studio),
    queryFn: ({ signal }) => api.get<StudioPosList>(`${studio}/studio-pos/collection`, { signal }),
    enabled,
  });
}

export function useStationsInit(enabled = true) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.init(studio),
    queryFn: ({ signal }) => api.get<StudioPosInit>(`${studio}/studio-pos/init`, { signal }),
    enabled,
  });
}

export function useCurrentShift(posId: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.shift(studio, posId ?? ''),
    queryFn: ({ signal }) => api.get<CurrentShift>(`${studio}/studio-pos/${posId}/shift/current`, { signal }),
    enabled: posId !== null,
  });
}

export function useInvalidateStations(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudioUuid();
  return () => queryClient.invalidateQueries({ queryKey: stationKeys.all(studio) });
}

export const stationCalls = {
  create: (api: ApiClient, studio: string, input: StudioPosInput) =>
    api.post<StudioPos>(`${studio}/studio-pos`, input),
  assign: (api: ApiClient, studio: string, pos: string, deviceId: string) =>
    api.post<StudioPos>(`${studio}/studio-pos/${pos}/assign`, { deviceId }),
  unassign: (api: ApiClient, studio: string, pos: string) =>
    api.post<StudioPos>(`${studio}/studio-pos/${pos}/unassign`, {}),
  openShift: (api: ApiClient, studio: string, pos: string, input: ShiftOpenInput) =>
    api.post<ShiftView>(`${studio}/studio-pos/${pos}/shift/open`, input),
  cash: (api: ApiClient, studio: string, pos: string, shift: string, input: CashMovementInput) =>
    api.post<ShiftView>(`${studio}/studio-pos/${pos}/shift/${shift}/cash`, input),
  close: (api: ApiClient, studio: string, pos: string, shift: string, input: ShiftCloseInput) =>
    api.post<ShiftView>(`${studio}/studio-pos/${pos}/shift/${shift}/close`, input),
};

const storageKey = (studio: string) => `studio.pos.station.${studio}`;

/** The POS station this browser (or desk computer) sells at, remembered per studio on this device. */
export function useChosenStation(): [string | null, (id: string | null) => void] {
  const studio = useStudioUuid();
  const [chosen, setChosen] = useState<string | null>(() => {
    try {
      return window.localStorage.getItem(storageKey(studio));
    } catch {
      return null;
    }
  });
  const choose = useCallback(
    (id: string | null) => {
      setChosen(id);
      try {
        if (id) window.localStorage.setItem(storageKey(studio), id);
        else window.localStorage.removeItem(storageKey(studio));
      } catch {
        // Storage refused (private mode): the choice lasts for this page only.
      }
    },
    [studio],
  );
  return [chosen, choose];
}
