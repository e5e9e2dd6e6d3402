import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { StudioSettingsView } from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice, useStudioSaved } from '../backoffice.api';

export const studioAdminKeys = {
  settings: (uuid: string) => ['studio-admin', 'settings', uuid] as const,
  booking: (uuid: string) => ['studio-admin', 'booking-settings', uuid] as const,
  appearance: (uuid: string) => ['studio-appearance', uuid] as const,
  /** GET configure: the setup checklist, which follows the studio's data (payment providers too). */
  configure: (uuid: string) => ['studio-admin', 'configure', uuid] as const,
};

export function useStudioSettings() {
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: studioAdminKeys.settings(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.getSettings, { params: { uuid }, signal }),
  });
}

export function useBookingSettings() {
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: studioAdminKeys.booking(uuid),
    queryFn: ({ signal }) => api.call(BookingsApi.getSettingsBooking, { params: { uuid }, signal }),
  });
}

/**
 * After a change: the settings answer is the new state; the public appearance is read again, and
 * so is the studio every screen reads (a new time zone shows at once: `useStudioSaved`).
 */
export function useSettingsSaved() {
  const queryClient = useQueryClient();
  const uuid = useBackoffice().studio.uuid;
  const studioSaved = useStudioSaved();
  return (view: StudioSettingsView) => {
    queryClient.setQueryData(studioAdminKeys.settings(uuid), view);
    void queryClient.invalidateQueries({ queryKey: studioAdminKeys.appearance(uuid) });
    studioSaved(view.profile);
  };
}

/** Reads a picked file as a data URL (the upload's body). */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
