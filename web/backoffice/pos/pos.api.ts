import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  RetailBasketInput,
  RetailCheckoutInput,
  RetailCheckoutResult,
} from '../../../shared/contracts/api/retail';
import type { Locale } from '../../../shared/i18n/locales';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import { RetailApi } from '../../../shared/contracts/http/retail';

/** The point of sale's calls (spec §7 Retail) and their react-query keys. */
export const posKeys = {
  all: (studio: string) => ['retail', studio] as const,
  init: (studio: string) => ['retail', studio, 'init'] as const,
  quote: (studio: string, basket: RetailBasketInput) => ['retail', studio, 'quote', basket] as const,
  clients: (studio: string, q: string) => ['retail', studio, 'clients', q] as const,
};

export function useStudioUuid(): string {
  return useBackoffice().studio.uuid;
}

/** The screen's language (names of passes and contracts follow it, not the user's saved one). */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('pl') ? 'pl' : 'en';
}

export function useRetailInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const locale = useLocale();
  return useQuery({
    queryKey: [...posKeys.init(studio), locale],
    queryFn: ({ signal }) =>
      api.call(RetailApi.getRetailInit, { params: { uuid: studio }, query: { locale }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The basket priced by the server (every problem listed); re-asked whenever the basket changes. */
export function useRetailQuote(basket: RetailBasketInput | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const locale = useLocale();
  return useQuery({
    queryKey: [...posKeys.quote(studio, basket ?? { clientId: null, items: [] }), locale],
    queryFn: ({ signal }) =>
      api.call(RetailApi.postRetailValidate, {
        params: { uuid: studio },
        query: { locale },
        body: basket ?? { clientId: null, items: [] },
        signal,
      }),
    enabled: basket !== null && basket.items.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Client search for the sale (name, email or phone); starts at 2 characters. */
export function useClientSearch(q: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const query = q.trim();
  return useQuery({
    queryKey: posKeys.clients(studio, query),
    queryFn: ({ signal }) =>
      api.call(ClientsApi.getClientSearch, {
        params: { uuid: studio },
        signal,
        query: { q: query, limit: 8 },
      }),
    enabled: query.length >= 2,
    placeholderData: keepPreviousData,
  });
}

/**
 * Sells the basket. The Idempotency-Key is made once per sale attempt by the screen, so a retry
 * after a lost answer charges once.
 */
export async function checkout(
  api: ApiClient,
  studio: string,
  input: RetailCheckoutInput,
  idempotencyKey: string,
  locale: Locale,
): Promise<RetailCheckoutResult> {
  return api.call(RetailApi.postRetailCheckout, {
    params: { uuid: studio },
    query: { locale },
    body: input,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

// The amount fields' parsing lives with the shared POS components (web/features/pos).
export { amountText, parseAmount } from '../../features/pos/amounts';
