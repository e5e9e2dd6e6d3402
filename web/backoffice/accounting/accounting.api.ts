import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountingSettingsInput } from '../../../shared/contracts/api/accounting';
import { AccountingApi } from '../../../shared/contracts/http/accounting';
import { fillPath } from '../../../shared/contracts/http/define';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** The accountant's files (`shared/contracts/http/accounting.ts`) and their react-query keys. */
const keys = {
  settings: (studio: string) => ['accounting', studio, 'settings'] as const,
  summary: (studio: string, from: string, to: string) => ['accounting', studio, 'summary', from, to] as const,
};

export type AccountingFile = 'getJpkFa' | 'getJpkV7m' | 'getSalesRegisterCsv' | 'getSalesRegisterXlsx';

export function useAccountingSettings() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.settings(studio),
    queryFn: ({ signal }) => api.call(AccountingApi.getSettings, { params: { uuid: studio }, signal }),
  });
}

export function useSaveAccountingSettings() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return async (body: AccountingSettingsInput) => {
    const saved = await api.call(AccountingApi.putSettings, { params: { uuid: studio }, body });
    queryClient.setQueryData(keys.settings(studio), saved);
    return saved;
  };
}

export function useAccountingSummary(from: string, to: string, enabled: boolean) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.summary(studio, from, to),
    queryFn: ({ signal }) =>
      api.call(AccountingApi.getSummary, { params: { uuid: studio }, query: { from, to }, signal }),
    enabled,
    retry: false,
  });
}

/** The address of a file for the range: a plain link (the session cookie goes with it). */
export function useFileHref(): (file: AccountingFile, from: string, to: string) => string {
  const studio = useBackoffice().studio.uuid;
  return (file, from, to) =>
    `/api${fillPath(AccountingApi[file].path, { uuid: studio })}?${new URLSearchParams({ from, to })}`;
}
