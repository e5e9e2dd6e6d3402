import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AutomationKind,
  AutomationSettings,
  CampaignAction,
  CampaignContent,
  CampaignFilter,
  CampaignView,
} from '../../../shared/contracts/api/communication';
import { CommunicationApi } from '../../../shared/contracts/http/communication';
import type { Locale } from '../../../shared/i18n/locales';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Campaigns and automations (`shared/contracts/http/communication.ts`) and their react-query keys. */
const keys = {
  all: (studio: string) => ['campaigns', studio] as const,
  one: (studio: string, id: string) => ['campaigns', studio, 'one', id] as const,
  recipients: (studio: string, type: number, filter: CampaignFilter) =>
    ['campaigns', studio, 'recipients', type, filter] as const,
  cost: (studio: string, id: string) => ['campaigns', studio, 'cost', id] as const,
  automations: (studio: string) => ['automations', studio] as const,
};

function useStudio() {
  return useBackoffice().studio.uuid;
}

export function useCampaigns() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: keys.all(studio),
    queryFn: ({ signal }) =>
      api.call(CommunicationApi.getCampaignAll, { params: { uuid: studio }, query: { limit: 100 }, signal }),
  });
}

export function useCampaign(id: string) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: keys.one(studio, id),
    queryFn: ({ signal }) =>
      api.call(CommunicationApi.getCampaign, { params: { uuid: studio, campaign: id }, signal }),
    // While it is being sent, its numbers move.
    refetchInterval: (q) => (q.state.data?.status === 2 ? 2000 : false),
  });
}

export function useRecipients(type: number, filter: CampaignFilter) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: keys.recipients(studio, type, filter),
    queryFn: ({ signal }) =>
      api.call(CommunicationApi.getFindRecipients, {
        params: { uuid: studio },
        query: { type: type as 0, filter: JSON.stringify(filter) as unknown as CampaignFilter },
        signal,
      }),
  });
}

export function useCampaignCost(id: string, version: string) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: [...keys.cost(studio, id), version],
    queryFn: ({ signal }) =>
      api.call(CommunicationApi.getCampaignCost, { params: { uuid: studio, campaign: id }, signal }),
  });
}

/** Every change answers with the campaign: it replaces the cached one, and the list is refreshed. */
export function useCampaignCalls() {
  const api = useApiClient();
  const studio = useStudio();
  const queryClient = useQueryClient();
  const store = (view: CampaignView) => {
    queryClient.setQueryData(keys.one(studio, view.id), view);
    void queryClient.invalidateQueries({ queryKey: keys.all(studio), exact: true });
    return view;
  };
  const params = (id: string) => ({ uuid: studio, campaign: id });
  return {
    create: async (name: string, type: 0 | 1 | 2 | 3) =>
      store(
        await api.call(CommunicationApi.postCampaign, { params: { uuid: studio }, body: { name, type } }),
      ),
    patch: async (
      id: string,
      body: { name?: string; filter?: CampaignFilter; action?: CampaignAction; scheduledAt?: string },
    ) => store(await api.call(CommunicationApi.patchCampaign, { params: params(id), body })),
    content: async (id: string, body: CampaignContent) =>
      store(await api.call(CommunicationApi.patchCampaignContent, { params: params(id), body })),
    upload: async (id: string, name: string, dataUrl: string) =>
      store(
        await api.call(CommunicationApi.postCampaignUpload, {
          params: { uuid: studio },
          body: { campaign: id, name, dataUrl },
        }),
      ),
    replicate: async (id: string) =>
      store(await api.call(CommunicationApi.postCampaignReplicate, { params: params(id) })),
    remove: async (id: string) => {
      await api.call(CommunicationApi.deleteCampaign, { params: params(id) });
      await queryClient.invalidateQueries({ queryKey: keys.all(studio), exact: true });
    },
    preview: (type: 0 | 1 | 2 | 3, locale: Locale, subject: string, body: string) =>
      api.call(CommunicationApi.postTemplatePreview, {
        params: { uuid: studio },
        body: { type, locale, subject, body },
      }),
    test: (campaignId: string, locale: Locale) =>
      api.call(CommunicationApi.postTemplateTest, { params: { uuid: studio }, body: { campaignId, locale } }),
    load: (template: 'newsletter' | 'promotion' | 'event' | 'winBack', locale: Locale) =>
      api.call(CommunicationApi.postTemplateLoad, { params: { uuid: studio }, body: { template, locale } }),
  };
}

export function useAutomations() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: keys.automations(studio),
    queryFn: ({ signal }) =>
      api.call(CommunicationApi.getAutomationInit, { params: { uuid: studio }, signal }),
  });
}

export function useSaveAutomation() {
  const api = useApiClient();
  const studio = useStudio();
  const queryClient = useQueryClient();
  return async (kind: AutomationKind, enabled: boolean, settings: AutomationSettings) => {
    const saved = await api.call(CommunicationApi.putAutomation, {
      params: { uuid: studio },
      body: { kind, enabled, settings },
    });
    await queryClient.invalidateQueries({ queryKey: keys.automations(studio) });
    return saved;
  };
}
