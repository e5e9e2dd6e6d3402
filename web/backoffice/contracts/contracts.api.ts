import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClientContractDetail,
  ClientContractList,
  ClientContractPatch,
  ClientContractView,
  ContractInit,
  ContractList,
  ContractView,
} from '../../../shared/contracts/api/contracts';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { fitToForm, toFormErrors } from '../../lib/form-errors';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useBackoffice } from '../backoffice.api';
import type { FieldProblems } from './contract-form';

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
  const translated = Object.fromEntries(
    Object.entries(fields).map(([path, keys]) => [path, keys.map((k) => t(`contracts:${k}`))]),
  );
  return new ApiError(400, {
    error: { code: 1000, key: 'request.invalid', message: 'invalid', fields: translated },
  });
}

/**
 * A submit in the spec §4/§8 way: locks the button, clears old errors, shows the first message per
 * field (payload paths) plus form-level ones; known service errors are said in the screen's language.
 */
export function useContractSubmit(fieldNames: readonly string[]) {
  const { t } = useTranslation('contracts');
  const button = useSubmitButton();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const run = async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    const outcome = await button.run(async () => {
      setFieldErrors({});
      setFormErrors([]);
      try {
        return await action();
      } catch (error) {
        if (error instanceof ApiError && error.envelope?.error.fields) {
          const fields = Object.fromEntries(
            Object.entries(error.envelope.error.fields).map(([path, messages]) => [
              path,
              messages.map((m) => translateServerMessage(t, m)),
            ]),
          );
          throw new ApiError(error.status, { error: { ...error.envelope.error, fields } });
        }
        throw error;
      }
    });
    if (!outcome.accepted) return undefined;
    if (outcome.ok) return outcome.value;
    const errors = toFormErrors(outcome.error, t, { messagesByKey: CONTRACT_ERROR_KEYS });
    const { fields, form } = fitToForm(errors, fieldNames);
    setFieldErrors(fields);
    setFormErrors(form);
    return undefined;
  };
  const reset = () => {
    setFieldErrors({});
    setFormErrors([]);
    button.reset();
  };
  return { run, reset, state: button.state, fieldErrors, formErrors };
}
