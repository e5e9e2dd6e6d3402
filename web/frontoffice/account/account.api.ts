import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginResult } from '../../../shared/contracts/api/auth';
import type {
  AccountPatch,
  AccountSettingsInput,
  ClientSignupForm,
  LinkConnectInput,
} from '../../../shared/contracts/api/client-accounts';
import { ClientAccountsApi } from '../../../shared/contracts/http/client-accounts';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

/** Query keys of the front-office account screens, per studio. */
export const accountKeys = {
  all: (studio: string) => ['account', studio] as const,
  agreements: (studio: string, locale: string) => ['account', studio, 'agreements', locale] as const,
  profile: (studio: string, user: string | null) => ['account', studio, 'profile', user] as const,
  settings: (studio: string) => ['account', studio, 'settings'] as const,
  account: (studio: string) => ['account', studio, 'account'] as const,
  identity: (studio: string) => ['account', studio, 'identity'] as const,
  links: (studio: string) => ['account', studio, 'links'] as const,
  found: (studio: string) => ['account', studio, 'found'] as const,
  messages: (studio: string) => ['account', studio, 'messages'] as const,
  notifications: (studio: string) => ['account', studio, 'notifications'] as const,
};

export function useAgreements(locale: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.agreements(studio, locale),
    queryFn: ({ signal }) =>
      api.call(ClientAccountsApi.agreements, { params: { uuid: studio }, query: { locale }, signal }),
  });
}

/** Signs up and keeps the new session (the answer is a sign-in's). */
export async function signUp(api: ApiClient, studio: string, input: ClientSignupForm): Promise<LoginResult> {
  const result = await api.call(ClientAccountsApi.signup, { params: { uuid: studio }, body: input });
  api.setSession({ userId: result.userId, sessionId: result.sessionId, token: result.token });
  return result;
}

export function useProfile(user: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.profile(studio, user),
    queryFn: ({ signal }) =>
      api.call(ClientAccountsApi.profile, { params: { uuid: studio }, query: user ? { user } : {}, signal }),
  });
}

export function useSettings() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.settings(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.settings, { params: { uuid: studio }, signal }),
  });
}

/** The client's own account (profile, settings, marketing consent): `GET account`. */
export function useAccount() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.account(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.account, { params: { uuid: studio }, signal }),
  });
}

/** Front office `PATCH account`: only the parts named change. */
export const patchAccount = (api: ApiClient, studio: string, input: AccountPatch) =>
  api.call(ClientAccountsApi.patchAccount, { params: { uuid: studio }, body: input });

export const saveSettings = (api: ApiClient, studio: string, input: AccountSettingsInput) =>
  api.call(ClientAccountsApi.saveSettings, { params: { uuid: studio }, body: input });

export function useIdentity() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.identity(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.identity, { params: { uuid: studio }, signal }),
  });
}

export function useLinks() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.links(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.linkInit, { params: { uuid: studio }, signal }),
  });
}

export function useFoundAccounts(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.found(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.findMyAccounts, { params: { uuid: studio }, signal }),
    enabled,
  });
}

export const connectAccount = (api: ApiClient, studio: string, input: LinkConnectInput) =>
  api.call(ClientAccountsApi.connectLink, { params: { uuid: studio }, body: input });

/** Relationship change and unlinking, refreshing the list afterwards. */
export function useLinkActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.links(studio) });
  return {
    change: useMutation({
      mutationFn: (v: { id: string; relationship: LinkConnectInput['relationship'] }) =>
        api.call(ClientAccountsApi.changeLink, {
          params: { uuid: studio, userAccountLinkRelation: v.id },
          body: { relationship: v.relationship },
        }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        api.call(ClientAccountsApi.removeLink, { params: { uuid: studio, userAccountLinkRelation: id } }),
      onSettled: refresh,
    }),
  };
}

export function useMessages() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.messages(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.messages, { params: { uuid: studio }, signal }),
  });
}

export function useMessageActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.messages(studio) });
  return {
    markRead: useMutation({
      mutationFn: (id: string) =>
        api.call(ClientAccountsApi.readMessage, { params: { uuid: studio, userMessageGuid: id } }),
      onSettled: refresh,
    }),
    refresh,
  };
}

export const sendMessage = (api: ApiClient, studio: string, input: { subject: string; content: string }) =>
  api.call(ClientAccountsApi.writeToStudio, { params: { uuid: studio }, body: input });

export function useNotifications() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.notifications(studio),
    queryFn: ({ signal }) => api.call(ClientAccountsApi.notifications, { params: { uuid: studio }, signal }),
  });
}

export function useNotificationActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.notifications(studio) });
  return {
    markRead: useMutation({
      mutationFn: (id: string) =>
        api.call(ClientAccountsApi.readNotification, { params: { uuid: studio, userNotificationGuid: id } }),
      onSettled: refresh,
    }),
    markAllRead: useMutation({
      mutationFn: () => api.call(ClientAccountsApi.readAllNotifications, { params: { uuid: studio } }),
      onSettled: refresh,
    }),
  };
}
