import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  CashMovementInput,
  ShiftCloseInput,
  ShiftOpenInput,
  StudioPosInput,
} from '../../../shared/contracts/api/stations';
import { StationsApi } from '../../../shared/contracts/http/stations';
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

/** The studio's POS stations; `pollMs` keeps the list fresh (a desk waiting for a station to be added). */
export function useStations(enabled = true, pollMs?: number) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.list(studio),
    queryFn: ({ signal }) =>
      api.call(StationsApi.getStudioPosCollection, { params: { uuid: studio }, signal }),
    enabled,
    ...(pollMs ? { refetchInterval: pollMs } : {}),
  });
}

export function useStationsInit(enabled = true) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.init(studio),
    queryFn: ({ signal }) => api.call(StationsApi.getStudioPosInit, { params: { uuid: studio }, signal }),
    enabled,
  });
}

export function useCurrentShift(posId: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: stationKeys.shift(studio, posId ?? ''),
    queryFn: ({ signal }) =>
      api.call(StationsApi.getStudioPosShiftCurrent, {
        params: { uuid: studio, studioPos: posId ?? '' },
        signal,
      }),
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
    api.call(StationsApi.postStudioPos, { params: { uuid: studio }, body: input }),
  assign: (api: ApiClient, studio: string, pos: string, deviceId: string) =>
    api.call(StationsApi.postStudioPosAssign, {
      params: { uuid: studio, studioPos: pos },
      body: { deviceId },
    }),
  unassign: (api: ApiClient, studio: string, pos: string) =>
    api.call(StationsApi.postStudioPosUnassign, { params: { uuid: studio, studioPos: pos }, body: {} }),
  openShift: (api: ApiClient, studio: string, pos: string, input: ShiftOpenInput) =>
    api.call(StationsApi.postStudioPosShiftOpen, { params: { uuid: studio, studioPos: pos }, body: input }),
  cash: (api: ApiClient, studio: string, pos: string, shift: string, input: CashMovementInput) =>
    api.call(StationsApi.postStudioPosShiftCash, {
      params: { uuid: studio, studioPos: pos, shift },
      body: input,
    }),
  close: (api: ApiClient, studio: string, pos: string, shift: string, input: ShiftCloseInput) =>
    api.call(StationsApi.postStudioPosShiftClose, {
      params: { uuid: studio, studioPos: pos, shift },
      body: input,
    }),
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
