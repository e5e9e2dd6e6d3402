import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ClientDocumentViewSchema,
  type ClientFieldValuesPatch,
} from '../../../shared/contracts/api/client-records';
import { ClientRecordsApi } from '../../../shared/contracts/http/client-records';
import { isErrorEnvelope } from '../../../shared/errors/app-error';
import { ApiError, NetworkError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';

export const recordKeys = {
  all: (studio: string, client: string) => ['client-records', studio, client] as const,
  documents: (studio: string, client: string) => ['client-records', studio, client, 'documents'] as const,
  fields: (studio: string, client: string) => ['client-records', studio, client, 'fields'] as const,
  bounce: (studio: string, client: string) => ['client-records', studio, client, 'bounce'] as const,
  duplicates: (studio: string, client: string) => ['client-records', studio, client, 'duplicates'] as const,
};

export function useClientDocuments(studio: string, client: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: recordKeys.documents(studio, client),
    queryFn: ({ signal }) =>
      api.call(ClientRecordsApi.getClientDocumentCollection, {
        params: { uuid: studio, user: client },
        signal,
      }),
  });
}

export function useClientFieldValues(studio: string, client: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: recordKeys.fields(studio, client),
    queryFn: ({ signal }) =>
      api.call(ClientRecordsApi.getClientFieldValues, { params: { uuid: studio, user: client }, signal }),
  });
}

export function useEmailBounce(studio: string, client: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: recordKeys.bounce(studio, client),
    queryFn: ({ signal }) =>
      api.call(ClientRecordsApi.getEmailBounce, { params: { uuid: studio, user: client }, signal }),
  });
}

export function useDuplicates(studio: string, client: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: recordKeys.duplicates(studio, client),
    queryFn: ({ signal }) =>
      api.call(ClientRecordsApi.getClientDuplicates, { params: { uuid: studio, user: client }, signal }),
  });
}

/** Refetches everything this folder shows of a client (and the clients screens' own queries). */
export function useInvalidateRecords(studio: string, client: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: recordKeys.all(studio, client) }),
      queryClient.invalidateQueries({ queryKey: ['clients', studio] }),
    ]);
}

async function failure(response: Response): Promise<ApiError> {
  const payload: unknown = await response.json().catch(() => null);
  return new ApiError(response.status, isErrorEnvelope(payload) ? payload : null);
}

export const recordCalls = {
  /** multipart/form-data: the JSON client cannot send files. */
  async upload(api: ApiClient, studio: string, client: string, file: File) {
    const form = new FormData();
    form.append('file', file, file.name);
    const { 'content-type': _json, ...headers } = api.headers();
    let response: Response;
    try {
      const entry = ClientRecordsApi.postClientDocumentUpload;
      response = await fetch(api.urlOf(entry, { uuid: studio, user: client }), {
        method: 'POST',
        headers,
        credentials: 'same-origin',
        body: form,
      });
    } catch (cause) {
      throw new NetworkError('upload failed: no answer from the server', { cause });
    }
    if (!response.ok) throw await failure(response);
    return ClientDocumentViewSchema.parse(await response.json());
  },
  /** Fetches the file with the session's headers and saves it under its original name. */
  async download(api: ApiClient, studio: string, documentId: string, fileName: string) {
    let response: Response;
    try {
      const entry = ClientRecordsApi.getClientDocumentDownload;
      response = await fetch(api.urlOf(entry, { uuid: studio, clientDocument: documentId }), {
        headers: { ...api.headers(), accept: '*/*' },
        credentials: 'same-origin',
      });
    } catch (cause) {
      throw new NetworkError('download failed: no answer from the server', { cause });
    }
    if (!response.ok) throw await failure(response);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
  deleteDocument: (api: ApiClient, studio: string, id: string) =>
    api.call(ClientRecordsApi.deleteClientDocument, { params: { uuid: studio, clientDocument: id } }),
  /** The form's draft as typed; the server checks every value against its field (400 per field). */
  saveValues: (api: ApiClient, studio: string, client: string, values: Record<string, unknown>) =>
    api.call(ClientRecordsApi.patchClientFieldValues, {
      params: { uuid: studio, user: client },
      body: { values: values as ClientFieldValuesPatch['values'] },
    }),
  decrypt: (api: ApiClient, studio: string, client: string, fieldId: string) =>
    api.call(ClientRecordsApi.postClientFieldDecrypt, {
      params: { uuid: studio, user: client },
      body: { fieldId },
    }),
  clearBounce: (api: ApiClient, studio: string, client: string) =>
    api.call(ClientRecordsApi.deleteEmailBounce, { params: { uuid: studio, user: client } }),
  merge: (api: ApiClient, studio: string, kept: string, duplicateId: string) =>
    api.call(ClientRecordsApi.postClientMerge, {
      params: { uuid: studio, user: kept },
      body: { duplicateId },
    }),
  link: (api: ApiClient, studio: string, client: string, otherId: string) =>
    api.call(ClientRecordsApi.postClientLink, { params: { uuid: studio, user: client }, body: { otherId } }),
};

/** "1.2 MB" style sizes. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
