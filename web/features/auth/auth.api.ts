import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, LoginResult } from '../../../shared/contracts/api/auth';
import { IdentityApi } from '../../../shared/contracts/http/identity';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient, useSession } from '../../lib/app-context';

export const authKeys = {
  me: ['auth', 'me'] as const,
};

export async function login(api: ApiClient, input: LoginInput): Promise<LoginResult> {
  const result = await api.call(IdentityApi.login, { body: input });
  api.setSession({ userId: result.userId, sessionId: result.sessionId, token: result.token });
  return result;
}

/** Ends the session on the server. Callers reload the page afterwards for a fresh page context. */
export async function logout(api: ApiClient): Promise<void> {
  await api.call(IdentityApi.logout);
  api.clearSession();
}

/** The signed-in user (only fetched when the page context or a sign-in says there is one). */
export function useMe() {
  const api = useApiClient();
  const session = useSession();
  return useQuery({
    ...meQuery(api, session.userId),
    enabled: Boolean(session.userId && session.sessionId),
  });
}

/** `me` of a user (also prefetched by the front office before its first render). */
export function meQuery(api: ApiClient, userId: string | null) {
  return queryOptions({
    queryKey: [...authKeys.me, userId],
    queryFn: ({ signal }) => api.call(IdentityApi.me, { signal }),
  });
}

/**
 * Signs out, then loads `target` (default: reloads this page): the server renders a page context
 * without user and with a fresh CSRF token, so no stale credentials linger in memory.
 */
export function useSignOut(target?: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(api),
    onSettled: () => {
      queryClient.clear();
      if (target) window.location.assign(target);
      else window.location.reload();
    },
  });
}
