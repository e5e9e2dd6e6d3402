import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IBAN_MESSAGES,
  NIP_MESSAGES,
  REVERSE_CHARGE_MESSAGES,
  TAX_ID_FORMAT_MESSAGE,
  type InvoiceListQuery,
} from '../../../shared/contracts/api/invoices';
import type { ContractBody } from '../../../shared/contracts/http/define';
import { InvoicesApi } from '../../../shared/contracts/http/invoices';
import { EXEMPTION_BASIS_REQUIRED } from '../../../shared/domain/invoices/notes';
import { formatPriceIn } from '../../../shared/domain/money';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel, toFormErrors, type FormErrors, type Translate } from '../../lib/form-errors';
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
      api.call(InvoicesApi.getInvoiceAll, {
        params: { uuid: studio },
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
    queryFn: ({ signal }) =>
      api.call(InvoicesApi.getInvoice, { params: { uuid: studio, invoice: id }, signal }),
  });
}

export function useInvoiceSettings() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: invoiceKeys.settings(studio),
    queryFn: ({ signal }) => api.call(InvoicesApi.getInvoiceSettings, { params: { uuid: studio }, signal }),
  });
}

export function useOrderDraft(orderId: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: invoiceKeys.draft(studio, orderId ?? ''),
    queryFn: ({ signal }) =>
      api.call(InvoicesApi.getClientOrderInvoiceInit, {
        params: { uuid: studio, clientOrder: orderId ?? '' },
        signal,
      }),
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
    issueForOrder: (orderId: string, body: ContractBody<typeof InvoicesApi.postClientOrderInvoice>) =>
      api.call(InvoicesApi.postClientOrderInvoice, { params: { uuid: studio, clientOrder: orderId }, body }),
    correct: (id: string, body: ContractBody<typeof InvoicesApi.postInvoiceCorrective>) =>
      api.call(InvoicesApi.postInvoiceCorrective, { params: { uuid: studio, invoice: id }, body }),
    cancel: (id: string, reason: string) =>
      api.call(InvoicesApi.postInvoiceCancel, { params: { uuid: studio, invoice: id }, body: { reason } }),
    saveSettings: (body: ContractBody<typeof InvoicesApi.putInvoiceSettings>) =>
      api.call(InvoicesApi.putInvoiceSettings, { params: { uuid: studio }, body }),
    checkNip: (nip: string) =>
      api.call(InvoicesApi.getTaxIdentificationNumberCheck, {
        params: { uuid: studio },
        query: { taxIdentificationNumber: nip },
      }),
  };
}

export function money(amount: number, currency: string, language: string): string {
  return formatPriceIn(language, amount, currency, { keepTrailingZeros: true });
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
  'invoice.receiptUnresolved': 'invoices:errors.receiptUnresolved',
  'invoice.receiptCoversOtherOrders': 'invoices:errors.receiptCoversOtherOrders',
  'invoice.receiptBuyerNipMismatch': 'invoices:errors.receiptBuyerNipMismatch',
  'invoice.correctionNoChange': 'invoices:errors.correctionNoChange',
  'invoice.alreadyCancelled': 'invoices:errors.alreadyCancelled',
  'invoice.hasCorrections': 'invoices:errors.hasCorrections',
};

/**
 * The invoice contract's field messages (English constants the server sends, `NIP_MESSAGES` and the
 * like) and the key each is shown with: the screens translate by this table, never show the
 * server's English. Bounds (`at least 1`, `at most 40 characters`) are matched by pattern.
 */
const INVOICE_FIELD_MESSAGE_KEYS: Record<string, string> = {
  [NIP_MESSAGES.format]: 'invoices:fieldErrors.nipFormat',
  [NIP_MESSAGES.checksum]: 'invoices:fieldErrors.nipChecksum',
  [TAX_ID_FORMAT_MESSAGE]: 'invoices:fieldErrors.taxIdFormat',
  [IBAN_MESSAGES.format]: 'invoices:fieldErrors.ibanFormat',
  [IBAN_MESSAGES.checksum]: 'invoices:fieldErrors.ibanChecksum',
  'a two-letter country code (PL, DE, …)': 'invoices:fieldErrors.country',
  'a three-letter currency code': 'invoices:fieldErrors.currency',
  'add at least one line': 'invoices:fieldErrors.noLines',
  'reverse charge needs the buyer\u2019s tax id': 'invoices:fieldErrors.reverseChargeTaxId',
  'reverse charge applies to the whole invoice': 'invoices:fieldErrors.reverseChargeWhole',
  [EXEMPTION_BASIS_REQUIRED]: 'invoices:fieldErrors.exemptionBasisRequired',
  [REVERSE_CHARGE_MESSAGES.domestic]: 'invoices:fieldErrors.reverseChargeDomestic',
  [REVERSE_CHARGE_MESSAGES.goods]: 'invoices:fieldErrors.reverseChargeGoods',
  'an invoice in another currency needs the NBP rate': 'invoices:fieldErrors.exchangeRateNeeded',
  'złoty per unit with up to four decimals, e.g. 4.2512': 'invoices:fieldErrors.exchangeRate',
  'a quantity with at most three decimals': 'invoices:fieldErrors.quantity',
  'a rate in basis points, 0 to 9999': 'invoices:fieldErrors.vatRate',
  'invalid date (YYYY-MM-DD)': 'invoices:fieldErrors.date',
  'a number is required': 'invoices:fieldErrors.number',
  'a whole number': 'invoices:fieldErrors.wholeNumber',
};

export function translateInvoiceMessage(message: string, t: Translate): string {
  const key = INVOICE_FIELD_MESSAGE_KEYS[message];
  if (key) return t(key);
  const bound = /^at (least|most) (\d+)( characters)?$/.exec(message);
  if (bound)
    return t(`invoices:fieldErrors.${bound[1] === 'least' ? 'min' : 'max'}${bound[3] ? 'Length' : ''}`, {
      count: Number(bound[2]),
    });
  return message;
}

/** `toFormErrors` for the invoice forms: the §8 rules, then the invoice messages in the UI's language. */
export function invoiceFormErrors(
  error: unknown,
  t: Translate,
  options: { unexpected?: 'withCode' | 'savingSettings' } = {},
): FormErrors {
  const errors = toFormErrors(error, t, { messagesByKey: INVOICE_ERROR_KEYS, ...options });
  return {
    fields: Object.fromEntries(
      Object.entries(errors.fields).map(([path, message]) => [path, translateInvoiceMessage(message, t)]),
    ),
    form: errors.form.map((message) => translateInvoiceMessage(message, t)),
  };
}

/** What the NIP check says about a refused NIP, in the UI's language (format or check digit). */
export function nipCheckFailure(error: unknown, t: Translate): string {
  const message =
    error instanceof ApiError
      ? // A query's field is reported under `query.` (the part of the request it came in).
        (error.fields['query.taxIdentificationNumber'] ?? error.fields.taxIdentificationNumber)?.find(
          (m) => typeof m === 'string',
        )
      : undefined;
  return message
    ? translateInvoiceMessage(message, t)
    : t('common:errors.generalWithCode', { code: errorCodeLabel(error) });
}

const NO_ERRORS: FormErrors = { fields: {}, form: [] };

/**
 * A form's server errors, kept as the failure and translated on every render: switching the
 * language after a refused submit shows the same errors in the new language.
 */
export function useInvoiceFormErrors(
  options: { unexpected?: 'withCode' | 'savingSettings' } = {},
): [FormErrors, (failure: unknown) => void] {
  const { t } = useTranslation('invoices');
  const [failure, setFailure] = useState<unknown>(null);
  return [failure === null ? NO_ERRORS : invoiceFormErrors(failure, t, options), setFailure];
}
