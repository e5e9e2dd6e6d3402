import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ClientCreateInput,
  type ClientNoteCreateInput,
  type ClientNotePatch,
  type ClientUpdateInput,
} from '../../../shared/contracts/api/clients';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import { TagType } from '../../../shared/enums/clients';
import { isErrorEnvelope } from '../../../shared/errors/app-error';
import { ApiError, NetworkError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';
import { downloadFileName, toListQuery, type ClientListFilters } from './client-filters';

export { useCan, usePhone, useStudioUuid } from '../staff/staff.api';

/** Rows per "Load more" page. */
export const CLIENT_PAGE_SIZE = 25;
/** Spec §9: table search waits 600 ms after the last key; the existence check likewise. */
export const SEARCH_DELAY_MS = 600;

export const clientKeys = {
  all: (studio: string) => ['clients', studio] as const,
  listInit: (studio: string) => ['clients', studio, 'list-init'] as const,
  list: (studio: string, query: Record<string, string>) => ['clients', studio, 'list', query] as const,
  addInit: (studio: string) => ['clients', studio, 'add-init'] as const,
  existence: (studio: string, emailAddress: string, phone: string) =>
    ['clients', studio, 'existence', emailAddress, phone] as const,
  profile: (studio: string, id: string) => ['clients', studio, 'profile', id] as const,
  editInit: (studio: string, id: string) => ['clients', studio, 'edit-init', id] as const,
};

/** The server's client refusals, worded for forms. */
export const CLIENT_ERROR_OPTIONS: FormErrorOptions = {
  messagesByKey: {},
};

export function useClientListInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: clientKeys.listInit(studio),
    queryFn: ({ signal }) => api.call(ClientsApi.getClientListInit, { params: { uuid: studio }, signal }),
  });
}

export function useClientList(filters: ClientListFilters) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const query = toListQuery(filters);
  return useInfiniteQuery({
    queryKey: clientKeys.list(studio, query),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.call(ClientsApi.getClientCollection, {
        params: { uuid: studio },
        query: { ...query, limit: CLIENT_PAGE_SIZE, cursor: pageParam },
        signal,
      }),
    getNextPageParam: (last) => last.next ?? undefined,
    // Keeps the rows on screen while a new search loads (no flash of the spinner per key).
    placeholderData: keepPreviousData,
  });
}

export function useClientAddInit(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: clientKeys.addInit(studio),
    queryFn: ({ signal }) => api.call(ClientsApi.getClientAddInit, { params: { uuid: studio }, signal }),
    enabled,
  });
}

/** Existing clients with this email or phone, asked once typing pauses (only plausible values). */
export function useExistenceCheck(emailAddress: string, phone: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const [email] = useDebouncedValue(
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(emailAddress.trim()) ? emailAddress.trim() : '',
    SEARCH_DELAY_MS,
  );
  const [tel] = useDebouncedValue(
    (phone.match(/\d/g) ?? []).length >= 6 ? phone.trim() : '',
    SEARCH_DELAY_MS,
  );
  return useQuery({
    queryKey: clientKeys.existence(studio, email, tel),
    queryFn: ({ signal }) =>
      api.call(ClientsApi.getClientCheckExistence, {
        params: { uuid: studio },
        signal,
        query: { emailAddress: email || undefined, phone: tel || undefined },
      }),
    enabled: Boolean(email || tel),
    retry: false,
  });
}

export function useClientProfile(id: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: clientKeys.profile(studio, id),
    queryFn: ({ signal }) =>
      api.call(ClientsApi.getClientProfile, { params: { uuid: studio, user: id }, signal }),
  });
}

export function useClientEditInit(id: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: clientKeys.editInit(studio, id),
    queryFn: ({ signal }) =>
      api.call(ClientsApi.getClientInit, { params: { uuid: studio, user: id }, signal }),
  });
}

/** Lists, profiles and tag counts all change together after any client change. */
export function useInvalidateClients(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudioUuid();
  return () => queryClient.invalidateQueries({ queryKey: clientKeys.all(studio) });
}

export const clientCalls = {
  create: (api: ApiClient, studio: string, input: ClientCreateInput) =>
    api.call(ClientsApi.postClient, { params: { uuid: studio }, body: input }),
  update: (api: ApiClient, studio: string, id: string, input: ClientUpdateInput) =>
    api.call(ClientsApi.patchClient, { params: { uuid: studio, user: id }, body: input }),
  archive: (api: ApiClient, studio: string, id: string) =>
    api.call(ClientsApi.deleteClient, { params: { uuid: studio, user: id } }),
  restore: (api: ApiClient, studio: string, id: string) =>
    api.call(ClientsApi.patchClient, { params: { uuid: studio, user: id }, body: { archived: false } }),
  addNote: (api: ApiClient, studio: string, input: ClientNoteCreateInput) =>
    api.call(ClientsApi.putClientNote, { params: { uuid: studio }, body: input }),
  editNote: (api: ApiClient, studio: string, note: string, input: ClientNotePatch) =>
    api.call(ClientsApi.patchClientNote, { params: { uuid: studio, clientNote: note }, body: input }),
  deleteNote: (api: ApiClient, studio: string, note: string) =>
    api.call(ClientsApi.deleteClientNote, { params: { uuid: studio, clientNote: note } }),
  createTag: (api: ApiClient, studio: string, name: string) =>
    api.call(ClientsApi.postTag, { params: { uuid: studio }, body: { name, type: TagType.client } }),
  addTags: (api: ApiClient, studio: string, tagIds: string[], userIds: string[]) =>
    api.call(ClientsApi.postUserTagAdd, { params: { uuid: studio }, body: { tagIds, userIds } }),
  removeTags: (api: ApiClient, studio: string, tagIds: string[], userIds: string[]) =>
    api.call(ClientsApi.postUserTagRemove, { params: { uuid: studio }, body: { tagIds, userIds } }),
  bulkTag: (api: ApiClient, studio: string, action: 'tag' | 'untag', clientIds: string[], tagIds: string[]) =>
    api.call(ClientsApi.postClientBulk, { params: { uuid: studio }, body: { action, clientIds, tagIds } }),
  bulkMessage: (api: ApiClient, studio: string, clientIds: string[], subject: string, content: string) =>
    api.call(ClientsApi.postClientBulk, {
      params: { uuid: studio },
      body: { action: 'message', clientIds, subject, content },
    }),
};

/**
 * POSTs and saves the answer as a file (the export calls answer CSV, not JSON, so the JSON client
 * cannot read them). Failures are the same ApiError / NetworkError as every other call.
 */
export async function downloadFile(api: ApiClient, path: string, body: unknown, fallbackName: string) {
  let response: Response;
  try {
    response = await fetch(api.url(path), {
      method: 'POST',
      headers: {
        ...api.headers(),
        accept:
          'text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
      },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch (cause) {
    throw new NetworkError(`POST ${path} failed: no answer from the server`, { cause });
  }
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isErrorEnvelope(payload) ? payload : null);
  }
  const blob = await response.blob();
  const name = downloadFileName(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: Chromium reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
