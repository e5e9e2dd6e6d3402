import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type {
  ClientContractPatch,
  ContractInput,
  ContractPatch,
} from '../../../shared/contracts/api/contracts';
import { ContractsApi } from '../../../shared/contracts/http/contracts';
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
      api.call(ContractsApi.getContractAll, {
        params: { uuid: studio },
        query: { archived, channel },
        signal,
      }),
  });
}

export function useContractInit(id?: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.init(studio, id),
    queryFn: ({ signal }) =>
      api.call(ContractsApi.getContractInit, { params: { uuid: studio }, query: { contract: id }, signal }),
  });
}

export function useClientContracts(user: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.client(studio, user),
    queryFn: ({ signal }) =>
      api.call(ContractsApi.getClientContractAll, { params: { uuid: studio, user }, signal }),
  });
}

export function useClientContractDetail(id: string | null) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: contractKeys.detail(studio, id ?? ''),
    queryFn: ({ signal }) =>
      api.call(ContractsApi.getClientContract, {
        params: { uuid: studio, clientContract: id ?? '' },
        signal,
      }),
    enabled: id !== null,
  });
}

export function useInvalidateContracts(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: contractKeys.all(studio) });
}

export const contractCalls = {
  create: (api: Api, studio: string, body: ContractInput) =>
    api.call(ContractsApi.postContract, { params: { uuid: studio }, body }),
  update: (api: Api, studio: string, id: string, body: ContractPatch) =>
    api.call(ContractsApi.patchContract, { params: { uuid: studio, contract: id }, body }),
  sell: (api: Api, studio: string, user: string, body: { contractId: string; note?: string }) =>
    api.call(ContractsApi.postClientContract, { params: { uuid: studio, user }, body }),
  change: (api: Api, studio: string, id: string, body: ClientContractPatch) =>
    api.call(ContractsApi.patchClientContract, { params: { uuid: studio, clientContract: id }, body }),
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
