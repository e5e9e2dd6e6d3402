import { useQuery } from '@tanstack/react-query';
import { StudioDocumentSchema } from '../../../shared/contracts/api/studio-records';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { isErrorEnvelope } from '../../../shared/errors/app-error';
import { ApiError, NetworkError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';

/** The studio's bank accounts and documents (issue 25): calls the back office and front office share. */
export const studioRecordKeys = {
  accounts: (uuid: string) => ['studio-bank-account', uuid] as const,
  documents: (uuid: string) => ['studio-document', 'all', uuid] as const,
  published: (uuid: string) => ['studio-document', 'published', uuid] as const,
  transfer: (uuid: string) => ['studio-bank-account', 'transfer', uuid] as const,
};

async function failure(response: Response): Promise<ApiError> {
  const payload: unknown = await response.json().catch(() => null);
  return new ApiError(response.status, isErrorEnvelope(payload) ? payload : null);
}

/** multipart/form-data: the JSON client cannot send files. */
export async function uploadStudioDocument(api: ApiClient, uuid: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  const { 'content-type': _json, ...headers } = api.headers();
  let response: Response;
  try {
    response = await fetch(api.urlOf(StudioAdminApi.uploadStudioDocument, { uuid }), {
      method: 'POST',
      headers,
      credentials: 'same-origin',
      body: form,
    });
  } catch (cause) {
    throw new NetworkError('upload failed: no answer from the server', { cause });
  }
  if (!response.ok) throw await failure(response);
  return StudioDocumentSchema.parse(await response.json());
}

/**
 * Fetches a document with the session's headers and saves it under its name: staff any document,
 * clients a published one.
 */
export async function downloadStudioDocument(
  api: ApiClient,
  uuid: string,
  document: { id: string; fileName: string },
  as: 'staff' | 'client',
): Promise<void> {
  const entry =
    as === 'staff' ? StudioAdminApi.downloadStudioDocument : StudioAdminApi.downloadPublishedDocument;
  const fileName = document.fileName;
  let response: Response;
  try {
    response = await fetch(api.urlOf(entry, { uuid, studioDocument: document.id }), {
      headers: { ...api.headers(), accept: '*/*' },
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new NetworkError('download failed: no answer from the server', { cause });
  }
  if (!response.ok) throw await failure(response);
  const url = URL.createObjectURL(await response.blob());
  const link = window.document.createElement('a');
  link.href = url;
  link.download = fileName;
  window.document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "1.2 MB" style sizes. */
export function formatFileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return `${number} ${units[unit]}`;
}

export function usePublishedDocuments(uuid: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: studioRecordKeys.published(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.publishedDocuments, { params: { uuid }, signal }),
  });
}

export function useTransferInstructions(uuid: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: studioRecordKeys.transfer(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.transferInstructions, { params: { uuid }, signal }),
  });
}
