import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  KioskQrCodeSchema,
  SmartLockListSchema,
  SmartLockSchema,
  SmartLockTestResultSchema,
  StudioKioskInitSchema,
  StudioKioskListSchema,
  StudioKioskSchema,
  type SmartLockInput,
  type SmartLockPatch,
  type StudioKioskInput,
  type StudioKioskPatch,
} from '../../../shared/contracts/api/kiosk';
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
      api.get(`${studio}/studio-kiosk/collection`, { schema: StudioKioskListSchema, signal }),
  });
}

export function useKioskInit() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: kioskKeys.init(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/studio-kiosk/init`, { schema: StudioKioskInitSchema, signal }),
  });
}

export function useSmartLocks() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: kioskKeys.locks(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/studio-smart-lock/collection`, { schema: SmartLockListSchema, signal }),
  });
}

export function useInvalidateKiosks(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: kioskKeys.all(studio) });
}

export const kioskCalls = {
  createKiosk: (api: ApiClient, studio: string, input: StudioKioskInput) =>
    api.post(`${studio}/studio-kiosk`, input, { schema: StudioKioskSchema }),
  updateKiosk: (api: ApiClient, studio: string, id: string, patch: StudioKioskPatch) =>
    api.patch(`${studio}/studio-kiosk/${id}`, patch, { schema: StudioKioskSchema }),
  removeKiosk: (api: ApiClient, studio: string, id: string) =>
    api.delete<void>(`${studio}/studio-kiosk/${id}`),
  qrCode: (api: ApiClient, studio: string, id: string) =>
    api.get(`${studio}/studio-kiosk/${id}/qr-code`, { schema: KioskQrCodeSchema }),
  createLock: (api: ApiClient, studio: string, input: SmartLockInput) =>
    api.post(`${studio}/studio-smart-lock`, input, { schema: SmartLockSchema }),
  updateLock: (api: ApiClient, studio: string, id: string, patch: SmartLockPatch) =>
    api.patch(`${studio}/studio-smart-lock/${id}`, patch, { schema: SmartLockSchema }),
  removeLock: (api: ApiClient, studio: string, id: string) =>
    api.delete<void>(`${studio}/studio-smart-lock/${id}`),
  testLock: (api: ApiClient, studio: string, smartLockId: string) =>
    api.post(
      `${studio}/studio-smart-lock/test-connection`,
      { smartLockId },
      { schema: SmartLockTestResultSchema },
    ),
};
