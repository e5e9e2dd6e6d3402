import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  InvoiceListSchema,
  InvoiceOrderDraftSchema,
  InvoiceSettingsViewSchema,
  InvoiceViewSchema,
  TaxIdCheckResultSchema,
  type InvoiceListQuery,
} from '../../../shared/contracts/api/invoices';
import { formatPrice, POLISH_PRICE_NUMBER_FORMAT } from '../../../shared/domain/money';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Invoice calls (spec §3 Invoice, §7) and their react-query keys. */
export const invoiceKeys = {
  all: (studio: string) => ['invoices', studio] as const,
  list: (studio: string, filters: Partial<InvoiceListQuery>) =>
    ['invoices', studio, 'list', filters] as const,
  detail: (studio: string, id: string) => ['invoices', studio, 'detail', id] as const,
  settings: (studio: string) => ['invoices', studio, 'settings'] as const,
  draft: (studio: string, orderId: string) => ['invoices', studio, 'draft', orderId] as const,
};

export function useStudioUuid(): string {
  return useBackoffice().studio.uuid;
}

/** Issuing, correcting, cancelling and the seller's settings need `sales.invoices`. */
export function useCanInvoice(): boolean {
  return useBackoffice().member.abilities.includes('sales.invoices');
}

export function useInvoices(filters: Partial<InvoiceListQuery>) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: invoiceKeys.list(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get(`${studio}/invoice/all`, {
        schema: InvoiceListSchema,
        signal,
        query: { ...filters, q: filters.q || undefined, limit: 50, cursor: pageParam },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useInvoice(id: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: invoiceKeys.detail(studio, id),
    queryFn: ({ signal }) => api.get(`${studio}/invoice/${id}`, { schema: InvoiceViewSchema, signal }),
  });
}

export function useInvoiceSettings() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: invoiceKeys.settings(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/invoice-settings`, { schema: InvoiceSettingsViewSchema, signal }),
  });
}

export function useOrderDraft(orderId: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: invoiceKeys.draft(studio, orderId ?? ''),
    queryFn: ({ signal }) =>
      api.get(`${studio}/client-order/${orderId}/invoice/init`, { schema: InvoiceOrderDraftSchema, signal }),
    enabled: Boolean(orderId),
    retry: false,
  });
}

export function useInvalidateInvoices(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudioUuid();
  return () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all(studio) });
}

export function useInvoiceCalls() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return {
    issueForOrder: (orderId: string, body: unknown) =>
      api.post(`${studio}/client-order/${orderId}/invoice`, body, { schema: InvoiceViewSchema }),
    correct: (id: string, body: unknown) =>
      api.post(`${studio}/invoice/${id}/corrective`, body, { schema: InvoiceViewSchema }),
    cancel: (id: string, reason: string) =>
      api.post(`${studio}/invoice/${id}/cancel`, { reason }, { schema: InvoiceViewSchema }),
    saveSettings: (body: unknown) =>
      api.put(`${studio}/invoice-settings`, body, { schema: InvoiceSettingsViewSchema }),
    checkNip: (nip: string) =>
      api.get(`${studio}/company/tax-identification-number/check`, {
        schema: TaxIdCheckResultSchema,
        query: { taxIdentificationNumber: nip },
      }),
  };
}

export function money(amount: number, currency: string, language: string): string {
  return formatPrice(amount, currency, {
    ...(language.startsWith('pl') ? POLISH_PRICE_NUMBER_FORMAT : {}),
    keepTrailingZeros: true,
  });
}

export function rateLabel(rate: number | 'exempt' | 'reverseCharge', language: string): string {
  if (rate === 'exempt') return language.startsWith('pl') ? 'zw' : 'exempt';
  if (rate === 'reverseCharge') return language.startsWith('pl') ? 'oo' : 'RC';
  const text = (rate / 100).toString();
  return `${language.startsWith('pl') ? text.replace('.', ',') : text}%`;
}

/** Server error keys this module translates itself. */
export const INVOICE_ERROR_KEYS: Record<string, string> = {
  'invoice.sellerDetailsMissing': 'invoices:errors.sellerDetailsMissing',
  'invoice.orderAlreadyInvoiced': 'invoices:errors.orderAlreadyInvoiced',
  'invoice.orderNotInvoiceable': 'invoices:errors.orderNotInvoiceable',
  'invoice.correctionNoChange': 'invoices:errors.correctionNoChange',
  'invoice.alreadyCancelled': 'invoices:errors.alreadyCancelled',
  'invoice.hasCorrections': 'invoices:errors.hasCorrections',
};
