import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type {
  ClientContractDetail,
  ClientContractList,
  ClientContractPatch,
  ClientContractView,
  ContractInit,
  ContractList,
  ContractView,
} from '../../../shared/contracts/api/contracts';
import type { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { problemsError as fieldProblemsError } from '../../lib/form-errors';
import { useStructuredSubmit } from '../../ui/use-structured-submit';
import { useBackoffice } from '../backoffice.api';
import type { FieldProblems } from '../catalog/sellable-form';

/** Contract calls of spec §7 ("Contracts and courses", a client's `client-contract/*`). */
export const contractKeys = {
  all: (studio: string) => ['contracts', studio] as const,
  list: (studio: string, archived: string, channel?: string) =>
    ['contracts', studio, 'list', archived, channel ?? null] as const,
  init: (studio: string, id?: string) => ['contracts', studio, 'init', id ?? null] as const,
  client: (studio: string, user: string) => ['contracts', studio, 'client', user] as const,
  detail: (studio: string, id: string) => ['contracts', studio, 'detail', id] as const,
};

type Api = ReturnType<typeof useApiClient>;

export function useContracts(archived: 'exclude' | 'only' | 'include', channel?: 'desk' | 'online') {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.list(studio, archived, channel),
    queryFn: ({ signal }) =>
      api.get<ContractList>(`${studio}/contract/all`, { signal, query: { archived, channel } }),
  });
}

export function useContractInit(id?: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.init(studio, id),
    queryFn: ({ signal }) =>
      api.get<ContractInit>(`${studio}/contract/init`, { signal, query: { contract: id } }),
  });
}

export function useClientContracts(user: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.client(studio, user),
    queryFn: ({ signal }) =>
      api.get<ClientContractList>(`${studio}/client/${user}/client-contract/all`, { signal }),
  });
}

export function useClientContractDetail(id: string | null) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.detail(studio, id ?? ''),
    queryFn: ({ signal }) => api.get<ClientContractDetail>(`${studio}/client-contract/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useInvalidateContracts(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: contractKeys.all(studio) });
}

export const contractCalls = {
  create: (api: Api, studio: string, body: unknown) => api.post<ContractView>(`${studio}/contract`, body),
  update: (api: Api, studio: string, id: string, body: unknown) =>
    api.patch<ContractView>(`${studio}/contract/${id}`, body),
  sell: (api: Api, studio: string, user: string, body: { contractId: string; note?: string }) =>
    api.post<ClientContractView>(`${studio}/client/${user}/client-contract`, body),
  change: (api: Api, studio: string, id: string, body: ClientContractPatch) =>
    api.patch<ClientContractView>(`${studio}/client-contract/${id}`, body),
};

/** Server field messages (English constants of the shared schema and the service) → `contracts` keys. */
const SERVER_MESSAGES: Record<string, string> = {
  required: 'errors.required',
  'a number is required': 'errors.price',
  'in minor units (grosze, cents)': 'errors.price',
  'must not be negative': 'errors.price',
  'too large': 'errors.tooLarge',
  'at least 1': 'errors.wholePositive',
  'choose at least one kind of service': 'errors.serviceTypes',
  'unknown in this studio': 'errors.unknownChoice',
  'invalid date (YYYY-MM-DD)': 'errors.date',
  'this contract is not for sale here': 'errors.notForSale',
  'must not be in the future': 'errors.inFuture',
  'must not be in the past': 'errors.inPast',
};

/** Error keys of the contracts service, shown at form level in the screen's language. */
export const CONTRACT_ERROR_KEYS: Record<string, string> = {
  'contract.notForSale': 'contracts:errors.notForSale',
  'clientContract.alreadyTerminated': 'contracts:errors.alreadyTerminated',
  'clientContract.alreadySuspended': 'contracts:errors.alreadySuspended',
  'clientContract.notSuspended': 'contracts:errors.notSuspended',
  'clientContract.nothingToSuspend': 'contracts:errors.nothingToSuspend',
  'clientContract.ended': 'contracts:errors.ended',
};

export function translateServerMessage(t: TFunction, message: string): string {
  const key = SERVER_MESSAGES[message];
  if (key) return t(`contracts:${key}`);
  if (message.startsWith('at most ') || message.startsWith('Too big')) return t('contracts:errors.tooLarge');
  return message;
}

/** Client-side mapping problems (keys of `contracts`) as the 400 the server would answer. */
export function problemsError(t: TFunction, fields: FieldProblems): ApiError {
  return fieldProblemsError((key) => t(`contracts:${key}`), fields);
}

/**
 * The structured submit (web/ui): known service errors are said in the screen's language.
 */
export function useContractSubmit(fieldNames: readonly string[]) {
  return useStructuredSubmit(fieldNames, {
    translateServerMessage,
    errorOptions: { messagesByKey: CONTRACT_ERROR_KEYS },
  });
}
