import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LoginResultSchema, type LoginResult } from '../../../shared/contracts/api/auth';
import {
  AccountSettingsSchema,
  ClientProfileSchema,
  FindMyAccountsSchema,
  LinkedAccountSchema,
  LinkInitSchema,
  MyIdentitySchema,
  StudioAgreementCollectionSchema,
  UserMessageListSchema,
  UserMessageViewSchema,
  UserNotificationListSchema,
  type AccountSettingsInput,
  type ClientSignupForm,
  type LinkConnectInput,
} from '../../../shared/contracts/api/client-accounts';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

/** Query keys of the front-office account screens, per studio. */
export const accountKeys = {
  all: (studio: string) => ['account', studio] as const,
  agreements: (studio: string, locale: string) => ['account', studio, 'agreements', locale] as const,
  profile: (studio: string, user: string | null) => ['account', studio, 'profile', user] as const,
  settings: (studio: string) => ['account', studio, 'settings'] as const,
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
      api.get(`${studio}/studio-agreement/collection`, {
        schema: StudioAgreementCollectionSchema,
        signal,
        query: { locale },
      }),
  });
}

/** Signs up and keeps the new session (the answer is a sign-in's). */
export async function signUp(api: ApiClient, studio: string, input: ClientSignupForm): Promise<LoginResult> {
  const result = await api.post(`${studio}/signup`, input, { schema: LoginResultSchema });
  api.setSession({ userId: result.userId, sessionId: result.sessionId, token: result.token });
  return result;
}

export function useProfile(user: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.profile(studio, user),
    queryFn: ({ signal }) =>
      api.get(`${studio}/profile`, {
        schema: ClientProfileSchema,
        signal,
        query: user ? { user } : undefined,
      }),
  });
}

export function useSettings() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.settings(studio),
    queryFn: ({ signal }) => api.get(`${studio}/settings`, { schema: AccountSettingsSchema, signal }),
  });
}

export const saveSettings = (api: ApiClient, studio: string, input: AccountSettingsInput) =>
  api.post(`${studio}/settings`, input, { schema: AccountSettingsSchema });

export function useIdentity() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.identity(studio),
    queryFn: ({ signal }) => api.get(`${studio}/identity`, { schema: MyIdentitySchema, signal }),
  });
}

export function useLinks() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.links(studio),
    queryFn: ({ signal }) => api.get(`${studio}/user-account-link/init`, { schema: LinkInitSchema, signal }),
  });
}

export function useFoundAccounts(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.found(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/user-account-link/find-my-accounts`, { schema: FindMyAccountsSchema, signal }),
    enabled,
  });
}

export const connectAccount = (api: ApiClient, studio: string, input: LinkConnectInput) =>
  api.post(`${studio}/user-account-link/connect`, input, { schema: LinkedAccountSchema });

/** Relationship change and unlinking, refreshing the list afterwards. */
export function useLinkActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.links(studio) });
  return {
    change: useMutation({
      mutationFn: (v: { id: string; relationship: LinkConnectInput['relationship'] }) =>
        api.patch(`${studio}/user-account-link-relation/${v.id}`, { relationship: v.relationship }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.delete(`${studio}/user-account-link-relation/${id}`),
      onSettled: refresh,
    }),
  };
}

export function useMessages() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.messages(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/user-message/collection`, { schema: UserMessageListSchema, signal }),
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
        api.patch(`${studio}/user-message/${id}/read`, undefined, { schema: UserMessageViewSchema }),
      onSettled: refresh,
    }),
    refresh,
  };
}

export const sendMessage = (api: ApiClient, studio: string, input: { subject: string; content: string }) =>
  api.post(`${studio}/messages`, input, { schema: UserMessageViewSchema });

export function useNotifications() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: accountKeys.notifications(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/user-notification/all`, { schema: UserNotificationListSchema, signal }),
  });
}

export function useNotificationActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.notifications(studio) });
  return {
    markRead: useMutation({
      mutationFn: (id: string) => api.patch(`${studio}/user-notification/${id}/read`),
      onSettled: refresh,
    }),
    markAllRead: useMutation({
      mutationFn: () => api.patch(`${studio}/user-notification/read`),
      onSettled: refresh,
    }),
  };
}
