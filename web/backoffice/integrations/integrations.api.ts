import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiKeyPut,
  WebhookEndpointPatch,
  WebhookEndpointPut,
} from '../../../shared/contracts/api/integrations';
import { IntegrationsApi } from '../../../shared/contracts/http/integrations';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** API keys and webhooks (`shared/contracts/http/integrations.ts`) and their react-query keys. */
const keys = {
  all: (studio: string) => ['integrations', studio] as const,
  apiKeys: (studio: string) => ['integrations', studio, 'api-keys'] as const,
  webhooks: (studio: string) => ['integrations', studio, 'webhooks'] as const,
  deliveries: (studio: string, id: string) => ['integrations', studio, 'deliveries', id] as const,
};

export function useApiKeys() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.apiKeys(studio),
    queryFn: ({ signal }) => api.call(IntegrationsApi.listApiKeys, { params: { uuid: studio }, signal }),
  });
}

export function useWebhooks() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.webhooks(studio),
    queryFn: ({ signal }) => api.call(IntegrationsApi.listWebhooks, { params: { uuid: studio }, signal }),
  });
}

export function useDeliveries(id: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.deliveries(studio, id),
    queryFn: ({ signal }) =>
      api.call(IntegrationsApi.webhookDeliveries, { params: { uuid: studio, studioWebhook: id }, signal }),
    // Pending deliveries move on their own: look again while any is pending.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

/** The calls that change something; each reloads the integrations' lists. */
export function useIntegrationCalls() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: keys.all(studio) });
  const after = async <T>(p: Promise<T>) => {
    const result = await p;
    await reload();
    return result;
  };
  const uuid = studio;
  return {
    putApiKey: (body: ApiKeyPut) => after(api.call(IntegrationsApi.putApiKey, { params: { uuid }, body })),
    revokeApiKey: (id: string) =>
      after(api.call(IntegrationsApi.revokeApiKey, { params: { uuid, studioApi: id } })),
    putWebhook: (body: WebhookEndpointPut) =>
      after(api.call(IntegrationsApi.putWebhook, { params: { uuid }, body })),
    patchWebhook: (id: string, body: WebhookEndpointPatch) =>
      after(api.call(IntegrationsApi.patchWebhook, { params: { uuid, studioWebhook: id }, body })),
    deleteWebhook: (id: string) =>
      after(api.call(IntegrationsApi.deleteWebhook, { params: { uuid, studioWebhook: id } })),
    token: (id: string, rotate: boolean) =>
      api.call(IntegrationsApi.webhookToken, { params: { uuid, studioWebhook: id }, body: { rotate } }),
    test: (id: string) =>
      after(api.call(IntegrationsApi.testWebhook, { params: { uuid, studioWebhook: id } })),
    replay: (deliveryId: string) =>
      after(api.call(IntegrationsApi.replayDelivery, { params: { uuid, webhookDelivery: deliveryId } })),
  };
}
