import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { KsefSettingsInput, KsefState } from '../../../../shared/contracts/api/ksef';
import { KsefApi } from '../../../../shared/contracts/http/ksef';
import { useApiClient } from '../../../lib/app-context';
import { invoiceKeys, useStudioUuid } from '../invoices.api';

/** KSeF calls (issue 19): the studio's settings, the invoices' states, resend. */
export const ksefKeys = {
  all: (studio: string) => [...invoiceKeys.all(studio), 'ksef'] as const,
  settings: (studio: string) => [...invoiceKeys.all(studio), 'ksef', 'settings'] as const,
  list: (studio: string, state: KsefState | 'all') =>
    [...invoiceKeys.all(studio), 'ksef', 'list', state] as const,
  invoice: (studio: string, id: string) => [...invoiceKeys.all(studio), 'ksef', 'invoice', id] as const,
};

export function useKsefSettings() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ksefKeys.settings(studio),
    queryFn: ({ signal }) => api.call(KsefApi.getSettings, { params: { uuid: studio }, signal }),
  });
}

export function useKsefInvoices(state: KsefState | 'all') {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ksefKeys.list(studio, state),
    queryFn: ({ signal }) =>
      api.call(KsefApi.listInvoices, { params: { uuid: studio }, query: { state, limit: 100 }, signal }),
  });
}

export function useInvoiceKsef(invoiceId: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ksefKeys.invoice(studio, invoiceId),
    queryFn: ({ signal }) =>
      api.call(KsefApi.getInvoice, { params: { uuid: studio, invoice: invoiceId }, signal }),
    // While KSeF has it, look again now and then.
    refetchInterval: (query) =>
      query.state.data && (query.state.data.state === 'waiting' || query.state.data.state === 'sent')
        ? 5000
        : false,
  });
}

export function useKsefCalls() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ksefKeys.all(studio) });
  return {
    saveSettings: async (body: KsefSettingsInput) => {
      const saved = await api.call(KsefApi.putSettings, { params: { uuid: studio }, body });
      await refresh();
      return saved;
    },
    resend: async (invoiceId: string) => {
      const state = await api.call(KsefApi.resend, { params: { uuid: studio, invoice: invoiceId } });
      await refresh();
      return state;
    },
    upoPath: (invoiceId: string) => `/api/v4/${studio}/invoice/${invoiceId}/ksef/upo.xml`,
  };
}
