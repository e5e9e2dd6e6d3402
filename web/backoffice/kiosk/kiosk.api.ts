import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  SmartLockInput,
  SmartLockPatch,
  StudioKioskInput,
  StudioKioskPatch,
} from '../../../shared/contracts/api/kiosk';
import { KioskApi } from '../../../shared/contracts/http/kiosk';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Back-office calls of kiosk mode (spec §7 `studio-kiosk …`, `studio-smart-lock …`). */
export const kioskKeys = {
  all: (studio: string) => ['kiosks', studio] as const,
  kiosks: (studio: string) => ['kiosks', studio, 'list'] as const,
  init: (studio: string) => ['kiosks', studio, 'init'] as const,
  locks: (studio: string) => ['kiosks', studio, 'locks'] as const,
};

export function useKiosks() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: kioskKeys.kiosks(studio),
    queryFn: ({ signal }) =>
      api.call(KioskApi.getStudioKioskCollection, { params: { uuid: studio }, signal }),
  });
}

export function useKioskInit() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: kioskKeys.init(studio),
    queryFn: ({ signal }) => api.call(KioskApi.getStudioKioskInit, { params: { uuid: studio }, signal }),
  });
}

export function useSmartLocks() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: kioskKeys.locks(studio),
    queryFn: ({ signal }) => api.call(KioskApi.getSmartLockCollection, { params: { uuid: studio }, signal }),
  });
}

export function useInvalidateKiosks(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: kioskKeys.all(studio) });
}

export const kioskCalls = {
  createKiosk: (api: ApiClient, studio: string, input: StudioKioskInput) =>
    api.call(KioskApi.postStudioKiosk, { params: { uuid: studio }, body: input }),
  updateKiosk: (api: ApiClient, studio: string, id: string, patch: StudioKioskPatch) =>
    api.call(KioskApi.patchStudioKiosk, { params: { uuid: studio, kioskGuid: id }, body: patch }),
  removeKiosk: (api: ApiClient, studio: string, id: string) =>
    api.call(KioskApi.deleteStudioKiosk, { params: { uuid: studio, kioskGuid: id } }),
  qrCode: (api: ApiClient, studio: string, id: string) =>
    api.call(KioskApi.getStudioKioskQrCode, { params: { uuid: studio, kioskGuid: id } }),
  createLock: (api: ApiClient, studio: string, input: SmartLockInput) =>
    api.call(KioskApi.postSmartLock, { params: { uuid: studio }, body: input }),
  updateLock: (api: ApiClient, studio: string, id: string, patch: SmartLockPatch) =>
    api.call(KioskApi.patchSmartLock, { params: { uuid: studio, smartLockGuid: id }, body: patch }),
  removeLock: (api: ApiClient, studio: string, id: string) =>
    api.call(KioskApi.deleteSmartLock, { params: { uuid: studio, smartLockGuid: id } }),
  testLock: (api: ApiClient, studio: string, smartLockId: string) =>
    api.call(KioskApi.postSmartLockTestConnection, { params: { uuid: studio }, body: { smartLockId } }),
};
